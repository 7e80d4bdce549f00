/* The configurator page: the form's fields are the command's options (names as in
 * `trainsize estimate --help`), the URL's query holds them so that a configuration can be
 * shared as a link, and every figure comes from libtrainsize in WebAssembly
 * (trainsize.js): the same JSON as `trainsize estimate --json`. A vendor's
 * configurator.json (vendor.js) sets the title, the GPUs offered, the default job, prices
 * and a contact link. */
'use strict';

const form = document.getElementById('job');
/* What the planner chooses itself (what `trainsize plan` refuses), and the plan's own options. */
const LAYOUT = ['gpus', 'tp', 'pp', 'pp-interleave', 'ep', 'zero', 'micro-batch', 'recompute', 'gpu', 'gpu-memory'];
const PLAN_ONLY = ['deadline-days', 'budget', 'objective', 'plan-gpus'];
/* The buy-or-rent inputs whose default the page writes out. */
const OWNING = ['utilization', 'colo-usd-per-kw-month', 'amortization-years'];
/* Options of a job the page has no field for (a link, or advice applied), kept as given. */
let extra = Object.create(null);
let ts;
let tab = 'estimate';
let gpuInfo = {};
let params = Object.create(null); /* no inherited names: a link's "?__proto__=" is no option */
let warningText = {};
let vendor = { title: '', intro: '', gpus: [], job: null, prices: '', contact: null, calibration: null };

/* The form's field of that name, or null (form.elements also answers "length", "item"...). */
const fieldOf = (name) => {
  const el = form.elements.namedItem(name);
  return el instanceof Element ? el : null;
};

/* A parameter's default as the catalogue gives it ('' when it depends on the job). */
const defaultOf = (name) => (params[name] ? params[name].default : '');

/* Fill a select: the choices, and first an empty entry that says what the default is. */
function fillSelect(select, values, emptyLabel) {
  select.textContent = '';
  if (emptyLabel !== null) select.appendChild(new Option(emptyLabel, ''));
  for (const v of values) select.appendChild(new Option(v, v));
}

function defaultLabel(name, value) {
  return value === '' || value === undefined ? 'default (the job\'s)' : `default (${value})`;
}

function setupFields() {
  for (const el of form.elements) {
    const p = params[el.name];
    if (!el.name || el.name === 'model' || el.name === 'gpu' || el.name === 'hf-config') continue;
    if (el.tagName === 'SELECT') {
      const values = p && p.kind === 'bool' ? ['true', 'false']
        : p && p.kind === 'int' ? Array.from({ length: p.max - p.min + 1 }, (_, i) => String(p.min + i))
          : p ? p.choices : [];
      fillSelect(el, values, defaultLabel(el.name, defaultOf(el.name)));
    } else if (!el.placeholder) {
      el.placeholder = defaultOf(el.name) !== '' ? 'default: ' + defaultOf(el.name) : 'default: the job\'s';
    }
  }
  fillSelect(form.elements.model, ts.models().map((m) => m.name), 'choose a preset');
  const gpus = vendor.gpus.length ? vendor.gpus : Object.keys(gpuInfo);
  fillSelect(form.elements.gpu, gpus, vendor.gpus.length ? null : defaultLabel('gpu', defaultOf('gpu')));
  const checks = $('plan-gpus').querySelector('.checks');
  for (const g of gpus) {
    const label = element('label', 'check');
    const box = element('input');
    box.type = 'checkbox';
    box.value = g;
    box.dataset.planGpu = '1';
    label.appendChild(box);
    label.appendChild(document.createTextNode(' ' + g));
    checks.appendChild(label);
  }
}

/* The values the job's own estimate used, shown in the fields left empty. */
function showEffective(r) {
  const l = r.layout;
  const used = { gpus: l.gpus, tp: l.tp, pp: l.pp, ep: l.ep, 'micro-batch': l.micro_batch,
    'global-batch': l.global_batch, zero: l.zero, recompute: l.recompute, method: l.method, gpu: l.gpu };
  for (const [name, v] of Object.entries(used)) {
    const el = fieldOf(name);
    if (!el) continue;
    if (el.tagName === 'SELECT') {
      if (el.options[0] && el.options[0].value === '') el.options[0].textContent = defaultLabel(name, String(v));
    } else {
      el.placeholder = 'default: ' + v;
    }
  }
}

