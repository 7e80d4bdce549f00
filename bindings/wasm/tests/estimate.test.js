// The WebAssembly package against the native command: the same options give the same JSON
// text, byte for byte. Needs TRAINSIZE_EXE (the native command) and TRAINSIZE_WASM_PACKAGE
// (the built package folder); without them the run fails rather than skipping.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { execFileSync, spawnSync } = require('node:child_process');
const path = require('node:path');

const exe = process.env.TRAINSIZE_EXE;
const pkg = process.env.TRAINSIZE_WASM_PACKAGE;
if (!exe || !pkg) throw new Error('set TRAINSIZE_EXE and TRAINSIZE_WASM_PACKAGE');
const { createTrainsize, createTrainsizeWorker, TrainsizeError } = require(path.resolve(pkg, 'trainsize.js'));

function native(args) {
  return execFileSync(exe, args, { encoding: 'utf8' });
}

function cliArgs(options) {
  const args = [];
  for (const [k, v] of Object.entries(options)) {
    args.push('--' + k.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase()), String(v));
  }
  return args;
}

const JOBS = [
  { model: 'llama-2-7b', gpu: 'a100-80gb', gpus: 8, zero: 3, microBatch: 1, seq: 4096 },
  { model: 'llama-3-70b', gpu: 'h100-80gb', gpus: 64, tp: 8, pp: 2, zero: 1, sp: true, seq: 8192,
    'global-batch': 512, tokens: 1.5e12 },
  { model: 'mixtral-8x7b', gpus: 32, ep: 8, tp: 2, tokens: 1e12 },
  { model: 'llama-2-13b', 'lora-rank': 16, 'quantize-base': 'nf4', gpu: 'rtx-4090' },
  { model: 'deepseek-v3', gpu: 'h100-80gb', gpus: 1024, pp: 16, ep: 64, recompute: 'full', seq: 4096 },
  { model: 'llama-2-70b', gpu: 'a100-80gb', gpus: 8, seq: 4096 }, // does not fit: advice
];

test('estimate() is the command\'s JSON, byte for byte', async () => {
  const ts = await createTrainsize();
  for (const job of JOBS) {
    const text = ts.json('estimate', job);
    assert.strictEqual(text, native(['estimate', '--json', ...cliArgs(job)]), JSON.stringify(job));
    // the same object, keys in the same order (the object is built from the result's
    // fields, not parsed from the text)
    assert.strictEqual(JSON.stringify(ts.estimate(job)), JSON.stringify(JSON.parse(text)), JSON.stringify(job));
    assert.deepStrictEqual(ts.estimate(job), JSON.parse(text));
  }
});

test('estimate() carries the command\'s uncertainty: the likely bands and their basis', async () => {
  // The bands the configurator page shows beside the peak and the time: factors on every
  // memory and time figure, and the validation class that set them, as the command's JSON.
  const ts = await createTrainsize();
  const jobs = [
    JOBS[0], // ZeRO-3: the sharded memory class
    JOBS[4], // many experts: the time band widened
    { model: 'gpt2', gpu: 'gb200', gpus: 8, zero: 1, offload: 'optimizer', method: 'dpo', tokens: 1e9 }, // widened twice
  ];
  for (const job of jobs) {
    const want = JSON.parse(native(['estimate', '--json', ...cliArgs(job)])).uncertainty;
    const u = ts.estimate(job).uncertainty;
    assert.deepStrictEqual(Object.keys(u), ['time_low', 'time_high', 'memory_low', 'memory_high', 'basis']);
    for (const k of ['time_low', 'time_high', 'memory_low', 'memory_high']) {
      assert.strictEqual(typeof u[k], 'number', k);
      assert.strictEqual(u[k], want[k], `${k}: ${JSON.stringify(job)}`); // the same double, not a near one
    }
    assert.strictEqual(u.basis, want.basis);
    assert.ok(u.time_low > 0 && u.time_low <= 1 && u.time_high >= 1, JSON.stringify(u));
    assert.ok(u.memory_low > 0 && u.memory_low <= 1 && u.memory_high >= 1, JSON.stringify(u));
    assert.match(u.basis, /^time: [^\n]+; memory: [^\n]+ figures/);
  }
  assert.match(ts.estimate(jobs[1]).uncertainty.basis, /widened: many experts \(time\)$/);
  assert.match(ts.estimate(jobs[2]).uncertainty.basis, /widened: offload, post-training$/);
  // the same through the worker
  const w = createTrainsizeWorker();
  try {
    assert.deepStrictEqual((await w.estimate(jobs[2])).uncertainty, ts.estimate(jobs[2]).uncertainty);
  } finally {
    w.terminate();
  }
});

