// Speed of the JavaScript package (bindings/wasm) against the library, in the same run:
//   node bench/bench_wasm.js build/bench/bench_estimate build-wasm/bindings/wasm/package
// runs the native benchmark on its jobs (bench_estimate --json: trainsize_estimate() alone,
// median of batches), then times on the same jobs, in Node, the library inside the module
// (trainsize_estimate() alone) and ts.estimate() (options in, the command's JSON object
// out) with the same options again and with options that change each call, and prints
// the first with its ratio to the native figure. Then plan() and json().
// Figures are printed, not asserted: shared machines are noisy.
'use strict';
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const [nativeBench, pkg] = process.argv.slice(2);
if (!nativeBench || !pkg) {
  console.error('usage: node bench/bench_wasm.js BENCH_ESTIMATE PACKAGE_DIR');
  process.exit(2);
}
const { createTrainsize } = require(path.resolve(pkg, 'trainsize.js'));

const BATCH = 2000;
const BATCHES = 15;

// ns per call: the median of BATCHES batches of BATCH calls, after a warm-up batch
function medianNs(call) {
  for (let i = 0; i < BATCH; i++) call();
  const per = [];
  for (let b = 0; b < BATCHES; b++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < BATCH; i++) call();
    per.push(Number(process.hrtime.bigint() - t0) / BATCH);
  }
  per.sort((a, b) => a - b);
  return per[BATCHES >> 1];
}

function bestMs(call, rounds) {
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    call();
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return best;
}

async function main() {
  const cases = execFileSync(nativeBench, ['--json'], { encoding: 'utf8' }).trim().split('\n').map((l) => JSON.parse(l));
  const ts = await createTrainsize();
  console.log(`trainsize.js ${ts.version}, Node ${process.version}: ns per call (median of ${BATCHES} batches)`);
  const row = (cells) => console.log(cells[0].padEnd(46) + [12, 12, 14, 9, 13].map((w, i) => String(cells[i + 1]).padStart(w)).join(''));
  // ts.estimate() with the same options again (the module estimates the job it kept), and
  // with options that change on every call (parsed and built each time: what a page's
  // every keystroke costs)
  row(['job', 'native', 'in module', 'ts.estimate()', 'x native', 'new options']);
  for (const c of cases) {
    if (!ts.estimate(c.options).memory.fits) throw new Error(c.name + ': does not fit (estimate() would add advice)');
    const inModule = ts.benchLibrary(c.options, BATCH * BATCHES) * 1e9;
    const api = medianNs(() => ts.estimate(c.options));
    const other = Object.assign({}, c.options, { headroom: '0.1' }); /* the default: the same job */
    let flip = false;
    const fresh = medianNs(() => ts.estimate((flip = !flip) ? c.options : other));
    row([c.name, c.median_ns.toFixed(0), inModule.toFixed(0), api.toFixed(0), (api / c.median_ns).toFixed(1),
      fresh.toFixed(0)]);
  }
  const plan = { model: 'llama-3-8b', tokens: 1e11, gpu: 'a100-80gb,h100-80gb,l40s', maxGpus: 256, top: 5 };
  console.log(`plan() (llama-3-8b, 3 GPU types, up to 256 GPUs): best ${bestMs(() => ts.plan(plan), 5).toFixed(1)} ms; ` +
    `json('estimate', the first job): ${(medianNs(() => ts.json('estimate', cases[0].options)) / 1e3).toFixed(1)} us`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
