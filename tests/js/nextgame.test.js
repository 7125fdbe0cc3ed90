// @ts-check
// A match's next game (nextgame.js): when a seat's page goes there by itself, and whether a seat of
// it may be offered to a computer yet.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { arriving, nextOfMatch } from '../../src/cribbage/web/static/game/nextgame.js';

const match = (over = false) => ({ first_to: 2, number: 1, wins: over ? [2, 0] : [1, 0], over, winner: over ? 0 : null });
const ended = { id: 'g1', seat: 1, over: true, match: match(), rematch: 'g2' };

describe('the next game of a match', () => {
  it('is followed once the game is over and the server named it', () => {
    assert.equal(nextOfMatch(ended), 'g2');
    assert.equal(nextOfMatch({ ...ended, rematch: null }), null);  // not made yet: a later state names it
    assert.equal(nextOfMatch({ ...ended, over: false }), null);
  });
  it('is none once the match is over, for a game on its own, or for a spectator (by its watch code)', () => {
    assert.equal(nextOfMatch({ ...ended, match: match(true) }), null);
    assert.equal(nextOfMatch({ ...ended, match: null }), null);
    assert.equal(nextOfMatch({ ...ended, seat: null, spectator: true }), null);
    assert.equal(nextOfMatch(null), null);
  });
});

describe('a rematch\'s people on their way', () => {
  it('are given until its arrival, and no game else has one', () => {
    const st = { arrival: 1000 };
    assert.equal(arriving(st, 940), true);
    assert.equal(arriving(st, 999.9), true);
    assert.equal(arriving(st, 1000), false);
    assert.equal(arriving({ arrival: null }, 10), false);
    assert.equal(arriving({}, 10), false);
  });
});
