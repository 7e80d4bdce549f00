/* The plan tab: the cheapest (or fastest) configurations that fit, within the deadline,
 * the budget and the GPU types given, as a chart of cost against time and a table. The
 * search runs in a worker (trainsize-worker.js) so that the page stays responsive; a page
 * opened from file://, which cannot start one, searches on its own thread. */
'use strict';

const PLAN_TOP = 100; /* candidates drawn; the table shows the first PLAN_ROWS */
const PLAN_ROWS = 10;
let planner = null;   /* the worker's API, or null: the page's own module */
let planSeq = 0;      /* the latest search: an older answer is dropped */

function startPlanner() {
  if (location.protocol === 'file:' || typeof Worker !== 'function') return;
  try {
    planner = trainsize.createTrainsizeWorker();
  } catch (e) {
    planner = null;
  }
}

/* The search, on the worker when there is one, else here after the status is painted;
 * onProgress({ done, total, examined }) as it goes (on this thread the page paints only at
 * its end). */
function runPlan(ts, options, onProgress) {
  if (planner) {
    return planner.plan(options, onProgress).catch((e) => {
      if (e && e.option !== undefined && !/worker/.test(e.message)) throw e;
      planner = null; /* the worker could not start (a policy, a missing file): search here */
      return runPlan(ts, options, onProgress);
    });
  }
  return new Promise((resolve, reject) => setTimeout(() => {
    try { resolve(ts.plan(options, onProgress)); } catch (e) { reject(e); }
  }, 0));
}

/* The bar and the status line while search `seq` runs (an older search's reports are
 * dropped); hidden when none does. */
function showProgress(seq, p) {
  const bar = $('plan-progress');
  if (seq !== planSeq) return;
  if (!p) {
    bar.hidden = true;
    return;
  }
  bar.hidden = false;
  bar.value = p.total > 0 ? p.done / p.total : 0;
  if (p.total > 0) document.body.dataset.planProgress = `${p.done}/${p.total}`; /* for tests */
  $('plan-status').textContent = `Searching… ${num(p.done)} of ${num(p.total)} GPU counts, ` +
    `${num(p.examined)} configurations examined`;
}

/* A candidate's batch: its micro-batch, or the token budget the planner chose in its place,
 * and an RL job's rollout engines. */
function candidateBatch(c) {
  const batch = c.max_tokens_per_gpu ? `at most ${num(c.max_tokens_per_gpu)} tokens a GPU` : String(c.micro_batch);
  if (!c.rollout_tp) return batch;
  const own = c.rollout_gpus ? ` on ${num(c.rollout_gpus)} GPUs of their own` : '';
  return `${batch}; rollout tp ${c.rollout_tp}, ${c.rollout}${own}`;
}

function candidateLabel(c) {
  return `${c.gpus} x ${c.gpu} (tp ${c.tp}, pp ${c.pp}, ZeRO ${c.zero}, micro-batch ${candidateBatch(c)}): ` +
    `${duration(c.seconds)}, ${usd(c.cost || 0)}`;
}

/* The layout a link or the vendor's job gave beyond the form's fields, which the planner
 * chooses itself: named, not dropped unsaid. */
function leftToPlanner(limits) {
  const left = (limits.left || []).map(([k, v]) => `${k} ${shown(v, 40)}`);
  return left.length ? ` The planner chooses the layout itself; not used: ${left.join(', ')}.` : '';
}

function renderPlan(p, limits) {
  const status = $('plan-status');
  const chart = $('plan-chart');
  const table = $('candidates');
  chart.textContent = '';
  table.textContent = '';
  if (!p.candidates.length) {
    status.textContent = `Nothing fits within these limits (${num(p.evaluated)} configurations examined): ` +
      'give a later deadline, a larger budget or more GPU types.' + leftToPlanner(limits);
    return;
  }
  const priced = p.candidates.filter((c) => c.cost > 0);
  status.textContent = `${num(p.evaluated)} configurations examined; the ${p.candidates.length} best ranked by ` +
    `${p.objective === 'time' ? 'time' : p.objective === 'owned' ? 'the cost of owning' : 'cloud cost'}` +
    (limits.days > 0 ? `, within ${num(limits.days)} days` : '') + (limits.budget > 0 ? `, within ${usd(limits.budget)}` : '') + '.' +
    leftToPlanner(limits);
  let front = [];
  if (priced.length) {
    const points = priced.map((c) => ({ x: c.seconds / 86400, y: c.cost, label: candidateLabel(c), c }));
    front = planChart(chart, points, limits).map((q) => q.c);
  } else {
    chart.appendChild(element('p', 'note', 'no cost axis: the catalogue has no cloud price for these GPUs'));
  }
  const head = table.insertRow();
  for (const h of ['GPU', 'GPUs', 'servers', 'tp', 'pp', 'ZeRO', 'micro-batch', 'peak', 'time', 'cloud cost', '']) {
    head.appendChild(document.createElement('th')).textContent = h;
  }
  for (const c of p.candidates.slice(0, PLAN_ROWS)) {
    const tr = table.insertRow();
    for (const v of [c.gpu, c.gpus, c.nodes, c.tp, c.pp, c.zero, candidateBatch(c), gib(c.peak_total),
      duration(c.seconds), usd(c.cost || 0), front.includes(c) ? 'on the front' : '']) tr.insertCell().textContent = String(v);
    if (front.includes(c)) tr.className = 'front';
  }
}

/* The plan tab for these options (null: no tokens, nothing to search). */
function updatePlan(ts, options, limits) {
  const seq = ++planSeq;
  $('plan-chart').textContent = '';
  $('candidates').textContent = '';
  if (!options) {
    showProgress(seq, null); /* an older search's bar, whose answer will be dropped */
    document.body.dataset.planProgress = '';
    $('plan-status').textContent = 'Set tokens (the run\'s size, e.g. 2e12 or 300B) above to rank configurations.';
    return Promise.resolve();
  }
  $('plan-status').textContent = 'Searching…';
  document.body.dataset.planned = '';
  document.body.dataset.planProgress = '';
  $('plan-progress').value = 0;
  $('plan-progress').hidden = false;
  return runPlan(ts, options, (p) => showProgress(seq, p)).then((p) => {
    if (seq !== planSeq) return;
    showProgress(seq, null);
    renderPlan(p, limits);
    document.body.dataset.planned = String(seq);
    document.body.dataset.plannedAt = String(Math.round(performance.now())); /* ms since the page opened */
  }, (e) => {
    if (seq !== planSeq) return;
    showProgress(seq, null);
    if (e.name !== 'TrainsizeError') throw e;
    $('plan-status').textContent = '';
    showError(e, $('plan-status'));
    document.body.dataset.planned = String(seq);
  });
}
