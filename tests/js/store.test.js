// @ts-check
// The store (store.js): the STATE turned round to the page's seat, the new events of a pushed
// state, what the player is asked, the statistics and the options sent to the server.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  S, apiOptions, decisionOf, lastStepOf, localize, newEvents, offerState, seatChoices, takePending, withResult, withToggled,
} from '../../src/cribbage/web/static/store.js';

/** A three-player STATE (each seat its own side) as seat 1 receives it. */
function stateOfSeat1() {
  return {
    id: 'g1', version: 7, seat: 1,
    view: {
      players: 3, seat: 1, to_act: 2, dealer: 0, scores: [5, 6, 7], previous_scores: [1, 2, 3], held: [4, 3, 2],
      played: [{ card: '5H', seat: 0 }, { card: 'TD', seat: 2 }], shown: [], show_order: [{ seat: 1, what: 'hand' }],
      claim: { seat: 2, points: 4, callers: [0, 1] },
      rules: { seat_sides: [0, 1, 2], partnerships: false },
    },
    actions: [{ type: 'play', cards: ['2C'] }],
    events: [{ kind: 'play', seat: 2, cards: ['TD'], count: 15 }, { kind: 'score', seat: 2, side: 2, scores: [5, 6, 7] },
      { kind: 'cut', seat: 0, cards: ['AC', '2C', '3C'] },
      { kind: 'go', seat: 0, index: 9, scores: [5, 6, 7], after: {
        ph: 'play', d: 0, h: 2, st: 'JS', c: 15, pl: [[0, '5H'], [2, 'TD']], run: 2, held: [4, 3, 2], crib: 4, prev: [1, 2, 3] } }],
    score_history: [{ hand: 1, scores: [1, 2, 3] }],
    breakdown: [{ hand: 1 }, { hand: 2 }, { hand: 3 }],
    result: { winner: 2, loser: 0, scores: [5, 6, 7] },
  };
}

describe('localize', () => {
  it('leaves a state of seat 0 as it is', () => {
    const st = { ...stateOfSeat1(), seat: 0 };
    assert.equal(localize(st), st);
  });

  it("turns the table round so that the page's seat is seat 0", () => {
    const raw = stateOfSeat1();
    const st = localize(raw);
    const v = st.view;
    assert.equal(v.seat, 0);
    assert.equal(v.to_act, 1);  // seat 2 sits one after seat 1
    assert.equal(v.dealer, 2);  // seat 0 sits two after seat 1
    assert.deepEqual(v.scores, [6, 7, 5]);
    assert.deepEqual(v.previous_scores, [2, 3, 1]);
    assert.deepEqual(v.held, [3, 2, 4]);
    assert.deepEqual(st.actions, raw.actions);  // templates name no seat: nothing to turn
    assert.deepEqual(v.played.map((p) => p.seat), [2, 1]);
    assert.deepEqual(v.show_order, [{ seat: 0, what: 'hand' }]);
    assert.deepEqual(v.claim, { seat: 1, points: 4, callers: [2, 0] });
    assert.deepEqual(v.rules.seat_sides, [0, 1, 2]);
    assert.deepEqual(st.events[0], { kind: 'play', seat: 1, cards: ['TD'], count: 15 });
    assert.deepEqual(st.events[1].scores, [6, 7, 5]);
    assert.equal(st.events[1].side, 1);
    assert.deepEqual(st.events[2].cards, ['2C', '3C', 'AC'], 'the cut: each seat its card');
    const after = st.events[3].after;
    assert.deepEqual([after.d, after.held, after.prev, after.pl], [2, [3, 2, 4], [2, 3, 1], [[2, '5H'], [1, 'TD']]], 'a step\'s public table');
    assert.deepEqual([after.ph, after.h, after.st, after.c, after.run, after.crib], ['play', 2, 'JS', 15, 2, 4]);
    assert.deepEqual(st.score_history[0].scores, [2, 3, 1]);
    assert.deepEqual(st.breakdown, [{ hand: 2 }, { hand: 3 }, { hand: 1 }]);
    assert.deepEqual(st.result, { winner: 1, loser: 2, scores: [6, 7, 5] });
    assert.deepEqual(raw, stateOfSeat1(), 'the STATE received is not changed');
  });

  it('turns the sides of partners by side, not by seat', () => {
    const raw = stateOfSeat1();
    raw.view.players = 4;
    raw.view.held = [1, 2, 3, 4];
    raw.view.scores = [30, 40];
    raw.view.previous_scores = [20, 35];
    raw.view.rules = { seat_sides: [0, 1, 0, 1], partnerships: true };
    raw.view.claim = null;
    raw.events = [];
    raw.breakdown = [{ hand: 10 }, { hand: 20 }];
    raw.result = { winner: 1, loser: 0, scores: [30, 40] };
    raw.score_history = [];
    const st = localize(raw);
    const v = st.view;
    assert.deepEqual(st.breakdown, [{ hand: 20 }, { hand: 10 }]);
    assert.deepEqual(v.scores, [40, 30]);
    assert.deepEqual(v.held, [2, 3, 4, 1]);
    assert.deepEqual(v.rules.seat_sides, [0, 1, 0, 1]);
  });
});

