// Hostile input and failures: each is a TrainsizeError naming the parameter, never a trap, a
// SyntaxError or a wrong answer, and the module keeps working (the next call is the command's
// answer, and failing calls do not grow the heap). Needs TRAINSIZE_EXE and
// TRAINSIZE_WASM_PACKAGE, as estimate.test.js.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { execFileSync, spawnSync } = require('node:child_process');
const path = require('node:path');

const exe = process.env.TRAINSIZE_EXE;
const pkg = process.env.TRAINSIZE_WASM_PACKAGE;
if (!exe || !pkg) throw new Error('set TRAINSIZE_EXE and TRAINSIZE_WASM_PACKAGE');
const { createTrainsize, TrainsizeError } = require(path.resolve(pkg, 'trainsize.js'));

const native = (args) => execFileSync(exe, args, { encoding: 'utf8' });
const JOB = { model: 'llama-2-7b', gpu: 'a100-80gb', gpus: 8, zero: 3 };
const JOB_JSON = native(['estimate', '--json', '--model', 'llama-2-7b', '--gpu', 'a100-80gb',
  '--gpus', '8', '--zero', '3']);
const PLAN = { model: 'gpt2', tokens: 1e9, maxGpus: 16, gpu: 'a100-40gb', top: 3 };
const PLAN_JSON = native(['plan', '--json', '--model', 'gpt2', '--tokens', '1000000000',
  '--max-gpus', '16', '--gpu', 'a100-40gb', '--top', '3']);

/* The API, and the emscripten module under it (postRun hands it over), to look at its heap. */
async function open() {
  let mod;
  const ts = await createTrainsize({ postRun: [(m) => { mod = m; }] });
  return { ts, mod };
}

function refused(f, option, pattern) {
  assert.throws(f, (e) => {
    assert.ok(e instanceof TrainsizeError, String(e && e.stack));
    assert.strictEqual(e.option, option, e.message);
    if (pattern) assert.match(e.message, pattern);
    return true;
  });
}

/* The module still gives the command's answers. */
function stillRight(ts) {
  assert.strictEqual(ts.json('estimate', JOB), JOB_JSON);
  assert.strictEqual(ts.json('plan', PLAN), PLAN_JSON);
}

test('an argument too large is refused, naming it, before anything reaches the module', async () => {
  const { ts, mod } = await open();
  stillRight(ts);
  const heap = mod._sbrk(0);
  refused(() => ts.estimate({ ...JOB, seq: '1'.repeat(100000) }), 'seq', /too long/);
  refused(() => ts.estimate({ model: 'x'.repeat(2 ** 28) }), 'model', /too long/);
  refused(() => ts.estimate({ ...JOB, gpu: new Array(40000).fill('a100-80gb') }), 'gpu', /too long/);
  const big = JSON.stringify({ hidden_size: 4096, pad: 'x'.repeat(2 << 20) });
  refused(() => ts.estimate({ hfConfig: big }), 'hf-config', /over 1048576 bytes/);
  const many = {};
  for (let i = 0; i < 100; i++) many['seq' + 'q'.repeat(i)] = '1'.repeat(60000);
  refused(() => ts.estimate(many), 'options', /too long/);
  assert.strictEqual(mod._sbrk(0), heap);
  stillRight(ts);
});

test('a full heap: every allocation is checked, and the module recovers', async () => {
  const { ts, mod } = await open();
  stillRight(ts);
  const blocks = [];
  for (let p; (p = mod._malloc(1 << 20)) !== 0;) blocks.push(p);
  for (let p; (p = mod._malloc(1 << 10)) !== 0;) blocks.push(p);
  for (let p; (p = mod._malloc(16)) !== 0;) blocks.push(p);
  for (let i = 0; i < 20; i++) refused(() => ts.estimate(JOB), '', /out of memory/);
  blocks.forEach((p) => mod._free(p));
  stillRight(ts);
});