test('estimate() is the same object where a page forbids code generation', () => {
  // The object literal compiled from the field table (new Function) falls back to a
  // key-by-key build when strings cannot be compiled (a Content-Security-Policy).
  const script = `
    const { createTrainsize } = require(${JSON.stringify(path.resolve(pkg, 'trainsize.js'))});
    let compiled = true;
    try { new Function('return 1'); } catch (e) { compiled = false; }
    createTrainsize().then((ts) => {
      process.stdout.write(JSON.stringify({ compiled, jobs: ${JSON.stringify(JOBS)}.map((j) => ts.estimate(j)) }));
    });`;
  const r = spawnSync(process.execPath, ['--disallow-code-generation-from-strings', '-e', script], { encoding: 'utf8' });
  assert.strictEqual(r.status, 0, r.stderr);
  const { compiled, jobs } = JSON.parse(r.stdout);
  assert.strictEqual(compiled, false); // the fallback is what ran
  JOBS.forEach((job, i) => {
    assert.strictEqual(JSON.stringify(jobs[i]), JSON.stringify(JSON.parse(native(['estimate', '--json', ...cliArgs(job)]))));
  });
});

test('text fields beyond ASCII read as the command writes them', async () => {
  const ts = await createTrainsize();
  const file = path.join(__dirname, '..', '..', '..', 'tests', 'data', 'hf', 'Qwen3-8B.json');
  const config = JSON.parse(require('node:fs').readFileSync(file, 'utf8'));
  const os = require('node:os');
  for (const name of ['modèle-ü/Qwen3 ✓', 'モデル', 'emoji 🚀 and tab\t', 'plain']) {
    config._name_or_path = name;
    const tmp = path.join(os.tmpdir(), 'trainsize-name-' + process.pid + '.json');
    require('node:fs').writeFileSync(tmp, JSON.stringify(config));
    try {
      const text = native(['estimate', '--json', '--hf-config', tmp]);
      const twice = [ts.estimate({ hfConfig: config }), ts.estimate({ hfConfig: config })];
      for (const r of twice) assert.strictEqual(JSON.stringify(r), JSON.stringify(JSON.parse(text)), name);
    } finally {
      require('node:fs').unlinkSync(tmp);
    }
  }
});

test('a config.json given as an object is the file given to the command', async () => {
  const ts = await createTrainsize();
  const file = path.join(__dirname, '..', '..', '..', 'tests', 'data', 'hf', 'Qwen3-8B.json');
  const config = JSON.parse(require('node:fs').readFileSync(file, 'utf8'));
  const job = { gpu: 'h100-80gb', gpus: 8, zero: 3 };
  assert.deepStrictEqual(ts.estimate({ hfConfig: config, ...job }).memory,
    JSON.parse(native(['estimate', '--json', '--hf-config', file, ...cliArgs(job)])).memory);
});

test('plan() is the command\'s JSON', async () => {
  const ts = await createTrainsize();
  const job = { model: 'gpt2', tokens: 1e9, maxGpus: 16, gpu: 'a100-40gb,rtx-4090', top: 3 };
  assert.strictEqual(ts.json('plan', job), native(['plan', '--json', ...cliArgs(job)]));
});

