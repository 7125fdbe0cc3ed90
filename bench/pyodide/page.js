// The bench's page: starts the worker at once and lets the bench (Playwright) send it messages.
//   window.ready: the worker's answer to `load`, with `since_navigation_ms` (the page's clock when
//     the engine was ready: download, start of Pyodide, import of the package, first hint).
//   window.engine(type, args): a message's answer, with `round_trip_ms` as the page waits for it.

const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
/** @type {Map<number, {resolve: (value: any) => void, reject: (reason: any) => void, sent: number}>} */
const waiting = new Map();
let next = 0;

worker.onmessage = (event) => {
  const reply = event.data;
  const call = waiting.get(reply.id);
  if (!call) return;
  waiting.delete(reply.id);
  if (reply.ok) call.resolve({ ...reply, round_trip_ms: performance.now() - call.sent });
  else call.reject(new Error(`${reply.type}: ${reply.error}`));
};

worker.onerror = (event) => {
  for (const call of waiting.values()) call.reject(new Error(`the worker failed: ${event.message}`));
  waiting.clear();
};

/**
 * @param {string} type
 * @param {Record<string, unknown>} [args]
 * @returns {Promise<any>}
 */
function engine(type, args = {}) {
  return new Promise((resolve, reject) => {
    const id = next++;
    waiting.set(id, { resolve, reject, sent: performance.now() });
    worker.postMessage({ ...args, id, type });
  });
}

const here = new URL('.', import.meta.url);
const w = /** @type {any} */ (window);
w.engine = engine;
w.ready = engine('load', {
  indexURL: new URL('/pyodide/', here).href,
  engineURL: new URL('/engine/cribbage.zip', here).href,
  callsURL: new URL('worker_calls.py', here).href,
}).then((reply) => ({ ...reply, since_navigation_ms: performance.now() }));
