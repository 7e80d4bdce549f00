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
  method: ['sft', 'dpo', 'grpo', 'ppo', 'distill'],
  'freeze-vision': ['true', 'false'],
};
const GIB = 1024 * 1024 * 1024;
const LAYOUT = ['gpus', 'tp', 'pp', 'ep', 'zero', 'micro-batch', 'recompute', 'gpu'];
/* Options whose default the page shows (placeholders, the buy-or-rent block), read from the
 * command's help so that they stay the command's. */
const SHOWN_DEFAULTS = ['utilization', 'colo-usd-per-kw-month', 'amortization-years'];

const form = document.getElementById('job');
const $ = (id) => document.getElementById(id);
const gib = (b) => (b / GIB).toFixed(2) + ' GiB';
const text = (s) => document.createTextNode(s);
const num = (n) => Number(n).toLocaleString('en-US');
const kw = (w) => (w / 1000).toFixed(1) + ' kW';
const plural = (n, one, many) => `${num(n)} ${n === 1 ? one : many || one + 's'}`;

/* Dollars as the command's report writes them: whole dollars with thousands separators,
 * cents below $100, two significant digits below $1. */
function usd(x) {
  if (x >= 100) return '$' + num(Math.round(x));
  if (x >= 1 || x === 0) return '$' + x.toFixed(2);
  return '$' + Number(x.toPrecision(2));
}

function duration(s) {
  if (s < 120) return s.toFixed(1) + ' s';
  if (s < 7200) return (s / 60).toFixed(1) + ' min';
  if (s < 172800) return (s / 3600).toFixed(1) + ' hours';
  return (s / 86400).toFixed(1) + ' days';
}

/* The run's time as the page has always shown it: seconds under a day, else days. */
const runTime = (s) => s < 86400 ? s.toFixed(1) + ' s' : (s / 86400).toFixed(1) + ' days';

/* "default X)" at the end of an option's entry in `trainsize estimate --help`. */
function helpDefaults(help, names) {
  const found = {};
  for (const name of names) {
    const at = help.indexOf('\n  --' + name + ' ');
    if (at < 0) continue;
    const end = help.indexOf('\n  --', at + 1);
    const entry = help.slice(at, end < 0 ? help.length : end).replace(/\s+/g, ' ');
    const all = [...entry.matchAll(/default ([^;()]+)\)/g)];
    if (all.length) found[name] = all[all.length - 1][1].trim();
  }
  return found;
}

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