describe('newEvents', () => {
  const a = { kind: 'play', seat: 0, index: 4 };
  const b = { kind: 'go', seat: 1, index: 5 };
  const c = { kind: 'reset', index: 6 };
  it('replays only the steps after the last one shown, by index', () => {
    assert.deepEqual(newEvents(5, [a, b, c]), [c]);
    assert.deepEqual(newEvents(5, [a, b]), []);
    assert.deepEqual(newEvents(4, [b, c]), [b, c]);
    assert.deepEqual(newEvents(6, [a, b]), []);
  });
  it('replays all of them when none was shown', () => {
    assert.deepEqual(newEvents(-1, [a, b]), [a, b]);
  });
});

describe('lastStepOf', () => {
  it('is the index of the last step, or the one before when there is none', () => {
    assert.equal(lastStepOf([{ index: 3 }, { index: 4 }]), 4);
    assert.equal(lastStepOf([]), -1);
    assert.equal(lastStepOf(undefined, 7), 7);
    assert.equal(lastStepOf([{ index: 3 }], 7), 7, 'a state repeating older steps');
  });
});

describe('decisionOf', () => {
  it('says what the state asks of the page, from its action templates', () => {
    assert.equal(decisionOf(null), null);
    assert.equal(decisionOf({ actions: [] }), null);
    assert.equal(decisionOf({ actions: [{ type: 'discard', cards: ['AC', '2C', '3C'], count: 2 }] }), 'discard');
    assert.equal(decisionOf({ actions: [{ type: 'count', points: { min: 0, max: 60 } }] }), 'count');
    assert.equal(decisionOf({ actions: [{ type: 'pass' }, { type: 'muggins', points: { min: 1, max: 60 } }] }), 'muggins');
    assert.equal(decisionOf({ actions: [{ type: 'pass' }] }), 'muggins');
  });
});

describe('withResult', () => {
  const empty = {
    played: 0, won: 0, lost: 0, skunksGiven: 0, skunksTaken: 0, doubleGiven: 0, doubleTaken: 0,
    pegging: 0, hand: 0, crib: 0, withBreakdown: 0, games: [],
  };
  it('counts a win, its skunk and its points once', () => {
    const st = { id: 'g', result: { winner: 0, loser: 1, skunk: 2 }, breakdown: [{ pegging: 20, hand: 70, crib: 31 }] };
    const after = withResult(empty, st);
    assert.deepEqual(
      [after.played, after.won, after.lost, after.skunksGiven, after.doubleGiven, after.pegging, after.withBreakdown, after.games],
      [1, 1, 0, 1, 1, 20, 1, ['g']],
    );
    assert.deepEqual(empty.games, [], 'the statistics before are not changed');
    assert.equal(withResult(after, st), null, 'a game is counted once');
    assert.equal(withResult(empty, { id: 'h' }), null, 'a game with no result is not counted');
  });
  it('counts a skunk taken only by the loser', () => {
    const lost = withResult(empty, { id: 'g', result: { winner: 1, loser: 0, skunk: 1 } });
    assert.deepEqual([lost.lost, lost.skunksTaken, lost.withBreakdown], [1, 1, 0]);
    const third = withResult(empty, { id: 'g', result: { winner: 1, loser: 2, skunk: 1 } });
    assert.equal(third.skunksTaken, 0);
  });
});

