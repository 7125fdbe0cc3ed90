// @ts-check
// The display model (display.js): what the table shows of a view, and what each step of the
// replay does to it (the public table it carries, with the page's own cards).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  cribAfter, cribCount, dispFromView, displayAfter, emptyDisplay, entryFromEvent, handOf, scoresAfter,
} from '../../src/cribbage/web/static/shared/display.js';


/** A two-player view in the play: seat 0 kept 4 cards and played one, seat 1 played one. */
function playView(over = {}) {
  return {
    phase: 'play', dealer: 1, scores: [10, 7], previous_scores: [8, 5], starter: 'JS', count: 15,
    sequence: ['5H', 'TD'], played: [{ card: '5H', seat: 0 }, { card: 'TD', seat: 1 }], held: [3, 3],
    hand: ['2C', '3C', 'KS'], kept: ['2C', '3C', '5H', 'KS'], discards: ['9D', '9H'], hand_number: 2,
    shown: [], ...over,
  };
}

/** The public table a step of playView's hand carries (docs/api.md), as the server sends it. */
function snap(over = {}) {
  return { ph: 'play', d: 1, h: 2, st: 'JS', c: 15, pl: [[0, '5H'], [1, 'TD']], run: 2, held: [3, 3], crib: 4, prev: [8, 5], ...over };
}

describe('dispFromView', () => {
  it('copies the view and places each card of the count with its seat', () => {
    const v = playView();
    const D = dispFromView(v);
    assert.deepEqual(D.sequence, [{ card: '5H', seat: 0 }, { card: 'TD', seat: 1 }]);
    assert.deepEqual(D.prev, [8, 5]);
    assert.equal(D.handNumber, 2);
    assert.equal(D.cribCards, null);
    D.scores[0] = 99;
    D.played[0].seat = 1;
    assert.deepEqual(v.scores, [10, 7], 'the view is not changed through the display');
    assert.equal(v.played[0].seat, 0);
  });

  it('takes the crib from the shown counts once it is shown', () => {
    const D = dispFromView(playView({ phase: 'show', shown: [{ seat: 1, what: 'crib', cards: ['AC', '2D', '3H', '4S'] }] }));
    assert.deepEqual(D.cribCards, ['AC', '2D', '3H', '4S']);
  });

  it('a count begun after a go: the sequence is the last cards played', () => {
    const v = playView({ sequence: ['TD'], count: 10 });
    assert.deepEqual(dispFromView(v).sequence, [{ card: 'TD', seat: 1 }]);
  });
});

describe('emptyDisplay', () => {
  it('is the table of a new game before its first event: no points, no cards', () => {
    const D = emptyDisplay(playView({ phase: 'discard' }));
    assert.deepEqual([D.scores, D.prev, D.held, D.hand, D.kept], [[0, 0], [0, 0], [0, 0], [], []]);
    assert.deepEqual([D.starter, D.sequence, D.played, D.count], [null, [], [], 0]);
    assert.equal(D.dealer, 1);
  });
});

describe('cribCount, cribAfter and handOf', () => {
  it('counts the crib as the steps say, its cards once shown', () => {
    const D = dispFromView(playView({ phase: 'discard', held: [6, 4] }), 2);
    assert.equal(cribCount(D), 2);
    assert.equal(cribCount({ ...D, crib: 4 }), 4);
    assert.equal(cribCount({ ...D, cribCards: ['AC', '2C', '3C'] }), 3);
    assert.equal(cribCount(dispFromView(playView({ phase: 'show', crib: ['AC', '2C', '3C', '4C'] }))), 4, 'a crib turned up');
  });

  it("finds the crib's cards after a state's last step, else keeps the display's", () => {
    const D = dispFromView(playView(), 3);
    assert.equal(cribAfter([{ kind: 'go', after: snap({ crib: 2 }) }, { kind: 'go', after: snap() }], D), 4);
    assert.equal(cribAfter([], D), 3);
    assert.equal(cribAfter(undefined, null), null);
  });

  it('shows every dealt card in the discard, the kept ones after it, sorted', () => {
    const D = dispFromView(playView());
    assert.deepEqual(handOf(D), ['2C', '3C', '5H', 'KS']);
    assert.deepEqual(handOf({ ...D, phase: 'discard', hand: ['KS', 'AC'] }), ['AC', 'KS']);
  });
});

