// @ts-check
// The tournament page's reading of a TOURNAMENT (static/tournament/model.js): this round's tables,
// the reader's own table and game, "your next game is ready" only when it is new, a scorecard,
// the registration's buttons, the bodies it sends; and its words in every language.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  currentTables, disputes, entersResult, entrantName, keepPolling, myTable, newlyReady, readyGame, registration,
  resultBody, reviewable, route, scorecard, settingsBody, signedText,
} from '../../src/cribbage/web/static/tournament/model.js';

globalThis.document = /** @type {any} */ ({ documentElement: {} });
const { STRINGS, loadLanguages } = await import('../../src/cribbage/web/static/shared/i18n.js');
await loadLanguages();

const outcome = (winner, loser, wp, lp, forfeit = false) => ({ winner, loser, winner_points: wp, loser_points: lp, forfeit });

/**
 * A running online tournament of five: round 1 decided (a bye to 5), round 2 under way.
 * @param {{director: boolean, entrant: number | null}} [you]
 * @returns {Record<string, any>}
 */
function running(you = { director: false, entrant: 1 }) {
  return {
    id: 'abc', name: 'Tuesday', stage: 'running', you,
    settings: { venue: 'online', variant: 'short', games: 2 },
    entrants: [1, 2, 3, 4, 5].map((n) => ({ number: n, name: `P${n}`, checked_in: true, withdrawn: false, guest: false })),
    rounds: { qualifying: 2, playoffs: 0, consolation: 0 },
    tables: [
      { stage: 'qualifying', round: 1, number: 1, game: 1, first: 1, second: 2, game_id: 'g1', outcome: outcome(1, 2, 61, 40), game_points: [2, 0], spread: [21, -21], entered: [], disputed: false },
      { stage: 'qualifying', round: 1, number: 2, game: 1, first: 3, second: 4, game_id: 'g2', outcome: outcome(4, 3, 0, 0, true), game_points: [0, 2], spread: [0, 0], entered: [], disputed: false },
      { stage: 'qualifying', round: 1, number: 3, game: 1, first: 5, second: null, game_id: null, outcome: null, entered: [], disputed: false },
      { stage: 'qualifying', round: 2, number: 1, game: 1, first: 4, second: 1, game_id: 'g3', outcome: null, entered: [], disputed: false },
      { stage: 'qualifying', round: 2, number: 2, game: 1, first: 2, second: 5, game_id: 'g4', outcome: null, entered: [], disputed: false },
    ],
  };
}

