// Every value the API takes, against the native command: a number, a bigint or a string
// reaches the command as the text the command would be given, or is refused in one line
// naming the option; a bigint is exact or refused, never rounded. Every object the API
// writes as JSON (hfConfig, gpuFile, calibration, calibrate()'s runs) is refused, when it
// cannot be written, in one printable line naming the key; the worker answers alike.
// Needs TRAINSIZE_EXE and TRAINSIZE_WASM_PACKAGE, as estimate.test.js.
'use strict';
const test = require('node:test');
const assert = require('node:assert');
const { spawnSync } = require('node:child_process');
const path = require('node:path');

const exe = process.env.TRAINSIZE_EXE;
const pkg = process.env.TRAINSIZE_WASM_PACKAGE;
if (!exe || !pkg) throw new Error('set TRAINSIZE_EXE and TRAINSIZE_WASM_PACKAGE');
const { createTrainsize, createTrainsizeWorker, TrainsizeError } = require(path.resolve(pkg, 'trainsize.js'));

/* One printable line: no control character, line separator or lone surrogate. */
const ONE_LINE = /^[^\0-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]*$/u;

function native(args) {
  const r = spawnSync(exe, args, { encoding: 'utf8' });
  return r.status === 0 ? { json: JSON.parse(r.stdout) } : { error: r.stderr.replace(/^trainsize: /, '').replace(/\n$/, '') };
}

/* What the API gives: the estimate, or its error's option and message. */
function ours(ts, options) {
  try {
    return { json: ts.estimate(options) };
  } catch (e) {
    assert.ok(e instanceof TrainsizeError, String(e && e.stack));
    assert.match(e.message, ONE_LINE);
    return { error: e.message, option: e.option };
  }
}

test('numbers, bigints and numeric strings: the command\'s answer to the same text', async () => {
  const ts = await createTrainsize();
  // [option, the JavaScript value, the text the command is given]
  const cases = [
    ['gpus', 8, '8'], ['gpus', 8n, '8'], ['gpus', [8n], '8'], ['gpus', -0, '-0'], ['gpus', 0, '0'],
    ['gpus', 1e21, '1e+21'], ['gpus', 2 ** 53, '9007199254740992'], ['gpus', 2 ** 60, '1152921504606846976'],
    ['gpus', 9007199254740991n, '9007199254740991'], ['gpus', -8n, '-8'],
    ['gpus', ' 8', ' 8'], ['gpus', '8 ', '8 '], ['gpus', '+8', '+8'], ['gpus', '08', '08'], ['gpus', '8.0', '8.0'],
    ['gpus', '1e1', '1e1'], ['gpus', '0x8', '0x8'], ['gpus', '', ''], ['gpus', '8,', '8,'], ['gpus', 'NaN', 'NaN'],
    ['gpus', 'Infinity', 'Infinity'], ['gpus', '8\n', '8\n'], ['gpus', '\u00a08', '\u00a08'],
    ['tokens', 9007199254740991n, '9007199254740991'], ['tokens', 1e16, '10000000000000000'],
    ['tokens', 1.5e12, '1500000000000'], ['tokens', 2 ** 60, '1152921504606846976'],
    ['tokens', 2 ** 53 + 2, '9007199254740994'], ['tokens', '1.5T', '1.5T'], ['zero', -0, '-0'],
    ['gpu-hour-usd', -0, '-0'], ['gpu-hour-usd', 5e-324, '5e-324'], ['gpu-hour-usd', 1e-7, '1e-7'],
    ['gpu-hour-usd', Number.MAX_VALUE, '1.7976931348623157e+308'],
  ];
  for (const [option, value, text] of cases) {
    const label = option + ' = ' + text;
    const want = native(['estimate', '--json', '--model', 'gpt2', '--' + option + '=' + text]);
    const got = ours(ts, { model: 'gpt2', [option]: value });
    if (want.error) {
      assert.strictEqual(got.error, want.error, label);
      assert.strictEqual(got.option, option, label);
    } else {
      assert.deepStrictEqual(got.json, want.json, label);
    }
  }
});

