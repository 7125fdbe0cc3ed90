// @ts-check
// The offline shell (sw.js, shared/offline.js): which requests the service worker answers and
// how, which kept page stands for an address, and the one registration the pages share.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import vm from 'node:vm';

// sw.js is a classic worker script: run in a context of its own, its functions are that context's globals.
/** @type {Record<string, any>} */
const worker = { self: { addEventListener() {}, location: { origin: 'https://crib.example' } }, URL };
vm.createContext(worker);
vm.runInContext(readFileSync(new URL('../../src/cribbage/web/static/sw.js', import.meta.url), 'utf8'), worker);
const { shellPage, shellRoute } = worker;

const ORIGIN = 'https://crib.example';
const route = (path, mode = 'cors', method = 'GET', origin = ORIGIN) => shellRoute(method, mode, new URL(path, origin), ORIGIN);

describe('the page kept for an address', () => {
  it('is the address\'s own page for the five pages, with or without a closing slash', () => {
    for (const page of ['/', '/howto', '/review', '/practice', '/tournaments']) assert.equal(shellPage(page), page);
    assert.equal(shellPage('/howto/'), '/howto');
  });
  it('is the game\'s for an invitation and a watch link, the tournaments\' for one tournament', () => {
    assert.equal(shellPage('/join/ABCD-1234'), '/');
    assert.equal(shellPage('/watch/W-77'), '/');
    assert.equal(shellPage('/tournaments/t1'), '/tournaments');
  });
  it('is none for any other address', () => {
    for (const path of ['/sw.js', '/offline.json', '/api/meta', '/join/', '/tournaments/a/b', '/static/game/app.js', '/nowhere']) {
      assert.equal(shellPage(path), null, path);
    }
  });
});

describe('the worker answers', () => {
  it('the pages network first, the shell\'s files cache first', () => {
    assert.equal(route('/', 'navigate'), 'page');
    assert.equal(route('/tournaments/t1?lang=ja', 'navigate'), 'page');
    assert.equal(route('/static/game/app.js'), 'file');
    assert.equal(route('/static/lang/ja.js'), 'file');
    assert.equal(route('/manifest.webmanifest'), 'file');
    // The browser's engine: kept at its first use, never downloaded by a visit that does not play it.
    assert.equal(route('/engine/pyodide/pyodide.asm.wasm'), 'engine');
    assert.equal(route('/engine/cribbage.zip'), 'engine');
    assert.equal(route('/engine/cribbage.zip', 'cors', 'POST'), null);
  });
  it('never the API, the live socket, another method, another site, or an address it keeps nothing for', () => {
    assert.equal(route('/api/meta'), null);
    assert.equal(route('/api/games/g1/live'), null);
    assert.equal(route('/api/meta', 'navigate'), null);
    assert.equal(route('/static/game/app.js', 'cors', 'POST'), null);
    assert.equal(route('/static/game/app.js', 'cors', 'GET', 'https://elsewhere.example'), null);
    assert.equal(route('/nowhere', 'navigate'), null);
    assert.equal(route('/offline.json'), null);
  });
});

describe('the pages\' one registration', () => {
  it('registers /sw.js once, and again only after a failure', async () => {
    /** @type {string[]} */
    const asked = [];
    let fail = true;
    const registration = { scope: `${ORIGIN}/` };
    Object.defineProperty(globalThis, 'navigator', {
      configurable: true,
      value: { serviceWorker: { register: async (url) => { asked.push(url); if (fail) throw new Error('no'); return registration; } } },
    });
    const { registerWorker, workerSupported } = await import('../../src/cribbage/web/static/shared/offline.js');
    assert.equal(workerSupported(), true);
    await assert.rejects(registerWorker());
    fail = false;
    const [first, second] = await Promise.all([registerWorker(), registerWorker()]);
    assert.equal(first, registration);
    assert.equal(second, registration);
    assert.deepEqual(asked, ['/sw.js', '/sw.js']);
  });
});

describe('after the server\'s upgrade', () => {
  /** A worker whose caches hold the shell of ``kept`` (whole), and whose network answers pages of ``served``. */
  function upgraded(kept, served) {
    /** @type {string[]} */
    const network = [];
    const store = new Map([[`cribbage-shell-${kept}`, new Map([
      ['/offline.json', new Response('{}')], ['/static/game/app.js', new Response('old')],
    ])]]);
    const path = (r) => new URL(typeof r === 'string' ? r : r.url, ORIGIN).pathname;
    const caches = {
      has: async (name) => store.has(name),
      open: async (name) => ({ match: async (r) => store.get(name)?.get(path(r))?.clone() }),
      match: async (r) => [...store.values()].map((c) => c.get(path(r))).find(Boolean)?.clone(),
    };
    const fetch = async (r) => {
      network.push(path(r));
      return new Response(path(r) === '/' ? '<!doctype html>' : 'new', { headers: { 'x-shell-version': served } });
    };
    /** @type {Record<string, any>} */
    const context = {
      self: { addEventListener() {}, location: { origin: ORIGIN } }, URL, Request, Response, caches, fetch, setTimeout, clearTimeout, console,
    };
    vm.createContext(context);
    vm.runInContext(readFileSync(new URL('../../src/cribbage/web/static/sw.js', import.meta.url), 'utf8'), context);
    return { network, worker: context };
  }

  it('a page of the kept version takes its files from the cache', async () => {
    const { network, worker: w } = upgraded('v1', 'v1');
    await w.networkFirst(new Request(`${ORIGIN}/`));
    assert.equal(await (await w.cacheFirst(new Request(`${ORIGIN}/static/game/app.js`))).text(), 'old');
    assert.deepEqual(network, ['/']);
  });
  it('a page of a newer version, not kept yet, takes them from the network: never a new page with old modules', async () => {
    const { network, worker: w } = upgraded('v1', 'v2');
    await w.networkFirst(new Request(`${ORIGIN}/`));
    assert.equal(await (await w.cacheFirst(new Request(`${ORIGIN}/static/game/app.js`))).text(), 'new');
    assert.deepEqual(network, ['/', '/static/game/app.js']);
  });
});
