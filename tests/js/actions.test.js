// @ts-check
// The page's reading of the action templates (static/actions.js), on the engine's own templates
// (fixtures/templates.json, written and checked by tests/core/test_templates.py) and on small cases.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';

import {
  actionFor, allows, canDiscard, canPlay, claimRange, decision, discardCount, hasTurn, needsClaim,
  playableCards,
} from '../../src/cribbage/web/static/game/actions.js';

/** @typedef {import('../../src/cribbage/web/static/game/actions.js').Template} Template */
/** @typedef {import('../../src/cribbage/web/static/game/actions.js').Action} Action */
/** @typedef {{name: string, actions: Template[], decision: string, allowed: Action[], refused: Action[]}} Case */

/** @type {Case[]} */
const CASES = JSON.parse(readFileSync(new URL('./fixtures/templates.json', import.meta.url), 'utf8'));

test('the fixture holds a decision of every kind', () => {
  assert.deepEqual(new Set(CASES.map((c) => c.decision)), new Set(['discard', 'play', 'count', 'muggins']));
  assert.ok(CASES.some((c) => needsClaim(c.actions)) && CASES.some((c) => c.decision === 'play' && !needsClaim(c.actions)));
});

for (const c of CASES) {
  test(`${c.name}: the templates allow exactly the engine's actions`, () => {
    assert.equal(decision(c.actions), c.decision);
    assert.ok(hasTurn(c.actions));
    for (const action of c.allowed) {
      assert.ok(allows(c.actions, action), JSON.stringify(action));
      assert.deepEqual(actionFor(c.actions, action), action);
    }
    for (const action of c.refused) {
      assert.ok(!allows(c.actions, action), JSON.stringify(action));
      assert.equal(actionFor(c.actions, action), null, JSON.stringify(action));
    }
  });

  test(`${c.name}: cards, counts and ranges are the engine's`, () => {
    const plays = c.allowed.flatMap((a) => (a.type === 'play' ? [a] : []));
    assert.deepEqual(new Set(playableCards(c.actions)), new Set(plays.map((a) => a.card)));
    for (const a of plays) assert.ok(canPlay(c.actions, a.card));
    const discards = c.allowed.flatMap((a) => (a.type === 'discard' ? [a] : []));
    assert.equal(discardCount(c.actions), discards.length ? discards[0].cards.length : null);
    for (const a of discards) assert.ok(a.cards.every((card) => canDiscard(c.actions, card)));
    const claims = plays.flatMap((a) => (a.claim === undefined ? [] : [a.claim]));
    assert.deepEqual(claimRange(c.actions, 'play'), claims.length ? { min: Math.min(...claims), max: Math.max(...claims) } : null);
    for (const kind of /** @type {const} */ (['count', 'muggins'])) {
      const points = c.allowed.flatMap((a) => (a.type === kind ? [a.points] : []));
      assert.deepEqual(claimRange(c.actions, kind), points.length ? { min: Math.min(...points), max: Math.max(...points) } : null);
    }
  });
}

test('no templates: nothing to do', () => {
  assert.equal(decision([]), null);
  assert.equal(hasTurn([]), false);
  assert.deepEqual(playableCards([]), []);
  assert.equal(discardCount([]), null);
  assert.equal(claimRange([], 'count'), null);
  assert.equal(actionFor([], { type: 'pass' }), null);
});

test('a play needs its claim with manual pegging, and has none without', () => {
  /** @type {Template[]} */
  const manual = [{ type: 'play', cards: ['5H', 'JD'], claim: { min: 0, max: 60 } }];
  assert.equal(actionFor(manual, { type: 'play', card: '5H' }), null);
  assert.deepEqual(actionFor(manual, { type: 'play', card: '5H', claim: 2 }), { type: 'play', card: '5H', claim: 2 });
  assert.equal(actionFor(manual, { type: 'play', card: '5H', claim: 61 }), null);
  assert.equal(actionFor(manual, { type: 'play', card: '5H', claim: 1.5 }), null);
  assert.equal(actionFor(manual, { type: 'play', card: 'KS', claim: 0 }), null);
  /** @type {Template[]} */
  const automatic = [{ type: 'play', cards: ['5H'] }];
  assert.deepEqual(actionFor(automatic, { type: 'play', card: '5H' }), { type: 'play', card: '5H' });
  assert.equal(actionFor(automatic, { type: 'play', card: '5H', claim: 2 }), null);
  assert.equal(allows(automatic, { type: 'play', card: '5H', claim: 0 }), false);
});

test('a discard is its count of different cards among the templates, in any order', () => {
  /** @type {Template[]} */
  const throwing = [{ type: 'discard', cards: ['AC', '5H', 'JD'], count: 2 }];
  const chosen = ['JD', 'AC'];
  const action = actionFor(throwing, { type: 'discard', cards: chosen });
  assert.deepEqual(action, { type: 'discard', cards: ['JD', 'AC'] });
  assert.notEqual(action && action.type === 'discard' ? action.cards : null, chosen);  // a copy
  assert.equal(actionFor(throwing, { type: 'discard', cards: ['JD', 'JD'] }), null);
  assert.equal(actionFor(throwing, { type: 'discard', cards: ['JD'] }), null);
  assert.equal(actionFor(throwing, { type: 'discard', cards: ['JD', 'KS'] }), null);
  assert.equal(canDiscard(throwing, 'KS'), false);
});

test('the muggins decision: a call in its range, or a pass', () => {
  /** @type {Template[]} */
  const calls = [{ type: 'pass' }, { type: 'muggins', points: { min: 1, max: 60 } }];
  assert.equal(decision(calls), 'muggins');
  assert.deepEqual(claimRange(calls, 'muggins'), { min: 1, max: 60 });
  assert.deepEqual(actionFor(calls, { type: 'pass' }), { type: 'pass' });
  assert.equal(actionFor(calls, { type: 'muggins', points: 0 }), null);
  assert.equal(actionFor(calls, { type: 'count', points: 2 }), null);
});