test('plan(options, onProgress): progress to the end, a cancel, and a throw that stops the search', async () => {
  const ts = await createTrainsize();
  const job = { model: 'llama-3-8b', tokens: 1e11, gpu: 'a100-80gb,h100-80gb' };
  const seen = [];
  assert.deepStrictEqual(ts.plan(job, (p) => { seen.push(p); }), ts.plan(job));
  assert.ok(seen.length > 10);
  seen.forEach((p, i) => assert.strictEqual(p.done, i + 1));
  assert.strictEqual(seen[seen.length - 1].done, seen[0].total);
  let calls = 0;
  assert.throws(() => ts.plan(job, () => ++calls >= 3),
    (e) => e instanceof TrainsizeError && /cancelled the search after 3 of/.test(e.message));
  assert.strictEqual(calls, 3);
  const boom = new Error('the caller\'s own');
  assert.throws(() => ts.plan(job, () => { throw boom; }), (e) => e === boom);
  assert.deepStrictEqual(ts.plan(job), JSON.parse(native(['plan', '--json', ...cliArgs(job)]))); // the module goes on
  assert.throws(() => ts.plan(job, 42), (e) => e instanceof TrainsizeError && e.option === 'onProgress');
});

test('models(), gpus() and the version are the command\'s', async () => {
  const ts = await createTrainsize();
  assert.deepStrictEqual(ts.models(), JSON.parse(native(['models', '--json'])));
  assert.deepStrictEqual(ts.gpus(), JSON.parse(native(['gpus', '--json'])));
  assert.strictEqual('trainsize ' + ts.version + '\n', native(['--version']));
});

test('invalid input throws the command\'s message, naming the option', async () => {
  const ts = await createTrainsize();
  const cases = [
    [{ model: 'llama-3-9b' }, 'model'],
    [{ model: 'gpt2', microBatch: 0 }, 'micro-batch'],
    [{ model: 'gpt2', gpus: 3, tp: 2 }, 'gpus'],
  ];
  for (const [options, option] of cases) {
    const r = spawnSync(exe, ['estimate', '--json', ...cliArgs(options)], { encoding: 'utf8' });
    assert.strictEqual(r.status, 2);
    assert.throws(() => ts.estimate(options), (e) => {
      assert.ok(e instanceof TrainsizeError);
      assert.strictEqual(e.option, option);
      assert.strictEqual('trainsize: ' + e.message + '\n', r.stderr);
      return true;
    });
  }
  assert.throws(() => ts.estimate({ model: 'gpt2', gpus: Infinity }), TrainsizeError);
});

test('the single-file build works alike', async () => {
  const factory = require(path.resolve(pkg, 'trainsize_core_single.js'));
  const lines = [];
  const Module = await factory({ print: (l) => lines.push(l), printErr: () => {} });
  assert.strictEqual(typeof Module._tsw_run, 'function');
});

test('exampleJob(), warnings() and params() are the command\'s', async () => {
  const ts = await createTrainsize();
  // the example job is what `trainsize` with no arguments sizes
  assert.deepStrictEqual(ts.estimate(ts.exampleJob()), JSON.parse(native(['estimate', '--json'])));
  assert.deepStrictEqual(ts.estimate({}), JSON.parse(native(['estimate', '--json'])));
  // each warning's words are the report's
  const job = { model: 'llama-2-7b', gpu: 'a100-40gb', gpus: 4, zero: 3 };
  const names = ts.estimate(job).warnings;
  assert.ok(names.includes('low-vram-headroom'), names.join());
  const report = native(['estimate', ...cliArgs(job)]);
  for (const name of names) {
    assert.ok(ts.warnings()[name], name);
    if (name !== 'does-not-fit') assert.ok(report.includes('  - ' + ts.warnings()[name] + '\n'), name);
  }
  // the catalogue: every option of `estimate --help`, with its default and choices
  const help = native(['estimate', '--help']);
  const params = ts.params();
  assert.ok(params.length > 100);
  for (const p of params) assert.ok(help.includes('\n  --' + p.name + ' '), p.name);
  const attention = params.find((p) => p.name === 'attention');
  assert.deepStrictEqual([attention.kind, attention.choices, attention.default], ['choice', ['flash', 'eager'], 'flash']);
  const gpus = params.find((p) => p.name === 'gpus');
  assert.deepStrictEqual([gpus.kind, gpus.min, gpus.default], ['int', 1, '1']);
});

