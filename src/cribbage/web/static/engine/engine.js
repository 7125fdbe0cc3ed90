// @ts-check
// The page's side of the browser's engine (worker.js): one worker a page, started on demand, its
// calls as promises.  A refusal is the pages' one ApiError (shared/api.js) with the code the
// server would answer, so a game in the browser is worded and handled as a game at the server.

import { ApiError } from '../shared/api.js';

/** What the engine is doing while it starts: 'interpreter', 'engine', 'ready'. @typedef {string} Progress */

/** @type {Worker | null} */
let worker = null;
let next = 1;
/** @type {Map<number, {resolve: (value: any) => void, reject: (err: any) => void}>} */
const waiting = new Map();
/** @type {Set<(step: Progress) => void>} */
const listeners = new Set();

/** Whether this browser can run the engine at all (a module worker and WebAssembly). */
export function engineSupported() {
  return typeof Worker === 'function' && typeof WebAssembly === 'object';
}

/** Be told of the engine's start, step by step. @param {(step: Progress) => void} listener */
export function onProgress(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** @param {MessageEvent} event */
function heard(event) {
  const data = event.data || {};
  if (data.progress) {
    for (const listener of listeners) listener(String(data.progress));
    return;
  }
  const pending = waiting.get(data.id);
  if (!pending) return;
  waiting.delete(data.id);
  if ('error' in data) {
    const error = data.error || {};
    pending.reject(new ApiError(0, String(error.message || ''), { code: error.code, ...(error.values || {}) }));
  } else {
    pending.resolve(data.ok);
  }
}

/** The worker, started at the first call. */
function started() {
  if (worker) return worker;
  worker = new Worker('/static/engine/worker.js', { type: 'module' });
  worker.addEventListener('message', heard);
  worker.addEventListener('error', (event) => {
    const failure = new ApiError(0, event.message || 'the engine did not start', { code: 'engine_failed' });
    for (const pending of waiting.values()) pending.reject(failure);
    waiting.clear();
    worker = null;
  });
  return worker;
}

/**
 * A call of cribbage.local.calls in the worker: its answer, or an ApiError with its code.
 * @param {string} call @param {...any} args
 * @returns {Promise<any>}
 */
export function engineCall(call, ...args) {
  const id = next++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    started().postMessage({ id, call, args });
  });
}

/** Start the engine (Pyodide, then the package), resolved once it is ready. */
export const startEngine = () => engineCall('load');
