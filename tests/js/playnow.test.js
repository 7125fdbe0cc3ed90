// @ts-check
// "Play now"'s state machine (playnow.js): the server's answers and refusals move it, it says when
// to ask again, and how long one has waited, as m:ss.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

const { IDLE, POLL_MS, RETRY_MS, formatWait, next, pollDelay, polling, waitedNow } = await import('../../src/cribbage/web/static/game/playnow.js');

const STATUS = { pool: 'short', waited: 4.2, waiting: 1, window: 142 };
const MATCH = { game: 'G', seat: 1, token: 'T', pool: 'short' };

/** @param {import('../../src/cribbage/web/static/game/playnow.js').PlayState} state @param {...any} events */
const run = (state, ...events) => events.reduce(next, state);

describe('a wait', () => {
  it('is shown as minutes and seconds', () => {
    assert.equal(formatWait(0), '0:00');
    assert.equal(formatWait(7.9), '0:07');
    assert.equal(formatWait(59.99), '0:59');
    assert.equal(formatWait(60), '1:00');
    assert.equal(formatWait(125), '2:05');
    assert.equal(formatWait(3700), '61:40');
    assert.equal(formatWait(-3), '0:00');
    assert.equal(formatWait(NaN), '0:00');
  });
  it('goes on from the server’s count by the time since its answer', () => {
    const state = run(IDLE, { type: 'join', pool: 'short' }, { type: 'answer', answer: STATUS, at: 10_000 });
    assert.equal(waitedNow(state, 10_000), 4.2);
    assert.equal(formatWait(waitedNow(state, 13_000)), '0:07');
    assert.equal(waitedNow(IDLE, 13_000), 0);
  });
});

describe('the page asks again', () => {
  it('every second while waiting and while the game starts, not before joining nor once matched', () => {
    const joining = next(IDLE, { type: 'join', pool: 'short' });
    assert.equal(polling(IDLE), false);
    assert.equal(polling(joining), false);
    const waiting = next(joining, { type: 'answer', answer: STATUS, at: 0 });
    assert.deepEqual(waiting, { phase: 'waiting', pool: 'short', waited: 4.2, waiting: 1, at: 0 });
    assert.ok(polling(waiting));
    assert.equal(pollDelay(waiting), POLL_MS);
    const starting = next(waiting, { type: 'answer', answer: { pool: 'short', starting: true }, at: 1 });
    assert.deepEqual(starting, { phase: 'starting', pool: 'short' });
    assert.ok(polling(starting));
    const matched = next(starting, { type: 'answer', answer: { match: MATCH }, at: 2 });
    assert.deepEqual(matched, { phase: 'matched', match: MATCH });
    assert.equal(polling(matched), false);
  });
  it('later after a refusal worth retrying, keeping the wait; a 429 after its Retry-After', () => {
    const waiting = run(IDLE, { type: 'join', pool: 'short' }, { type: 'answer', answer: STATUS, at: 0 });
    const busy = next(waiting, { type: 'error', code: 'too_many', data: { retry_after: 5 }, at: 1 });
    assert.equal(busy.phase, 'waiting');
    assert.ok(polling(busy));
    assert.equal(pollDelay(busy), 5000);
    assert.deepEqual('problem' in busy && busy.problem, { code: 'too_many', data: { retry_after: 5 } });
    const away = next(waiting, { type: 'error', code: 'queue.unavailable', at: 1 });
    assert.equal(pollDelay(away), RETRY_MS);
    const again = next(away, { type: 'answer', answer: { ...STATUS, waiting: 2 }, at: 2 });
    assert.equal(pollDelay(again), POLL_MS);
    assert.ok(!('problem' in again));
    assert.equal(again.phase === 'waiting' && again.waiting, 2);
  });
  it('no more when the wait ended: the match failed, signed out, or nobody waits', () => {
    const waiting = run(IDLE, { type: 'join', pool: 'short' }, { type: 'answer', answer: STATUS, at: 0 });
    for (const code of ['play.match_failed', 'play.not_waiting', 'account.bad_session']) {
      const ended = next(waiting, { type: 'error', code, at: 1 });
      assert.deepEqual(ended, { phase: 'idle', problem: { code, data: {} } });
      assert.equal(polling(ended), false);
    }
  });
});

describe('joining', () => {
  it('refused, says why and waits for the player', () => {
    for (const code of ['queue.unknown_pool', 'too_many', 'offline', 'account.bad_session']) {
      const state = run(IDLE, { type: 'join', pool: 'nope' }, { type: 'error', code, data: { pool: 'nope' }, at: 0 });
      assert.equal(state.phase, 'idle', code);
      assert.equal(polling(state), false);
      assert.equal('problem' in state && state.problem?.code, code);
    }
  });
  it('while waiting already (another tab) waits on in that pool; while a match starts, asks for it', () => {
    const twice = run(IDLE, { type: 'join', pool: 'short' }, { type: 'error', code: 'queue.already_waiting', data: { pool: 'three' }, at: 5 });
    assert.equal(twice.phase, 'waiting');
    assert.equal('pool' in twice && twice.pool, 'three');
    assert.ok(polling(twice));
    const starting = run(IDLE, { type: 'join', pool: 'short' }, { type: 'error', code: 'queue.match_waiting', data: { match: 'M' }, at: 5 });
    assert.deepEqual(starting, { phase: 'starting', pool: 'short' });
  });
  it('cancelled, drops the answers still on their way', () => {
    const waiting = run(IDLE, { type: 'join', pool: 'short' }, { type: 'answer', answer: STATUS, at: 0 });
    const left = next(waiting, { type: 'cancel' });
    assert.equal(left, IDLE);
    assert.equal(next(left, { type: 'answer', answer: STATUS, at: 1 }), IDLE);
    assert.equal(next(left, { type: 'error', code: 'too_many', at: 1 }), IDLE);
  });
});