function planGpus() {
  return [...document.querySelectorAll('input[data-plan-gpu]')].filter((b) => b.checked).map((b) => b.value);
}

/* The options the page sets: the form's fields that are not empty, the options kept from
 * a link, and the vendor's prices. */
function options(forPlan) {
  const o = {};
  for (const el of form.elements) {
    if (!el.name || el.value === '' || el.type === 'checkbox') continue;
    if (forPlan ? LAYOUT.includes(el.name) : PLAN_ONLY.includes(el.name)) continue;
    o[el.name] = el.value;
  }
  for (const [k, v] of Object.entries(extra)) if (!(forPlan && LAYOUT.includes(k)) && !(k in o)) o[k] = v;
  if (o['hf-config']) delete o.model; else delete o['hf-config'];
  if (vendor.prices && !o['gpu-prices']) o['gpu-prices'] = vendor.prices;
  if (vendor.calibration) o.calibration = vendor.calibration;
  if (forPlan) {
    const chosen = planGpus();
    if (chosen.length || vendor.gpus.length) o['plan-gpus'] = (chosen.length ? chosen : vendor.gpus).join(',');
    o.top = PLAN_TOP;
  }
  return o;
}

/* The URL keeps the configuration and the tab (not a pasted config.json, nor the vendor's
 * prices, which the page adds itself). */
function syncUrl() {
  const q = new URLSearchParams();
  if (tab === 'plan') q.set('tab', 'plan');
  for (const el of form.elements) {
    if (el.name && el.value !== '' && el.type !== 'checkbox' && el.name !== 'hf-config') q.set(el.name, el.value);
  }
  for (const [k, v] of Object.entries(extra)) if (!q.has(k)) q.set(k, v);
  if (planGpus().length) q.set('plan-gpus', planGpus().join(','));
  history.replaceState(null, '', '?' + q.toString());
}

/* Why the page leaves out a link's parameter ('' when it applies): a link a customer was
 * sent never changes what the vendor set (prices, calibration) without the page saying so. */
function linkIgnores(k, v) {
  if (!params[k] && !fieldOf(k)) return 'not an option of this page';
  const c = unshown(k === 'hf-config' ? v.replace(/[\t\n\r]/g, '') : v);
  if (c) return `it contains ${c}`;
  if (k === 'gpu-prices') return vendor.prices ? 'the vendor\'s prices apply' : 'prices are not taken from a link';
  if (k === 'largest-fit') return 'the page sets it';
  if (vendor.calibration && calibratedBy(vendor.calibration).includes(k)) return 'the vendor\'s calibration sets it';
  return '';
}

/* The link's settings that apply, in its order (a parameter given twice: the last, as the
 * command takes it); every other parameter is named in `notes`, never dropped unsaid. */
function linkSettings(q, notes) {
  const name = (k) => shown(k, 60) || '(no name)';
  const settings = [];
  for (const k of new Set(q.keys())) {
    const all = q.getAll(k);
    const v = all[all.length - 1];
    const why = k === 'tab' ? (v === 'plan' || v === 'estimate' ? '' : 'expected estimate or plan') : linkIgnores(k, v);
    if (why) {
      notes.push(`link: ${name(k)}=${shown(v, 60)} ignored: ${why}`);
      continue;
    }
    if (all.length > 1) notes.push(`link: ${name(k)} given ${all.length} times; the last, ${shown(v, 60)}, applies`);
    if (k === 'tab') tab = v;
    else settings.push([k, v]);
  }
  /* a pasted config.json is the model (options() leaves the preset out) */
  const model = settings.findIndex(([k]) => k === 'model');
  if (model >= 0 && settings.some(([k, v]) => k === 'hf-config' && v !== '')) {
    notes.push(`link: model=${shown(settings[model][1], 60)} ignored: the link's config.json (hf-config) is the model`);
    settings.splice(model, 1);
  }
  return settings;
}

