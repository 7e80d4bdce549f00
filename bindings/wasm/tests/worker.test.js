// createTrainsizeWorker(): the same answers from a module in a worker thread, as Promises,
// while the calling thread goes on. Needs TRAINSIZE_EXE and TRAINSIZE_WASM_PACKAGE.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const exe = process.env.TRAINSIZE_EXE;
const pkg = process.env.TRAINSIZE_WASM_PACKAGE;
if (!exe || !pkg) throw new Error('set TRAINSIZE_EXE and TRAINSIZE_WASM_PACKAGE');
const { createTrainsizeWorker, TrainsizeError } = require(path.resolve(pkg, 'trainsize.js'));
const native = (args) => execFileSync(exe, args, { encoding: 'utf8' });

// A plan over several GPU types, exhaustive: long enough (tens of milliseconds or more) for
// the calling thread's timer to fire while the worker searches (the bounded search takes a
// few milliseconds).
const PLAN = { model: 'llama-3-8b', tokens: 1e11, gpu: 'a100-80gb,h100-80gb,l40s', maxGpus: 256, top: 5, exhaustive: true };
const PLAN_ARGS = ['plan', '--json', '--model', 'llama-3-8b', '--tokens', '1e11', '--gpu',
  'a100-80gb,h100-80gb,l40s', '--max-gpus', '256', '--top', '5', '--exhaustive'];

test('plan() and estimate() in a worker are the command\'s, and the caller keeps running', async () => {
  const w = createTrainsizeWorker();
  try {
    assert.strictEqual('trainsize ' + (await w.version()) + '\n', native(['--version']));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const started = Date.now();
    const plan = await w.plan(PLAN);
    const elapsed = Date.now() - started;
    clearInterval(timer);
    assert.deepStrictEqual(plan, JSON.parse(native(PLAN_ARGS)));
    // the caller's timer ran during the search: it was not blocked (a blocked thread
    // would see no tick before the answer came)
    assert.ok(ticks >= 2, `${ticks} ticks in ${elapsed} ms`);
    assert.strictEqual(await w.json('plan', PLAN), native(PLAN_ARGS));
    const job = { model: 'llama-2-7b', gpus: 8, zero: 3 };
    assert.deepStrictEqual(await w.estimate(job),
      JSON.parse(native(['estimate', '--json', '--model', 'llama-2-7b', '--gpus', '8', '--zero', '3'])));
    assert.deepStrictEqual(await w.models(), JSON.parse(native(['models', '--json'])));
    assert.strictEqual(await w.help('plan'), native(['plan', '--help']));
  } finally {
    w.terminate();
  }
});

test('a worker\'s errors are TrainsizeErrors naming the option; calls run in order', async () => {
  const w = createTrainsizeWorker();
  try {
    const calls = [w.estimate({ model: 'llama-3-9b' }), w.estimate({ model: 'gpt2', microBatch: 0 }),
      w.estimate({ model: 'gpt2' }), w.plan({ model: 'gpt2', tp: 2 }), w.estimate({ f: () => 1 })];
    const settled = await Promise.allSettled(calls);
    const options = settled.map((s) => (s.status === 'rejected' ? s.reason.option : 'ok'));
    assert.deepStrictEqual(options, ['model', 'micro-batch', 'ok', 'tp', 'f']);
    for (const s of settled) if (s.status === 'rejected') assert.ok(s.reason instanceof TrainsizeError);
    assert.strictEqual(settled[2].value.model.name, 'gpt2');
  } finally {
    w.terminate();
  }
});

test('terminate() rejects the calls still out, and every later one', async () => {
  const w = createTrainsizeWorker();
  await w.version();
  const out = w.plan(PLAN);
  w.terminate();
  await assert.rejects(out, (e) => e instanceof TrainsizeError && /terminated/.test(e.message));
  await assert.rejects(w.estimate({ model: 'gpt2' }), TrainsizeError);
});

test('a worker\'s plan reports its progress up to its total, and gives the same answer', async () => {
  const w = createTrainsizeWorker();
  try {
    const seen = [];
    const job = { model: 'mixtral-8x7b', tokens: 1e12 };
    const plan = await w.plan(job, (p) => seen.push(p));
    assert.deepStrictEqual(plan, JSON.parse(native(['plan', '--json', '--model', 'mixtral-8x7b', '--tokens', '1e12'])));
    assert.ok(seen.length >= 1);
    const last = seen[seen.length - 1];
    assert.ok(last.total > 100 && last.done === last.total && last.examined === plan.evaluated, JSON.stringify(last));
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i].done > seen[i - 1].done);
    await assert.rejects(w.plan(job, 'not a function'), (e) => e instanceof TrainsizeError && e.option === 'onProgress');
  } finally {
    w.terminate();
  }
});
