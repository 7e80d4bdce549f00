/* The vendor's settings: an optional configurator.json beside index.html (or, for a page
 * opened from file://, which cannot fetch, a `window.TRAINSIZE_CONFIGURATOR` object set
 * by a script before app.js). Every key is optional:
 *
 *   { "title": "Acme GPU servers: what will your training need?",
 *     "intro": "One paragraph under the title.",
 *     "gpus": ["h100-80gb", "h200-141gb"],          the GPUs offered (catalogue names)
 *     "job": { "model": "llama-3-8b", "gpu": "h100-80gb", "gpus": 8, "tokens": "1e11" },
 *     "prices": { "h100-80gb": { "hourly": 2.2, "purchase": 28000 } },   US dollars
 *     "contact": { "text": "Ask Acme for a quote", "href": "mailto:sales@acme.example" },
 *     "calibration": { ... } }   what `trainsize calibrate` wrote from the vendor's own
 *                                measured runs: every estimate and plan uses it, and a
 *                                link cannot override what it sets
 *
 * A mistake in the file is shown on the page (for the vendor to see), naming the key, and
 * the rest of the file still applies: every key either applies or is named. */
'use strict';

const VENDOR_KEYS = ['title', 'intro', 'gpus', 'job', 'prices', 'contact', 'calibration'];
/* What a calibration sets (the library's trainsize_calibration_setting_at; test_page.py
 * checks this list against the command's): with the vendor's calibration, neither a link
 * nor the vendor's own job overrides these. */
const CALIBRATED = ['gemm-share', 'scale-up-efficiency', 'network-efficiency', 'step-overhead',
  'allocator-slack', 'sharded-slack'];
/* Options a vendor's job may not hold, as the page sets them from elsewhere. */
const JOB_ELSEWHERE = Object.assign(Object.create(null), {
  'gpu-prices': 'the "prices" key sets the prices',
  calibration: 'the "calibration" key sets it',
  'gpu-file': 'not taken by the page ("gpus" offers catalogue GPUs)',
  'largest-fit': 'the page sets it',
});
/* How deep the page copies a vendor's object (the library reads a calibration 32 deep). */
const VENDOR_DEPTH = 64;

async function fetchVendorConfig() {
  let given;
  try {
    given = window.TRAINSIZE_CONFIGURATOR;
  } catch (e) {
    return { config: {}, source: 'TRAINSIZE_CONFIGURATOR', errors: ['TRAINSIZE_CONFIGURATOR: reading it threw'] };
  }
  if (given !== undefined && given !== null) {
    const object = typeof given === 'object' && !Array.isArray(given);
    return { config: object ? given : {}, source: 'TRAINSIZE_CONFIGURATOR',
      errors: object ? [] : ['TRAINSIZE_CONFIGURATOR: expected an object'] };
  }
  const source = 'configurator.json';
  if (location.protocol === 'file:') return { config: {}, source, errors: [] };
  try {
    const r = await fetch('configurator.json', { cache: 'no-cache' });
    if (r.status === 404) return { config: {}, source, errors: [] };
    if (!r.ok) return { config: {}, source, errors: ['configurator.json: HTTP ' + r.status] };
    const config = JSON.parse(await r.text());
    if (typeof config !== 'object' || config === null || Array.isArray(config)) {
      return { config: {}, source, errors: ['configurator.json: expected an object'] };
    }
    return { config, source, errors: [] };
  } catch (e) {
    /* a JSON.parse message quotes the file, newlines and all */
    return { config: {}, source, errors: ['configurator.json: ' + shown(e.message, 300)] };
  }
}

/* A vendor's object as plain data, read once: what a script's object may hold (getters,
 * cycles, functions, bigints) becomes what JSON.parse would give, or a Mistake naming where
 * (a bigint within 2^53 - 1 becomes its number). The file's keys, and the members of its
 * job and prices, each apply on their own: one that fails is named by `bad` and left out;
 * deeper, the key fails whole (a calibration is taken whole or not at all). Objects have no
 * prototype, so that a "__proto__" key is a key. */
