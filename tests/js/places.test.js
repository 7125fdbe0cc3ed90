// @ts-check
// Where the page draws each seat and side (display.js placeOf, the store's placeOfSeat...): the
// STATE keeps the server's seat numbers, the page's own seat is drawn at the bottom (place 0)
// and its side has the first colour; a spectator sees seat 0 at the bottom.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { atPlace, inPlaceOrder, placeColor, placeOf, places } from '../../src/cribbage/web/static/shared/display.js';

globalThis.document = /** @type {any} */ ({ documentElement: {} });  // i18n marks the document's language
const store = await import('../../src/cribbage/web/static/game/store.js');
const words = await import('../../src/cribbage/web/static/game/words.js');
const { S, isMine, me, mySide, placeOfSeat, placeOfSide, seatAtPlace, seatOfSide, seatPlaces, sideColor, sidePlaces } = store;
const { resultHeadline, seatName, sideName, waitingText, whose } = words;

describe('placeOf', () => {
  it("counts a seat's place round the table from the page's own", () => {
    assert.deepEqual([0, 1, 2].map((seat) => placeOf(seat, 1, 3)), [2, 0, 1]);
    assert.deepEqual([0, 1, 2, 3].map((seat) => placeOf(seat, 2, 4)), [2, 3, 0, 1]);
    assert.deepEqual([0, 1].map((seat) => placeOf(seat, 0, 2)), [0, 1], 'seat 0 sees the table as the server numbers it');
  });
  it('atPlace is its inverse', () => {
    for (const n of [2, 3, 4]) {
      for (let own = 0; own < n; own++) {
        for (let seat = 0; seat < n; seat++) assert.equal(atPlace(placeOf(seat, own, n), own, n), seat, `${n} ${own} ${seat}`);
      }
    }
  });
  it('places lists [place, seat] from the own one; inPlaceOrder a list by seat in that order', () => {
    assert.deepEqual(places(2, 3), [[0, 2], [1, 0], [2, 1]]);
    assert.deepEqual(inPlaceOrder([5, 6, 7], 1), [6, 7, 5]);
    const scores = [5, 6, 7];
    inPlaceOrder(scores, 2);
    assert.deepEqual(scores, [5, 6, 7], 'the list is not changed');
  });
  it("a place's colour is the page's CSS variable", () => {
    assert.equal(placeColor(0), 'var(--side-0)');
    assert.equal(placeColor(3), 'var(--side-3)');
  });
});

/**
 * A STATE as the server sends it to `seat` (null: a spectator's).
 * @param {number | null} seat
 * @param {number[]} seatSides
 */
function stateOf(seat, seatSides) {
  const n = seatSides.length;
  const sides = Math.max(...seatSides) + 1;
  return {
    id: 'g', version: 3, seat, spectator: seat === null ? true : undefined, over: false,
    names: ['Aiko', 'Boris', 'Chen', 'Dana'].slice(0, n),
    seats: Array.from({ length: n }, (_, s) => ({ seat: s, kind: 'human', taken: true, name: ['Aiko', 'Boris', 'Chen', 'Dana'][s] })),
    actions: [],
    view: {
      players: n, seat, to_act: 2, dealer: 0, scores: [30, 40, 50].slice(0, sides), previous_scores: [0, 0, 0].slice(0, sides),
      rules: { seat_sides: seatSides, partnerships: sides < n }, claim: null,
    },
  };
}

describe('a three-player table seen from seat 1', () => {
  it('draws seat 1 at the bottom and the others in the order of play', () => {
    S.state = stateOf(1, [0, 1, 2]);
    assert.equal(me(), 1);
    assert.deepEqual(seatPlaces(), [[0, 1], [1, 2], [2, 0]]);
    assert.deepEqual([placeOfSeat(0), placeOfSeat(1), placeOfSeat(2)], [2, 0, 1]);
    assert.equal(seatAtPlace(1), 2, 'the next to play sits first among the others');
    assert.deepEqual(sidePlaces(), [[0, 1], [1, 2], [2, 0]]);
    assert.equal(S.state.view.scores[1], 40, 'the STATE keeps the server numbers');
  });
  it("gives its own side the first colour and the board's first track", () => {
    S.state = stateOf(1, [0, 1, 2]);
    assert.deepEqual([sideColor(1), sideColor(2), sideColor(0)], ['var(--side-0)', 'var(--side-1)', 'var(--side-2)']);
    assert.deepEqual(inPlaceOrder(S.state.view.scores, mySide()), [40, 50, 30]);
    assert.equal(placeOfSide(0), 2);
  });
  it('names its own seat "You" and the others by name', () => {
    S.state = stateOf(1, [0, 1, 2]);
    assert.deepEqual([0, 1, 2].map(seatName), ['Aiko', 'You', 'Chen']);
    assert.deepEqual([isMine(1), isMine(0)], [true, false]);
    assert.equal(whose(1, 'crib'), 'Your crib');
    assert.equal(whose(0, 'hand'), 'Aiko’s hand');
    assert.equal(sideName(2), 'Chen');
    assert.equal(seatOfSide(2), 2);
    assert.equal(waitingText(), 'Waiting for Chen…');
    S.state.view.to_act = 1;
    assert.equal(waitingText(), '', 'its own turn is no wait');
  });
  it('says who won by the sides as the server numbers them', () => {
    S.state = stateOf(1, [0, 1, 2]);
    assert.equal(resultHeadline({ winner: 1, loser: 0, skunk: 0 }), 'You win!');
    assert.equal(resultHeadline({ winner: 0, loser: 1, skunk: 0 }), 'Aiko wins.');
  });
  it('names partners by their names, not "You & partner"', () => {
    S.state = stateOf(null, [0, 1, 0, 1]);
    assert.deepEqual([sideName(0), sideName(1)], ['Aiko & Chen', 'Boris & Dana']);
    assert.equal(sideColor(0), 'var(--side-0)', "seat 0's side has the first colour");
  });
});