describe('seatChoices and apiOptions', () => {
  const base = { level: 'strong', variant: 'standard', target: '', counting: 'muggins-play', dealer: 'cut', speed: 'normal' };
  it('are computers of the chosen level unless another seat is chosen', () => {
    S.variants = null;
    assert.equal(seatChoices(base), null);
    assert.equal(seatChoices({ ...base, seats: [''] }), null);
    assert.deepEqual(seatChoices({ ...base, variant: 'three-player', seats: ['', 'human'] }), ['strong', 'human']);
    assert.equal(seatChoices({ ...base, variant: 'four-player', seats: ['human'] }), null, "another variant's choice");
  });
  it('sends a game against the computer with its counting', () => {
    const body = apiOptions({ ...base, target: '61' });
    assert.deepEqual(body, {
      level: 'strong', variant: 'standard', manual: true, muggins: true, muggins_play: true, dealer: 'cut',
      skunk: 'marked', names: ['You'], target: 61,
    });
  });
  it('sends a table with people, its name and clock, and no seed', () => {
    const body = apiOptions({ ...base, counting: 'auto', seats: ['human'], name: 'Aiko', public: true, clock: '30', takeover: 'weak' });
    assert.deepEqual(body.seats, [{ kind: 'human' }, { kind: 'human' }]);
    assert.deepEqual([body.names, body.public, body.clock, body.takeover, body.manual], [['Aiko'], true, 30, 'weak', false]);
    assert.equal('seed' in body, false);
  });
});

describe('withToggled', () => {
  it('chooses a card, leaves a chosen one, and past the discard leaves the first chosen', () => {
    const none = new Set();
    const one = withToggled(none, 'AC', 2);
    assert.deepEqual([...one], ['AC']);
    assert.deepEqual([...none], [], 'the choice before is not changed');
    const two = withToggled(one, '5H', 2);
    assert.deepEqual([...two], ['AC', '5H']);
    assert.deepEqual([...withToggled(two, 'KS', 2)], ['5H', 'KS']);
    assert.deepEqual([...withToggled(two, 'AC', 2)], ['5H']);
  });
});

describe('offerState and takePending', () => {
  const play = { kind: 'play', seat: 1, index: 3 };
  const go = { kind: 'go', seat: 0, index: 4 };
  const at = (version, events) => ({ id: 'g', version, events });
  /** The store as it is with a state of version 5 shown, its steps shown. */
  function showing() {
    Object.assign(S, { state: at(5, [play]), pending: null, offered: null, lastStep: 3 });
  }

  it('an older state is refused, a newer one waits, the newest offered last', () => {
    showing();
    assert.equal(offerState(at(4, [])), false);
    assert.equal(S.pending, null);
    assert.equal(offerState(at(7, [play, go])), true);
    assert.equal(offerState(at(6, [play])), true, 'not older than the one shown');
    assert.deepEqual(S.offered, { id: 'g', version: 7 }, 'the newest offered is remembered');
    assert.equal(S.pending.version, 6, 'the last offered is the next shown');
  });

  it('the next state replays only the steps not shown, once', () => {
    showing();
    offerState(at(6, [play, go]));
    const next = takePending();
    assert.deepEqual(next.fresh, [go]);
    assert.equal(S.lastStep, 4);
    assert.equal(takePending(), null);
  });

  it('the step shown again replays nothing; an answer to our action replays its steps', () => {
    showing();
    offerState(at(5, [play]));
    assert.equal(takePending().fresh, null);
    showing();
    offerState(at(6, [go]));  // our own action's steps come after those we acted on
    assert.deepEqual(takePending().fresh, [go]);
    showing();
    offerState(at(6, []));  // a seat taken: a new version, no new step
    assert.deepEqual(takePending().fresh, []);
    assert.equal(S.lastStep, 3);
  });

  it('a state older than the one shown meanwhile is skipped', () => {
    showing();
    S.pending = at(3, [play]);
    assert.equal(takePending(), null);
  });
});
