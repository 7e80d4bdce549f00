/* The configurator page: the form's fields are the command's options (names as in
 * `trainsize estimate --help`), the URL's query holds them so that a configuration can be
 * shared as a link, and every figure comes from libtrainsize in WebAssembly
 * (trainsize.js): the same JSON as `trainsize estimate --json`. */
'use strict';

const CHOICES = { // the command's choice lists, as `trainsize estimate --help` gives them
  precision: ['fp32', 'bf16-mixed', 'fp16-mixed', 'bf16', 'fp16', 'fp8-mixed'],
  optimizer: ['adamw', 'adam', 'sgd', 'sgd-momentum', 'adafactor', 'adamw-8bit', 'lion'],
  recompute: ['none', 'selective', 'full', 'per-op'],
  'quantize-base': ['none', 'nf4', 'int8'],
};
const GIB = 1024 * 1024 * 1024;
const LAYOUT = ['gpus', 'tp', 'pp', 'ep', 'zero', 'micro-batch', 'recompute', 'gpu'];

const form = document.getElementById('job');
const $ = (id) => document.getElementById(id);
const gib = (b) => (b / GIB).toFixed(2) + ' GiB';
const text = (s) => document.createTextNode(s);

function fillSelect(select, values, labels) {
  select.appendChild(new Option('', ''));
  values.forEach((v, i) => select.appendChild(new Option(labels ? labels[i] : v, v)));
}

/* The options the form sets (empty fields: the command's defaults). */
function options(forPlan) {
  const o = {};
  for (const el of form.elements) {
    if (!el.name || el.value === '') continue;
    if (forPlan && LAYOUT.includes(el.name)) continue;
    o[el.name] = el.value;
  }
  if (o['hf-config']) delete o.model; else delete o['hf-config'];
  return o;
}

/* The URL keeps the configuration (not a pasted config.json). */
function syncUrl() {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(options(false))) if (k !== 'hf-config') q.set(k, v);
  history.replaceState(null, '', '?' + q.toString());
}

function row(table, name, value) {
  const tr = table.insertRow();
  tr.insertCell().appendChild(text(name));
  tr.insertCell().appendChild(text(value));
}

function bar(parent, name, bytes, capacity) {
  const div = document.createElement('div');
  div.className = 'bar';
  div.innerHTML = '<span class="name"></span><div class="track"><div class="fill"></div></div><span class="value"></span>';
  div.querySelector('.name').textContent = name;
  div.querySelector('.value').textContent = gib(bytes);
  const fill = div.querySelector('.fill');
  fill.style.width = Math.min(100, 100 * bytes / capacity) + '%';
  if (bytes > capacity) fill.classList.add('over');
  parent.appendChild(div);
}

function showError(e) {
  $('error').hidden = false;
  $('error').textContent = e.message;
  $('error').dataset.option = e.option || '';
}

function renderEstimate(r) {
  const m = r.memory, s = r.system, t = r.time;
  const verdict = $('verdict');
  verdict.textContent = m.fits ? 'FITS' : 'DOES NOT FIT';
  verdict.className = m.fits ? 'fits' : 'no-fit';
  verdict.dataset.peakTotal = String(m.peak_total);
  $('summary').textContent = `${r.model.name}: peak ${gib(m.peak_total)} of ${gib(m.gpu_capacity)} per GPU on ` +
    `${r.layout.gpus} x ${r.layout.gpu}`;
  const bars = $('bars');
  bars.textContent = '';
  for (const [name, key] of [['weights', 'weights'], ['gradients', 'gradients'], ['optimizer state', 'optimizer'],
    ['activations', 'activations'], ['transient', 'transient'], ['overhead', 'overhead'], ['peak total', 'peak_total']]) {
    bar(bars, name, m[key], m.gpu_capacity);
  }
  const advice = $('advice');
  advice.textContent = '';
  for (const a of r.advice) {
    const li = document.createElement('li');
    li.textContent = 'fits with ' + Object.entries(a.set).map(([k, v]) => `--${k} ${v}`).join(' ') +
      `: ${gib(a.peak_total)}`;
    advice.appendChild(li);
  }
  const table = $('system');
  table.textContent = '';
  row(table, 'servers', `${s.nodes} x ${s.gpus_per_node} GPUs`);
  row(table, 'host RAM per server', `${gib(s.host_ram_per_node)} (the job needs ${gib(s.host_ram_need_per_node)})`);
  row(table, 'CPU cores per server', String(s.cpu_cores_per_node));
  row(table, 'network', s.network_link ? `${s.network_nics_per_node} x ${s.network_link} per server`
    : s.nodes > 1 ? 'none: the scale-up fabric joins the servers' : 'none needed (one server)');
  row(table, 'storage', s.storage_class);
  row(table, 'power', (s.power_watts / 1000).toFixed(1) + ' kW');
  row(table, 'time', t.seconds < 86400 ? t.seconds.toFixed(1) + ' s' : (t.seconds / 86400).toFixed(1) + ' days');
  row(table, 'cloud cost', '$' + s.cost_cloud_usd.toFixed(2));
}

function renderPlan(p) {
  const table = $('candidates');
  table.textContent = '';
  const head = table.insertRow();
  for (const h of ['GPU', 'GPUs', 'tp', 'pp', 'ZeRO', 'micro-batch', 'peak', 'days', 'cost']) {
    head.appendChild(document.createElement('th')).textContent = h;
  }
  for (const c of p.candidates) {
    const tr = table.insertRow();
    for (const v of [c.gpu, c.gpus, c.tp, c.pp, c.zero, c.micro_batch, gib(c.peak_total),
      (c.seconds / 86400).toFixed(1), '$' + (c.cost || 0).toFixed(0)]) tr.insertCell().textContent = String(v);
  }
}

let ts;
let tab = 'estimate';

function update() {
  syncUrl();
  $('error').hidden = true;
  try {
    if (tab === 'estimate') renderEstimate(ts.estimate(options(false)));
    else renderPlan(ts.plan(options(true)));
  } catch (e) {
    if (e.name !== 'TrainsizeError') throw e;
    showError(e);
  }
}

function select(which) {
  tab = which;
  $('estimate').hidden = which !== 'estimate';
  $('plan').hidden = which !== 'plan';
  $('tab-estimate').classList.toggle('active', which === 'estimate');
  $('tab-plan').classList.toggle('active', which === 'plan');
  update();
}

trainsize.createTrainsize().then((instance) => {
  ts = instance;
  fillSelect(form.elements.model, ts.models().map((m) => m.name));
  fillSelect(form.elements.gpu, ts.gpus().map((g) => g.name));
  for (const [name, values] of Object.entries(CHOICES)) fillSelect(form.elements[name], values);
  const q = new URLSearchParams(location.search);
  if (!q.has('model')) q.set('model', 'llama-2-7b');
  for (const [k, v] of q) if (form.elements[k]) form.elements[k].value = v;
  $('version').textContent = 'libtrainsize ' + ts.version + ' (WebAssembly)';
  form.addEventListener('change', update);
  $('tab-estimate').addEventListener('click', () => select('estimate'));
  $('tab-plan').addEventListener('click', () => select('plan'));
  update();
  document.body.dataset.ready = '1';
});
