// @ts-check
// The game page's service worker (served at /sw.js, docs/api.md "Web Push"): it shows the
// server's notice that it is the seat's turn in a correspondence game, and a click on it
// focuses the game's tab or opens the page; and a tournament's notice that the entrant's next
// game is ready, a click on it opening the tournament's page.  The server sends codes and
// numbers ({"type": "your_turn", "game", "seat", "version"}, {"type": "game_ready",
// "tournament", "game"}); the words are the page's, in its language, handed over by push.js (a
// "words" message) and kept in the Cache API.
//
// It also keeps the app shell (issue 45; docs/api.md, "Installing and offline"), so that after
// one visit the pages open with the network off: on install it downloads every file of
// GET /offline.json into a cache of that version, and once active it deletes the other
// versions' caches.  A page (a navigation) comes from the network, or from the cache when the
// network fails or takes more than NAVIGATION_WAIT ms; a file of the shell (/static/, the
// manifest) comes from the cache, else the network.  /api/ and the live socket are never
// touched.  The server ends this script with the shell's version: any file changed, and the
// browser installs the worker anew.
/** The worker's global scope (typed as a window by the page's DOM types). @type {any} */
const sw = self;

const WORDS_CACHE = 'cribbage-words';
const WORDS_URL = '/sw-words.json';
const FALLBACK = {
  title: 'Your turn — Cribbage', body: 'It is your move.',
  readyTitle: 'Your next tournament game is ready', readyBody: 'Open the tournament to play it.',
};

/** @param {any} event */
function onMessage(event) {
  const data = event.data || {};
  if (data.type !== 'words' || typeof data.title !== 'string' || typeof data.body !== 'string') return;
  /** @type {Record<string, string>} */
  const words = { title: data.title, body: data.body };
  for (const key of ['readyTitle', 'readyBody']) if (typeof data[key] === 'string') words[key] = data[key];
  event.waitUntil(caches.open(WORDS_CACHE).then((cache) => cache.put(WORDS_URL, new Response(JSON.stringify(words)))));
}

async function words() {
  try {
    const cache = await caches.open(WORDS_CACHE);
    const kept = await cache.match(WORDS_URL);
    return kept ? { ...FALLBACK, ...(await kept.json()) } : FALLBACK;
  } catch {
    return FALLBACK;
  }
}

/** @param {any} event */
function onPush(event) {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch { data = {}; }
  if (data.type === 'game_ready' && typeof data.tournament === 'string') {
    event.waitUntil(words().then((said) => sw.registration.showNotification(said.readyTitle, {
      body: said.readyBody,
      tag: `cribbage-tournament-${data.tournament}`,  // one notice a tournament: a later one replaces it
      data: { tournament: data.tournament },
    })));
    return;
  }
  if (data.type !== 'your_turn') return;
  event.waitUntil(words().then((said) => sw.registration.showNotification(said.title, {
    body: said.body,
    tag: `cribbage-${data.game}`,  // one notice a game: a later one replaces it
    data: { game: data.game },
  })));
}

/** A tournament's notice clicked: its page, focused if a tab shows it, else opened. @param {any} event @param {string} id */
function openTournament(event, id) {
  const page = new URL(`/tournaments/${encodeURIComponent(id)}`, self.location.origin);
  event.waitUntil(sw.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((tabs) => {
    const tab = tabs.find((/** @type {any} */ c) => new URL(c.url).origin === page.origin && new URL(c.url).pathname === page.pathname);
    return tab ? tab.focus() : sw.clients.openWindow(page.href);
  }));
}

/** @param {any} event */
function onClick(event) {
  event.notification.close();
  const shown = event.notification.data || {};
  if (typeof shown.tournament === 'string') { openTournament(event, shown.tournament); return; }
  const home = new URL('/', self.location.origin).href;
  event.waitUntil(sw.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((tabs) => {
    const tab = tabs.find((/** @type {any} */ c) => new URL(c.url).origin === self.location.origin);
    return tab ? tab.focus() : sw.clients.openWindow(home);
  }));
}

// ------------------------------------------------------------------ the offline shell