describe('displayAfter', () => {
  /** @type {{view: Record<string, any>, seat: number | null}} */
  const ctx = { view: playView(), seat: 0 };

  it('a play puts the card on the count and takes it from its hand', () => {
    const D = dispFromView(playView());
    const pl = [[0, '5H'], [1, 'TD'], [0, '3C']];
    const mine = displayAfter(D, { kind: 'play', seat: 0, cards: ['3C'], count: 18, after: snap({ c: 18, pl, run: 3, held: [2, 3] }) }, ctx);
    assert.deepEqual(mine.sequence.at(-1), { card: '3C', seat: 0 });
    assert.deepEqual(mine.played.at(-1), { card: '3C', seat: 0 });
    assert.equal(mine.count, 18);
    assert.deepEqual(mine.hand, ['2C', 'KS']);
    assert.deepEqual(mine.held, [2, 3]);
    assert.deepEqual(D.hand, ['2C', '3C', 'KS'], 'the display before is not changed');
    const theirs = displayAfter(D, { kind: 'play', seat: 1, cards: ['4D'], count: 19, after: snap({ c: 19, held: [3, 2] }) }, ctx);
    assert.deepEqual(theirs.held, [3, 2]);
    assert.deepEqual(theirs.hand, D.hand);
  });

  it('the count is the last cards played, as many as the step says', () => {
    const D = dispFromView(playView());
    const after = displayAfter(D, { kind: 'go', seat: 1, after: snap({ run: 1 }) }, ctx);
    assert.deepEqual(after.sequence, [{ card: 'TD', seat: 1 }]);
    assert.deepEqual(displayAfter(D, { kind: 'reset', after: snap({ run: 0, c: 0 }) }, ctx).sequence, []);
  });

  it('a spectator sees seat 0 play from its backs', () => {
    const D = dispFromView(playView());
    const after = displayAfter(D, { kind: 'play', seat: 0, cards: ['3C'], count: 18, after: snap({ held: [2, 3] }) }, { ...ctx, seat: null });
    assert.deepEqual(after.held, [2, 3]);
    assert.deepEqual(after.hand, D.hand);
  });

  it("the page of seat 1 takes its own card from its hand, by the server's seat numbers", () => {
    const D = dispFromView(playView());
    const pl = [[0, '5H'], [1, 'TD'], [1, '3C']];
    const step = { kind: 'play', seat: 1, cards: ['3C'], count: 18, after: snap({ c: 18, pl, run: 3, held: [3, 2] }) };
    const own = displayAfter(D, step, { ...ctx, seat: 1 });
    assert.deepEqual(own.hand, ['2C', 'KS']);
    assert.deepEqual(own.held, [3, 2], 'held by seat, as the server numbers them');
    assert.deepEqual(own.played.at(-1), { card: '3C', seat: 1 });
    assert.deepEqual(displayAfter(D, { ...step, seat: 0 }, { ...ctx, seat: 1 }).hand, D.hand, "seat 0's play is not the page's");
  });

  it('a deal starts the hand from the final view, every seat holding what the step says', () => {
    const dealt = playView({ phase: 'discard', hand: ['AC', '2C', '3C', '4C', '5C', '6C'], kept: [], discards: [], held: [6, 6], hand_number: 3 });
    const D = dispFromView(playView());
    const deal = snap({ ph: 'discard', d: 0, h: 3, st: undefined, c: 0, pl: [], run: 0, held: [6, 6], crib: 0, prev: [1, 2] });
    const after = displayAfter(D, { kind: 'deal', seat: 0, after: deal }, { ...ctx, view: dealt });
    assert.deepEqual([after.phase, after.dealer, after.handNumber, after.crib], ['discard', 0, 3, 0]);
    assert.deepEqual(after.hand, dealt.hand);
    assert.deepEqual(after.held, [6, 6]);
    assert.deepEqual([after.sequence, after.played, after.starter], [[], [], null]);
    assert.deepEqual([after.scores, after.prev], [D.scores, D.prev], 'the pegs stay where the replay has them');
  });

  it("a deal replayed after the discard shows the kept and discarded cards", () => {
    const later = playView({ phase: 'play', kept: ['2C', '3C', '5H', 'KS'], discards: ['9D', '9H'] });
    const after = displayAfter(dispFromView(later), { kind: 'deal', seat: 1, after: snap({ ph: 'discard' }) }, { ...ctx, view: later });
    assert.deepEqual(after.hand, ['2C', '3C', '5H', 'KS', '9D', '9H']);
  });

  it('a discard: the own seat keeps the view’s cards; the counts are the step’s', () => {
    const view = playView({ phase: 'discard', kept: ['2C', '3C', '5H', 'KS'], discards: ['9D', '9H'] });
    const D = { ...dispFromView(view), held: [6, 6], kept: [], hand: ['2C', '3C', '5H', 'KS', '9D', '9H'] };
    const discard = { ph: 'discard', st: undefined, c: 0, pl: [], run: 0 };
    const mine = displayAfter(D, { kind: 'discard', seat: 0, after: snap({ ...discard, held: [4, 6], crib: 2 }) }, { ...ctx, view });
    assert.deepEqual(mine.hand, ['2C', '3C', '5H', 'KS']);
    assert.deepEqual(mine.discards, ['9D', '9H']);
    assert.deepEqual([mine.held, mine.crib], [[4, 6], 2]);
    const theirs = displayAfter(D, { kind: 'discard', seat: 1, after: snap({ ...discard, held: [6, 4], crib: 2 }) }, { ...ctx, view });
    assert.deepEqual([theirs.held, theirs.crib, theirs.phase], [[6, 4], 2, 'discard']);
    assert.deepEqual(theirs.hand, D.hand);
  });

  it('the starter and the end of the play', () => {
    const D = dispFromView(playView({ phase: 'discard', starter: null }));
    const starter = displayAfter(D, { kind: 'starter', cards: ['JS'], after: snap({ st: 'JS', pl: [], run: 0, c: 0 }) }, ctx);
    assert.deepEqual([starter.starter, starter.phase], ['JS', 'play']);
    const P = dispFromView(playView());
    const end = displayAfter(P, { kind: 'reset', detail: 'end of play', after: snap({ ph: 'show', c: 0, run: 0 }) }, ctx);
    assert.deepEqual([end.phase, end.count, end.sequence, end.played.length], ['show', 0, [], 2]);
  });

  it('the crib shown turns face up; the hand over clears the table', () => {
    const P = dispFromView(playView());
    const show = snap({ ph: 'show', c: 0, run: 0 });
    const shown = displayAfter(P, { kind: 'show', seat: 1, detail: 'crib', cards: ['9D', '9H', 'AC', 'AD'], after: show }, ctx);
    assert.deepEqual(shown.cribCards, ['9D', '9H', 'AC', 'AD']);
    assert.equal(shown.phase, 'show');
    assert.equal(displayAfter(P, { kind: 'show', seat: 0, detail: 'hand', cards: [], after: show }, ctx).cribCards, null);
    const over = displayAfter(shown, { kind: 'hand over', seat: 1, after: snap({ ph: 'deal', d: 0, c: 0, run: 0 }) }, ctx);
    assert.deepEqual([over.sequence, over.played, over.count, over.starter, over.cribCards], [[], [], 0, null, null]);
    assert.deepEqual([over.phase, over.dealer], ['deal', 0], 'the next hand’s dealer');
  });

  it('steps that change nothing on the table leave it as it was', () => {
    const P = dispFromView(playView(), 4);
    for (const kind of ['go', 'recut', 'pass', 'win', 'score', 'something new']) {
      assert.deepEqual(displayAfter(P, { kind, seat: 1, after: snap() }, ctx), P, kind);
    }
  });
});

