/* The page's two charts, drawn as SVG: the memory per GPU by part against the GPU's
 * capacity, and the plan's candidates, cost against time, with the Pareto front (no other
 * candidate both faster and cheaper) marked. No library: a few rectangles and circles. */
'use strict';

const SVG_NS = 'http://www.w3.org/2000/svg';

function svgNode(tag, attrs, content) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (content !== undefined) e.textContent = content;
  return e;
}

/* Bars of `rows` ([name, bytes, className, likely]) against `capacity`: one row each, the
 * capacity a dashed line, a bar over it drawn in red; a row's `likely` ([low, high] bytes:
 * the peak's uncertainty band) a whisker across its bar's end. */
function memoryChart(container, rows, capacity) {
  const W = 720, LABEL = 190, VALUE = 100, ROW = 24, TOP = 22;
  const plot = W - LABEL - VALUE;
  const top = Math.max(capacity, ...rows.map((r) => (r[3] ? r[3][1] : r[1]))) || 1;
  const x = (b) => LABEL + plot * b / top;
  const svg = svgNode('svg', { class: 'chart memory', viewBox: `0 0 ${W} ${TOP + ROW * rows.length + 8}`,
    role: 'img', 'aria-label': 'memory per GPU by part' });
  rows.forEach(([name, bytes, cls, likely], i) => {
    const y = TOP + i * ROW;
    svg.appendChild(svgNode('text', { x: LABEL - 8, y: y + 15, 'text-anchor': 'end', class: 'label' }, name));
    const bar = svgNode('rect', { x: LABEL, y: y + 3, width: Math.max(1, x(bytes) - LABEL), height: ROW - 8,
      class: 'bar ' + (cls || '') + (bytes > capacity ? ' over' : '') });
    bar.appendChild(svgNode('title', {}, `${name}: ${gib(bytes)}`));
    svg.appendChild(bar);
    svg.appendChild(svgNode('text', { x: W - 4, y: y + 15, 'text-anchor': 'end', class: 'value' }, gib(bytes)));
    if (likely) svg.appendChild(whisker(x(likely[0]), x(likely[1]), y + ROW / 2 - 1, ROW - 8,
      `${name} likely ${gib(likely[0])} to ${gib(likely[1])}`));
  });
  const cx = x(capacity);
  svg.appendChild(svgNode('line', { x1: cx, x2: cx, y1: TOP - 6, y2: TOP + ROW * rows.length, class: 'capacity' }));
  svg.appendChild(svgNode('text', { x: Math.min(cx, W - VALUE), y: 12, 'text-anchor': 'middle', class: 'capacity-label' },
    `the GPU's ${gib(capacity)}`));
  container.appendChild(svg);
  return svg;
}

/* A range from x0 to x1 at height y: a line with an end mark `tall` high at each side. */
function whisker(x0, x1, y, tall, title) {
  const g = svgNode('g', { class: 'likely' });
  g.appendChild(svgNode('line', { x1: x0, x2: x1, y1: y, y2: y }));
  for (const xe of [x0, x1]) g.appendChild(svgNode('line', { x1: xe, x2: xe, y1: y - tall / 2, y2: y + tall / 2 }));
  g.appendChild(svgNode('title', {}, title));
  return g;
}

/* Ticks for an axis from lo to hi: 1-2-5 steps on a log axis, five round steps on a
 * linear one. */
function ticks(lo, hi, log) {
  const out = [];
  if (log) {
    for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
      for (const m of [1, 2, 5]) {
        const v = m * 10 ** e;
        if (v >= lo && v <= hi) out.push(v);
      }
    }
    return out;
  }
  const raw = (hi - lo) / 5;
  const step = [1, 2, 5, 10].map((m) => m * 10 ** Math.floor(Math.log10(raw))).find((s) => s >= raw) || raw;
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9 * step; v += step) out.push(v);
  return out;
}

/* The candidates no other beats on both time and cost, fastest first. */
function paretoFront(points) {
  const sorted = points.slice().sort((a, b) => a.x - b.x || a.y - b.y);
  const front = [];
  for (const p of sorted) if (!front.length || p.y < front[front.length - 1].y) front.push(p);
  return front;
}

/* Cost against time of `points` ({x: days, y: dollars, label}); the deadline and the
 * budget, when set, as dashed lines. Returns the front. */
