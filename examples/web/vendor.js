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
 *                                measured runs: every estimate and plan uses it
 *
 * A mistake in the file is shown on the page (for the vendor to see), naming the key, and
 * the rest of the file still applies. */
'use strict';

const VENDOR_KEYS = ['title', 'intro', 'gpus', 'job', 'prices', 'contact', 'calibration'];

async function fetchVendorConfig() {
  if (typeof window.TRAINSIZE_CONFIGURATOR === 'object' && window.TRAINSIZE_CONFIGURATOR) {
    return { config: window.TRAINSIZE_CONFIGURATOR, errors: [] };
  }
  if (location.protocol === 'file:') return { config: {}, errors: [] };
  try {
    const r = await fetch('configurator.json', { cache: 'no-cache' });
    if (r.status === 404) return { config: {}, errors: [] };
    if (!r.ok) return { config: {}, errors: ['configurator.json: HTTP ' + r.status] };
    const config = JSON.parse(await r.text());
    if (typeof config !== 'object' || config === null || Array.isArray(config)) {
      return { config: {}, errors: ['configurator.json: expected an object'] };
    }
    return { config, errors: [] };
  } catch (e) {
    return { config: {}, errors: ['configurator.json: ' + e.message] };
  }
}

/* The settings the page uses, each checked; `ts` the API (the job and prices are checked
 * by the library itself). */
function checkVendorConfig(config, ts, gpuNames, errors) {
  const out = { title: '', intro: '', gpus: [], job: null, prices: '', contact: null, calibration: null };
  const bad = (key, why) => errors.push(`configurator.json: ${key}: ${why}`);
  const isText = (v, max) => typeof v === 'string' && v.length > 0 && v.length <= max;
  for (const key of Object.keys(config)) if (!VENDOR_KEYS.includes(key)) bad(key, 'unknown key (keys: ' + VENDOR_KEYS.join(', ') + ')');
  if ('title' in config) { if (isText(config.title, 200)) out.title = config.title; else bad('title', 'expected text of up to 200 characters'); }
  if ('intro' in config) { if (isText(config.intro, 2000)) out.intro = config.intro; else bad('intro', 'expected text of up to 2000 characters'); }
  if ('gpus' in config) {
    if (!Array.isArray(config.gpus) || !config.gpus.length) bad('gpus', 'expected a list of catalogue GPU names');
    else for (const g of config.gpus) {
      if (gpuNames.includes(g)) { if (!out.gpus.includes(g)) out.gpus.push(g); } else bad('gpus', `unknown GPU "${String(g).slice(0, 40)}"`);
    }
  }
  if ('prices' in config) {
    const items = [];
    if (typeof config.prices !== 'object' || config.prices === null || Array.isArray(config.prices)) bad('prices', 'expected { "gpu": { "hourly": USD, "purchase": USD } }');
    else for (const [g, p] of Object.entries(config.prices)) {
      const price = (v) => typeof v === 'number' && Number.isFinite(v) && v > 0;
      if (!gpuNames.includes(g)) bad('prices', `unknown GPU "${g.slice(0, 40)}"`);
      else if (!p || !price(p.hourly) || (p.purchase !== undefined && !price(p.purchase))) bad('prices', `${g}: expected "hourly" (and optionally "purchase") as positive numbers of US dollars`);
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
    else {
      try {
        ts.estimate(Object.assign({}, job, out.prices ? { 'gpu-prices': out.prices } : {},
          out.calibration ? { calibration: out.calibration } : {}));
        out.job = {};
        for (const [k, v] of Object.entries(job)) out.job[k] = String(v);
      } catch (e) { bad('job', e.message); }
    }
  }
  if ('contact' in config) {
    const c = config.contact;
    if (!c || !isText(c.text, 200) || typeof c.href !== 'string' || !/^(https?:|mailto:)/i.test(c.href)) {
      bad('contact', 'expected { "text": ..., "href": an https:, http: or mailto: link }');
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
