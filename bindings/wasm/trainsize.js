/* trainsize in JavaScript: the libtrainsize WebAssembly module and the `trainsize`
 * command's own JSON, for Node and browsers.
 *
 *   const { createTrainsize } = require('trainsize');
 *   const ts = await createTrainsize();
 *   ts.estimate({ model: 'llama-2-7b', gpu: 'a100-80gb', gpus: 8, zero: 3 })
 *     // === the object `trainsize estimate --json --model llama-2-7b ...` prints
 *   ts.plan({ model: 'llama-2-70b', tokens: 2e12 }); ts.models(); ts.gpus(); ts.version
 *   ts.capacity({ gpu: 'h100-80gb', gpus: 8 })  // what they can train (`trainsize capacity --json`)
 *   ts.warnings()    // { "low-vram-headroom": "one sentence", ... }; ts.exampleJob()
 *   ts.calibrate({ runs: [...] })  // a site calibration, for estimate({ calibration })
 *   ts.help('estimate')  // the text `trainsize estimate --help` prints
 *   const w = createTrainsizeWorker(); await w.plan({ ... })  // the same in a worker
 *
 * Option names are the command's, kebab-case or camelCase (microBatch = micro-batch);
 * values are strings, numbers, bigints (within 2^53 - 1: exact) or booleans (arrays are
 * joined with commas); hfConfig, gpuFile and calibration take the file's contents as an
 * object or JSON text. Invalid input throws a TrainsizeError with the option it names and
 * the command's message, or this file's when the input cannot be handed to the command at
 * all (see README.md: limits); either is one printable line. A failed call leaves the
 * module as it was: the next call gets the right answer. */
'use strict';

