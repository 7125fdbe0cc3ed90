// @ts-check
// The display model (display.js): what the table shows of a view, and what each event of the
// replay does to it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  cribCount, dispFromView, displayAfter, emptyDisplay, entryFromEvent, handOf, scoresAfter,
} from '../../src/cribbage/web/static/display.js';

const RULES = { deal: 6, discard: 2, crib_from_deck: 0, crib_size: 4 };

/** A two-player view in the play: seat 0 kept 4 cards and played one, seat 1 played one. */
function playView(over = {}) {
  return {
    phase: 'play', dealer: 1, scores: [10, 7], previous_scores: [8, 5], starter: 'JS', count: 15,
    sequence: ['5H', 'TD'], played: [{ card: '5H', seat: 0 }, { card: 'TD', seat: 1 }], held: [3, 3],
    hand: ['2C', '3C', 'KS'], kept: ['2C', '3C', '5H', 'KS'], discards: ['9D', '9H'], hand_number: 2,
    shown: [], ...over,
  };
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

describe('cribCount and handOf', () => {
  it('counts the crib as the seats discard, then its size', () => {
    const D = dispFromView(playView({ phase: 'discard', held: [6, 4] }));
    assert.equal(cribCount(D, RULES), 2);
    assert.equal(cribCount({ ...D, held: [4, 4] }, RULES), 4);
    assert.equal(cribCount({ ...D, phase: 'play' }, RULES), 4);
    assert.equal(cribCount({ ...D, phase: 'cut' }, RULES), 0);
    assert.equal(cribCount({ ...D, cribCards: ['AC', '2C', '3C'] }, RULES), 3);
  });

  it('shows every dealt card in the discard, the kept ones after it, sorted', () => {
    const D = dispFromView(playView());
    assert.deepEqual(handOf(D), ['2C', '3C', '5H', 'KS']);
    assert.deepEqual(handOf({ ...D, phase: 'discard', hand: ['KS', 'AC'] }), ['AC', 'KS']);
  });
});

describe('displayAfter', () => {
  const ctx = { view: playView(), mine: true, deal: 6, discard: 2 };

  it('a play puts the card on the count and takes it from its hand', () => {
    const D = dispFromView(playView());
    const mine = displayAfter(D, { kind: 'play', seat: 0, cards: ['3C'], count: 18 }, ctx);
    assert.deepEqual(mine.sequence.at(-1), { card: '3C', seat: 0 });
    assert.equal(mine.count, 18);
    assert.deepEqual(mine.hand, ['2C', 'KS']);
    assert.deepEqual(D.hand, ['2C', '3C', 'KS'], 'the display before is not changed');
    const theirs = displayAfter(D, { kind: 'play', seat: 1, cards: ['4D'], count: 19 }, ctx);
    assert.deepEqual(theirs.held, [3, 2]);
    assert.deepEqual(theirs.hand, D.hand);
  });

  it('a spectator sees seat 0 play from its backs', () => {
    const D = dispFromView(playView());
    const after = displayAfter(D, { kind: 'play', seat: 0, cards: ['3C'], count: 18 }, { ...ctx, mine: false });
    assert.deepEqual(after.held, [2, 3]);
    assert.deepEqual(after.hand, D.hand);
  });

  it('a deal starts the hand from the final view, every seat holding the dealt cards', () => {
    const dealt = playView({ phase: 'discard', hand: ['AC', '2C', '3C', '4C', '5C', '6C'], kept: [], discards: [], held: [6, 6], hand_number: 3 });
    const D = dispFromView(playView());
    const after = displayAfter(D, { kind: 'deal', seat: 0 }, { ...ctx, view: dealt });
    assert.equal(after.phase, 'discard');
    assert.equal(after.dealer, 0);
    assert.deepEqual(after.hand, dealt.hand);
    assert.deepEqual(after.held, [6, 6]);
    assert.deepEqual(after.sequence, []);
    assert.equal(after.starter, null);
    assert.deepEqual(after.scores, D.scores, 'the pegs stay where the replay has them');
  });

  it("a deal replayed after the discard shows the kept and discarded cards", () => {
    const later = playView({ phase: 'play', kept: ['2C', '3C', '5H', 'KS'], discards: ['9D', '9H'] });
    const after = displayAfter(dispFromView(later), { kind: 'deal', seat: 1 }, { ...ctx, view: later });
    assert.deepEqual(after.hand, ['2C', '3C', '5H', 'KS', '9D', '9H']);
  });

  it('a discard: the own seat keeps the view’s cards, another holds fewer', () => {
    const view = playView({ phase: 'discard', kept: ['2C', '3C', '5H', 'KS'], discards: ['9D', '9H'] });
    const D = { ...dispFromView(view), held: [6, 6], kept: [], hand: ['2C', '3C', '5H', 'KS', '9D', '9H'] };
    const mine = displayAfter(D, { kind: 'discard', seat: 0 }, { ...ctx, view });
    assert.deepEqual(mine.hand, ['2C', '3C', '5H', 'KS']);
    assert.deepEqual(mine.discards, ['9D', '9H']);
    assert.deepEqual(mine.held, [4, 6]);
    const theirs = displayAfter(D, { kind: 'discard', seat: 1 }, { ...ctx, view });
    assert.deepEqual(theirs.held, [6, 4]);
    assert.equal(theirs.phase, 'discard');
  });

  it('the starter, a reset and the end of the play', () => {
    const D = dispFromView(playView({ phase: 'discard', starter: null }));
    assert.equal(displayAfter(D, { kind: 'starter', cards: ['JS'] }, ctx).starter, 'JS');
    assert.equal(displayAfter(D, { kind: 'starter', cards: ['JS'] }, ctx).phase, 'play');
    const P = dispFromView(playView());
    const reset = displayAfter(P, { kind: 'reset', detail: '31' }, ctx);
    assert.deepEqual([reset.sequence, reset.count, reset.phase], [[], 0, 'play']);
    assert.equal(displayAfter(P, { kind: 'reset', detail: 'end of play' }, ctx).phase, 'show');
  });

  it('the crib shown turns face up; the hand over clears the table', () => {
    const P = dispFromView(playView());
    const shown = displayAfter(P, { kind: 'show', seat: 1, detail: 'crib', cards: ['9D', '9H', 'AC', 'AD'] }, ctx);
    assert.deepEqual(shown.cribCards, ['9D', '9H', 'AC', 'AD']);
    assert.equal(shown.phase, 'show');
    assert.equal(displayAfter(P, { kind: 'show', seat: 0, detail: 'hand', cards: [] }, ctx).cribCards, null);
    const over = displayAfter(shown, { kind: 'hand over' }, ctx);
    assert.deepEqual([over.sequence, over.played, over.count, over.starter, over.cribCards], [[], [], 0, null, null]);
  });

  it('events that show nothing on the table leave it as it is', () => {
    const P = dispFromView(playView());
    for (const kind of ['go', 'recut', 'pass', 'win', 'score', 'something new']) {
      assert.equal(displayAfter(P, { kind, seat: 1 }, ctx), P, kind);
    }
  });
});

describe('scoresAfter', () => {
  it('moves every side that scored, its back peg where its front one was', () => {
    const D = dispFromView(playView());
    assert.deepEqual(scoresAfter(D, { scores: [12, 7] }), { scores: [12, 7], prev: [10, 5] });
    assert.deepEqual(scoresAfter(D, { side: 1, points: 3 }), { scores: [10, 10], prev: [8, 7] });
    assert.deepEqual(scoresAfter(D, { side: 1, points: 0 }), { scores: [10, 7], prev: [8, 5] });
    assert.deepEqual(D.scores, [10, 7], 'the display before is not changed');
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
