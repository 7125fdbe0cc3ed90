// @ts-check
// Web Push at a correspondence table (push.js): where the opt-in is offered, and the server's key.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

globalThis.document = /** @type {any} */ ({ documentElement: {} });
const { keyBytes, offersPush, optsInByItself } = await import('../../src/cribbage/web/static/game/push.js');

const at = (clock, more = {}) => ({ over: false, options: { clock }, ...more });

describe('the opt-in', () => {
  it('is offered at a table whose clock is the server\'s correspondence or longer', () => {
    assert.equal(offersPush(at(86400), 3600, true), true);
    assert.equal(offersPush(at(3600), 3600, true), true);
    assert.equal(offersPush(at(120), 3600, true), false);
    assert.equal(offersPush(at(null), 3600, true), false);
  });
  it('is not offered to a spectator, after the game, without the server\'s word or the browser\'s support', () => {
    assert.equal(offersPush(at(86400, { spectator: true }), 3600, true), false);
    assert.equal(offersPush(at(86400, { over: true }), 3600, true), false);
    assert.equal(offersPush(at(86400), null, true), false);
    assert.equal(offersPush(at(86400), 3600, false), false);
    assert.equal(offersPush(null, 3600, true), false);
  });
});

describe('the person\'s switch', () => {
  it('opts a seat in by itself only where offered, switched on, allowed by the browser, not opted in yet', () => {
    assert.equal(optsInByItself(true, true, 'granted', false), true);
    assert.equal(optsInByItself(false, true, 'granted', false), false);
    assert.equal(optsInByItself(true, false, 'granted', false), false);
    assert.equal(optsInByItself(true, true, 'default', false), false);  // asking needs a click
    assert.equal(optsInByItself(true, true, 'denied', false), false);
    assert.equal(optsInByItself(true, true, 'granted', true), false);
  });
});

describe('the server key', () => {
  it('is base64url, without padding, as bytes', () => {
    const raw = Uint8Array.from({ length: 65 }, (_, i) => (i * 37 + 4) % 256);
    const text = Buffer.from(raw).toString('base64url');
    assert.equal(text.includes('='), false);
    assert.deepEqual(keyBytes(text), raw);
  });
});