test('many failing calls in a row, then the right answer, and no heap growth', async () => {
  const { ts, mod } = await open();
  stillRight(ts);
  const config = JSON.stringify({ architectures: ['LlamaForCausalLM'], hidden_size: 'big' });
  let heap; // the heap after the first round (reading a file takes a 1 MiB buffer)
  for (let i = 0; i < 300; i++) {
    if (i === 1) heap = mod._sbrk(0);
    refused(() => ts.estimate({ model: 'llama-3-9b' }), 'model');
    refused(() => ts.estimate({ model: 'gpt2', microBatch: 0 }), 'micro-batch');
    refused(() => ts.estimate({ hfConfig: config }), 'hf-config');
    refused(() => ts.estimate({ hfConfig: '{"a":' }), 'hf-config');
    refused(() => ts.estimate({ model: 'gpt2', gpuFile: '{}' }), 'gpu-file');
    refused(() => ts.plan({ model: 'gpt2', tp: 2 }), 'tp');
    refused(() => ts.plan({ model: 'gpt2', top: 1000 }), 'top');
    refused(() => ts.estimate({ help: true }), 'help');
    refused(() => ts.estimate({ model: 'gpt2', bogus: 1 }), 'bogus');
  }
  assert.strictEqual(mod._sbrk(0), heap);
  stillRight(ts);
});

test('an exception thrown mid-call, or a trap, leaves the module usable', async () => {
  const { ts, mod } = await open();
  stillRight(ts);
  const heap = mod._sbrk(0);
  // The plan command reads the clock after planning, with its job allocated and a large
  // stack frame: a clock that throws unwinds the module there, hundreds of times.
  // (emscripten's clock is process.hrtime or performance.now, by version.)
  const { hrtime } = process;
  const { now } = performance;
  let calls = 0;
  const failing = (f) => function () {
    if (++calls % 2 === 0) throw new Error('clock failed');
    return f.apply(this, arguments);
  };
  function clockFails(check) {
    process.hrtime = failing(hrtime);
    performance.now = failing(now);
    try {
      check();
    } finally {
      process.hrtime = hrtime;
      performance.now = now;
    }
  }
  clockFails(() => { for (let i = 0; i < 400; i++) assert.throws(() => ts.plan(PLAN), /clock failed/); });
  stillRight(ts);
  clockFails(() => refused(() => ts.plan(PLAN), '', /clock failed/));
  stillRight(ts);
  assert.strictEqual(mod._sbrk(0), heap);
  // A real trap inside the module: an argument vector out of its memory, in each of the
  // two entries (the command, and the estimate that leaves its fields in memory).
  for (const [entry, call] of [['_tsw_run', () => ts.plan(PLAN)], ['_tsw_estimate', () => ts.estimate(JOB)]]) {
    const run = mod[entry];
    mod[entry] = (argc) => run(argc, 0x7ffffff0);
    try {
      refused(call, '', /memory access out of bounds/);
    } finally {
      mod[entry] = run;
    }
    stillRight(ts);
  }
});

