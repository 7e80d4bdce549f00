// capacity(): what a server can train, against the native command: the same options give
// the same JSON text, byte for byte, and invalid input the command's message, naming the
// option. Needs TRAINSIZE_EXE and TRAINSIZE_WASM_PACKAGE, as estimate.test.js.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { execFileSync, spawnSync } = require('node:child_process');
const path = require('node:path');

const exe = process.env.TRAINSIZE_EXE;
const pkg = process.env.TRAINSIZE_WASM_PACKAGE;
if (!exe || !pkg) throw new Error('set TRAINSIZE_EXE and TRAINSIZE_WASM_PACKAGE');
const { createTrainsize, createTrainsizeWorker, TrainsizeError } = require(path.resolve(pkg, 'trainsize.js'));

const native = (args) => execFileSync(exe, args, { encoding: 'utf8' });
const METHODS = ['pretraining', 'full-fine-tuning', 'lora', 'qlora', 'dpo', 'grpo'];

/* Two servers as the API takes them (camelCase keys too), and the command line of each. */
const SERVERS = [
  [{ gpu: 'h100-80gb', gpus: 8 }, ['--gpu', 'h100-80gb', '--gpus', '8']],
  [{ gpu: 'rtx-4090', gpus: 1 }, ['--gpu', 'rtx-4090', '--gpus', '1']],
  [{ gpu: 'rtx-4090', gpus: 1, seq: 4096, microBatch: 2, hostRam: '64GiB' },
    ['--gpu', 'rtx-4090', '--gpus', '1', '--seq', '4096', '--micro-batch', '2', '--host-ram', '64GiB']],
  [{ gpu: 'h100-80gb', servers: 2, gpusPerNode: 4 }, ['--gpu', 'h100-80gb', '--servers', '2', '--gpus-per-node', '4']],
];

test('capacity() is the command\'s JSON: 8 x h100-80gb, 1 x rtx-4090, servers and the job\'s options', async () => {
  const ts = await createTrainsize();
  for (const [options, args] of SERVERS) {
    const text = native(['capacity', '--json', ...args]);
    assert.strictEqual(ts.json('capacity', options), text, args.join(' '));
    const want = JSON.parse(text);
    assert.deepStrictEqual(ts.capacity(options), want, args.join(' '));
    // one entry per way of training, in the library's order, each a job that fits the GPU
    assert.deepStrictEqual(want.methods.map((m) => m.method), METHODS);
    for (const m of want.methods.filter((e) => e.model !== null)) {
      assert.ok(m.parameters > 0 && m.tokens_per_s > 0 && m.peak_total > 0, JSON.stringify(m));
      assert.match(m.args, new RegExp('^--model ' + m.model + ' --gpu ' + want.gpu + ' --gpus ' + want.gpus + ' '));
    }
  }
  // the two servers differ: eight H100s train larger models than one RTX 4090
  const [big, small] = [ts.capacity(SERVERS[0][0]), ts.capacity(SERVERS[1][0])];
  assert.strictEqual(big.gpus, 8);
  assert.strictEqual(small.gpus, 1);
  for (let i = 0; i < METHODS.length; i++) {
    assert.ok(big.methods[i].parameters > small.methods[i].parameters, METHODS[i]);
  }
  // servers x the GPUs per server
  assert.strictEqual(ts.capacity(SERVERS[3][0]).gpus, 8);
});

test('capacity()\'s invalid input throws the command\'s message, naming the option', async () => {
  const ts = await createTrainsize();
  const want = native(['capacity', '--json', ...SERVERS[0][1]]);
  const cases = [
    [{ gpu: 'h100-80gb', gpus: 0 }, ['--gpus', '0'], 'gpus'],
    [{ gpu: 'h999', gpus: 8 }, ['--gpu', 'h999'], 'gpu'],
    [{ gpu: 'rtx-4090', seq: 0 }, ['--gpu', 'rtx-4090', '--seq', '0'], 'seq'],
    [{ gpu: 'h100-80gb', servers: 0 }, ['--servers', '0'], 'servers'],
    [{ gpus: 8, servers: 1 }, ['--gpus', '8', '--servers', '1'], 'gpus'],
    [{ model: 'llama-3-8b' }, ['--model', 'llama-3-8b'], 'model'], // estimate's, not capacity's
  ];
  for (const [options, args, option] of cases) {
    const r = spawnSync(exe, ['capacity', '--json', ...args], { encoding: 'utf8' });
    assert.strictEqual(r.status, 2, args.join(' '));
    assert.throws(() => ts.capacity(options), (e) => {
      assert.ok(e instanceof TrainsizeError, String(e && e.stack));
      assert.strictEqual(e.option, option, e.message);
      assert.strictEqual('trainsize: ' + e.message + '\n', r.stderr);
      return true;
    });
    assert.strictEqual(ts.json('capacity', SERVERS[0][0]), want); // the module still answers right
  }
  assert.throws(() => ts.capacity({ gpus: NaN }), (e) => e instanceof TrainsizeError && e.option === 'gpus');
  assert.throws(() => ts.capacity({ help: true }), (e) => e instanceof TrainsizeError && e.option === 'help');
  assert.strictEqual(ts.help('capacity'), native(['capacity', '--help']));
});

test('capacity() in a worker is the command\'s, its errors naming the option', async () => {
  const w = createTrainsizeWorker();
  try {
    assert.deepStrictEqual(await w.capacity(SERVERS[1][0]), JSON.parse(native(['capacity', '--json', ...SERVERS[1][1]])));
    assert.strictEqual(await w.json('capacity', SERVERS[0][0]), native(['capacity', '--json', ...SERVERS[0][1]]));
    await assert.rejects(w.capacity({ gpu: 'h100-80gb', gpus: 0 }), (e) => e instanceof TrainsizeError && e.option === 'gpus');
    await assert.rejects(w.capacity({ gpu: 'h999' }), (e) => e instanceof TrainsizeError && e.option === 'gpu');
  } finally {
    w.terminate();
  }
});