describe('scoresAfter', () => {
  it('the scores and the back pegs after a step, as it says', () => {
    const ev = { kind: 'score', side: 0, points: 2, scores: [12, 7], after: snap({ prev: [10, 5] }) };
    assert.deepEqual(scoresAfter(ev), { scores: [12, 7], prev: [10, 5] });
    const moved = scoresAfter(ev);
    moved.scores[0] = 99;
    assert.deepEqual(ev.scores, [12, 7], 'the step is not changed through them');
  });
});

describe('entryFromEvent', () => {
  it('names a count of the show by its seat and what it counts, its lines as players say them', () => {
    const D = dispFromView(playView());
    const ev = {
      seat: 1, detail: 'crib', cards: ['5H', '5C', '5D', 'JH'], points: 6, claim: 6,
      combos: [
        { kind: 'pair', cards: ['5H', '5C'], points: 2 }, { kind: 'pair', cards: ['5H', '5D'], points: 2 },
        { kind: 'pair', cards: ['5C', '5D'], points: 2 },
      ],
    };
    const entry = entryFromEvent(ev, D, 1);
    assert.equal(entry.what, 'crib');
    assert.equal(entry.starter, 'JS');
    assert.equal(entry.side, 1);
    assert.deepEqual(entry.combos.map((c) => [c.kind, c.points]), [['pair royal', 6]]);
    assert.equal(entryFromEvent({ ...ev, detail: undefined, side: 0 }, D, 1).what, 'hand');
    assert.equal(entryFromEvent({ ...ev, side: 0 }, D, 1).side, 0);
  });
});