/* The plan's GPU types: the boxes of those offered; a name not offered is named. */
function checkPlanGpus(v, note) {
  const names = v.split(',');
  const boxes = [...document.querySelectorAll('input[data-plan-gpu]')];
  boxes.forEach((b) => { b.checked = names.includes(b.value); });
  const missing = names.filter((n) => !boxes.some((b) => b.value === n));
  if (missing.length) note('plan-gpus', `${missing.map((n) => '"' + shown(n, 40) + '"').join(', ')} not offered here, ignored`);
}

/* Settings into the form: a field takes its value; what no field shows as given (a choice
 * not offered here, text a number field does not take, such as "+4") is kept as given and
 * still sized, so that the library names it if it is wrong. */
function applySettings(entries, note) {
  for (const [k, v] of entries) {
    if (k === 'plan-gpus') {
      checkPlanGpus(v, note);
      continue;
    }
    const el = fieldOf(k);
    if (el) el.value = v;
    if (!el || (el.value !== v && el.tagName !== 'TEXTAREA')) extra[k] = v;
  }
}

/* The form from a link (?model=...&gpus=...), else the vendor's default job, else the
 * command's own example job (what `trainsize` with no arguments sizes). `vendorNote(key,
 * why)` names what of the vendor's job cannot apply; returns the link's notes. */
function loadJob(vendorNote) {
  const notes = [];
  const link = linkSettings(new URLSearchParams(location.search), notes);
  if (link.length) applySettings(link, (k, why) => notes.push(`link: ${k}: ${why}`));
  else if (vendor.job) applySettings(vendor.job, vendorNote);
  else applySettings(Object.entries(ts.exampleJob()), vendorNote);
  return notes;
}

function showError(e, where) {
  const box = where || $('error');
  box.hidden = false;
  box.classList.add('error');
  box.textContent = e.message;
  box.dataset.option = e.option || '';
}

/* ---- the estimate ---- */

/* Advice in words: each change the library found, as a buyer would say it. */
const CHANGE_WORDS = {
  recompute: (v) => (v === 'none' ? 'no activation recomputation' : `${v} activation recomputation`),
  'micro-batch': (v) => `a micro-batch of ${v}`,
  attention: (v) => `${v} attention kernels`,
  zero: (v) => `ZeRO stage ${v} (${['nothing sharded', 'optimizer state sharded', 'optimizer state and gradients sharded',
    'optimizer state, gradients and weights sharded'][v] || 'sharded'} across the data-parallel GPUs)`,
  tp: (v) => `tensor parallelism over ${v} GPUs`,
  offload: (v) => (v === 'optimizer' ? 'the optimizer state in CPU memory (ZeRO-Offload)'
    : v === 'optimizer+params' ? 'the optimizer state and the weights in CPU memory (ZeRO-Infinity)' : 'no CPU offload'),
  gpus: (v) => `${num(v)} GPUs`,
  'lora-rank': (v) => `LoRA adapters of rank ${v} in place of full fine-tuning`,
  'quantize-base': (v) => `the frozen base quantized to ${v} (QLoRA)`,
  'global-batch': (v) => `a global batch of ${num(v)} samples`,
};

function adviceWords(a) {
  const parts = Object.entries(a.set).map(([k, v]) => (CHANGE_WORDS[k] ? CHANGE_WORDS[k](v) : `${k} ${v}`));
  const list = parts.length > 1 ? parts.slice(0, -1).join(', ') + ' and ' + parts[parts.length - 1] : parts[0];
  return `With ${list}: ${gib(a.peak_total)} of ${gib(a.gpu_capacity)} per GPU, ${duration(a.step_seconds)} a step.`;
}

/* Settings into the form ({option: value}), then the page for them: a field takes its
 * value, what no field holds as given is kept as given (advice applied, a job loaded). */
function applyChanges(set) {
  for (const [k, v] of Object.entries(set)) {
    const el = fieldOf(k);
    if (el) {
      el.value = v;
      if (el.value !== v) extra[k] = v;
      else delete extra[k];
    } else {
      extra[k] = v;
    }
  }
  update();
}