/* A cell holding a warning-style note. */
function note(cell, message) {
  const span = document.createElement('span');
  span.className = 'note warn';
  span.textContent = message;
  cell.appendChild(span);
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
  /* what the method's extra models and a vision tower hold, beside the weights they are part of */
  const parts = [['of which reference model', 'reference_weights'], ['of which teacher model', 'teacher_weights'],
    ['of which vision tower', 'vision_weights'], ['critic (all its state)', 'critic_state'],
    ['rollout engine weights', 'rollout_weights'], ['rollout KV cache', 'rollout_kv_cache']];
  for (const [name, key] of [['weights', 'weights'], ...parts, ['gradients', 'gradients'],
    ['optimizer state', 'optimizer'], ['activations', 'activations'], ['transient', 'transient'],
    ['overhead', 'overhead'], ['peak total', 'peak_total']]) {
    if (parts.some(([, k]) => k === key) && !m[key]) continue;
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
  // The run's time is the wall time: failures, restarts and checkpoint stalls included.
  row(table, 'time', runTime(t.wall_seconds) +
    ` (wall time; ${t.gpu_hours >= 10 ? num(Math.round(t.gpu_hours)) : Number(t.gpu_hours.toPrecision(2))} GPU-hours)`);
  row(table, 'failure-free time', runTime(t.seconds) + ' on a cluster that never fails');
  row(table, 'interruptions', t.expected_interruptions > 0
    ? `${Number(t.expected_interruptions.toPrecision(3))} expected` : 'none expected');
  row(table, 'checkpoints', t.checkpoint_interval > 0
    ? `every ${duration(t.checkpoint_interval)}, stalling ${duration(t.checkpoint_stall)}`
    : 'none inside the run (shorter than the optimum interval)');
  row(table, 'goodput', (100 * t.goodput).toFixed(1) + ' %');
  row(table, 'cloud cost', '$' + s.cost_cloud_usd.toFixed(2));
  renderLargest(m);
  renderFacility(r);
  renderBuyOrRent(s);
}

function renderLargest(m) {
  $('largest').textContent = 'largest that fits: ' +
    (m.max_micro_batch ? 'micro-batch ' + num(m.max_micro_batch) : 'no micro-batch') +
    (m.max_seq ? ', sequence ' + num(m.max_seq) : ', no sequence') + ' (each with the rest as given)';
}

function renderFacility(r) {
  const s = r.system;
  const g = gpuInfo[r.layout.gpu];
  const nvl = g && g.kind === 'gpu' && g.scale_up_domain >= 72 && g.per_host > 0; // an NVL72 rack
  const table = $('facility');
  table.textContent = '';
  row(table, 'racks', `${plural(s.racks, 'rack')}, up to ${plural(s.servers_per_rack, nvl ? 'tray' : 'server')} a rack`);
  const tr = table.insertRow();
  tr.insertCell().textContent = 'fullest rack';
  const cell = tr.insertCell();
  if (!s.rack_power_watts) {
    cell.textContent = 'power unknown: the accelerator\'s power is not published';
  } else if (s.cooling === 'liquid') {
    cell.appendChild(text(kw(s.rack_power_watts) + ', '));
    note(cell, nvl ? 'liquid cooling: an NVL72 rack is liquid-cooled'
      : 'liquid cooling: above the air-cooled rack budget (rack-power-watts)');
  } else {
    cell.textContent = `${kw(s.rack_power_watts)}, ${s.cooling} cooling`;
  }
  row(table, 'power supplies', s.psus_per_server
    ? `${s.psus_per_server} x ${kw(s.psu_watts)}, ${s.psu_redundancy} (${nvl ? 'in the rack\'s power shelves' : 'per server'}; ` +
      `${s.psus_needed} carry the maximum load)`
    : 'unknown: the accelerator\'s power is not published');
  row(table, 'fabric', s.switches
    ? `${plural(s.switches, 'switch', 'switches')} in ${plural(s.switch_tiers, 'tier')}`
    : 'no scale-out switches (no traffic leaves the scale-up domain)');
}

function renderBuyOrRent(s) {
  const priced = s.capex_usd > 0 && s.cost_cloud_usd > 0;
  $('no-prices').hidden = priced;
  $('no-prices').textContent = priced ? '' : 'no comparison: the catalogue has no cloud or purchase price ' +
    'for this GPU (the command\'s --gpu-prices sets them)';
  $('buy-rent').hidden = !priced;
  $('breakeven').hidden = !priced;
  if (!priced) return;
  const use = Number(form.elements.utilization.value || defaults.utilization);
  const cloud = $('cloud').querySelector('table');
  cloud.textContent = '';
  row(cloud, 'up front', 'nothing');
  row(cloud, 'per month', usd(s.cloud_usd_per_month) +
    (use ? ` (the busy hours: ${(100 * use).toFixed(0)} % of the year)` : ' (the busy hours)'));
  row(cloud, 'this run', usd(s.cost_cloud_usd));
  const owned = $('owned').querySelector('table');
  owned.textContent = '';
  row(owned, 'up front', usd(s.capex_usd));
  for (const [name, v] of [['servers', s.capex_servers_usd], ['network', s.capex_network_usd],
    ['shared storage', s.capex_storage_usd]]) {
    row(owned, name, usd(v));
    owned.rows[owned.rows.length - 1].className = 'part';
  }
  row(owned, 'per month', usd(s.own_usd_per_month) + ' (facility, power, support)');
  row(owned, 'this run', usd(s.cost_own_usd));
  const life = Number(defaults['amortization-years']);
  $('breakeven').textContent = s.breakeven_months > 0
    ? `break-even: owning pays off after ${s.breakeven_months.toFixed(1)} months` +
      (life ? (s.breakeven_months > 12 * life ? ', beyond the hardware\'s life' : ', within the hardware\'s life') : '')
    : 'break-even: never, renting stays cheaper (it costs less a month than running owned servers)';
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
let gpuInfo = {};
let defaults = {};

function update() {
  syncUrl();
  $('error').hidden = true;
  try {
    if (tab === 'estimate') renderEstimate(ts.estimate(Object.assign(options(false), { 'largest-fit': true })));
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
  const gpus = ts.gpus();
  fillSelect(form.elements.gpu, gpus.map((g) => g.name));
  for (const g of gpus) gpuInfo[g.name] = g;
  defaults = helpDefaults(ts.help('estimate'), SHOWN_DEFAULTS);
  for (const name of SHOWN_DEFAULTS) {
    if (form.elements[name] && defaults[name]) form.elements[name].placeholder = defaults[name];
  }
  for (const [name, values] of Object.entries(CHOICES)) fillSelect(form.elements[name], values);
  const q = new URLSearchParams(location.search);
  if (!q.has('model')) q.set('model', 'llama-2-7b');
  for (const [k, v] of q) if (form.elements[k]) form.elements[k].value = v;
  $('version').textContent = 'libtrainsize ' + ts.version + ' (WebAssembly)';
  // The form's fields, those outside it (form="job") too.
  document.addEventListener('change', (e) => { if (e.target.form === form) update(); });
  $('tab-estimate').addEventListener('click', () => select('estimate'));
  $('tab-plan').addEventListener('click', () => select('plan'));
  update();
  document.body.dataset.ready = '1';
});