describe('the tournament page reads the server', () => {
  it('knows its address: the list or one tournament', () => {
    assert.deepEqual(route('/tournaments'), { id: null });
    assert.deepEqual(route('/tournaments/'), { id: null });
    assert.deepEqual(route('/tournaments/3f9c0a1b2c3d4e5f'), { id: '3f9c0a1b2c3d4e5f' });
  });
  it('shows this round: each stage’s last round made', () => {
    const T = running();
    assert.deepEqual(currentTables(T).map((x) => [x.round, x.number]), [[2, 1], [2, 2]]);
    assert.equal(entrantName(T, 3), 'P3');
    const playoffs = running();
    playoffs.tables = playoffs.tables.map((x) => ({ ...x, outcome: x.outcome || (x.second === null ? null : outcome(x.first, x.second, 61, 30)) }));
    playoffs.tables.push({ stage: 'playoffs', round: 1, number: 1, game: 1, first: 1, second: 4, game_id: 'g5', outcome: null, entered: [], disputed: false });
    playoffs.rounds = { qualifying: 2, playoffs: 1, consolation: 0 };
    assert.deepEqual(currentTables(playoffs).map((x) => [x.stage, x.round]), [['playoffs', 1]], 'the qualifying is over');
    playoffs.tables[4].outcome = null;
    assert.deepEqual(currentTables(playoffs).map((x) => x.stage), ['qualifying', 'qualifying', 'playoffs'], 'a qualifying table still open');
    assert.equal(entrantName(T, null), '');
  });
  it('finds the reader’s undecided table and its game; none for a visitor', () => {
    assert.equal(myTable(running())?.game_id, 'g3');
    assert.equal(readyGame(running()), 'g3');
    assert.equal(readyGame(running({ director: true, entrant: null })), '');
    const decided = running();
    decided.tables[3].outcome = outcome(1, 4, 61, 50);
    assert.equal(readyGame(decided), '');
  });
  it('says "your next game is ready" only for a game not ready at the last reading', () => {
    const before = running();
    before.tables = before.tables.slice(0, 3);
    before.rounds = { qualifying: 1, playoffs: 0, consolation: 0 };
    const now = running();
    assert.equal(newlyReady(before, now), 'g3');
    assert.equal(newlyReady(now, now), '', 'the same game: nothing new');
    assert.equal(newlyReady(null, now), '', 'the first reading is not news');
    const next = running();
    next.tables[3] = { ...next.tables[3], game_id: 'g9' };
    assert.equal(newlyReady(now, next), 'g9', 'a playoff match’s next game is news');
  });
  it('polls while shown and not finished', () => {
    assert.equal(keepPolling(running(), true), true);
    assert.equal(keepPolling(running(), false), false);
    assert.equal(keepPolling({ ...running(), stage: 'finished' }, true), false);
    assert.equal(keepPolling(null, true), false);
  });
  it('draws a scorecard from the tables as the server decided them', () => {
    const card = scorecard(running(), 1);
    assert.deepEqual(card.map((l) => [l.round, l.opponent, l.outcome, l.score, l.gamePoints, l.spread, l.gameId]), [
      [1, 2, 'won', [61, 40], 2, 21, 'g1'],
      [2, 4, 'pending', null, null, null, 'g3'],
    ]);
    const bye = scorecard(running(), 5)[0];
    assert.equal(bye.outcome, 'bye');
    assert.equal(bye.opponent, null);
    const forfeit = scorecard(running(), 3)[0];
    assert.deepEqual([forfeit.outcome, forfeit.forfeit, forfeit.gamePoints], ['lost', true, 0]);
    // The side is the seat of the entrant (its first player's, in a team event) for the review.
    assert.deepEqual(scorecard(running(), 2).map((l) => l.side), [1, 0]);
    // A game played to its end is anyone's to review; a forfeit, a bye or a game in progress is not.
    assert.deepEqual(card.map(reviewable), [true, false]);
    assert.equal(reviewable(bye), false);
    assert.equal(reviewable(forfeit), false);
  });
  it('offers the registration the reader may take', () => {
    const T = { ...running(), stage: 'registration', you: { director: false, entrant: null } };
    assert.deepEqual(registration(T, false), []);
    assert.deepEqual(registration(T, true), ['register']);
    const entered = { ...T, you: { director: false, entrant: 2 }, entrants: [{ number: 2, checked_in: false }] };
    assert.deepEqual(registration(entered, true), ['checkin', 'withdraw']);
    assert.deepEqual(registration({ ...entered, entrants: [{ number: 2, checked_in: true }] }, true), ['withdraw']);
    assert.deepEqual(registration(running(), true), ['withdraw']);
    assert.deepEqual(registration({ ...running(), stage: 'finished' }, true), []);
    // A team event: the partner named accepts or declines; the team waits for it, then checks in.
    const team = { ...T, teams: true, entrants: [{ number: 2, checked_in: false, partner_pending: true, players: ['Ann', 'Bob'] }] };
    assert.deepEqual(registration({ ...team, you: { director: false, entrant: 2, accept: true } }, true), ['accept', 'decline']);
    assert.deepEqual(registration({ ...team, you: { director: false, entrant: 2, accept: false } }, true), ['withdraw']);
    const accepted = { ...team, entrants: [{ ...team.entrants[0], partner_pending: false }], you: { director: false, entrant: 2, accept: false } };
    assert.deepEqual(registration(accepted, true), ['checkin', 'withdraw']);
  });
  it('lets the club table’s players enter once, and the director always, until decided', () => {
    const club = running();
    club.settings = { ...club.settings, venue: 'club' };
    const table = club.tables[3];
    assert.equal(entersResult(club, table), true);
    assert.equal(entersResult(club, { ...table, entered: [1] }), false);
    assert.equal(entersResult(club, club.tables[4]), false, 'another table');
    assert.equal(entersResult({ ...club, you: { director: true, entrant: null } }, { ...table, entered: [1, 4], disputed: true }), true);
    assert.equal(entersResult(club, club.tables[0]), false, 'decided');
    assert.equal(entersResult(running(), table), false, 'online: the game decides');
    assert.deepEqual(disputes({ ...club, tables: [{ ...table, disputed: true }] }).length, 1);
  });
  it('sends the bodies of docs/api.md', () => {
    const table = running().tables[3];
    assert.deepEqual(resultBody(table, 4, 48), { stage: 'qualifying', round: 2, number: 1, game: 1, winner: 4, loser_points: 48 });
    assert.deepEqual(resultBody(table, 4, null), { stage: 'qualifying', round: 2, number: 1, game: 1, winner: 4, forfeit: true });
    assert.deepEqual(
      settingsBody({ name: ' Club ', variant: 'short', venue: 'club', games: '9', best_of: '0', consolation: '', clock: '60', limit: '32', rated: true }),
      { name: 'Club', variant: 'short', venue: 'club', games: 9, best_of: 0, limit: 32 },
    );
    assert.deepEqual(settingsBody({ name: 'Net', venue: 'online', clock: '', rated: true, games: '3' }), { name: 'Net', venue: 'online', games: 3, rated: true });
    // A start time typed in the reader's own time goes as that moment with its offset (UTC).
    const starts = settingsBody({ name: 'Later', starts: '2026-12-24T19:30' }).starts;
    assert.equal(starts, new Date(2026, 11, 24, 19, 30).toISOString());
    assert.match(starts, /Z$/);
    assert.equal(settingsBody({ name: 'Now', starts: '' }).starts, undefined);
  });
  it('writes a spread with its sign and a true minus', () => {
    assert.deepEqual([41, -13, 0, null].map((n) => signedText(n)), ['+41', '\u221213', '0', '\u2014']);
    assert.equal(signedText(7, false), '7');
  });
});

