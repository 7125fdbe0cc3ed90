// The bench's Web Worker (a module worker): the package's own engine, table, players and AI under
// Pyodide, off the page's main thread.  No rule of the game is here: every message is answered by
// bench/pyodide/worker_calls.py, which drives the engine's Table.
//
// Messages are {id, type, ...args}; each answer is {id, type, ok, ms, ...} (ms: the worker's time
// for the message), or {id, type, ok: false, error}.
//   load   {indexURL, engineURL, callsURL}: starts Pyodide from indexURL, fetches the engine's
//          zip (built by the bench server from the installed package) and the calls module,
//          imports them, and makes a first hint (which loads the AI's data tables); answers the
//          time of each part.
//   start  {level, seed, variant}: a new game against the computer of that level.
//   decide {}: the computer decides the person's waiting action, and the table runs on.
//   hint   {}: the hint for the person's decision.

/** @type {any} */
let pyodide = null;
/** @type {any} */
let calls = null;

const ENGINE_DIR = '/engine';

/** @param {{indexURL: string, engineURL: string, callsURL: string}} args */
async function load({ indexURL, engineURL, callsURL }) {
  const began = performance.now();
  const { loadPyodide } = await import(`${indexURL}pyodide.mjs`);
  pyodide = await loadPyodide({ indexURL });
  const started = performance.now();
  const [engine, callsText] = await Promise.all([
    fetch(engineURL).then((response) => checked(response).arrayBuffer()),
    fetch(callsURL).then((response) => checked(response).text()),
  ]);
  pyodide.unpackArchive(engine, 'zip', { extractDir: ENGINE_DIR });
  pyodide.FS.writeFile(`${ENGINE_DIR}/worker_calls.py`, callsText);
  const fetched = performance.now();
  pyodide.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(ENGINE_DIR)})`);
  calls = pyodide.pyimport('worker_calls');
  const imported = performance.now();
  const warm = JSON.parse(calls.warm());
  return {
    python: pyodide.runPython('import sys; sys.version.split()[0]'),
    isolated: self.crossOriginIsolated,
    pyodide_ms: started - began,
    fetch_ms: fetched - started,
    import_ms: imported - fetched,
    warm_ms: performance.now() - imported,
    warm,
  };
}

/** @param {Response} response */
function checked(response) {
  if (!response.ok) throw new Error(`${response.url}: HTTP ${response.status}`);
  return response;
}

/** @param {string} text */
function answer(text) {
  return JSON.parse(text);
}

/** @type {Record<string, (args: any) => any>} */
const handlers = {
  load,
  start: ({ level, seed, variant = 'standard' }) => answer(calls.start(level, seed, variant)),
  decide: () => answer(calls.decide()),
  hint: () => answer(calls.hint()),
};

self.onmessage = async (/** @type {MessageEvent} */ event) => {
  const { id, type, ...args } = event.data;
  const began = performance.now();
  try {
    const handler = handlers[type];
    if (!handler) throw new Error(`unknown message type ${JSON.stringify(type)}`);
    if (type !== 'load' && !calls) throw new Error('the engine is not loaded');
    const result = await handler(args);
    self.postMessage({ ...result, id, type, ok: true, ms: performance.now() - began });
  } catch (error) {
    self.postMessage({ id, type, ok: false, error: String(error) });
  }
};
