// @ts-check
// "Tell me when my next game is ready" on the tournament page (tournament/notify.js): where the switch is offered.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

globalThis.document = /** @type {any} */ ({ documentElement: {} });
const { offersReadyPush } = await import('../../src/cribbage/web/static/tournament/notify.js');

const DAY = 86400;
/** A tournament read by entrant 1 (or `entrant`), with these settings. @param {Record<string, any>} [settings] @param {Record<string, any>} [more] */
const T = (settings = {}, more = {}) => ({
  id: 't1', stage: 'running', settings: { venue: 'online', clock: DAY, ...settings },
  entrants: [{ number: 1, withdrawn: false }, { number: 2, withdrawn: true }], you: { director: false, entrant: 1 }, ...more,
});

describe('the switch', () => {
  it('is offered to a signed-in entrant of an online tournament whose clock is the server\'s correspondence or longer', () => {
    assert.equal(offersReadyPush(T(), 3600, true, true), true);
    assert.equal(offersReadyPush(T({ clock: 3600 }), 3600, true, true), true);
    assert.equal(offersReadyPush(T({}, { stage: 'registration' }), 3600, true, true), true);
  });
  it('is not offered for a shorter clock, none, a club, or a finished tournament', () => {
    assert.equal(offersReadyPush(T({ clock: 120 }), 3600, true, true), false);
    assert.equal(offersReadyPush(T({ clock: null }), 3600, true, true), false);
    assert.equal(offersReadyPush(T({ venue: 'club', clock: null }), 3600, true, true), false);
    assert.equal(offersReadyPush(T({}, { stage: 'finished' }), 3600, true, true), false);
  });
  it('is not offered to a reader not entered, withdrawn or signed out, nor without the server\'s word or the browser\'s support', () => {
    assert.equal(offersReadyPush(T({}, { you: { director: true, entrant: null } }), 3600, true, true), false);
    assert.equal(offersReadyPush(T({}, { you: { director: false, entrant: 2 } }), 3600, true, true), false);
    assert.equal(offersReadyPush(T(), 3600, true, false), false);
    assert.equal(offersReadyPush(T(), null, true, true), false);
    assert.equal(offersReadyPush(T(), 3600, false, true), false);
    assert.equal(offersReadyPush(null, 3600, true, true), false);
  });
});