function planChart(container, points, limits) {
  const W = 720, H = 400, L = 78, R = 20, T = 40, B = 48;
  const xs = points.map((p) => p.x).concat(limits.days > 0 ? [limits.days] : []);
  const ys = points.map((p) => p.y).concat(limits.budget > 0 ? [limits.budget] : []);
  let [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const xlog = x1 / x0 > 20, ylog = y1 / y0 > 20;
  const pad = (lo, hi, log) => (log ? [lo / 1.3, hi * 1.3] : lo === hi ? [lo * 0.9, hi * 1.1 || 1] : [Math.max(0, lo - 0.08 * (hi - lo)), hi + 0.08 * (hi - lo)]);
  [x0, x1] = pad(x0, x1, xlog);
  [y0, y1] = pad(y0, y1, ylog);
  const fx = (v) => L + (W - L - R) * (xlog ? Math.log(v / x0) / Math.log(x1 / x0) : (v - x0) / (x1 - x0));
  const fy = (v) => H - B - (H - T - B) * (ylog ? Math.log(v / y0) / Math.log(y1 / y0) : (v - y0) / (y1 - y0));
  const svg = svgNode('svg', { class: 'chart plan', viewBox: `0 0 ${W} ${H}`, role: 'img',
    'aria-label': 'cost against time of the candidates' });
  svg.appendChild(svgNode('rect', { x: L, y: T, width: W - L - R, height: H - T - B, class: 'frame' }));
  for (const v of ticks(x0, x1, xlog)) {
    svg.appendChild(svgNode('line', { x1: fx(v), x2: fx(v), y1: T, y2: H - B, class: 'grid' }));
    svg.appendChild(svgNode('text', { x: fx(v), y: H - B + 16, 'text-anchor': 'middle', class: 'tick' }, num(Number(v.toPrecision(3)))));
  }
  for (const v of ticks(y0, y1, ylog)) {
    svg.appendChild(svgNode('line', { x1: L, x2: W - R, y1: fy(v), y2: fy(v), class: 'grid' }));
    svg.appendChild(svgNode('text', { x: L - 6, y: fy(v) + 4, 'text-anchor': 'end', class: 'tick' }, usd(v)));
  }
  svg.appendChild(svgNode('text', { x: (L + W - R) / 2, y: H - 10, 'text-anchor': 'middle', class: 'axis' },
    'days' + (xlog ? ' (log scale)' : '')));
  svg.appendChild(svgNode('text', { x: 14, y: (T + H - B) / 2, 'text-anchor': 'middle', class: 'axis',
    transform: `rotate(-90 14 ${(T + H - B) / 2})` }, 'cloud cost' + (ylog ? ' (log scale)' : '')));
  if (limits.days > 0) {
    svg.appendChild(svgNode('line', { x1: fx(limits.days), x2: fx(limits.days), y1: T, y2: H - B, class: 'limit' }));
    svg.appendChild(svgNode('text', { x: fx(limits.days) - 4, y: H - B - 6, 'text-anchor': 'end', class: 'limit-label' }, 'deadline'));
  }
  if (limits.budget > 0) {
    svg.appendChild(svgNode('line', { x1: L, x2: W - R, y1: fy(limits.budget), y2: fy(limits.budget), class: 'limit' }));
    svg.appendChild(svgNode('text', { x: L + 4, y: fy(limits.budget) - 4, class: 'limit-label' }, 'budget'));
  }
  const front = paretoFront(points);
  if (front.length > 1) {
    svg.appendChild(svgNode('polyline', { points: front.map((p) => `${fx(p.x)},${fy(p.y)}`).join(' '), class: 'front' }));
  }
  for (const p of points) {
    const onFront = front.includes(p);
    const dot = svgNode('circle', { cx: fx(p.x), cy: fy(p.y), r: onFront ? 6 : 4, class: onFront ? 'point front' : 'point' });
    dot.appendChild(svgNode('title', {}, p.label));
    svg.appendChild(dot);
  }
  /* the legend above the plot, where no point can be */
  const legend = svgNode('g', { class: 'legend', transform: `translate(${L + 6}, 16)` });
  legend.appendChild(svgNode('circle', { cx: 6, cy: 0, r: 6, class: 'point front' }));
  legend.appendChild(svgNode('text', { x: 18, y: 4 }, 'Pareto front: nothing both faster and cheaper'));
  legend.appendChild(svgNode('circle', { cx: 330, cy: 0, r: 4, class: 'point' }));
  legend.appendChild(svgNode('text', { x: 342, y: 4 }, 'another candidate'));
  svg.appendChild(legend);
  container.appendChild(svg);
  return front;
}
