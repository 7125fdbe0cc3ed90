// @ts-check
// The games played in this browser, kept in IndexedDB (one object store, 'games', keyed by the
// game's id): each one's options (as the engine's `new` took them) and its saved text (the
// engine's `saved` call: {"id", "options", "record"}, the record as the engine wrote it), written
// after every action, so that a reload resumes it.  Storage denied or full (private browsing, a
// quota) rejects: the game goes on, not kept.

const DB_NAME = 'cribbage';
const STORE = 'games';

/**
 * What is kept of a game played here.
 * @typedef {{id: string, options: Record<string, any>, saved: string, over: boolean, updated: number, uploaded?: string}} KeptGame
 */

/** @type {Promise<IDBDatabase> | null} */
let opening = null;

/** The database, opened once (a failure is tried again at the next call). @returns {Promise<IDBDatabase>} */
function database() {
  if (!opening) {
    opening = new Promise((resolve, reject) => {
      if (typeof indexedDB === 'undefined' || !indexedDB) { reject(new Error('no IndexedDB')); return; }
      const request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = () => { request.result.createObjectStore(STORE, { keyPath: 'id' }); };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error || new Error('IndexedDB refused'));
      request.onblocked = () => reject(new Error('IndexedDB blocked'));
    });
    opening.catch(() => { opening = null; });
  }
  return opening;
}

/**
 * One request of the store, as a promise (resolved once its transaction is done when writing).
 * @param {IDBTransactionMode} mode
 * @param {(store: IDBObjectStore) => IDBRequest} make
 * @returns {Promise<any>}
 */
async function inStore(mode, make) {
  const db = await database();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const request = make(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(request.result);
    tx.onerror = () => reject(tx.error || request.error || new Error('IndexedDB failed'));
    tx.onabort = () => reject(tx.error || new Error('IndexedDB aborted'));
  });
}

/** Keep a game (replacing what was kept of it). @param {KeptGame} game */
export const keepGame = (game) => inStore('readwrite', (store) => store.put(game));

/** What is kept of a game, or null. @param {string} id @returns {Promise<KeptGame | null>} */
export const keptGame = async (id) => (await inStore('readonly', (store) => store.get(id))) || null;

/** Forget a game kept. @param {string} id */
export const dropGame = (id) => inStore('readwrite', (store) => store.delete(id));
