/* trainsize in a worker: a module of its own in another thread, so that plan() (a search
 * over hundreds of configurations, up to a second) never stops a page. Started by
 * createTrainsizeWorker() (trainsize.js) as a Web Worker in a browser, or a worker_threads
 * Worker in Node; each message { id, method, args } is answered { id, result } or
 * { id, error: { option, message } }; a plan sent with progress: true is also answered
 * { id, progress: { done, total, examined } } as it goes. */
'use strict';

(function () {
  const METHODS = ['estimate', 'plan', 'capacity', 'models', 'gpus', 'json', 'help', 'version', 'warnings', 'exampleJob', 'params', 'calibrate'];
  let ready;
  let post;

  /* A plan's progress, posted as { id, progress } at most every PROGRESS_MS (and at its
   * end), so that a page can draw a bar without a message per GPU count. */
  const PROGRESS_MS = 50;
  function progressPoster(id) {
    let last = 0;
    return (p) => {
      const now = Date.now();
      if (p.done === p.total || now - last >= PROGRESS_MS) {
        last = now;
        post({ id, progress: p });
      }
      return false;
    };
  }

  function answer(message) {
    const { id, method, args, progress } = message || {};
    ready.then((ts) => {
      if (!METHODS.includes(method)) throw new Error('unknown method "' + String(method).slice(0, 40) + '"');
      const list = Array.isArray(args) ? args : [];
      if (method === 'plan' && progress) return ts.plan(list[0], progressPoster(id));
      return method === 'version' ? ts.version : ts[method].apply(null, list);
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
