// @ts-check
// The game page's service worker (served at /sw.js, docs/api.md "Web Push"): it shows the
// server's notice that it is the seat's turn in a correspondence game, and a click on it
// focuses the game's tab or opens the page; and a tournament's notice that the entrant's next
// game is ready, a click on it opening the tournament's page.  The server sends codes and
// numbers ({"type": "your_turn", "game", "seat", "version"}, {"type": "game_ready",
// "tournament", "game"}); the words are the page's, in its language, handed over by push.js (a
// "words" message) and kept in the Cache API.
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

self.addEventListener('message', onMessage);
self.addEventListener('push', onPush);
self.addEventListener('notificationclick', onClick);