test('a bigint the estimate would round, NaN and Infinity: refused in one line naming the option', async () => {
  const ts = await createTrainsize();
  const cases = [
    ['tokens', 9007199254740993n, /bigint 9007199254740993n is beyond 2\^53 - 1/],
    ['tokens', 2n ** 53n, /beyond 2\^53 - 1/], ['gpus', 2n ** 64n + 8n, /beyond 2\^53 - 1/],
    ['gpus', -(2n ** 60n), /beyond 2\^53 - 1/], ['gpus', [8, 2n ** 70n], /beyond 2\^53 - 1/],
    ['gpus', 10n ** 400n, /bigint 1{1}0{39}\u2026n/], ['gpus', NaN, /finite/], ['gpus', Infinity, /finite/],
    ['gpu-hour-usd', -Infinity, /finite/],
  ];
  for (const [option, value, pattern] of cases) {
    const got = ours(ts, { model: 'gpt2', [option]: value });
    assert.strictEqual(got.option, option, String(value));
    assert.match(got.error, new RegExp('^' + option + ': '));
    assert.match(got.error, pattern);
  }
  // the same refusals in a file: a bigint within 2^53 - 1 is written exactly
  const file = path.join(__dirname, '..', '..', '..', 'tests', 'data', 'hf', 'Qwen3-8B.json');
  const config = JSON.parse(require('node:fs').readFileSync(file, 'utf8'));
  const big = { ...config, hidden_size: BigInt(config.hidden_size), num_hidden_layers: BigInt(config.num_hidden_layers) };
  assert.deepStrictEqual(ts.estimate({ hfConfig: big }), ts.estimate({ hfConfig: config }));
  const got = ours(ts, { hfConfig: { ...config, vocab_size: 2n ** 53n + 1n } });
  assert.strictEqual(got.option, 'hf-config');
  assert.strictEqual(got.error, 'hf-config: cannot be written as JSON: vocab_size: the bigint 9007199254740993n is beyond 2^53 - 1');
  // a number beyond 2^53 is written in all its digits, the integer it is: the command's
  // answer to the file that holds them (JSON.stringify would write 1152921504606847000)
  const tmp = path.join(require('node:os').tmpdir(), 'trainsize-big-' + process.pid + '.json');
  for (const n of [2 ** 60, 2 ** 53 + 2]) {
    require('node:fs').writeFileSync(tmp, JSON.stringify({ ...config, vocab_size: 0 }).replace(
      '"vocab_size":0', '"vocab_size":' + BigInt(n)));
    try {
      const want = native(['estimate', '--json', '--hf-config', tmp]);
      assert.ok(want.error && want.error.includes(String(BigInt(n))), want.error);
      assert.strictEqual(ours(ts, { hfConfig: { ...config, vocab_size: n } }).error, want.error.replace(tmp, 'hf-config'));
    } finally {
      require('node:fs').unlinkSync(tmp);
    }
  }
});

/* Objects each entry point writes as JSON, that cannot be: [options, option, message]. */
function hostileFiles(version) {
  const calibration = { trainsize_calibration: 1, library_version: version, runs: 1, gpus: ['h100-80gb'],
    settings: { 'gemm-share': 0.6 } };
  const cyclic = { ...calibration, settings: { ...calibration.settings } };
  cyclic.settings.back = cyclic;
  const inList = { ...calibration, gpus: ['h100-80gb'] };
  inList.gpus.push(inList);
  let deep = {};
  for (let i = 0; i < 100000; i++) deep = { a: deep };
  const getter = { ...calibration, settings: { get 'gemm-share'() { throw new Error('line one\nline two\u2028three'); } } };
  const keys = new Proxy({}, { ownKeys() { throw new TypeError('no\nkeys'); } });
  const toJSON = { ...calibration, date: { toJSON() { throw new Error('bad\rdate'); } } };
  const cut = 'cannot be written as JSON: ';
  return [
    [{ calibration: cyclic }, 'calibration', `calibration: ${cut}settings.back: holds an object that holds it (a cycle)`],
    [{ calibration: inList }, 'calibration', `calibration: ${cut}gpus[1]: holds an object that holds it (a cycle)`],
    [{ calibration: { ...calibration, runs: 2n ** 60n } }, 'calibration',
      `calibration: ${cut}runs: the bigint 1152921504606846976n is beyond 2^53 - 1`],
    [{ calibration: getter }, 'calibration',
      `calibration: ${cut}settings.gemm-share: reading it threw (line one\\x0aline two\\u2028three)`],
    [{ calibration: { ...calibration, settings: { 'gemm-share': NaN } } }, 'calibration',
      `calibration: ${cut}settings.gemm-share: NaN is no JSON number`],
    [{ calibration: { ...calibration, gpus: new Set(['h100-80gb']) } }, 'calibration', `calibration: ${cut}gpus: a Set is no JSON value`],
    [{ calibration: { ...calibration, settings: { f() {} } } }, 'calibration', `calibration: ${cut}settings.f: a function is no JSON value`],
    [{ calibration: { ...calibration, gpus: [undefined] } }, 'calibration', `calibration: ${cut}gpus[0]: undefined is no JSON value`],
    [{ calibration: toJSON }, 'calibration', `calibration: ${cut}date: reading it threw (bad\\x0ddate)`],
    [{ calibration: { ...calibration, ['a\nb']: { c: Symbol('x') } } }, 'calibration', `calibration: ${cut}a\\x0ab.c: a symbol is no JSON value`],
    [{ calibration: keys }, 'calibration', `calibration: ${cut}reading it threw (no\\x0akeys)`],
    [{ hfConfig: deep }, 'hf-config', `hf-config: ${cut}${'a.'.repeat(60)}\u2026: nesting deeper than 256 levels`],
    [{ model: 'gpt2', gpuFile: { name: 'x', memory_gb: 80n ** 20n } }, 'gpu-file',
      `gpu-file: ${cut}memory_gb: the bigint 115292150460684697600000000000000000000n is beyond 2^53 - 1`],
    [{ model: 'gpt2', get gpus() { throw new RangeError('mine\nall mine'); } }, 'gpus', 'gpus: reading it threw (mine\\x0aall mine)'],
    [keys, 'options', 'options: reading its keys threw (no\\x0akeys)'],
    [{ model: 'gpt2', ['gpus\n']: 8 }, 'gpus\\x0a', 'gpus\\x0a: not an option name'],
    [{ model: 'gpt2', ['\u2028']: 8 }, '\\u2028', '\\u2028: not an option name'],
    [{ model: 'gpt2', ['\ud800x']: 8 }, '\\ud800x', '\\ud800x: not an option name'],
  ];
}