const SHELL_PREFIX = 'cribbage-shell-';
const SHELL_DONE = '/offline.json';  // kept last in a version's cache: its files are all there
const NAVIGATION_WAIT = 4000;

/**
 * The page kept offline that stands for a navigation to ``pathname`` (an invitation's and a
 * watch link's page is the game's, a tournament's the tournaments'), or null.
 * @param {string} pathname
 */
function shellPage(pathname) {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (path === '/' || /^\/(join|watch)\/[^/]+$/.test(path)) return '/';
  if (/^\/tournaments(\/[^/]+)?$/.test(path)) return '/tournaments';
  return ['/howto', '/review', '/practice'].includes(path) ? path : null;
}

/**
 * How the worker answers a request: 'page' (network first), 'file' (the cache first), 'engine'
 * (the cache first, kept at its first use: /offline.json's `engine`) or null (not at all: the
 * browser goes to the network as if there were no worker).
 * @param {string} method
 * @param {string} mode  Request.mode
 * @param {URL} url
 * @param {string} origin  the worker's
 */
function shellRoute(method, mode, url, origin) {
  if (method !== 'GET' || url.origin !== origin || url.pathname.startsWith('/api/')) return null;
  if (mode === 'navigate') return shellPage(url.pathname) ? 'page' : null;
  if (url.pathname.startsWith('/static/') || url.pathname === '/manifest.webmanifest') return 'file';
  if (url.pathname.startsWith('/engine/')) return 'engine';
  return null;
}

/** Every file of /offline.json into its version's cache, the list itself last. */
async function precache() {
  const answer = await fetch(SHELL_DONE, { cache: 'no-store' });
  if (!answer.ok) throw new Error(`${SHELL_DONE}: ${answer.status}`);
  const listed = await answer.clone().json();
  const cache = await caches.open(SHELL_PREFIX + listed.version);
  if (await cache.match(SHELL_DONE)) return;
  await cache.addAll(listed.files.map((/** @type {string} */ url) => new Request(url, { cache: 'no-cache' })));
  await cache.put(SHELL_DONE, new Response(JSON.stringify({ ...listed, at: Date.now() })));
}

/** @param {any} event */
function onInstall(event) {
  // A shell that cannot be kept (the server away) leaves the worker's notices working.
  event.waitUntil(precache().catch((err) => console.warn('the offline shell was not kept:', err)).then(() => sw.skipWaiting()));
}

/** The shell's caches but the newest complete one (the one this worker filled, usually). */
async function dropOldShells() {
  const names = (await caches.keys()).filter((/** @type {string} */ name) => name.startsWith(SHELL_PREFIX));
  /** @type {{ name: string, at: number }[]} */
  const done = [];
  for (const name of names) {
    const mark = await (await caches.open(name)).match(SHELL_DONE);
    if (mark) done.push({ name, at: Number((await mark.json()).at) || 0 });
  }
  const newest = done.sort((a, b) => b.at - a.at)[0];
  await Promise.all(names.filter((name) => !newest || name !== newest.name).map((name) => caches.delete(name)));
}

/** @param {any} event */
function onActivate(event) {
  event.waitUntil(carryEngine().catch(() => {}).then(dropOldShells).catch(() => {})
    .then(() => sw.clients.claim())
    .then(() => keepEngine().catch((err) => console.warn('the engine was not kept:', err))));
}

/**
 * The engine's files (/offline.json's `engine`) kept in the background once the pages are taken,
 * those not carried from an older version, so that after one visit a game against the computer
 * starts with the network off; not when the browser asks to save data (then they are kept on
 * their first use).
 */
async function keepEngine() {
  const connection = sw.navigator && sw.navigator.connection;
  if (connection && connection.saveData) return;
  const newest = await newestShell();
  const mark = newest && await newest.cache.match(SHELL_DONE);
  if (!newest || !mark) return;
  for (const url of (await mark.json()).engine || []) {
    if (await newest.cache.match(url)) continue;
    const answer = await fetch(new Request(url, { cache: 'no-cache' }));
    if (answer.ok) await newest.cache.put(url, answer);
  }
}

