/* "What this server can train": for the GPU and GPU count the form holds (and the job's
 * sequence, micro-batch, GPUs per server and host RAM when it sets them), the largest
 * catalogue model each way of training fits, as the library sizes it (`trainsize capacity
 * --json`, a few milliseconds in the module), each with the estimate options that give that
 * job and a button that loads it into the form. It stands apart from the estimate: a GPU or
 * count the library refuses shows its message in place of the table, and a job that fails
 * for another reason (an unknown preset) still shows what the server can train. */
'use strict';

/* The options of a job that capacity takes too. */
const CAPACITY_OPTIONS = ['gpu', 'gpus', 'gpus-per-node', 'seq', 'micro-batch', 'host-ram'];
let capacityKey = null; /* the options of the table shown: the same again is not sized again */

/* Capacity's options from the estimate's: the GPU and count the estimate uses (its
 * defaults, not capacity's own, when the form leaves them empty). */
function capacityOptions(o) {
  const c = {};
  for (const name of CAPACITY_OPTIONS) if (o[name] !== undefined) c[name] = o[name];
  if (c.gpu === undefined) c.gpu = defaultOf('gpu');
  if (c.gpus === undefined) c.gpus = defaultOf('gpus');
  return c;
}

/* The library's `args` ("--model x --gpu y --zero 3": an option and its value, each one
 * word) as {option: value}. */
function argsSettings(args) {
  const words = args.split(' ');
  const set = Object.create(null);
  for (let i = 0; i + 1 < words.length; i += 2) set[words[i].replace(/^--/, '')] = words[i + 1];
  return set;
}

/* That job, in full, in the form: every other setting of the job back to its default; the
 * run's size, the buy-or-rent inputs and the plan's limits stay (none changes what fits). */
function loadCapacityJob(args) {
  const keeps = ['tokens', ...OWNING, ...PLAN_ONLY];
  for (const el of form.elements) {
    if (el.name && el.type !== 'checkbox' && !keeps.includes(el.name)) el.value = '';
  }
  for (const k of Object.keys(extra)) if (!keeps.includes(k)) delete extra[k];
  applyChanges(argsSettings(args));
}

function renderCapacity(ts, o) {
  const c = capacityOptions(o);
  const key = JSON.stringify(c);
  if (key === capacityKey) return;
  capacityKey = key;
  const table = $('capacity');
  const about = $('capacity-about');
  table.textContent = '';
  about.textContent = '';
  $('capacity-error').hidden = true;
  let cap;
  try {
    cap = ts.capacity(c);
  } catch (e) {
    if (e.name !== 'TrainsizeError') throw e;
    showError(e, $('capacity-error'));
    return;
  }
  about.textContent = `The largest catalogue model each way of training fits on ${num(cap.gpus)} x ${cap.gpu} ` +
    `(sequence ${num(cap.seq)}, micro-batch ${num(cap.micro_batch)}), with what makes it fit: ZeRO-3, ` +
    'recomputation, tensor parallelism and, past pretraining, CPU offload. Load puts that job in the form.';
  const head = table.insertRow();
  for (const h of ['method', 'largest model', 'parameters', 'tokens/s', 'peak per GPU', '']) {
    head.appendChild(document.createElement('th')).textContent = h;
  }
  for (const m of cap.methods) {
    const tr = table.insertRow();
    tr.className = 'method';
    tr.dataset.method = m.method;
    const fits = m.model !== null;
    /* tokens/s whole, as the command's table writes them */
    for (const v of [m.method, fits ? m.model : 'none fits', fits ? shortCount(m.parameters) : '',
      fits ? num(Math.floor(m.tokens_per_s)) : '', fits ? gib(m.peak_total) : '']) tr.insertCell().textContent = v;
    const cell = tr.insertCell();
    if (!fits) continue;
    const button = element('button', 'load', 'Load');
    button.type = 'button';
    button.title = 'put this job in the form';
    button.addEventListener('click', () => loadCapacityJob(m.args));
    cell.appendChild(button);
    const args = table.insertRow();
    args.className = 'args';
    const line = args.insertCell();
    line.colSpan = 6;
    line.textContent = m.args;
  }
}