test('objects written as JSON: one printable line naming the key, the module untouched', async () => {
  const ts = await createTrainsize();
  const before = JSON.stringify(ts.estimate({ model: 'gpt2' }));
  for (const [options, option, message] of hostileFiles(ts.version)) {
    const got = ours(ts, options);
    assert.deepStrictEqual([got.option, got.error], [option, message]);
  }
  // calibrate()'s runs, its list alone and its date
  const runs = [{ job: { model: 'gpt2' }, measured: { step_seconds: 1 } }];
  runs[0].job.self = runs[0];
  assert.throws(() => ts.calibrate(runs), (e) => e instanceof TrainsizeError && e.option === 'runs' &&
    e.message === 'runs: cannot be written as JSON: runs[0].job.self: holds an object that holds it (a cycle)');
  assert.throws(() => ts.calibrate({ runs: [{ job: { model: 'gpt2', gpus: 2n ** 60n } }] }), (e) => e.option === 'runs' &&
    e.message === 'runs: cannot be written as JSON: runs[0].job.gpus: the bigint 1152921504606846976n is beyond 2^53 - 1');
  assert.throws(() => ts.calibrate({ runs: [] }, 2n ** 60n), (e) => e.option === 'date' && /beyond 2\^53/.test(e.message));
  assert.strictEqual(JSON.stringify(ts.estimate({ model: 'gpt2' })), before);
});

test('the worker refuses alike, before anything is sent, naming the key', async () => {
  const ts = await createTrainsize();
  const w = createTrainsizeWorker();
  try {
    for (const [options, option, message] of hostileFiles(ts.version)) {
      await assert.rejects(w.estimate(options), (e) => e instanceof TrainsizeError && e.option === option &&
        e.message === message);
    }
    await assert.rejects(w.estimate({ model: 'gpt2', gpus: () => 8 }),
      (e) => e.option === 'gpus' && e.message === 'gpus: expected a string, number or boolean');
    await assert.rejects(w.plan({ model: 'gpt2', tokens: 2n ** 60n }), (e) => e.option === 'tokens');
    await assert.rejects(w.json('bogus', {}), (e) => e.option === 'command');
    await assert.rejects(w.help(() => 1), (e) => e.option === 'command');
    await assert.rejects(w.calibrate([{ job: { f: Symbol('x') } }]), (e) => e.option === 'runs' && /job\.f: a symbol/.test(e.message));
    // a bigint within 2^53 - 1 reaches the worker exactly, and each getter is read once
    let reads = 0;
    const job = { model: 'llama-2-7b', get gpus() { reads++; return 8n; }, zero: 3 };
    assert.deepStrictEqual(await w.estimate(job), ts.estimate({ model: 'llama-2-7b', gpus: 8, zero: 3 }));
    assert.strictEqual(reads, 1);
    assert.strictEqual(await w.optionName('micro_batch'), 'micro-batch');
    assert.strictEqual((await w.estimate({ model: 'gpt2' })).model.name, 'gpt2'); // the worker still answers
  } finally {
    w.terminate();
  }
});

test('optionName(): the option a key names, as estimate() reads it', async () => {
  const ts = await createTrainsize();
  for (const key of ['microBatch', 'micro_batch', 'micro-batch']) assert.strictEqual(ts.optionName(key), 'micro-batch');
  assert.strictEqual(ts.optionName('hfConfig'), 'hf-config');
  assert.throws(() => ts.optionName('a\nb'), (e) => e.option === 'a\\x0ab' && e.message === 'a\\x0ab: not an option name');
  assert.throws(() => ts.optionName('help'), (e) => e.option === 'help');
  assert.throws(() => ts.optionName(7), (e) => e.option === '7');
});
