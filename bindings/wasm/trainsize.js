/* trainsize in JavaScript: the libtrainsize WebAssembly module and the `trainsize`
 * command's own JSON, for Node and browsers.
 *
 *   const { createTrainsize } = require('trainsize');
 *   const ts = await createTrainsize();
 *   ts.estimate({ model: 'llama-2-7b', gpu: 'a100-80gb', gpus: 8, zero: 3 })
 *     // === the object `trainsize estimate --json --model llama-2-7b ...` prints
 *   ts.plan({ model: 'llama-2-70b', tokens: 2e12 }); ts.models(); ts.gpus(); ts.version
 *
 * Option names are the command's, kebab-case or camelCase (microBatch = micro-batch);
 * values are strings, numbers or booleans (arrays are joined with commas); hfConfig and
 * gpuFile also take a config.json as an object or JSON text. Invalid input throws a
 * TrainsizeError with the option it names and the command's message. */
'use strict';

(function (root, factory) {
  if (typeof module === 'object' && module.exports) {
    module.exports = factory(require('./trainsize_core.js'));
  } else {
    root.trainsize = factory(root.createTrainsizeModule);
  }
})(typeof self !== 'undefined' ? self : this, function (createModule) {
  class TrainsizeError extends Error {
    constructor(option, message) {
      super(message);
      this.name = 'TrainsizeError';
      /** The option the message names ('' when none). */
      this.option = option;
    }
  }

  /* camelCase or kebab-case -> the command's kebab-case. */
  function optionName(key) {
    return key.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase()).replace(/_/g, '-');
  }

  function optionText(key, value) {
    if (Array.isArray(value)) return value.map((v) => optionText(key, v)).join(',');
    if (typeof value === 'boolean') return value ? 'true' : 'false';
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw new TrainsizeError(optionName(key), optionName(key) + ': not a finite number');
      return String(value);
    }
    if (typeof value === 'string') return value;
    throw new TrainsizeError(optionName(key), optionName(key) + ': expected a string, number or boolean');
  }

  /* A file option (hf-config, gpu-file) given as an object or JSON text: written to the
   * module's in-memory file system, its path passed as the command would take it. */
  function fileArg(Module, name, value) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) value = JSON.stringify(value);
    if (typeof value !== 'string' || !value.trimStart().startsWith('{')) return null;
    const path = '/' + name + '.json';
    Module.FS.writeFile(path, value);
    return path;
  }

  function argvOf(Module, command, options) {
    const argv = ['trainsize', command, '--json'];
    for (const [key, value] of Object.entries(options || {})) {
      if (value === undefined || value === null) continue;
      const name = optionName(key);
      const file = name === 'hf-config' || name === 'gpu-file' ? fileArg(Module, name, value) : null;
      argv.push('--' + name, file || optionText(key, value));
    }
    return argv;
  }

  async function createTrainsize(moduleOptions) {
    const out = [];
    const err = [];
    const settings = Object.assign({
      print: (line) => out.push(line),
      printErr: (line) => err.push(line),
    }, moduleOptions || {});
    /* Node: hand the module its wasm (emscripten 3.1.6's loader would fetch() a path). */
    if (!settings.wasmBinary && typeof process === 'object' && process.versions && process.versions.node &&
        typeof __dirname === 'string') {
      const path = require('path').join(__dirname, 'trainsize_core.wasm');
      if (require('fs').existsSync(path)) settings.wasmBinary = require('fs').readFileSync(path);
    }
    const Module = await createModule(settings);

    /* Run the command on argv; its standard output, or a TrainsizeError from its error line. */
    function run(argv) {
      out.length = 0;
      err.length = 0;
      const ptrs = argv.map((a) => {
        const n = Module.lengthBytesUTF8(a) + 1;
        const p = Module._malloc(n);
        Module.stringToUTF8(a, p, n);
        return p;
      });
      const vec = Module._malloc(4 * ptrs.length);
      ptrs.forEach((p, i) => Module.setValue(vec + 4 * i, p, 'i32'));
      let status;
      try {
        status = Module._tsw_run(ptrs.length, vec);
      } finally {
        ptrs.forEach((p) => Module._free(p));
        Module._free(vec);
      }
      if (status !== 0) {
        const line = err.join('\n').replace(/^trainsize: /, '');
        const colon = line.indexOf(':');
        const option = colon > 0 && /^[a-z0-9-]+$/.test(line.slice(0, colon)) ? line.slice(0, colon) : '';
        throw new TrainsizeError(option, line || 'trainsize failed with status ' + status);
      }
      return out.join('\n');
    }

    return {
      /** The object `trainsize estimate --json` prints for these options. */
      estimate: (options) => JSON.parse(run(argvOf(Module, 'estimate', options))),
      /** The object `trainsize plan --json` prints for these options. */
      plan: (options) => JSON.parse(run(argvOf(Module, 'plan', options))),
      /** The built-in model presets (`trainsize models --json`). */
      models: () => JSON.parse(run(['trainsize', 'models', '--json'])),
      /** The GPU catalogue (`trainsize gpus --json`). */
      gpus: () => JSON.parse(run(['trainsize', 'gpus', '--json'])),
      /** The command's JSON text for a command ("estimate" or "plan") and options, as the
       *  command prints it. */
      json: (command, options) => run(argvOf(Module, command, options)) + '\n',
      /** The library's version ("major.minor.patch"). */
      version: run(['trainsize', '--version']).replace(/^trainsize /, '').trim(),
    };
  }

  return { createTrainsize, TrainsizeError };
});
