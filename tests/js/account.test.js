// @ts-check
// The account's session goes with creating a table, joining one and the accounts' own requests,
// never with a game's (those carry the seat's token): api.js sessionToken; and what the browser
// keeps of it (saved.js).
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';

/** A stand-in localStorage and sessionStorage for node. */
function storage() {
  const items = new Map();
  return {
    getItem: (/** @type {string} */ k) => (items.has(k) ? items.get(k) : null),
    setItem: (/** @type {string} */ k, /** @type {string} */ v) => { items.set(k, String(v)); },
    removeItem: (/** @type {string} */ k) => { items.delete(k); },
    clear: () => items.clear(),
  };
}
globalThis.localStorage = /** @type {any} */ (storage());
globalThis.sessionStorage = /** @type {any} */ (storage());

const { sessionToken, takesSession } = await import('../../src/cribbage/web/static/shared/api.js');
const saved = await import('../../src/cribbage/web/static/shared/saved.js');

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('the session of an account', () => {
  it('goes with creating a table, joining one and the accounts’ requests', () => {
    for (const [method, path] of [
      ['POST', '/api/games'], ['POST', '/api/games/upload'], ['POST', '/api/join'], ['POST', '/api/accounts'], ['POST', '/api/accounts/signin'],
      ['POST', '/api/accounts/signout'], ['POST', '/api/accounts/claim'], ['GET', '/api/accounts/me'],
      ['POST', '/api/play'], ['GET', '/api/play'], ['DELETE', '/api/play'],
      ['POST', '/api/accounts/signout/all'], ['POST', '/api/accounts/delete'], ['POST', '/api/accounts/games/abc/open'],
      ['GET', '/api/players/Aiko'], ['GET', '/api/players/%E3%81%82'], ['GET', '/api/leaderboard/short'],
    ]) {
      assert.ok(takesSession(method, path), `${method} ${path}`);
      assert.equal(sessionToken(method, path, 'S'), 'S');
    }
  });
  it('never goes with a game’s requests, which carry the seat’s token', () => {
    for (const [method, path] of [
      ['GET', '/api/games/abc'], ['POST', '/api/games/abc/actions'], ['POST', '/api/games/abc/leave'],
      ['GET', '/api/games/abc/record'], ['POST', '/api/games/abc/watch'], ['GET', '/api/join/CODE'],
      ['GET', '/api/lobby'], ['POST', '/api/games/abc/rematch'], ['GET', '/api/games'],
      ['PUT', '/api/play'], ['GET', '/api/play/x'],
      ['GET', '/api/players'], ['GET', '/api/players/Aiko/x'], ['POST', '/api/players/Aiko'], ['GET', '/api/leaderboards/short'],
    ]) {
      assert.ok(!takesSession(method, path), `${method} ${path}`);
      assert.equal(sessionToken(method, path, 'S'), undefined);
    }
  });
  it('is nothing when no one is signed in', () => {
    assert.equal(sessionToken('POST', '/api/games', null), undefined);
    assert.equal(sessionToken('POST', '/api/join', ''), undefined);
  });
});

describe('what the browser keeps of an account', () => {
  it('keeps the session and its name until signing out', () => {
    assert.equal(saved.loadSession(), null);
    saved.saveSession('tok', 'Aiko');
    assert.deepEqual(saved.loadSession(), { token: 'tok', name: 'Aiko' });
    saved.forgetSession();
    assert.equal(saved.loadSession(), null);
  });
  it('ignores a session kept broken', () => {
    localStorage.setItem(saved.LS_SESSION, '{"name": "Aiko"}');
    assert.equal(saved.loadSession(), null);
    localStorage.setItem(saved.LS_SESSION, 'not json');
    assert.equal(saved.loadSession(), null);
  });
  it('offers the seat of the game kept as a guest to claim', () => {
    assert.deepEqual(saved.guestTokens(), []);
    saved.saveGame({ id: 'g1', token: 'seat-token', seat: 0 });
    assert.deepEqual(saved.guestTokens(), ['seat-token']);
  });
  it('keeps the seats of the games played here, each once, the newest last, the oldest dropped', () => {
    assert.equal(saved.heldSeat('g1'), null);
    saved.saveGame({ id: 'g1', token: 't1', seat: 0 });
    saved.saveGame({ id: 'g2', token: 't2', seat: 1 });
    saved.saveGame({ id: 'g1', token: 't1', seat: 0 });
    assert.deepEqual(saved.heldSeat('g2'), { id: 'g2', token: 't2', seat: 1 });
    assert.deepEqual(JSON.parse(localStorage.getItem(saved.LS_SEATS) ?? '[]').map((/** @type {any} */ s) => s.id), ['g2', 'g1']);
    saved.saveGame({ id: 'w', watch: 'CODE' });  // a spectator's link is no seat
    assert.equal(saved.heldSeat('w'), null);
    const many = Array.from({ length: 5 }, (_, i) => ({ id: `g${i}`, token: `t${i}`, seat: 0 }));
    const kept = many.reduce((acc, g) => saved.withSeat(acc, g, 3), /** @type {any[]} */ ([]));
    assert.deepEqual(kept.map((s) => s.id), ['g2', 'g3', 'g4']);
  });
  it('keeps a seat opened here for a review without making it this tab’s game', () => {
    saved.saveGame({ id: 'g1', token: 't1', seat: 0 });
    saved.keepSeat({ id: 'g2', token: 'k2', seat: 1 });
    assert.deepEqual(saved.heldSeat('g2'), { id: 'g2', token: 'k2', seat: 1 });
    assert.equal(saved.loadGame().id, 'g1');
  });
  it('ignores seats kept broken', () => {
    localStorage.setItem(saved.LS_SEATS, '{"g1": "t1"}');
    assert.equal(saved.heldSeat('g1'), null);
    saved.saveGame({ id: 'g1', token: 't1', seat: 0 });
    assert.deepEqual(saved.heldSeat('g1'), { id: 'g1', token: 't1', seat: 0 });
  });
});
