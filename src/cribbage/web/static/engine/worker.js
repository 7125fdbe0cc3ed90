// @ts-check
// The browser's engine (issue 45; docs/pyodide.md): a module Web Worker that runs the package's
// own Python (its engine, table, players, AI and review: cribbage.local) under Pyodide, off the
// page's main thread.  No rule of the game is here: every call is answered by
// cribbage.local.calls, in JSON text both ways (a record as text: its 64-bit seeds).
//
// Messages: {id, call, args} → {id, ok: VALUE} or {id, error: {code, message, values}}, a refusal
// with the server's code (the page words it as it words the server's), or `engine_failed` when
// the engine itself could not start or broke.  While it starts, {progress: STEP} where STEP is
// 'interpreter' (Pyodide: the download and start of CPython), 'engine' (the package's layers)
// and 'ready'.  The call 'load' only starts it.

const PYODIDE = '/engine/pyodide/';
const ENGINE = '/engine/cribbage.zip';
const HOME = '/engine';

/** The worker's global scope (typed as a window by the DOM's types). @type {any} */
const scope = self;

/** @type {any} */
let calls = null;
/** @type {Promise<void> | null} */
let loading = null;

/** @param {Response} response */
function checked(response) {
  if (!response.ok) throw new Error(`${response.url}: HTTP ${response.status}`);
  return response;
}

async function load() {
  scope.postMessage({ progress: 'interpreter' });
  const loader = `${PYODIDE}pyodide.mjs`;
  const { loadPyodide } = await import(loader);
  const [pyodide, engine] = await Promise.all([
    loadPyodide({ indexURL: PYODIDE }),
    fetch(ENGINE).then((response) => checked(response).arrayBuffer()),
  ]);
  scope.postMessage({ progress: 'engine' });
  pyodide.unpackArchive(engine, 'zip', { extractDir: HOME });
  pyodide.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(HOME)})`);
  calls = pyodide.pyimport('cribbage.local.calls');
  scope.postMessage({ progress: 'ready' });
}

/** @param {MessageEvent} event */
async function answer(event) {
  const { id, call, args } = event.data || {};
  try {
    if (!loading) loading = load();
    await loading;
    if (call === 'load') {
      scope.postMessage({ id, ok: true });
      return;
    }
    scope.postMessage({ id, ...JSON.parse(calls.call(String(call), JSON.stringify(args || []))) });
  } catch (err) {
    if (!calls) loading = null;  // a start that failed is tried again at the next call
    const message = err instanceof Error ? err.message : String(err);
    scope.postMessage({ id, error: { code: 'engine_failed', message, values: {} } });
  }
}

scope.addEventListener('message', answer);
