/* How the page writes figures and builds its tables: numbers as the command's report
 * writes them, and the few DOM helpers every view uses. Text only ever goes in through
 * textContent, so nothing from a URL, a config.json or a vendor's file becomes markup. */
'use strict';

const GIB = 1024 * 1024 * 1024;
const $ = (id) => document.getElementById(id);
const gib = (b) => (b / GIB).toFixed(2) + ' GiB';
const num = (n) => Number(n).toLocaleString('en-US');
const kw = (w) => (w / 1000).toFixed(1) + ' kW';
const plural = (n, one, many) => `${num(n)} ${n === 1 ? one : many || one + 's'}`;

/* A count as the command's tables write it (1.00B, 30.5B, 671B): two decimals under 10,
 * one under 100, none above, in K, M, B or T; one that rounds to 1000 is the next unit's
 * (999.9M is 1.00B). */
function shortCount(n) {
  const decimals = (v) => (v < 10 ? 2 : v < 100 ? 1 : 0);
  let v = n;
  let unit = 0;
  while (unit < 5 && v * 10 ** decimals(v) >= 1000 * 10 ** decimals(v) - 0.5) {
    v /= 1000;
    unit++;
  }
  return unit ? fixed(v, decimals(v)) + ['', 'K', 'M', 'B', 'T', 'Q'][unit] : String(n);
}

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
const runTime = (s) => (s < 86400 ? s.toFixed(1) + ' s' : (s / 86400).toFixed(1) + ' days');

/* `x` with `d` decimals as C's printf writes it (the command's report): an exact tie (1.125
 * to two decimals) goes to the even digit, where toFixed goes up. */
function fixed(x, d) {
  const half = x * 2 ** (d + 1); /* an odd integer exactly when x lies halfway */
  if (!Number.isInteger(half) || half % 2 === 0 || !Number.isSafeInteger(half * 5 ** d)) return x.toFixed(d);
  const below = (Math.abs(half) * 5 ** d - 1) / 2; /* the two candidates: below and below + 1 */
  const n = below % 2 === 0 ? below : below + 1;
  return (Math.sign(x) * n / 10 ** d).toFixed(d);
}

/* How sure the figures are (the result's "uncertainty": factors on every memory and time
 * figure that 80 % or more of the published runs of the job's class fell within, and the basis
 * that names the class): the likely range of the peak, and of the time (the wall time
 * with a token count, and the step), as the command's report words it. */
const factors = (lo, hi) => `(the estimate x ${fixed(lo, 2)} to ${fixed(hi, 2)})`;
function likelyPeak(m, u) {
  return `${gib(m.peak_total * u.memory_low)} to ${gib(m.peak_total * u.memory_high)} ` +
    factors(u.memory_low, u.memory_high);
}
function likelyTime(t, u, needsTokens) {
  const step = `${duration(t.step_seconds * u.time_low)} to ${duration(t.step_seconds * u.time_high)} a step`;
  return (needsTokens ? step : `${runTime(t.wall_seconds * u.time_low)} to ${runTime(t.wall_seconds * u.time_high)} ` +
    `wall time; ${step}`) + ' ' + factors(u.time_low, u.time_high);
}
const howSure = (u) => '80 % or more of the published runs of the class fell in such a band (each predicted ' +
  'without its own source): ' + shown(u.basis);

/* Text from a vendor's file, a link or a library message as one printable line: control
 * characters, line separators and lone surrogates escaped as the library escapes them
 * (\x0a, \ud800), cut at `max` characters. */
const UNSHOWN = /[\0-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069\ud800-\udfff]/u;
function shown(text, max) {
  let s = String(text);
  if (max && s.length > max) s = s.slice(0, /[\ud800-\udbff]/.test(s[max - 1]) ? max - 1 : max) + '\u2026';
  return s.replace(new RegExp(UNSHOWN.source, 'gu'), (c) => {
    const n = c.charCodeAt(0);
    return n < 0x100 ? '\\x' + n.toString(16).padStart(2, '0') : '\\u' + n.toString(16);
  });
}

/* The first character of `text` the page will not show (a control character, a line
 * separator, a lone surrogate), escaped; '' when there is none. */
function unshown(text) {
  const m = UNSHOWN.exec(text);
  return m ? shown(m[0]) : '';
}

/* An element with a class and text. */
function element(tag, className, content) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (content !== undefined) e.textContent = content;
  return e;
}

/* A two-column row; `value` is text or a node. */
function row(table, name, value) {
  const tr = table.insertRow();
  tr.insertCell().textContent = name;
  const cell = tr.insertCell();
  if (typeof value === 'string') cell.textContent = value;
  else cell.appendChild(value);
  return tr;
}

/* A warning-style note inside a cell. */
function note(cell, message) {
  cell.appendChild(element('span', 'note warn', message));
}