(function (root, factory) {
  if (typeof module === 'object' && module.exports) {
    module.exports = factory(require('./trainsize_core.js'));
  } else {
    root.trainsize = factory(root.createTrainsizeModule);
  }
})(typeof self !== 'undefined' ? self : this, function (createModule) {
  class TrainsizeError extends Error {
    constructor(option, message, cause) {
      super(message, cause === undefined ? undefined : { cause });
      this.name = 'TrainsizeError';
      /** The option the message names ('' when none). */
      this.option = option;
    }
  }

  /* Limits, checked before anything reaches the module. A config file is read up to 1 MiB
   * by the library (TRAINSIZE_HF_CONFIG_MAX_BYTES); no option value comes near 64 KiB. */
  const VALUE_MAX = 65536;
  const FILE_MAX = 1 << 20;
  const ARGS_MAX = 1 << 20;
  const FILES = new Set(['hf-config', 'gpu-file', 'calibration']);
  const TOPICS = ['estimate', 'plan', 'models', 'gpus', 'calibrate', 'capacity'];
  /* The commands json() runs: those that take options and print one JSON object. */
  const JSON_COMMANDS = ['estimate', 'plan', 'capacity'];

  function refuse(option, why, cause) {
    throw new TrainsizeError(option, option + ': ' + why, cause);
  }

  /* Text from the caller (a key, a value, a message of its own) as one printable line:
   * control characters, line separators and lone surrogates escaped as the library writes
   * them (\x0a, \ud800), cut at `max` UTF-16 units. */
  function printable(text, max) {
    let s = String(text);
    if (max && s.length > max) s = s.slice(0, /[\ud800-\udbff]/.test(s[max - 1]) ? max - 1 : max) + '\u2026';
    return s.replace(/[\0-\x1f\x7f-\x9f\u2028-\u202e\u2066-\u2069\ud800-\udfff]/gu, (c) => {
      const n = c.charCodeAt(0);
      return n < 0x100 ? '\\x' + n.toString(16).padStart(2, '0') : '\\u' + n.toString(16);
    });
  }

  /* What an exception thrown by the caller's own code says, in one line (reading its
   * message may throw too). */
  function said(e) {
    try {
      return printable(e instanceof Error ? e.message : e, 200);
    } catch (again) {
      return 'an exception';
    }
  }

  /* camelCase or kebab-case -> the command's kebab-case; anything else is no option name
   * (it could not reach the command as one argument, "--NAME=VALUE"). */
  const NAMES = new Map(); /* key -> option name, for the keys seen (a key's name never changes) */
  function optionName(key) {
    const known = NAMES.get(key);
    if (known !== undefined) return known;
    if (typeof key !== 'string') refuse(printable(key, 200), 'not an option name');
    const name = key.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase()).replace(/_/g, '-');
    if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) refuse(printable(key, 200), 'not an option name');
    if (name === 'help') refuse(name, 'not an option; help(command) gives the command\'s help text');
    if (NAMES.size < 4096) NAMES.set(key, name);
    return name;
  }

  /* A bigint is taken only where a number holds it exactly: the command reads its
   * options as numbers, and a larger one would be computed rounded. */
  const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
  function bigintText(name, value) {
    if (value > SAFE || value < -SAFE) {
      refuse(name, 'the bigint ' + printable(value, 40) + 'n is beyond 2^53 - 1: the estimate would compute ' +
        'with a rounded value');
    }
    return String(value);
  }

  /* A number as text the command reads as exactly this number: the shortest text that
   * rounds back to it, but an integer beyond 2^53 in all its digits (String(2 ** 60) is
   * 1152921504606847000, another integer to the command's exact integer reader); -0 as
   * "-0", as the command is given it. */
  function numberText(value) {
    if (Object.is(value, -0)) return '-0';
    const big = Number.isInteger(value) && Math.abs(value) > Number.MAX_SAFE_INTEGER && Math.abs(value) < 1e21;
    return big ? BigInt(value).toString() : String(value);
  }

  /* A value as the command's argument text; a string as it is. */
  function scalarText(name, value) {
    if (typeof value === 'boolean') return value ? 'true' : 'false';
    if (typeof value === 'bigint') return bigintText(name, value);
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) refuse(name, 'not a finite number');
      return numberText(value);
    }
    if (typeof value !== 'string') refuse(name, 'expected a string, number or boolean');
    return value;
  }

  function optionText(name, value) {
    const text = Array.isArray(value) ? value.map((v) => {
      if (Array.isArray(v)) refuse(name, 'expected a string, number or boolean in the list');
      return scalarText(name, v);
    }).join(',') : scalarText(name, value);
    if (text.length > VALUE_MAX) refuse(name, 'too long (over ' + VALUE_MAX + ' characters)');
    if (text.includes('\0')) refuse(name, 'contains a NUL character');
    return text;
  }

  /* An object as JSON text, the text JSON.stringify writes, but what that refuses in
   * several lines, or writes as something else, is refused here in one line naming the key:
   * a cycle, a getter or toJSON that throws, a bigint beyond 2^53 - 1 (one within is
   * written exactly), NaN and Infinity (null there), functions and symbols (left out),
   * Maps and Sets ({}), nesting deeper than JSON_DEPTH (a stack overflow there; the
   * library reads 32 levels and names a deeper file itself). */
  const JSON_DEPTH = 256;
  function jsonText(name, root) {
    const open = new Set(); /* the objects on the path: one met again is a cycle */
    let size = 0;
    function fail(path, why, cause) {
      refuse(name, 'cannot be written as JSON: ' + (path ? printable(path, 120) + ': ' : '') + why, cause);
    }
    function read(path, get) {
      try {
        return get();
      } catch (e) {
        return fail(path, 'reading it threw (' + said(e) + ')', e);
      }
    }
    function write(value, path, key, depth) {
      if (value !== null && typeof value === 'object' && typeof value.toJSON === 'function') {
        const object = value;
        value = read(path, () => object.toJSON(String(key)));
      }
      switch (typeof value) {
      case 'string': return JSON.stringify(value);
      case 'boolean': return value ? 'true' : 'false';
      case 'bigint':
        if (value > SAFE || value < -SAFE) fail(path, 'the bigint ' + printable(value, 40) + 'n is beyond 2^53 - 1');
        return String(value);
      case 'number':
        if (!Number.isFinite(value)) fail(path, String(value) + ' is no JSON number');
        return Object.is(value, -0) ? '0' : numberText(value); /* JSON.stringify writes -0 as 0 */
      case 'object': break;
      default: return fail(path, 'a ' + typeof value + ' is no JSON value');
      }
      if (value === null) return 'null';
      const array = Array.isArray(value);
      if (!array && Object.prototype.toString.call(value) !== '[object Object]') {
        fail(path, 'a ' + Object.prototype.toString.call(value).slice(8, -1) + ' is no JSON value');
      }
      if (open.has(value)) fail(path, 'holds an object that holds it (a cycle)');
      if (depth >= JSON_DEPTH) fail(path, 'nesting deeper than ' + JSON_DEPTH + ' levels');
      open.add(value);
      const parts = [];
      const keys = read(path, () => (array ? Array.from({ length: value.length }, (_, i) => i) : Object.keys(value)));
      for (const key of keys) {
        const at = array ? path + '[' + key + ']' : path ? path + '.' + key : key;
        const v = read(at, () => value[key]);
        if (v === undefined && !array) continue; /* an absent key, as JSON.stringify takes it */
        if (v === undefined) fail(at, 'undefined is no JSON value');
        const text = write(v, at, key, depth + 1);
        size += text.length + String(key).length + 4;
        if (size > FILE_MAX) refuse(name, 'over ' + FILE_MAX + ' bytes');
        parts.push(array ? text : JSON.stringify(key) + ':' + text);
      }
      open.delete(value);
      return array ? '[' + parts.join(',') + ']' : '{' + parts.join(',') + '}';
    }
    return write(root, '', '', 0);
  }

  /* A config.json (hf-config, gpu-file, calibration): its contents, as an object or JSON
   * text, UTF-8. */
  function fileText(name, value) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) value = jsonText(name, value);
    if (typeof value !== 'string' || !value.trimStart().startsWith('{')) {
      refuse(name, 'expected the file\'s contents, an object or JSON text (a path is not read)');
    }
    if (value.length > FILE_MAX) refuse(name, 'over ' + FILE_MAX + ' bytes');
    return value;
  }
  function fileBytes(name, value) {
    const bytes = new TextEncoder().encode(fileText(name, value));
    if (bytes.length > FILE_MAX) refuse(name, 'over ' + FILE_MAX + ' bytes');
    return bytes;
  }

  /* The options as the command takes them: each key's option name and its text (a file's
   * contents as JSON text), each value read once. A getter that throws is named, as any
   * value the command could not be given. */
  function optionTexts(options) {
    if (options === undefined || options === null) return [];
    /* A plain object: a Map, an array or a string would give no options or the wrong ones. */
    if (Object.prototype.toString.call(options) !== '[object Object]') refuse('options', 'expected an object');
    let keys;
    try {
      keys = Object.keys(options);
    } catch (e) {
      refuse('options', 'reading its keys threw (' + said(e) + ')', e);
    }
    const texts = [];
    for (const key of keys) {
      const name = optionName(key);
      let value;
      try {
        value = options[key];
      } catch (e) {
        refuse(name, 'reading it threw (' + said(e) + ')', e);
      }
      if (value === undefined || value === null) continue;
      texts.push([name, FILES.has(name) ? fileText(name, value) : optionText(name, value)]);
    }
    return texts;
  }
  /* The command line for these options, and the files it reads. Every argument is
   * "--NAME=VALUE", so no value can be taken for an option (--help) or a flag. */
  function commandLine(command, options) {
    const argv = ['trainsize', command, '--json'];
    const files = [];
    let size = 0;
    for (const [name, value] of optionTexts(options)) {
      let text = value;
      if (FILES.has(name)) {
        /* In the module's file system under the option's name, so that the library's
         * messages about it start with the option ("hf-config: ..."). */
        files.push([name, fileBytes(name, value)]);
        text = name;
      }
      size += name.length + text.length;
      if (size > ARGS_MAX) refuse('options', 'too long together (over ' + ARGS_MAX + ' characters)');
      argv.push('--' + name + '=' + text);
    }
    return { argv, files };
  }

  /* The commands json() runs, and the topics of help(). */
  function jsonCommand(command) {
    return JSON_COMMANDS.includes(command) ? command : refuse('command', 'expected "estimate", "plan" or "capacity"');
  }
  function helpTopic(command) {
    return TOPICS.includes(command) ? command : refuse('command', 'expected one of ' + TOPICS.join(', '));
  }

  /* The option a message of the command names: "NAME: ...", "--NAME ...", or
   * "unknown option '--NAME'" and the like; capacity's own messages start with its name
   * ("capacity: unknown option '--model'"), which is no option. */
  function optionOf(message) {
    const line = message.replace(/^capacity: /, '');
    const m = /^([a-z0-9-]+):/.exec(line) || /^(?:(?:unknown )?options? '?)?--([a-z0-9-]+)/.exec(line);
    return m ? m[1] : '';
  }

  /* The estimate's JSON object is built here from the result's fields, which the module
   * leaves as numbers (glue.c: one 8-byte slot per field), in the order the command's JSON
   * writer gives them: the field paths as a tree, keys in the order they first appear. */
  const FIELD = { U64: 0, F64: 1, BOOL: 2, STRING: 3, CHOICE: 4, FLAGS: 5 };

  function shapeOf(paths) {
    const root = { names: [], items: [], index: new Map() };
    paths.forEach((path, field) => {
      if (path === 'trainsize_version') return; /* written first */
      const parts = path.split('.');
      let node = root;
      parts.forEach((part, k) => {
        if (part === '' || part === '__proto__') {
          throw new TrainsizeError('', 'the library\'s result field "' + path + '" cannot be a key');
        }
        const at = node.index.get(part);
        const leaf = k === parts.length - 1;
        if (leaf || at === undefined) {
          if (at !== undefined) throw new TrainsizeError('', 'result field "' + path + '" clashes with another');
          const item = leaf ? field : { names: [], items: [], index: new Map() };
          node.index.set(part, node.names.length);
          node.names.push(part);
          node.items.push(item);
          node = item;
        } else {
          node = node.items[at];
          if (typeof node === 'number') throw new TrainsizeError('', 'result field "' + path + '" clashes with another');
        }
      });
    });
    return root;
  }

  /* The text at `ptr` (NUL-terminated) as the library's JSON writer gives it: valid UTF-8
   * decoded, each byte of an invalid sequence one U+FFFD (lib/json_write.c, ts_json_string). */
  function cText(heap, ptr) {
    let end = ptr;
    let ascii = true;
    while (heap[end] !== 0) {
      if (heap[end] >= 0x80) ascii = false;
      end++;
    }
    if (ascii) return String.fromCharCode.apply(null, heap.subarray(ptr, end));
    let s = '';
    for (let i = ptr; i < end;) {
      const b = heap[i];
      let n = 0;
      let cp = 0;
      if (b < 0x80) { n = 1; cp = b; }
      else if (b >= 0xc2 && b <= 0xdf) { n = 2; cp = b & 0x1f; }
      else if (b >= 0xe0 && b <= 0xef) { n = 3; cp = b & 0x0f; }
      else if (b >= 0xf0 && b <= 0xf4) { n = 4; cp = b & 0x07; }
      if (n > 1) {
        if (i + n > end) n = 0;
        for (let k = 1; k < n; k++) {
          if ((heap[i + k] & 0xc0) !== 0x80) { n = 0; break; }
          cp = (cp << 6) | (heap[i + k] & 0x3f);
        }
        if ((n === 3 && cp < 0x800) || (n === 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
            (cp >= 0xd800 && cp <= 0xdfff)) n = 0;
      }
      if (n === 0) { s += '\ufffd'; i++; } else { s += String.fromCodePoint(cp); i += n; }
    }
    return s;
  }

  async function createTrainsize(moduleOptions) {
    const err = [];
    /* The API reads the command's output from the module's memory and its error line
     * through printErr; both are its own. */
    const settings = Object.assign({}, moduleOptions || {}, {
      print: () => {},
      printErr: (line) => err.push(line),
    });
    /* Node: hand the module its wasm (emscripten 3.1.6's loader would fetch() a path). */
    if (!settings.wasmBinary && typeof process === 'object' && process.versions && process.versions.node &&
        typeof __dirname === 'string') {
      const path = require('path').join(__dirname, 'trainsize_core.wasm');
      if (require('fs').existsSync(path)) settings.wasmBinary = require('fs').readFileSync(path);
    }
    const M = await createModule(settings);

    const fieldCount = M._tsw_init();
    if (fieldCount < 0) throw new TrainsizeError('', 'the library has more result fields than the module holds');
    const paths = [];
    const types = new Int32Array(fieldCount);
    for (let i = 0; i < fieldCount; i++) {
      paths.push(M.UTF8ToString(M._tsw_field_path(i)));
      types[i] = M._tsw_field_type(i);
    }
    const shape = shapeOf(paths);
    const warningNames = [];
    const warningTexts = {};
    for (let bit = 0; bit < 64; bit++) {
      const p = M._tsw_warning_name(bit);
      warningNames.push(p ? M.UTF8ToString(p) : null);
      const t = M._tsw_warning_text(bit);
      if (p && t) warningTexts[warningNames[bit]] = M.UTF8ToString(t);
    }
    const KINDS = ['int', 'float', 'bool', 'choice', 'name', 'list'];
    const params = [];
    for (let i = 0; M._tsw_param_text(i, 0); i++) {
      const t = (k) => M.UTF8ToString(M._tsw_param_text(i, k));
      const choices = t(1);
      params.push({ name: t(0), kind: KINDS[M._tsw_param_number(i, 0)] || 'unknown',
        choices: choices ? choices.split('|') : [], min: M._tsw_param_number(i, 1),
        max: M._tsw_param_number(i, 2), default: t(2), unit: t(3), doc: t(4) });
    }
    const example = {};
    for (let i = 0; M._tsw_example_setting(i, 0); i++) {
      example[M.UTF8ToString(M._tsw_example_setting(i, 0))] = M.UTF8ToString(M._tsw_example_setting(i, 1));
    }
    const slots = M._tsw_slots();
    const choices = new Map(); /* a choice's name is static text: decoded once */

    /* Arguments go to one block allocated now, before the state below is kept (so that a
     * reset keeps it); a call whose arguments need more allocates its own. */
    const SCRATCH = 65536;
    const scratch = M._malloc(SCRATCH);
    if (!scratch) throw new TrainsizeError('', 'out of memory (the arguments\' block)');

    /* The module's whole state is its memory and its stack pointer: kept as they are now,
     * to put back when a call is cut short (a trap, or an exception thrown through it),
     * which would leave the C heap, stack and stdio half-way. */
    const fresh = { memory: M.HEAPU8.slice(0, M._sbrk(0)), stack: M.stackSave() };
    /* The options of the last estimate: the same again (no file among them) estimates the
     * job the module kept, without parsing and building it (as the Python binding keeps its
     * recent jobs). Cleared when a call fails and when the module is reset. */
    let lastKey = null;
    function reset() {
      lastKey = null;
      M.HEAPU8.set(fresh.memory);
      M.HEAPU8.fill(0, fresh.memory.length);
      M.stackRestore(fresh.stack);
      /* The JavaScript side of the C stdio: files left open, a line not yet ended. */
      M.FS.streams.forEach((s, fd) => { if (s && fd > 2) M.FS.close(s); });
      for (const fd of [1, 2]) {
        const s = M.FS.getStream(fd);
        if (s && s.tty) s.tty.output = [];
      }
    }

    function alloc(n) {
      const p = M._malloc(n);
      if (!p) throw new TrainsizeError('', 'out of memory (' + n + ' bytes for the arguments)');
      return p;
    }

    /* argv in the module's memory: the vector, then the strings, encoded in one go.
     * Returns [vector, block] (block 0: the scratch block was used). */
    const encoder = new TextEncoder();
    function place(argv) {
      const joined = argv.join('\0') + '\0';
      const vecBytes = 4 * argv.length;
      /* UTF-8 takes at most 3 bytes per UTF-16 unit */
      const bytes = vecBytes + 3 * joined.length;
      const block = bytes <= SCRATCH ? 0 : alloc(bytes);
      const vec = block || scratch;
      const heap = M.HEAPU8;
      const { written } = encoder.encodeInto(joined, heap.subarray(vec + vecBytes, vec + bytes));
      const u32 = M.HEAPU32;
      let at = vec + vecBytes;
      const end = at + written;
      for (let i = 0; i < argv.length; i++) {
        u32[(vec >> 2) + i] = at;
        while (at < end && heap[at] !== 0) at++;
        at++;
      }
      return [vec, block];
    }

    /* Call a module entry on the command line; its status, or a TrainsizeError from the
     * command's error line. */
    function call(entry, argv, files, skip) {
      err.length = 0;
      let block = 0;
      let status;
      try {
        for (const [path, bytes] of files) M.FS.writeFile(path, bytes);
        let vec;
        [vec, block] = place(argv);
        try {
          status = entry(argv.length - skip, vec + 4 * skip);
        } catch (e) {
          reset();
          block = 0;
          throw failed(e);
        }
      } finally {
        if (block) M._free(block);
        for (const [path] of files) {
          if (M.FS.analyzePath(path).exists) M.FS.unlink(path);
        }
      }
      if (status !== 0) throw commandError(status);
    }

    /* A call cut short inside the module (after reset()), and the command's own failure. */
    function failed(e) {
      return new TrainsizeError('', 'the module failed (' + said(e) + '); it was reset', e);
    }
    function commandError(status) {
      const line = err.join('\n').replace(/^trainsize: /, '');
      return new TrainsizeError(optionOf(line), line || 'trainsize failed with status ' + status);
    }

    const decoder = new TextDecoder();
    function output() {
      const p = M._tsw_output();
      return decoder.decode(M.HEAPU8.subarray(p, p + M._tsw_output_length()));
    }

    /* Run the command; what it would print. */
    function run(argv, files) {
      call(M._tsw_run, argv, files, 0);
      return output().replace(/\n$/, '');
    }

    function jsonOf(text) {
      try {
        return JSON.parse(text);
      } catch (e) {
        throw new TrainsizeError('', 'the command printed no JSON: ' + printable(text, 80));
      }
    }

    function text(command, options) {
      const { argv, files } = commandLine(jsonCommand(command), options);
      return run(argv, files);
    }

    const version = run(['trainsize', '--version'], []).replace(/^trainsize /, '').trim();

    /* A string field's text: its slot points into the result, whose text is most often
     * the same as the last call's, so the last text is kept and reused while the bytes
     * are the same (no string made, no garbage). */
    const lastText = new Map();
    function textField(field) {
      const heap = M.HEAPU8;
      const p = M.HEAPU32[(slots >> 2) + 2 * field];
      const last = lastText.get(field);
      if (last !== undefined) {
        const b = last.bytes;
        let i = 0;
        while (i < b.length && heap[p + i] === b[i]) i++;
        if (i === b.length && heap[p + i] === 0) return last.text;
      }
      let end = p;
      while (heap[end] !== 0) end++;
      const text = cText(heap, p);
      lastText.set(field, { bytes: heap.slice(p, end), text });
      return text;
    }
    function choiceField(field) {
      const p = M.HEAPU32[(slots >> 2) + 2 * field];
      let name = choices.get(p);
      if (name === undefined) choices.set(p, (name = cText(M.HEAPU8, p)));
      return name;
    }
    function flagsField(field) {
      const names = [];
      for (let w = 0; w < 2; w++) {
        const bits = M.HEAPU32[(slots >> 2) + 2 * field + w];
        for (let b = 0; b < 32; b++) {
          if ((bits >>> b) & 1 && warningNames[32 * w + b] !== null) names.push(warningNames[32 * w + b]);
        }
      }
      return names;
    }
    const finite = (d) => (Number.isFinite(d) ? d : null);

    /* One field's value from its slot, as JSON.parse reads the command's text of it. */
    function value(field) {
      const f64 = M.HEAPF64;
      switch (types[field]) {
      case FIELD.U64: return f64[(slots >> 3) + field];
      case FIELD.F64: return finite(f64[(slots >> 3) + field]);
      case FIELD.BOOL: return f64[(slots >> 3) + field] !== 0;
      case FIELD.STRING: return textField(field);
      case FIELD.CHOICE: return choiceField(field);
      case FIELD.FLAGS: return flagsField(field);
      default: return null; /* a type newer than this file, as the command writes it */
      }
    }

    /* The object, key by key (for a page whose Content-Security-Policy forbids the
     * function below). */
    function members(o, node) {
      const { names, items } = node;
      for (let i = 0; i < names.length; i++) {
        const item = items[i];
        o[names[i]] = typeof item === 'number' ? value(item) : members({}, item);
      }
      return o;
    }

    /* The same object as one object literal, compiled once from the shape: V8 then makes
     * each object with all its keys at once instead of a keyed store per key (about five
     * times faster). Keys are JSON string literals of the library's own field paths. */
    function literalOf(node) {
      const f = slots >> 3;
      return '{' + node.names.map((name, i) => {
        const item = node.items[i];
        let v;
        if (typeof item !== 'number') v = literalOf(item);
        else if (types[item] === FIELD.U64) v = 'h[' + (f + item) + ']';
        else if (types[item] === FIELD.F64) v = 'n(h[' + (f + item) + '])';
        else if (types[item] === FIELD.BOOL) v = 'h[' + (f + item) + '] !== 0';
        else if (types[item] === FIELD.STRING) v = 's(' + item + ')';
        else if (types[item] === FIELD.CHOICE) v = 'c(' + item + ')';
        else if (types[item] === FIELD.FLAGS) v = 'w(' + item + ')';
        else v = 'null';
        return JSON.stringify(name) + ': ' + v;
      }).join(', ') + '}';
    }
    let build = () => members({ trainsize_version: version }, shape);
    {
      try {
        const literal = '{"trainsize_version": v, ' + literalOf(shape).slice(1);
        const make = new Function('n', 's', 'c', 'w', 'v', 'M',
          '"use strict"; return function () { const h = M.HEAPF64; return ' + literal + '; };');
        build = make(finite, textField, choiceField, flagsField, version, M);
      } catch (e) {
        /* code generation refused (CSP, --disallow-code-generation-from-strings) */
      }
    }

    /* The planner's progress reaches the module's onPlanProgress (glue.c) while a plan()
     * that asked for it runs; what the caller's function throws cancels the search and is
     * thrown again once the module has returned (never through its frames). */
    function plan(options, onProgress) {
      if (onProgress === undefined || onProgress === null) return jsonOf(text('plan', options));
      if (typeof onProgress !== 'function') refuse('onProgress', 'expected a function');
      let thrown = null;
      M.onPlanProgress = (done, total, examined) => {
        try {
          return onProgress({ done, total, examined }) === true;
        } catch (e) {
          thrown = e;
          return true;
        }
      };
      try {
        return jsonOf(text('plan', options));
      } catch (e) {
        throw thrown || e;
      } finally {
        delete M.onPlanProgress;
      }
    }

    function estimate(options) {
      const { argv, files } = commandLine('estimate', options);
      const key = files.length ? null : argv.join('\0');
      if (key !== null && key === lastKey) {
        err.length = 0;
        let status;
        try {
          status = M._tsw_estimate_again();
        } catch (e) {
          reset();
          throw failed(e);
        }
        if (status !== 0) {
          lastKey = null;
          throw commandError(status);
        }
      } else {
        lastKey = null;
        call(M._tsw_estimate, argv, files, 2);
        lastKey = key;
      }
      const o = build();
      o.advice = M._tsw_output_length() > 0 ? jsonOf(output()).advice : [];
      return o;
    }

    return {
      /** The object `trainsize estimate --json` prints for these options (built from the
       *  result's fields in the module's memory; no JSON is written or parsed). */
      estimate,
      /** The object `trainsize plan --json` prints for these options. `onProgress`, when
       *  given, is called as the search goes with { done, total, examined } (GPU counts
       *  searched of their total, configurations examined); returning true cancels the
       *  search, which then throws a TrainsizeError. */
      plan,
      /** A site calibration fitted to measured runs (`trainsize calibrate`): `runs` is the
       *  RUNS.json contents ({ runs: [...] }, the list alone, or JSON text); `date`
       *  ("YYYY-MM-DD") what it records (default today). Returns the calibration object,
       *  which estimate({ calibration }) and plan({ calibration }) take. */
      calibrate: (runs, date) => {
        const bytes = fileBytes('runs', Array.isArray(runs) ? { runs } : runs);
        const argv = ['trainsize', 'calibrate', 'runs'];
        if (date !== undefined) argv.push('--date=' + optionText('date', date));
        return jsonOf(run(argv, [['runs', bytes]]));
      },
      /** What these GPUs can train (`trainsize capacity --json`): for each way of training,
       *  the largest catalogue model that fits and the estimate options that make it fit.
       *  Options: gpu, gpus or servers, gpusPerNode, seq, microBatch, hostRam, each read as
       *  the command reads it (its defaults: h100-80gb, 8 GPUs, sequence 2048, micro-batch 1). */
      capacity: (options) => jsonOf(text('capacity', options)),
      /** The built-in model presets (`trainsize models --json`). */
      models: () => jsonOf(run(['trainsize', 'models', '--json'], [])),
      /** The GPU catalogue (`trainsize gpus --json`). */
      gpus: () => jsonOf(run(['trainsize', 'gpus', '--json'], [])),
      /** The command's JSON text for a command ("estimate", "plan" or "capacity") and
       *  options, as the command prints it. */
      json: (command, options) => text(command, options) + '\n',
      /** The command's help text: `trainsize --help`, or `trainsize COMMAND --help` for
       *  "estimate", "plan", "models", "gpus", "calibrate" or "capacity". */
      help: (command) => {
        if (command !== undefined) helpTopic(command);
        return run(command === undefined ? ['trainsize', '--help'] : ['trainsize', command, '--help'], []) + '\n';
      },
      /** The library's version ("major.minor.patch"). */
      version,
      /** Each warning's name (as `warnings` lists it) and its one-sentence explanation. */
      warnings: () => Object.assign({}, warningTexts),
      /** The library's parameter catalogue, the options of estimate and plan: name,
       *  kind ("int", "float", "bool", "choice", "name", "list"), choices, min, max,
       *  default (as text; "" when it depends on the job), unit and doc. */
      params: () => params.map((p) => Object.assign({}, p, { choices: p.choices.slice() })),
      /** The built-in example job (`trainsize` with no arguments) as options. */
      exampleJob: () => Object.assign({}, example),
      /** The command's option name for an option's key (microBatch, micro_batch and
       *  micro-batch are "micro-batch"), as estimate() and plan() read it; a key that is no
       *  option name throws a TrainsizeError naming it. Whether the command knows the
       *  option is its own answer. */
      optionName,
      /** For the benchmark: seconds per trainsize_estimate() of this job inside the module
       *  (the library alone, no options parsed and no result converted), over `count` runs. */
      benchLibrary: (options, count) => {
        const { argv } = commandLine('estimate', options);
        const [vec, block] = place(argv);
        try {
          const s = M._tsw_bench_native(argv.length - 2, vec + 8, count);
          if (s < 0) throw new TrainsizeError('', 'invalid job for the benchmark');
          return s;
        } finally {
          if (block) M._free(block);
        }
      },
    };
  }

  /* Where trainsize-worker.js is: beside this file (its URL while it loads in a page). */
  const here = typeof document === 'object' && document.currentScript && document.currentScript.src;

  /* The same API in a worker of its own (trainsize-worker.js): every method returns a
   * Promise, so that a page stays responsive while plan() searches. `url` is the worker
   * script's (default: beside trainsize.js). terminate() stops it; calls still waiting
   * then reject. */
  function createTrainsizeWorker(url) {
    let worker;
    const pending = new Map();
    let next = 1;
    let dead = null;
    function fail(e) {
      if (dead) return;
      dead = e instanceof TrainsizeError ? e : new TrainsizeError('', 'the worker failed (' + said(e) + ')', e);
      pending.forEach((p) => p.reject(dead));
      pending.clear();
    }
    function settle(m) {
      const p = m && pending.get(m.id);
      if (!p) return;
      if (m.progress) { /* not an answer: the search goes on */
        if (p.onProgress) {
          try { p.onProgress(m.progress); } catch (e) { /* the caller's; the search is not stopped */ }
        }
        return;
      }
      pending.delete(m.id);
      if (m.error) p.reject(new TrainsizeError(printable(m.error.option, 200), printable(m.error.message)));
      else p.resolve(m.result);
    }
    if (typeof Worker === 'function') {
      worker = new Worker(url || (here ? new URL('trainsize-worker.js', here).href : 'trainsize-worker.js'));
      worker.onmessage = (e) => settle(e.data);
      worker.onerror = (e) => { if (e.preventDefault) e.preventDefault(); fail(new Error(e.message || 'cannot start')); };
    } else {
      const { Worker: NodeWorker } = require('worker_threads');
      worker = new NodeWorker(url || require('path').join(__dirname, 'trainsize-worker.js'));
      worker.on('message', settle);
      worker.on('error', fail);
      worker.on('exit', () => fail(new TrainsizeError('', 'the worker stopped')));
      worker.unref(); /* a worker waiting for calls does not keep Node running */
    }
    /* `args()` gives the call's arguments as text the worker is sent (checked here, with the
     * API's own errors), so that nothing fails to be copied and each getter is read once. */
    function send(method, args, onProgress) {
      if (dead) return Promise.reject(dead);
      return new Promise((resolve, reject) => {
        const message = { id: next++, method, args: args() };
        if (onProgress) message.progress = true;
        pending.set(message.id, { resolve, reject, onProgress });
        if (pending.size === 1 && worker.ref) worker.ref(); /* while a call is out */
        try {
          worker.postMessage(message);
        } catch (e) { /* cannot be: every argument is text */
          pending.delete(message.id);
          reject(new TrainsizeError('', 'cannot be sent to the worker (' + said(e) + ')', e));
        }
      }).finally(() => { if (pending.size === 0 && worker.unref) worker.unref(); });
    }
    /* Options as the API takes them, each value its text (a later key of the same option
     * wins, as the command takes the last). */
    function texts(options) {
      if (options === undefined || options === null) return options;
      const o = {};
      for (const [name, text] of optionTexts(options)) {
        delete o[name];
        o[name] = text;
      }
      return o;
    }
    return {
      estimate: (options) => send('estimate', () => [texts(options)]),
      /* onProgress({ done, total, examined }) as the worker searches; a worker's search
       * cannot be cancelled from here (terminate() stops it). */
      plan: (options, onProgress) => send('plan', () => {
        if (onProgress !== undefined && onProgress !== null && typeof onProgress !== 'function')
          refuse('onProgress', 'expected a function');
        return [texts(options)];
      }, typeof onProgress === 'function' ? onProgress : null),
      capacity: (options) => send('capacity', () => [texts(options)]),
      models: () => send('models', () => []),
      gpus: () => send('gpus', () => []),
      json: (command, options) => send('json', () => [jsonCommand(command), texts(options)]),
      help: (command) => send('help', () => (command === undefined ? [] : [helpTopic(command)])),
      version: () => send('version', () => []),
      warnings: () => send('warnings', () => []),
      exampleJob: () => send('exampleJob', () => []),
      params: () => send('params', () => []),
      optionName: (key) => new Promise((resolve) => resolve(optionName(key))),
      calibrate: (runs, date) => send('calibrate', () => {
        const file = fileText('runs', Array.isArray(runs) ? { runs } : runs);
        return date === undefined ? [file] : [file, optionText('date', date)];
      }),
      terminate: () => { worker.terminate(); fail(new TrainsizeError('', 'the worker was terminated')); },
    };
  }

  return { createTrainsize, createTrainsizeWorker, TrainsizeError };
});