test('help: refused as an option, given by help()', async () => {
  const ts = await createTrainsize();
  refused(() => ts.estimate({ help: true }), 'help', /help\(/);
  refused(() => ts.plan({ ...PLAN, help: true }), 'help', /help\(/);
  refused(() => ts.estimate({ h: true }), 'h');
  refused(() => ts.estimate({ version: true }), 'version');
  refused(() => ts.estimate({ json: false }), 'json');
  assert.strictEqual(ts.help(), native(['--help']));
  for (const command of ['estimate', 'plan', 'models', 'gpus', 'calibrate', 'capacity']) {
    assert.strictEqual(ts.help(command), native([command, '--help']));
  }
  refused(() => ts.help('bogus'), 'command');
  refused(() => ts.help('--help'), 'command');
  // The command's own flags as values are values, as the command takes --model=-h.
  for (const value of ['--help', '-h', '--version']) {
    const r = spawnSync(exe, ['estimate', '--json', '--model=' + value], { encoding: 'utf8' });
    assert.strictEqual(r.status, 2);
    refused(() => ts.estimate({ model: value }), 'model');
    assert.throws(() => ts.estimate({ model: value }), (e) => 'trainsize: ' + e.message + '\n' === r.stderr);
  }
  // json() runs estimate, plan or capacity, nothing else.
  for (const command of ['--help', '-h', 'help', 'models', '--version', 'estimate --help', 7]) {
    refused(() => ts.json(command, {}), 'command');
  }
  stillRight(ts);
});

test('hostile values and names are refused, naming the parameter', async () => {
  const ts = await createTrainsize();
  const circular = { hidden_size: 1 };
  circular.self = circular;
  let deep = {};
  for (let i = 0; i < 100000; i++) deep = { a: deep };
  let nested = {};
  for (let i = 0; i < 100; i++) nested = { a: nested };
  const cases = [
    [{ model: 'gpt2\0llama-2-70b' }, 'model', /NUL/],
    [{ ...JOB, gpu: 'a100-80gb\0' }, 'gpu', /NUL/],
    [{ model: { name: 'gpt2' } }, 'model', /expected/],
    [{ model: ['gpt2', ['x']] }, 'model', /expected/],
    [{ model: () => 'gpt2' }, 'model', /expected/],
    [{ model: Symbol('gpt2') }, 'model', /expected/],
    [{ model: 'gpt2', gpus: NaN }, 'gpus', /finite/],
    [{ model: 'gpt2', seq: new Number(4096) }, 'seq', /expected/],
    [JSON.parse('{"model":"gpt2","__proto__":{"gpus":8}}'), '__proto__', /not an option/],
    [{ model: 'gpt2', 'gpus=8': 1 }, 'gpus=8', /not an option/],
    [{ model: 'gpt2', '': 1 }, '', /not an option/],
    [{ model: 'gpt2', '--gpus': 8 }, '--gpus', /not an option/],
    [{ model: 'gpt2', 'gpus 8': 1 }, 'gpus 8', /not an option/],
    [{ model: 'gpt2', 'constructor': 1 }, 'constructor', /unknown option/],
    [{ hfConfig: circular }, 'hf-config', /JSON/],
    [{ hfConfig: deep }, 'hf-config', /JSON/],
    [{ hfConfig: nested }, 'hf-config', /nesting/],
    [{ hfConfig: { hidden_size: 2n ** 53n } }, 'hf-config', /JSON: hidden_size: the bigint/],
    [{ hfConfig: '/dev/tty' }, 'hf-config', /contents/],
    [{ hfConfig: 'config.json' }, 'hf-config', /contents/],
    [{ hfConfig: 42 }, 'hf-config', /contents/],
    [{ hfConfig: ['{}'] }, 'hf-config', /contents/],
    [{ model: 'gpt2', gpuFile: '/dev/stdin' }, 'gpu-file', /contents/],
    [{ model: 'gpt2', gpuFile: '{"name": "x\u0000"}' }, 'gpu-file'],
  ];
  for (const [options, option, pattern] of cases) {
    refused(() => ts.estimate(options), option, pattern);
    assert.strictEqual(ts.json('estimate', JOB), JOB_JSON);
  }
  for (const options of ['gpt2', 42, ['model', 'gpt2'], true, new Map([['model', 'gpt2']])]) {
    refused(() => ts.estimate(options), 'options', /object/);
    refused(() => ts.plan(options), 'options', /object/);
  }
  // A getter that throws is named, its error kept as the cause; the module is untouched.
  const trap = { model: 'gpt2', get gpus() { throw new RangeError('mine'); } };
  refused(() => ts.estimate(trap), 'gpus', /^gpus: reading it threw \(mine\)$/);
  assert.throws(() => ts.estimate(trap), (e) => e.cause instanceof RangeError);
  // A config.json with "__proto__" keys is the same file to the command.
  const file = path.join(__dirname, '..', '..', '..', 'tests', 'data', 'hf', 'Qwen3-8B.json');
  const text = require('node:fs').readFileSync(file, 'utf8');
  const withProto = text.replace('{', '{"__proto__": {"hidden_size": 1},');
  const expected = JSON.parse(native(['estimate', '--json', '--hf-config', file]));
  assert.deepStrictEqual(ts.estimate({ hfConfig: withProto }).memory, expected.memory);
  assert.deepStrictEqual(ts.estimate({ hfConfig: JSON.parse(withProto) }).memory, expected.memory);
  stillRight(ts);
});

test('print and printErr stay the API\'s; creating modules leaves Node\'s handlers alone', async () => {
  const handlers = ['uncaughtException', 'unhandledRejection'].map((e) => process.listenerCount(e));
  for (let i = 0; i < 12; i++) {
    const ts = await createTrainsize({ print: () => {}, printErr: () => {} });
    assert.strictEqual(ts.json('estimate', JOB), JOB_JSON);
  }
  assert.deepStrictEqual(['uncaughtException', 'unhandledRejection'].map((e) => process.listenerCount(e)),
    handlers);
});
