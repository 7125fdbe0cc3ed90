// @ts-check
// "Your turn" in a background tab (yourturn.js): when the title (and the sound) says it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

globalThis.document = /** @type {any} */ ({ documentElement: {} });
const { QUIET, actingIn, awaited, clockLeft, nextAlert, shown } = await import('../../src/cribbage/web/static/game/yourturn.js');

const acting = (version = 3, id = 'g1') => ({ id, version, over: false, actions: [{ type: 'play' }] });
const waiting = (version = 2, id = 'g1') => ({ id, version, over: false, actions: [] });

describe('whether the seat is to act', () => {
  it('is the game with a decision, not a finished game nor a spectator', () => {
    assert.equal(actingIn(acting()), 'g1');
    assert.equal(actingIn(waiting()), '');
    assert.equal(actingIn({ ...acting(), over: true }), '');
    assert.equal(actingIn({ ...acting(), spectator: true }), '');
    assert.equal(actingIn(null), '');
    assert.equal(actingIn({ id: 'g1' }), '');
  });
});

describe('the alert', () => {
  it('rings once when it becomes the seat\'s turn in a hidden tab', () => {
    const first = nextAlert(QUIET, waiting(), true);
    assert.deepEqual(first, { acting: '', alerted: false, ring: false });
    const turn = nextAlert(first, acting(), true);
    assert.deepEqual(turn, { acting: 'g1', alerted: true, ring: true });
    const again = nextAlert(turn, acting(4), true);  // another change, still to act: the title stays, no second sound
    assert.deepEqual(again, { acting: 'g1', alerted: true, ring: false });
  });
  it('says nothing in a visible tab', () => {
    assert.deepEqual(nextAlert(QUIET, acting(), false), { acting: 'g1', alerted: false, ring: false });
  });
  it('says nothing of a turn the seat had before the tab was hidden', () => {
    const had = nextAlert(QUIET, acting(), false);
    assert.deepEqual(nextAlert(had, acting(4), true), { acting: 'g1', alerted: false, ring: false });
  });
  it('is taken back when the seat no longer acts', () => {
    const turn = nextAlert(QUIET, acting(), true);
    assert.deepEqual(nextAlert(turn, waiting(5), true), { acting: '', alerted: false, ring: false });
    assert.deepEqual(nextAlert(turn, { ...acting(6), over: true }, true), { acting: '', alerted: false, ring: false });
  });
  it('is taken back when the tab is shown, and a later turn rings again', () => {
    const turn = nextAlert(QUIET, acting(), true);
    const seen = shown(turn);
    assert.deepEqual(seen, { acting: 'g1', alerted: false });
    assert.equal(nextAlert(seen, acting(4), true).ring, false);  // the same turn: already seen
    const acted = nextAlert(seen, waiting(5), true);
    assert.equal(nextAlert(acted, acting(7), true).ring, true);
  });
  it('rings for another game\'s turn (a rematch)', () => {
    const turn = nextAlert(QUIET, acting(), false);
    assert.equal(nextAlert(turn, acting(1, 'g2'), true).ring, true);
  });
});

describe('the time a turn clock shows as left', () => {
  it('is never more than the clock, while the deadline holds the reading time too', () => {
    const now = 1_000_000;
    assert.equal(clockLeft(now + 60 + 60, now, 60), 60);  // a 60 s clock, not yet started: 60 s, not 120 s
    assert.equal(clockLeft(now + 60 + 86400, now, 86400), 86400);  // a day's clock: 1 d, not 25 h
    assert.equal(clockLeft(now + 86400 - 0.5, now, 86400), 86400);
    assert.equal(clockLeft(now + 86399, now, 86400), 86399);
  });
  it('counts down to 0 and no further, rounded up', () => {
    const now = 1_000_000;
    assert.equal(clockLeft(now + 41.2, now, 60), 42);
    assert.equal(clockLeft(now - 5, now, 60), 0);
    assert.equal(clockLeft(now + 8, now, null), 8);  // no clock known: the deadline alone
  });
});

describe('whom the status line says the table waits for', () => {
  // The next deal's discard, both seats still to discard (both have it in their actions), while
  // the page replays the end of the last deal and its show: the engine asks seat 1 first.
  const nextDeal = (seat) => ({
    id: 'g1', seat, over: false, waiting_for: [], actions: [{ type: 'discard', cards: [], count: 2 }],
    view: { to_act: 1, claim: null },
  });
  it('is not "your turn" while the page replays the steps before the decision', () => {
    assert.deepEqual(awaited(nextDeal(0), true), { wait: 'seat', seats: [1] });
    assert.equal(awaited(nextDeal(1), true), null);  // the seat named to act: nobody else to wait for
  });
  it('is "your turn" once the decision is shown', () => {
    assert.deepEqual(awaited(nextDeal(0), false), { wait: 'you', seats: [] });
    assert.deepEqual(awaited(nextDeal(1), false), { wait: 'you', seats: [] });
  });
  it('names the seat to act, the callers of muggins, the seats to join', () => {
    const other = { ...nextDeal(0), actions: [] };
    assert.deepEqual(awaited(other, false), { wait: 'seat', seats: [1] });
    assert.deepEqual(awaited({ ...other, view: { to_act: 1, claim: { callers: [1, 2] } } }, false), { wait: 'muggins', seats: [1, 2] });
    assert.deepEqual(awaited({ ...other, waiting_for: [2] }, false), { wait: 'join', seats: [2] });
    assert.deepEqual(awaited({ ...other, seat: null, spectator: true, view: { to_act: 0 } }, false), { wait: 'seat', seats: [0] });
    assert.equal(awaited({ ...other, over: true }, false), null);
    assert.equal(awaited(null, false), null);
  });
});