class Mistake extends Error {
  constructor(where, why) {
    super((where ? where + ': ' : '') + why);
    this.where = where;
    this.why = why;
  }
}
const ONE_BY_ONE = ['', 'job', 'prices'];
function plainValue(read, path, open, depth, bad) {
  const fail = (why) => { throw new Mistake(path, why); };
  let v;
  try {
    v = read();
  } catch (e) {
    fail(`reading it threw (${shown(e && e.message, 100)})`);
  }
  if (typeof v === 'bigint') {
    const safe = BigInt(Number.MAX_SAFE_INTEGER);
    if (v > safe || v < -safe) fail(`the bigint ${shown(v, 40)}n is beyond 2^53 - 1, so no number holds it exactly`);
    return Number(v);
  }
  if (typeof v === 'function' || typeof v === 'symbol') fail(`a ${typeof v} is no setting`);
  if (typeof v !== 'object' || v === null) return v;
  if (open.has(v)) fail('holds an object that holds it (a cycle)');
  if (depth >= VENDOR_DEPTH) fail(`nested deeper than ${VENDOR_DEPTH} levels`);
  const array = Array.isArray(v);
  const out = array ? [] : Object.create(null);
  let keys;
  try {
    keys = Object.keys(v);
  } catch (e) {
    fail(`its keys cannot be read (${shown(e && e.message, 100)})`);
  }
  open.add(v);
  try {
    for (const k of keys) {
      const at = array ? `${path}[${k}]` : (path ? path + '.' : '') + shown(k, 60);
      try {
        out[k] = plainValue(() => v[k], at, open, depth + 1, bad);
      } catch (e) {
        if (!(e instanceof Mistake) || array || !ONE_BY_ONE.includes(path)) throw e;
        /* "job: tokens: why", "calibration: settings.back: why" */
        const inside = e.where.slice(at.length + 1);
        bad(`${path ? path + ': ' : ''}${shown(k, 60)}: ${inside ? inside + ': ' : ''}${e.why}`);
      }
    }
  } finally {
    open.delete(v);
  }
  return out;
}

function plainConfig(config, bad) {
  try {
    return plainValue(() => config, '', new Set(), 0, bad);
  } catch (e) {
    if (!(e instanceof Mistake)) throw e;
    bad(e.message);
    return Object.create(null);
  }
}

/* The settings a vendor's calibration fixes: the library's list, and any its file holds. */
function calibratedBy(calibration) {
  const s = calibration && calibration.settings;
  return CALIBRATED.concat(s && typeof s === 'object' ? Object.keys(s).filter((k) => !CALIBRATED.includes(k)) : []);
}

/* A value as the page keeps it in a field or the URL, the text the API passes it as. */
function settingText(name, v) {
  if (name === 'hf-config' && typeof v === 'object' && v !== null) return JSON.stringify(v);
  if (Array.isArray(v)) return v.map((x) => settingText(name, x)).join(',');
  return Object.is(v, -0) ? '-0' : String(v);
}

/* Why a key of the vendor's job cannot apply ('' when it can). */
function jobProblem(name, value, taken, calibrated) {
  if (value === null || value === undefined) return 'no value';
  if (taken.includes(name)) return `the same option as another key (${name})`;
  if (JOB_ELSEWHERE[name]) return JOB_ELSEWHERE[name];
  if (calibrated.includes(name)) return 'the vendor\'s calibration sets it';
  /* what reaches a field or the URL as text (a config.json's may span lines) */
  let text = Array.isArray(value) ? value.join(',') : typeof value === 'string' ? value : '';
  if (name === 'hf-config') text = text.replace(/[\t\n\r]/g, '');
  return unshown(text) ? `contains ${unshown(text)}` : '';
}

/* The vendor's job: each key is the option the API reads it as (microBatch and
 * micro_batch are micro-batch), so the page keeps it under that name and it applies; a key
 * that cannot apply is named and left out, and the rest still applies. Returns
 * [[name, text]], or null when nothing is left (the command's example job shows). */
function checkVendorJob(job, ts, out, bad) {
  const entries = [];
  const calibrated = out.calibration ? calibratedBy(out.calibration) : [];
  for (const [key, value] of Object.entries(job)) {
    let name;
    try {
      name = ts.optionName(key);
    } catch (e) {
      bad(e.message + '; left out');
      continue;
    }
    const why = jobProblem(name, value, entries.map(([n]) => n), calibrated);
    if (why) bad(`${shown(key, 60)}: ${why}; left out`);
    else entries.push([name, value]);
  }
  /* The library's word on the rest: an option it refuses is named and left out. */
  while (entries.length) {
    try {
      ts.estimate(Object.assign(Object.fromEntries(entries), out.prices ? { 'gpu-prices': out.prices } : {},
        out.calibration ? { calibration: out.calibration } : {}));
      break;
    } catch (e) {
      if (e.name !== 'TrainsizeError') throw e;
      const at = entries.findIndex(([n]) => n === e.option);
      bad(e.message + (at < 0 ? '; the job is left out' : `; ${e.option} left out`));
      if (at < 0) entries.length = 0;
      else entries.splice(at, 1);
    }
  }
  return entries.length ? entries.map(([name, v]) => [name, settingText(name, v)]) : null;
}

