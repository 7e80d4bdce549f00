/* trainsize in a worker: a module of its own in another thread, so that plan() (a search
 * over hundreds of configurations, up to a second) never stops a page. Started by
 * createTrainsizeWorker() (trainsize.js) as a Web Worker in a browser, or a worker_threads
 * Worker in Node; each message { id, method, args } is answered { id, result } or
 * { id, error: { option, message } }. */
'use strict';

(function () {
  const METHODS = ['estimate', 'plan', 'capacity', 'models', 'gpus', 'json', 'help', 'version', 'warnings', 'exampleJob', 'params', 'calibrate'];
  let ready;
  let post;

  function answer(message) {
    const { id, method, args } = message || {};
    ready.then((ts) => {
      if (!METHODS.includes(method)) throw new Error('unknown method "' + String(method).slice(0, 40) + '"');
      return method === 'version' ? ts.version : ts[method].apply(null, Array.isArray(args) ? args : []);
    }).then((result) => post({ id, result }), (e) => post({
      id, error: { option: (e && e.option) || '', message: String((e && e.message) || e) },
    }));
  }

  if (typeof importScripts === 'function') {
    /* a Web Worker: the module and the API from beside this script */
    importScripts('trainsize_core.js', 'trainsize.js');
    ready = self.trainsize.createTrainsize();
    post = (m) => self.postMessage(m);
    self.onmessage = (e) => answer(e.data);
  } else {
    const { parentPort } = require('worker_threads');
    ready = require('./trainsize.js').createTrainsize();
    post = (m) => parentPort.postMessage(m);
    parentPort.on('message', answer);
  }
  /* a module that cannot start fails every call with its reason, not silently */
  ready.catch(() => {});
})();