function renderAdvice(r) {
  const list = $('advice');
  list.textContent = '';
  $('advice-box').hidden = r.advice.length === 0;
  for (const a of r.advice) {
    const li = element('li', '', adviceWords(a) + ' ');
    const button = element('button', 'apply', 'Apply');
    button.type = 'button';
    button.addEventListener('click', () => applyChanges(a.set));
    li.appendChild(button);
    list.appendChild(li);
  }
}

function renderWarnings(r) {
  const list = $('warnings');
  list.textContent = '';
  for (const name of r.warnings) {
    if (name === 'does-not-fit') continue; /* the verdict says it */
    const li = element('li', 'note warn', warningText[name] || name);
    li.dataset.warning = name;
    list.appendChild(li);
  }
}

function renderMemory(m, u) {
  const bars = $('bars');
  bars.textContent = '';
  /* what the method's extra models and a vision tower hold, beside the weights they are part of */
  const parts = [['of which reference model', 'reference_weights'], ['of which teacher model', 'teacher_weights'],
    ['of which vision tower', 'vision_weights'], ['critic (all its state)', 'critic_state'],
    ['rollout engine weights', 'rollout_weights'], ['rollout KV cache', 'rollout_kv_cache']];
  const rows = [];
  for (const [name, key] of [['weights', 'weights'], ...parts, ['gradients', 'gradients'],
    ['optimizer state', 'optimizer'], ['activations', 'activations'], ['transient', 'transient'],
    ['overhead', 'overhead'], ['peak total', 'peak_total']]) {
    if (parts.some(([, k]) => k === key) && !m[key]) continue;
    rows.push([name, m[key], key === 'peak_total' ? 'peak' : parts.some(([, k]) => k === key) ? 'part' : '']);
  }
  // the peak's likely range, a whisker across its bar (the same figures as the likely line)
  rows[rows.length - 1].push([m.peak_total * u.memory_low, m.peak_total * u.memory_high]);
  memoryChart(bars, rows, m.gpu_capacity);
  bars.appendChild(element('p', 'note', `The parts are not all held at once: the peak comes at the ${m.peak_phase} ` +
    'phase, and it is what must fit.'));
}

function renderSystem(s) {
  const table = $('system');
  table.textContent = '';
  row(table, 'servers', `${s.nodes} x ${s.gpus_per_node} GPUs`);
  row(table, 'host RAM per server', `${gib(s.host_ram_per_node)} (the job needs ${gib(s.host_ram_need_per_node)})`);
  row(table, 'CPU cores per server', String(s.cpu_cores_per_node));
  row(table, 'network', s.network_link ? `${s.network_nics_per_node} x ${s.network_link} per server`
    : s.nodes > 1 ? 'none: the scale-up fabric joins the servers' : 'none needed (one server)');
  row(table, 'storage', s.storage_class);
  row(table, 'power, all servers', kw(s.power_watts));
}

/* Time and cost: the run's, or, with no token count, a question for it (one step is not a
 * run, and a cost of $0 is no answer). */
