// @ts-check
// The store (store.js): the new events of a pushed state, what the player is asked, the
// statistics (saved.js) and the options sent to the server.  Where each seat is drawn:
// places.test.js; the store's updates: updates.test.js.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  S, apiOptions, decisionOf, defaultLevel, lastStepOf, levels, newEvents, offerState, seatChoices, takePending, variantPlayers,
  withToggled,
} from '../../src/cribbage/web/static/game/store.js';
import { withResult } from '../../src/cribbage/web/static/shared/saved.js';

/**
 * A value the test expects to be there (not null).
 * @template T
 * @param {T | null | undefined} value
 * @returns {T}
 */
function must(value) {
  assert.ok(value !== null && value !== undefined, 'expected a value');
  return value;
}

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
  const view = { rules: { seat_sides: [0, 1] } };
  it('counts a win, its skunk and its points once', () => {
    const st = { id: 'g', seat: 0, view, result: { winner: 0, loser: 1, skunk: 2 }, breakdown: [{ pegging: 20, hand: 70, crib: 31 }] };
    const after = must(withResult(empty, st));
    assert.deepEqual(
      [after.played, after.won, after.lost, after.skunksGiven, after.doubleGiven, after.pegging, after.withBreakdown, after.games],
      [1, 1, 0, 1, 1, 20, 1, ['g']],
    );
    assert.deepEqual(empty.games, [], 'the statistics before are not changed');
    assert.equal(withResult(after, st), null, 'a game is counted once');
    assert.equal(withResult(empty, { id: 'h' }), null, 'a game with no result is not counted');
  });
  it('counts a skunk taken only by the loser', () => {
    const lost = must(withResult(empty, { id: 'g', seat: 0, view, result: { winner: 1, loser: 0, skunk: 1 } }));
    assert.deepEqual([lost.lost, lost.skunksTaken, lost.withBreakdown], [1, 1, 0]);
    const three = { rules: { seat_sides: [0, 1, 2] } };
    const third = must(withResult(empty, { id: 'g', seat: 0, view: three, result: { winner: 1, loser: 2, skunk: 1 } }));
    assert.equal(third.skunksTaken, 0);
  });
  it("counts the page's own side, as the server numbers it", () => {
    const partners = { rules: { seat_sides: [0, 1, 0, 1] } };
    const st = {
      id: 'g', seat: 3, view: partners, result: { winner: 1, loser: 0, skunk: 1 },
      breakdown: [{ pegging: 5, hand: 50, crib: 10 }, { pegging: 20, hand: 70, crib: 31 }],
    };
    const after = must(withResult(empty, st));
    assert.deepEqual([after.won, after.skunksGiven, after.pegging, after.hand], [1, 1, 20, 70], 'seat 3 plays for side 1');
    const lost = must(withResult(empty, { ...st, seat: 2 }));
    assert.deepEqual([lost.lost, lost.skunksTaken, lost.pegging], [1, 1, 5], 'seat 2 plays for side 0');
  });
});

describe('seatChoices and apiOptions', () => {
  const base = { level: 'strong', variant: 'standard', target: '', counting: 'muggins-play', dealer: 'cut', speed: 'normal' };
  const variants = { standard: { players: 2 }, 'three-player': { players: 3 }, 'four-player': { players: 4 } };
  it('are computers of the chosen level unless another seat is chosen', () => {
    S.variants = variants;
    assert.equal(seatChoices(base), null);
    assert.equal(seatChoices({ ...base, seats: [''] }), null);
    assert.deepEqual(seatChoices({ ...base, variant: 'three-player', seats: ['', 'human'] }), ['strong', 'human']);
    assert.equal(seatChoices({ ...base, variant: 'four-player', seats: ['human'] }), null, "another variant's choice");
  });
  it("until the variants' facts came, the seats chosen are the variant's", () => {
    S.variants = null;
    assert.deepEqual(seatChoices({ ...base, variant: 'three-player', seats: ['', 'human'] }), ['strong', 'human']);
    assert.equal(variantPlayers('three-player'), null, 'the page knows no variant of its own');
  });
  it('leaves the level to the server when none is chosen', () => {
    S.variants = variants;
    const body = apiOptions({ ...base, level: '', counting: 'auto', variant: 'three-player', seats: ['', 'human'] });
    assert.equal('level' in body, false);
    assert.deepEqual(body.seats, [{ kind: 'human' }, { kind: 'computer' }, { kind: 'human' }]);
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
    assert.equal('rated' in body, false, 'unrated unless asked');
  });
  it('asks for a rated table only when chosen by a player signed in, at a table with people', () => {
    const people = { ...base, counting: 'auto', seats: ['human'], name: 'Aiko', rated: true };
    assert.equal(apiOptions(people, true).rated, true);
    assert.equal('rated' in apiOptions(people), false, "a guest's table is never rated");
    assert.equal('rated' in apiOptions({ ...people, rated: false }, true), false);
    assert.equal('rated' in apiOptions({ ...base, rated: true }, true), false, 'a game against the computer');
  });
});

describe('levels', () => {
  it("are the server's (GET /api/meta), weakest first; until they come, the chosen one", () => {
    S.meta = null;
    S.options = { ...S.options, level: 'strong' };
    assert.deepEqual([levels(), defaultLevel()], [['strong'], 'strong']);
    S.options = { ...S.options, level: '' };
    assert.deepEqual(levels(), []);
    S.meta = { levels: ['weak', 'normal', 'strong', 'expert'], default_level: 'normal' };
    assert.deepEqual([levels(), defaultLevel()], [['weak', 'normal', 'strong', 'expert'], 'normal'], 'a new level is offered as it comes');
    levels().pop();
    assert.equal(S.meta.levels.length, 4, 'the list is a copy');
    S.meta = null;
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
    const pending = () => S.pending;  // read again: the offers above changed it
    assert.equal(must(pending()).version, 6, 'the last offered is the next shown');
  });

  it('the next state replays only the steps not shown, once', () => {
    showing();
    offerState(at(6, [play, go]));
    const next = must(takePending());
    assert.deepEqual(next.fresh, [go]);
    assert.equal(S.lastStep, 4);
    assert.equal(takePending(), null);
  });

  it('the step shown again replays nothing; an answer to our action replays its steps', () => {
    showing();
    offerState(at(5, [play]));
    assert.equal(must(takePending()).fresh, null);
    showing();
    offerState(at(6, [go]));  // our own action's steps come after those we acted on
    assert.deepEqual(must(takePending()).fresh, [go]);
    showing();
    offerState(at(6, []));  // a seat taken: a new version, no new step
    assert.deepEqual(must(takePending()).fresh, []);
    assert.equal(S.lastStep, 3);
  });

  it('a state older than the one shown meanwhile is skipped', () => {
    showing();
    S.pending = at(3, [play]);
    assert.equal(takePending(), null);
  });
});
