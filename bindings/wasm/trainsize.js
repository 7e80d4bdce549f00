/* trainsize in JavaScript: the libtrainsize WebAssembly module and the `trainsize`
 * command's own JSON, for Node and browsers.
 *
 *   const { createTrainsize } = require('trainsize');
 *   const ts = await createTrainsize();
 *   ts.estimate({ model: 'llama-2-7b', gpu: 'a100-80gb', gpus: 8, zero: 3 })
 *     // === the object `trainsize estimate --json --model llama-2-7b ...` prints
 *   ts.plan({ model: 'llama-2-70b', tokens: 2e12 }); ts.models(); ts.gpus(); ts.version
 *   ts.help('estimate')  // the text `trainsize estimate --help` prints
 *
 * Option names are the command's, kebab-case or camelCase (microBatch = micro-batch);
 * values are strings, numbers or booleans (arrays are joined with commas); hfConfig and
 * gpuFile take a config.json as an object or JSON text. Invalid input throws a
 * TrainsizeError with the option it names and the command's message, or this file's when
 * the input cannot be handed to the command at all (see README.md: limits). A failed call
 * leaves the module as it was: the next call gets the right answer. */
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
  const FILES = new Set(['hf-config', 'gpu-file']);
  const TOPICS = ['estimate', 'plan', 'models', 'gpus'];

  function refuse(option, why) {
    throw new TrainsizeError(option, option + ': ' + why);
  }

  /* camelCase or kebab-case -> the command's kebab-case; anything else is no option name
   * (it could not reach the command as one argument, "--NAME=VALUE"). */
  function optionName(key) {
    const name = key.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase()).replace(/_/g, '-');
    if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) refuse(key, 'not an option name');
    if (name === 'help') refuse(name, 'not an option; help(command) gives the command\'s help text');
    return name;
  }

  function scalarText(name, value) {
    if (typeof value === 'boolean') return value ? 'true' : 'false';
    if (typeof value === 'bigint') return String(value);
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) refuse(name, 'not a finite number');
      return String(value);
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

  /* A config.json (hf-config, gpu-file): its contents, as an object or JSON text, UTF-8. */
  function fileBytes(name, value) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      try {
        value = JSON.stringify(value);
      } catch (e) {
        refuse(name, 'cannot be written as JSON (' + e.message + ')');
      }
    }
    if (typeof value !== 'string' || !value.trimStart().startsWith('{')) {
      refuse(name, 'expected the file\'s contents, an object or JSON text (a path is not read)');
    }
    if (value.length > FILE_MAX) refuse(name, 'over ' + FILE_MAX + ' bytes');
    const bytes = new TextEncoder().encode(value);
    if (bytes.length > FILE_MAX) refuse(name, 'over ' + FILE_MAX + ' bytes');
    return bytes;
  }

  /* The command line for these options, and the files it reads. Every argument is
   * "--NAME=VALUE", so no value can be taken for an option (--help) or a flag. */
  function commandLine(command, options) {
    if (options === undefined || options === null) options = {};
    /* A plain object: a Map, an array or a string would give no options or the wrong ones. */
    if (Object.prototype.toString.call(options) !== '[object Object]') refuse('options', 'expected an object');
    const argv = ['trainsize', command, '--json'];
    const files = [];
    let size = 0;
    for (const [key, value] of Object.entries(options)) {
      if (value === undefined || value === null) continue;
      const name = optionName(key);
      let text;
      if (FILES.has(name)) {
        /* In the module's file system under the option's name, so that the library's
         * messages about it start with the option ("hf-config: ..."). */
        files.push([name, fileBytes(name, value)]);
        text = name;
      } else {
        text = optionText(name, value);
      }
      size += name.length + text.length;
      if (size > ARGS_MAX) refuse('options', 'too long together (over ' + ARGS_MAX + ' characters)');
      argv.push('--' + name + '=' + text);
    }
    return { argv, files };
  }

  /* The option a message of the command names: "NAME: ...", "--NAME ...", or
   * "unknown option '--NAME'" and the like. */
  function optionOf(line) {
    const m = /^([a-z0-9-]+):/.exec(line) || /^(?:(?:unknown )?options? '?)?--([a-z0-9-]+)/.exec(line);
    return m ? m[1] : '';
  }

  async function createTrainsize(moduleOptions) {
    const out = [];
    const err = [];
    /* The API reads the command's output: print and printErr are its own. */
    const settings = Object.assign({}, moduleOptions || {}, {
      print: (line) => out.push(line),
      printErr: (line) => err.push(line),
    });
    /* Node: hand the module its wasm (emscripten 3.1.6's loader would fetch() a path). */
    if (!settings.wasmBinary && typeof process === 'object' && process.versions && process.versions.node &&
        typeof __dirname === 'string') {
      const path = require('path').join(__dirname, 'trainsize_core.wasm');
      if (require('fs').existsSync(path)) settings.wasmBinary = require('fs').readFileSync(path);
    }
    const M = await createModule(settings);

    /* The module's whole state is its memory and its stack pointer: kept as they are now,
     * to put back when a call is cut short (a trap, or an exception thrown through it),
     * which would leave the C heap, stack and stdio half-way. */
    const fresh = { memory: M.HEAPU8.slice(0, M._sbrk(0)), stack: M.stackSave() };
    function reset() {
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

    /* Run the command; its standard output, or a TrainsizeError from its error line. */
    function run(argv, files) {
      out.length = 0;
      err.length = 0;
      let ptrs = [];
      let vec = 0;
      let status;
      try {
        for (const [path, bytes] of files) M.FS.writeFile(path, bytes);
        for (const a of argv) {
          const n = M.lengthBytesUTF8(a) + 1;
          ptrs.push(alloc(n));
          M.stringToUTF8(a, ptrs[ptrs.length - 1], n);
        }
        vec = alloc(4 * ptrs.length);
        ptrs.forEach((p, i) => M.setValue(vec + 4 * i, p, 'i32'));
        try {
          status = M._tsw_run(ptrs.length, vec);
        } catch (e) {
          reset();
          ptrs = [];
          vec = 0;
          throw new TrainsizeError('', 'the module failed (' + (e && e.message) + '); it was reset', e);
        }
      } finally {
        ptrs.forEach((p) => M._free(p));
        if (vec) M._free(vec);
        for (const [path] of files) {
          if (M.FS.analyzePath(path).exists) M.FS.unlink(path);
        }
      }
      if (status !== 0) {
        const line = err.join('\n').replace(/^trainsize: /, '');
        throw new TrainsizeError(optionOf(line), line || 'trainsize failed with status ' + status);
      }
      return out.join('\n');
    }

    function jsonOf(text) {
      try {
        return JSON.parse(text);
      } catch (e) {
        throw new TrainsizeError('', 'the command printed no JSON: ' + text.slice(0, 80));
      }
    }

    function text(command, options) {
      if (command !== 'estimate' && command !== 'plan') refuse('command', 'expected "estimate" or "plan"');
      const { argv, files } = commandLine(command, options);
      return run(argv, files);
    }

    return {
      /** The object `trainsize estimate --json` prints for these options. */
      estimate: (options) => jsonOf(text('estimate', options)),
      /** The object `trainsize plan --json` prints for these options. */
      plan: (options) => jsonOf(text('plan', options)),
      /** The built-in model presets (`trainsize models --json`). */
      models: () => jsonOf(run(['trainsize', 'models', '--json'], [])),
      /** The GPU catalogue (`trainsize gpus --json`). */
      gpus: () => jsonOf(run(['trainsize', 'gpus', '--json'], [])),
      /** The command's JSON text for a command ("estimate" or "plan") and options, as the
       *  command prints it. */
      json: (command, options) => text(command, options) + '\n',
      /** The command's help text: `trainsize --help`, or `trainsize COMMAND --help` for
       *  "estimate", "plan", "models" or "gpus". */
      help: (command) => {
        if (command !== undefined && !TOPICS.includes(command)) refuse('command', 'expected one of ' + TOPICS.join(', '));
        return run(command === undefined ? ['trainsize', '--help'] : ['trainsize', command, '--help'], []) + '\n';
      },
      /** The library's version ("major.minor.patch"). */
      version: run(['trainsize', '--version'], []).replace(/^trainsize /, '').trim(),
    };
  }

  return { createTrainsize, TrainsizeError };
});