test('a calibration given as an object is the file given to the command', async () => {
  const ts = await createTrainsize();
  const os = require('node:os');
  const fs = require('node:fs');
  const calibration = { trainsize_calibration: 1, library_version: ts.version, runs: 4, gpus: ['h100-80gb'],
    settings: { 'gemm-share': 0.6, 'step-overhead': 0.2 } };
  const file = path.join(os.tmpdir(), 'trainsize-calibration-' + process.pid + '.json');
  fs.writeFileSync(file, JSON.stringify(calibration));
  try {
    const job = { model: 'llama-3-8b', gpu: 'h100-80gb', gpus: 8, zero: 3, tokens: 1e10 };
    const text = native(['estimate', '--json', '--calibration', file, ...cliArgs(job)]);
    assert.strictEqual(JSON.stringify(ts.estimate({ calibration, ...job })), JSON.stringify(JSON.parse(text)));
    assert.strictEqual(ts.estimate({ calibration, ...job }).layout.calibration, '4 runs on h100-80gb');
    assert.throws(() => ts.estimate({ calibration: { ...calibration, settings: { hfu: 1 } }, ...job }),
      (e) => e instanceof TrainsizeError && e.option === 'calibration' && /not a calibration setting/.test(e.message));
  } finally {
    fs.unlinkSync(file);
  }
});

test('calibrate() is the command\'s calibration, and estimate() takes it', async () => {
  const ts = await createTrainsize();
  const os = require('node:os');
  const fs = require('node:fs');
  const runs = { runs: [
    { name: 'a', job: { model: 'llama-3-8b', gpu: 'h100-80gb', gpus: 8, zero: 3, seq: 4096 }, measured: { step_seconds: 0.7 } },
    { job: { model: 'llama-3-8b', gpu: 'h100-80gb', gpus: 4, zero: 3, seq: 4096, recompute: 'full' }, measured: { step_seconds: 0.9 } },
  ] };
  const file = path.join(os.tmpdir(), 'trainsize-runs-' + process.pid + '.json');
  fs.writeFileSync(file, JSON.stringify(runs));
  try {
    const calibration = ts.calibrate(runs, '2026-12-01');
    assert.deepStrictEqual(calibration, JSON.parse(execFileSync(exe, ['calibrate', file, '--date', '2026-12-01'],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })));
    assert.strictEqual(ts.estimate({ calibration, model: 'llama-3-8b', gpu: 'h100-80gb', gpus: 8, zero: 3, seq: 4096 })
      .layout.calibration, '2 runs on h100-80gb, 2026-12-01');
    assert.throws(() => ts.calibrate([{ job: { model: 'gpt2' }, measured: {} }]),
      (e) => e instanceof TrainsizeError && /runs\[0\] \("run 1"\): measured: needs step_seconds/.test(e.message));
  } finally {
    fs.unlinkSync(file);
  }
});

test('the same options again are estimated afresh, never a stale answer', async () => {
  const ts = await createTrainsize();
  const [a, b] = [JOBS[0], JOBS[2]];
  const want = (job) => JSON.parse(native(['estimate', '--json', ...cliArgs(job)]));
  assert.deepStrictEqual(ts.estimate(a), want(a));
  assert.deepStrictEqual(ts.estimate(a), want(a)); // the kept job
  assert.deepStrictEqual(ts.estimate(b), want(b));
  assert.deepStrictEqual(ts.estimate(a), want(a));
  assert.throws(() => ts.estimate({ ...a, microBatch: 0 }), TrainsizeError);
  assert.deepStrictEqual(ts.estimate(a), want(a));
  // a file among the options: built every time (its contents may differ)
  const file = path.join(__dirname, '..', '..', '..', 'tests', 'data', 'hf', 'Qwen3-8B.json');
  const config = JSON.parse(require('node:fs').readFileSync(file, 'utf8'));
  const first = ts.estimate({ hfConfig: config });
  assert.notDeepStrictEqual(ts.estimate({ hfConfig: { ...config, num_hidden_layers: 2 } }).model, first.model);
});