/**
 * The engine's files an older version kept, carried into the newest version's cache when the
 * server says they are unchanged (a request naming their ETag answered 304, headers only), else
 * its new ones kept there: a release that left the engine as it was downloads none of its 14 MB
 * again (bench/bench_browser_game.py measured 6.5 MB downloaded again before).
 */
async function carryEngine() {
  const newest = await newestShell();
  if (!newest) return;
  for (const name of (await caches.keys()).filter((/** @type {string} */ n) => n.startsWith(SHELL_PREFIX))) {
    const old = await caches.open(name);
    if (name === newest.name) continue;
    for (const request of await old.keys()) {
      if (!new URL(request.url).pathname.startsWith('/engine/') || await newest.cache.match(request)) continue;
      const kept = await old.match(request);
      const etag = kept && kept.headers.get('etag');
      if (!kept || !etag) continue;
      const answer = await fetch(request.url, { headers: { 'If-None-Match': etag }, cache: 'no-store' });
      if (answer.status === 304) await newest.cache.put(request, kept);
      else if (answer.ok) await newest.cache.put(request, answer);
    }
  }
}

/**
 * Whether the page last taken from the network belongs to a version of the shell not kept (yet):
 * the server was upgraded and the new worker is still installing.  The page's files then come
 * from the network, so that a new page never runs beside old modules.
 */
let staleShell = false;

/** Whether the shell of ``version`` is kept whole. @param {string} version */
async function shellKept(version) {
  return (await caches.has(SHELL_PREFIX + version)) && !!(await (await caches.open(SHELL_PREFIX + version)).match(SHELL_DONE));
}

/** A page: the network's, else (failed, or NAVIGATION_WAIT ms gone) the kept one. @param {Request} request */
async function networkFirst(request) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const late = new Promise((_resolve, reject) => { timer = setTimeout(() => reject(new Error('timeout')), NAVIGATION_WAIT); });
  try {
    const answer = await Promise.race([fetch(request), late]);
    const version = answer.headers.get('x-shell-version');
    staleShell = !!version && !(await shellKept(version));
    return answer;
  } catch (err) {
    const kept = await caches.match(/** @type {string} */ (shellPage(new URL(request.url).pathname)));
    if (kept) return kept;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** A file of the shell: the kept one, else (or while the pages are of a newer shell) the network's. @param {Request} request */
async function cacheFirst(request) {
  if (staleShell) return fetch(request).catch(async (err) => (await caches.match(request)) || Promise.reject(err));
  const kept = await caches.match(request);
  return kept || fetch(request);
}

/** The newest complete shell's cache and its name (the version this worker keeps), or null. */
async function newestShell() {
  /** @type {{ name: string, cache: Cache } | null} */
  let best = null;
  let bestAt = -1;
  for (const name of (await caches.keys()).filter((/** @type {string} */ n) => n.startsWith(SHELL_PREFIX))) {
    const cache = await caches.open(name);
    const mark = await cache.match(SHELL_DONE);
    const at = mark ? Number((await mark.json()).at) || 0 : -1;
    if (at > bestAt) { best = { name, cache }; bestAt = at; }
  }
  return best;
}

/**
 * A file of the browser's engine (Pyodide's and the package's: 14 MB that a visit not playing in
 * the browser never downloads): the kept one, else the network's, kept in the newest shell's
 * cache (its version counts the engine's files: a new engine comes with a new version).
 * @param {Request} request
 */
async function keptOnUse(request) {
  const kept = await caches.match(request);
  if (kept) return kept;
  const answer = await fetch(request);
  if (answer.ok) {
    const newest = await newestShell();
    if (newest) await newest.cache.put(request, answer.clone());
  }
  return answer;
}

/** @param {any} event */
function onFetch(event) {
  const request = event.request;
  const how = shellRoute(request.method, request.mode, new URL(request.url), self.location.origin);
  if (how === 'page') event.respondWith(networkFirst(request));
  else if (how === 'file') event.respondWith(cacheFirst(request));
  else if (how === 'engine') event.respondWith(keptOnUse(request));
}

self.addEventListener('install', onInstall);
self.addEventListener('activate', onActivate);
self.addEventListener('fetch', onFetch);
self.addEventListener('message', onMessage);
self.addEventListener('push', onPush);
self.addEventListener('notificationclick', onClick);