/* A text the page shows: a string of 1 to `max` characters, with no character it would
 * not show (a control character: the page refuses it rather than print it). */
function vendorText(v, max) {
  if (typeof v !== 'string' || !v.length || v.length > max) return `expected text of up to ${max} characters`;
  return unshown(v) ? `contains ${unshown(v)}, which the page does not show` : '';
}

/* The settings the page uses, each checked; `ts` the API (the job and prices are checked
 * by the library itself). */
function checkVendorConfig(given, ts, gpuNames, errors, source) {
  const out = { title: '', intro: '', gpus: [], job: null, prices: '', contact: null, calibration: null };
  const bad = (key, why) => errors.push(`${source || 'configurator.json'}: ${key ? shown(key, 60) + ': ' : ''}${why}`);
  const config = plainConfig(given, (why) => bad('', why));
  for (const key of Object.keys(config)) if (!VENDOR_KEYS.includes(key)) bad(key, 'unknown key (keys: ' + VENDOR_KEYS.join(', ') + ')');
  for (const [key, max] of [['title', 200], ['intro', 2000]]) {
    if (!(key in config)) continue;
    const why = vendorText(config[key], max);
    if (why) bad(key, why); else out[key] = config[key];
  }
  if ('gpus' in config) {
    if (!Array.isArray(config.gpus) || !config.gpus.length) bad('gpus', 'expected a list of catalogue GPU names');
    else for (const g of config.gpus) {
      if (gpuNames.includes(g)) { if (!out.gpus.includes(g)) out.gpus.push(g); } else bad('gpus', `unknown GPU "${shown(g, 40)}"`);
    }
  }
  if ('prices' in config) {
    const items = [];
    if (typeof config.prices !== 'object' || config.prices === null || Array.isArray(config.prices)) bad('prices', 'expected { "gpu": { "hourly": USD, "purchase": USD } }');
    else for (const [g, p] of Object.entries(config.prices)) {
      const price = (v) => typeof v === 'number' && Number.isFinite(v) && v > 0;
      if (!gpuNames.includes(g)) bad('prices', `unknown GPU "${shown(g, 40)}"`);
      else if (!p || typeof p !== 'object' || !price(p.hourly) || (p.purchase !== undefined && !price(p.purchase))) bad('prices', `${g}: expected "hourly" (and optionally "purchase") as positive numbers of US dollars`);
      else items.push(g + '=' + p.hourly + (p.purchase !== undefined ? ':' + p.purchase : ''));
    }
    const text = items.join(',');
    if (text) {
      try { ts.estimate({ model: 'gpt2', 'gpu-prices': text }); out.prices = text; } catch (e) { bad('prices', e.message); }
    }
  }
  if ('calibration' in config) {
    const c = config.calibration;
    if (typeof c !== 'object' || c === null || Array.isArray(c)) bad('calibration', 'expected what trainsize calibrate wrote');
    else {
      try {
        ts.estimate({ model: 'gpt2', calibration: c });
        out.calibration = c;
      } catch (e) { bad('calibration', e.message.replace(/^calibration: /, '')); }
    }
  }
  if ('job' in config) {
    const job = config.job;
    if (typeof job !== 'object' || job === null || Array.isArray(job)) bad('job', 'expected an object of the command\'s options');
    else out.job = checkVendorJob(job, ts, out, (why) => bad('job', why));
  }
  if ('contact' in config) {
    const c = config.contact;
    if (!c || typeof c !== 'object' || vendorText(c.text, 200) || typeof c.href !== 'string' || unshown(c.href) ||
        !/^(https?:|mailto:)/i.test(c.href)) {
      bad('contact', 'expected { "text": ..., "href": an https:, http: or mailto: link }' +
        (typeof c === 'object' && c && (unshown(c.text) || unshown(c.href)) ? ` (it contains ${unshown(c.text) || unshown(c.href)})` : ''));
    } else out.contact = { text: c.text, href: c.href };
  }
  return out;
}

/* The title, the introduction and the contact link on the page. */
function applyVendorText(vendor) {
  if (vendor.title) {
    $('title').textContent = vendor.title;
    document.title = vendor.title;
  }
  if (vendor.intro) $('intro').textContent = vendor.intro;
  if (vendor.contact) {
    const a = $('contact').querySelector('a');
    a.textContent = vendor.contact.text;
    a.href = vendor.contact.href;
    $('contact').hidden = false;
  }
}