describe('the tournament page’s words', () => {
  it('word a value out of its range by its field', () => {
    const bad = STRINGS.en['tournament.bad'];
    assert.equal(typeof bad === 'function' && bad({ what: 'Qualifying games', low: 1, high: 22 }), 'Qualifying games: from 1 to 22.');
    assert.equal(typeof bad === 'function' && bad({ what: 'Loser’s score', low: undefined, high: 120 }), 'Loser’s score: from 0 to 120.');
    const ru = STRINGS.ru['tournament.bad'];
    assert.equal(typeof ru === 'function' && ru({ what: 'Очки проигравшего', low: undefined, high: 60 }), 'Очки проигравшего: от 0 до 60.');
  });
  it('are in every language, English’s keys all translated', () => {
    const keys = Object.keys(STRINGS.en).filter((k) => k.startsWith('tournament.') || k.startsWith('err.tournament'));
    assert.ok(keys.length > 100);
    for (const lang of ['ja', 'ru']) {
      const missing = keys.filter((k) => !(k in STRINGS[lang]));
      assert.deepEqual(missing, [], lang);
      const same = keys.filter((k) => typeof STRINGS.en[k] === 'string' && STRINGS[lang][k] === STRINGS.en[k] && !/^[#—\s]*$/.test(STRINGS.en[k]));
      assert.deepEqual(same, [], `${lang}: left in English`);
    }
  });
});