function renderTime(r, needsTokens) {
  const t = r.time, s = r.system;
  const table = $('time');
  table.textContent = '';
  const ask = $('needs-tokens');
  ask.hidden = !needsTokens;
  ask.textContent = '';
  if (needsTokens) {
    ask.appendChild(document.createTextNode('How long will it train, and what will it cost? Give the run\'s size in tokens ' +
      '(e.g. 2e12, 300B) '));
    const b = element('button', '', 'Set tokens');
    b.type = 'button';
    b.addEventListener('click', () => form.elements.tokens.focus());
    ask.appendChild(b);
    row(table, 'one optimizer step', `${duration(t.step_seconds)} (${num(r.layout.global_batch)} samples)`);
    row(table, 'likely', likelyTime(t, r.uncertainty, true)).title = howSure(r.uncertainty);
    return;
  }
  // The run's time is the wall time: failures, restarts and checkpoint stalls included.
  row(table, 'time', runTime(t.wall_seconds) +
    ` (wall time; ${t.gpu_hours >= 10 ? num(Math.round(t.gpu_hours)) : Number(t.gpu_hours.toPrecision(2))} GPU-hours)`);
  // the range the true time is likely in, beside it (the basis: under the verdict, and on hover)
  row(table, 'likely', likelyTime(t, r.uncertainty, false)).title = howSure(r.uncertainty);
  row(table, 'failure-free time', runTime(t.seconds) + ' on a cluster that never fails');
  row(table, 'interruptions', t.expected_interruptions > 0
    ? `${Number(t.expected_interruptions.toPrecision(3))} expected` : 'none expected');
  row(table, 'checkpoints', t.checkpoint_interval > 0
    ? `every ${duration(t.checkpoint_interval)}, stalling ${duration(t.checkpoint_stall)}`
    : 'none inside the run (shorter than the optimum interval)');
  row(table, 'goodput', (100 * t.goodput).toFixed(1) + ' %');
  row(table, 'cloud cost', s.cost_cloud_usd > 0 ? usd(s.cost_cloud_usd) : 'no cloud price for this GPU');
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
  const cell = row(table, 'fullest rack', '').cells[1];
  if (!s.rack_power_watts) {
    cell.textContent = 'power unknown: the accelerator\'s power is not published';
  } else if (s.cooling === 'liquid') {
    cell.appendChild(document.createTextNode(kw(s.rack_power_watts) + ', '));
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

function renderBuyOrRent(s, needsTokens) {
  const priced = s.capex_usd > 0 && s.cloud_usd_per_month > 0;
  $('no-prices').hidden = priced;
  $('no-prices').textContent = priced ? '' : 'no comparison: the catalogue has no cloud or purchase price ' +
    'for this GPU (the command\'s --gpu-prices sets them)';
  $('buy-rent').hidden = !priced;
  $('breakeven').hidden = !priced;
  if (!priced) return;
  const use = Number(form.elements.utilization.value || defaultOf('utilization'));
  const thisRun = (v) => (needsTokens ? 'set tokens to see' : usd(v));
  const cloud = $('cloud').querySelector('table');
  cloud.textContent = '';
  row(cloud, 'up front', 'nothing');
  row(cloud, 'per month', usd(s.cloud_usd_per_month) +
    (use ? ` (the busy hours: ${(100 * use).toFixed(0)} % of the year)` : ' (the busy hours)'));
  row(cloud, 'this run', thisRun(s.cost_cloud_usd));
  const owned = $('owned').querySelector('table');
  owned.textContent = '';
  row(owned, 'up front', usd(s.capex_usd));
  for (const [name, v] of [['servers', s.capex_servers_usd], ['network', s.capex_network_usd],
    ['shared storage', s.capex_storage_usd]]) {
    row(owned, name, usd(v)).className = 'part';
  }
  row(owned, 'per month', usd(s.own_usd_per_month) + ' (facility, power, support)');
  row(owned, 'this run', thisRun(s.cost_own_usd));
  const life = Number(defaultOf('amortization-years'));
  $('breakeven').textContent = s.breakeven_months > 0
    ? `break-even: owning pays off after ${s.breakeven_months.toFixed(1)} months` +
      (life ? (s.breakeven_months > 12 * life ? ', beyond the hardware\'s life' : ', within the hardware\'s life') : '')
    : 'break-even: never, renting stays cheaper (it costs less a month than running owned servers)';
}

function renderEstimate(r, o) {
  const m = r.memory;
  const needsTokens = !o.tokens;
  const verdict = $('verdict');
  const warned = r.warnings.some((w) => w !== 'does-not-fit');
  verdict.textContent = !m.fits ? 'DOES NOT FIT' : warned ? 'FITS, WITH WARNINGS' : 'FITS';
  verdict.className = !m.fits ? 'no-fit' : warned ? 'fits-warn' : 'fits';
  verdict.dataset.peakTotal = String(m.peak_total);
  $('summary').textContent = `${r.model.name}: peak ${gib(m.peak_total)} of ${gib(m.gpu_capacity)} per GPU on ` +
    `${r.layout.gpus} x ${r.layout.gpu}` + (r.layout.calibration ? ` (calibrated: ${r.layout.calibration})` : '');
  // how sure: the range the true peak is likely in, and the runs that set it (time's too)
  $('likely-peak').textContent = 'likely peak total: ' + likelyPeak(m, r.uncertainty);
  $('how-sure').textContent = 'how sure: ' + howSure(r.uncertainty);
  renderWarnings(r);
  renderAdvice(r);
  renderLargest(m);
  renderMemory(m, r.uncertainty);
  renderSystem(r.system);
  renderTime(r, needsTokens);
  renderFacility(r);
  renderBuyOrRent(r.system, needsTokens);
  renderSummary(r, o, vendor, needsTokens);
  showEffective(r);
}

/* ---- the page ---- */

function update() {
  syncUrl();
  $('error').hidden = true;
  $('result').hidden = false;
  if (tab === 'estimate') {
    const o = options(false);
    try {
      renderEstimate(ts.estimate(Object.assign({}, o, { 'largest-fit': true })), o);
    } catch (e) {
      if (e.name !== 'TrainsizeError') throw e;
      $('result').hidden = true; /* no verdict of an older configuration beside the message */
      showError(e);
    }
    renderCapacity(ts, o);
  } else {
    const o = options(true);
    const limits = { days: Number(o['deadline-days']) || 0, budget: Number(o.budget) || 0,
      left: Object.entries(extra).filter(([k]) => LAYOUT.includes(k)) };
    updatePlan(ts, o.tokens || o['plan-gpu-count'] ? o : null, limits);
  }
}

function select(which) {
  tab = which;
  $('estimate').hidden = which !== 'estimate';
  $('plan').hidden = which !== 'plan';
  $('tab-estimate').classList.toggle('active', which === 'estimate');
  $('tab-plan').classList.toggle('active', which === 'plan');
  /* the layout the planner chooses itself, dimmed while it does */
  for (const name of LAYOUT) {
    const el = fieldOf(name);
    if (el && el.closest('label')) el.closest('label').classList.toggle('planner-chooses', which === 'plan');
  }
  update();
}

Promise.all([trainsize.createTrainsize(), fetchVendorConfig()]).then(([instance, loaded]) => {
  ts = instance;
  for (const p of ts.params()) params[p.name] = p;
  warningText = ts.warnings();
  for (const g of ts.gpus()) gpuInfo[g.name] = g;
  const errors = loaded.errors.slice();
  vendor = checkVendorConfig(loaded.config, ts, Object.keys(gpuInfo), errors, loaded.source);
  applyVendorText(vendor);
  setupFields();
  for (const name of OWNING) {
    if (fieldOf(name) && defaultOf(name)) fieldOf(name).placeholder = defaultOf(name);
  }
  const notes = loadJob((key, why) => errors.push(`${loaded.source}: job: ${key}: ${why}`));
  // The vendor's mistakes, and what of the link the page leaves out: one line each.
  for (const [id, lines] of [['config-error', errors], ['link-note', notes]]) {
    $(id).hidden = !lines.length;
    $(id).textContent = lines.join('\n');
  }
  $('version').textContent = 'libtrainsize ' + ts.version + ' (WebAssembly)' + (vendor.prices ? '; prices: the vendor\'s' : '') +
    (vendor.calibration ? '; calibrated on the vendor\'s measured runs' : '');
  startPlanner();
  // The form's fields, those outside it (form="job") too, and the plan's GPU types.
  document.addEventListener('change', (e) => {
    if (e.target.form === form) delete extra[e.target.name]; /* the field's value now, not the link's */
    if (e.target.form === form || e.target.dataset.planGpu) update();
  });
  $('tab-estimate').addEventListener('click', () => select('estimate'));
  $('tab-plan').addEventListener('click', () => select('plan'));
  $('print').addEventListener('click', () => { if (tab !== 'estimate') select('estimate'); window.print(); });
  select(tab);
  document.body.dataset.ready = '1';
});