describe('a four-player table of partners', () => {
  it('seen from seat 2: seat 2 at the bottom, its partner (seat 0) across the table', () => {
    S.state = stateOf(2, [0, 1, 0, 1]);
    assert.deepEqual(seatPlaces(), [[0, 2], [1, 3], [2, 0], [3, 1]]);
    assert.equal(mySide(), 0);
    assert.deepEqual(sidePlaces(), [[0, 0], [1, 1]]);
    assert.deepEqual([sideName(0), sideName(1)], ['You & partner', 'Opponents']);
    assert.equal(sideColor(0), 'var(--side-0)');
  });
  it("seen from seat 1: its side (1) is first, on the board and in the colours", () => {
    S.state = stateOf(1, [0, 1, 0, 1]);
    assert.deepEqual(seatPlaces(), [[0, 1], [1, 2], [2, 3], [3, 0]]);
    assert.deepEqual(sidePlaces(), [[0, 1], [1, 0]]);
    assert.deepEqual(inPlaceOrder(S.state.view.scores, mySide()), [40, 30]);
    assert.deepEqual([sideName(1), sideName(0)], ['You & partner', 'Opponents']);
    assert.deepEqual([sideColor(1), sideColor(0)], ['var(--side-0)', 'var(--side-1)']);
    assert.equal(resultHeadline({ winner: 1, loser: 0, skunk: 1 }), 'You win! — a skunk');
  });
});

describe('a spectator', () => {
  it('sees seat 0 at the bottom, and no seat is "You"', () => {
    S.state = stateOf(null, [0, 1, 2]);
    assert.equal(me(), 0);
    assert.deepEqual(seatPlaces(), [[0, 0], [1, 1], [2, 2]]);
    assert.equal(isMine(0), false);
    assert.deepEqual([0, 1, 2].map(seatName), ['Aiko', 'Boris', 'Chen']);
    assert.equal(resultHeadline({ winner: 0, loser: 1, skunk: 0 }), 'Aiko wins.');
  });
  it('names partners by their names, not "You & partner"', () => {
    S.state = stateOf(null, [0, 1, 0, 1]);
    assert.deepEqual([sideName(0), sideName(1)], ['Aiko & Chen', 'Boris & Dana']);
    assert.equal(sideColor(0), 'var(--side-0)', "seat 0's side has the first colour");
  });
});

describe("a match of Play now in the scoreline and the result", () => {
  const { matchOutcome, matchScore } = words;
  it("gives the page's own side's wins first, in every language", async () => {
    const i18n = await import('../../src/cribbage/web/static/shared/i18n.js');
    await i18n.loadLanguages();
    S.state = stateOf(1, [0, 1]);
    const match = { first_to: 2, number: 2, wins: [1, 0], over: false, winner: null };
    assert.equal(matchScore(match), 'Match 0–1 (first to 2)', 'seat 1 has not won yet; seat 0 has');
    assert.equal(matchOutcome(match), '', 'not over');
    i18n.setLang('ja');
    assert.equal(matchScore(match), 'マッチ 0–1（2勝先取）');
    i18n.setLang('ru');
    assert.equal(matchScore(match), 'Матч 0–1 (до 2 побед)');
    i18n.setLang('en');
    assert.equal(matchScore(null), '', 'a game on its own has no match');
  });
  it('says who won the match once it is over, partners by their side', () => {
    S.state = stateOf(1, [0, 1]);
    assert.equal(matchOutcome({ first_to: 2, number: 3, wins: [1, 2], over: true, winner: 1 }), 'You win the match!');
    assert.equal(matchOutcome({ first_to: 2, number: 2, wins: [2, 0], over: true, winner: 0 }), 'Match won by Aiko.');
    S.state = stateOf(2, [0, 1, 0, 1]);
    const partners = { first_to: 3, number: 4, wins: [1, 3, 1, 3], over: true, winner: 1 };
    assert.equal(matchScore(partners), 'Match 1–3 (first to 3)');
    assert.equal(matchOutcome(partners), 'Match won by Opponents.');
  });
});
