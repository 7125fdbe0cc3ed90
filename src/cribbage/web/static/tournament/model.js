// @ts-check
// What the tournament page reads from a TOURNAMENT (GET /api/tournaments/{id}, docs/api.md
// "Tournaments"): the tables of this round, the reader's own table and game, what is new since the
// last reading, a player's scorecard, the registration's buttons.  Pure: no DOM, no words, no rule
// of the game (the server sends the standings, the bracket, each table's game points and spread);
// tests/js/tournament.test.js runs it in node.

/** A TOURNAMENT as the server sent it. @typedef {Record<string, any>} Tournament */
/** A table of a TOURNAMENT. @typedef {Record<string, any>} Table */

/** The stages in the order the page shows them. */
export const STAGES = ['qualifying', 'playoffs', 'consolation'];

/** How often the page reads the tournament again while it is shown and not finished (ms). */
export const POLL_MS = 3000;

/**
 * The page's address: the list (/tournaments) or one tournament (/tournaments/{id}).
 * @param {string} pathname
 * @returns {{ id: string | null }}
 */
export function route(pathname) {
  const match = /^\/tournaments\/([^/]+)\/?$/.exec(pathname);
  return { id: match ? decodeURIComponent(match[1]) : null };
}

/**
 * An entrant's name by its number ('' for none: a bye's empty side).
 * @param {Tournament} t @param {number | null | undefined} number
 */
export function entrantName(t, number) {
  if (number === null || number === undefined) return '';
  const found = (t.entrants || []).find((/** @type {any} */ e) => e.number === number);
  return found ? String(found.name) : `#${number}`;
}

/**
 * The tables of this round: of each stage, those of the last round made, in the order sent; a
 * stage whose last round is all decided is left out once a later stage has begun (the qualifying
 * once the playoffs are under way), the last stage begun never.
 * @param {Tournament} t
 * @returns {Table[]}
 */
export function currentTables(t) {
  const rounds = t.rounds || {};
  const last = (t.tables || []).filter((/** @type {Table} */ table) => rounds[table.stage] === table.round);
  const begun = STAGES.filter((stage) => last.some((table) => table.stage === stage));
  const shown = begun.filter((stage, i) => i === begun.length - 1
    || last.some((table) => table.stage === stage && table.outcome === null && table.second !== null));
  return last.filter((table) => shown.includes(table.stage));
}

/**
 * Whether an entrant plays at a table.
 * @param {Table} table @param {number | null | undefined} entrant
 */
export function seatedAt(table, entrant) {
  return entrant !== null && entrant !== undefined && (table.first === entrant || table.second === entrant);
}

/**
 * The reader's table still to be decided among this round's (null: none; a bye is decided).
 * @param {Tournament} t
 * @returns {Table | null}
 */
export function myTable(t) {
  const me = t.you ? t.you.entrant : null;
  return currentTables(t).find((table) => table.outcome === null && table.second !== null && seatedAt(table, me)) || null;
}

/**
 * The game the reader is to play now: their undecided online table's game ('' if none).
 * @param {Tournament | null | undefined} t
 */
export function readyGame(t) {
  if (!t || t.stage !== 'running') return '';
  const table = myTable(t);
  return table && table.game_id ? String(table.game_id) : '';
}

/**
 * The reader's game that is ready now and was not at the last reading ('' if none): the moment to
 * say "your next game is ready" aloud (the title, the chime).  The first reading (before: null)
 * is no news: the page was opened on it.
 * @param {Tournament | null} before @param {Tournament} now
 */
export function newlyReady(before, now) {
  if (!before) return '';
  const game = readyGame(now);
  return game && game !== readyGame(before) ? game : '';
}

/**
 * Whether to read the tournament again: while the tab is shown and the tournament not finished.
 * @param {Tournament | null} t @param {boolean} visible
 */
export function keepPolling(t, visible) {
  return visible && !!t && t.stage !== 'finished';
}

/**
 * The reader's registration buttons: before the start an account registers (in a team event
 * naming its partner), then checks in, and may withdraw; a partner a team named accepts or
 * declines (declining withdraws the team); after the start an entrant still playing may
 * withdraw.  None for a visitor (signed out) or once finished.
 * @param {Tournament} t @param {boolean} signedIn
 * @returns {('register' | 'accept' | 'decline' | 'checkin' | 'withdraw')[]}
 */
export function registration(t, signedIn) {
  if (!signedIn || t.stage === 'finished') return [];
  const me = t.you ? t.you.entrant : null;
  const entry = me === null ? null : (t.entrants || []).find((/** @type {any} */ e) => e.number === me);
  if (t.stage === 'registration') {
    if (!entry) return ['register'];
    if (t.you.accept) return ['accept', 'decline'];
    if (entry.partner_pending) return ['withdraw'];
    return entry.checked_in ? ['withdraw'] : ['checkin', 'withdraw'];
  }
  return entry && !entry.withdrawn ? ['withdraw'] : [];
}

/**
 * Whether a scorecard's line has a game to review: an online game played to its end (not a
 * forfeit, a bye or one still being played).
 * @param {ScoreLine} line
 */
export function reviewable(line) {
  return !!line.gameId && (line.outcome === 'won' || line.outcome === 'lost') && !line.forfeit;
}

/**
 * Whether the reader enters a club table's result: the director at any undecided table, a player
 * at their own until their entry is in.
 * @param {Tournament} t @param {Table} table
 */
export function entersResult(t, table) {
  if (t.settings.venue !== 'club' || t.stage !== 'running' || table.outcome !== null || table.second === null) return false;
  if (t.you && t.you.director) return true;
  const me = t.you ? t.you.entrant : null;
  return seatedAt(table, me) && !(table.entered || []).includes(me);
}

/**
 * A line of a scorecard: an entrant's game at a table, from their side (0: the table's first, at
 * seat 0; 1: its second, at seat 1; a team's partners at 2 and 3).
 * @typedef {{ stage: string, round: number, game: number, table: number, side: 0 | 1, opponent: number | null,
 *   outcome: 'won' | 'lost' | 'bye' | 'pending', forfeit: boolean, score: [number, number] | null,
 *   gamePoints: number | null, spread: number | null, gameId: string | null }} ScoreLine
 */

/**
 * An entrant's scorecard: each table they sat at, in the order played, with the opponent, the
 * result, the game points and the spread the server gave that table.
 * @param {Tournament} t @param {number} entrant
 * @returns {ScoreLine[]}
 */
export function scorecard(t, entrant) {
  return (t.tables || []).filter((/** @type {Table} */ table) => seatedAt(table, entrant)).map((/** @type {Table} */ table) => {
    const side = table.first === entrant ? 0 : 1;
    const opponent = side === 0 ? table.second : table.first;
    const o = table.outcome;
    /** @type {ScoreLine['outcome']} */
    let outcome = 'pending';
    if (table.second === null) outcome = 'bye';
    else if (o) outcome = o.winner === entrant ? 'won' : 'lost';
    const score = o && table.second !== null
      ? /** @type {[number, number]} */ (o.winner === entrant ? [o.winner_points, o.loser_points] : [o.loser_points, o.winner_points])
      : null;
    return {
      stage: table.stage, round: table.round, game: table.game, table: table.number, side, opponent, outcome,
      forfeit: !!(o && o.forfeit), score,
      gamePoints: Array.isArray(table.game_points) ? table.game_points[side] : null,
      spread: Array.isArray(table.spread) ? table.spread[side] : null,
      gameId: table.game_id || null,
    };
  });
}

/**
 * A whole number as the standings show it: a true minus (U+2212) for a negative, a plus for a
 * positive with ``sign`` (a spread), '—' for none.
 * @param {number | null | undefined} n @param {boolean} [sign]
 */
export function signedText(n, sign = true) {
  if (typeof n !== 'number' || !Number.isFinite(n)) return '\u2014';
  if (n < 0) return `\u2212${Math.abs(n)}`;
  return n > 0 && sign ? `+${n}` : String(n);
}

/**
 * The club tables whose two entries disagree, for the director (with the entries by entrant).
 * @param {Tournament} t
 * @returns {Table[]}
 */
export function disputes(t) {
  return (t.tables || []).filter((/** @type {Table} */ table) => table.disputed && table.outcome === null);
}

/**
 * The body of a club result (docs/api.md, "Club tables"): the table's key, the winner and the
 * loser's score (or, the director's only, a forfeit).
 * @param {Table} table @param {number} winner @param {number | null} loserPoints  null: a forfeit
 */
export function resultBody(table, winner, loserPoints) {
  const key = { stage: table.stage, round: table.round, number: table.number, game: table.game, winner };
  return loserPoints === null ? { ...key, forfeit: true } : { ...key, loser_points: loserPoints };
}

/**
 * The settings a create form sends: the numbers as numbers, an empty optional left out.
 * @param {Record<string, string | boolean>} form
 * @returns {Record<string, any>}
 */
export function settingsBody(form) {
  /** @type {Record<string, any>} */
  const body = { name: String(form.name || '').trim() };
  for (const key of ['variant', 'pairing', 'venue']) if (form[key]) body[key] = form[key];
  for (const key of ['games', 'best_of', 'consolation', 'limit', 'clock']) {
    const text = String(form[key] ?? '').trim();
    if (text !== '') body[key] = Number(text);
  }
  const starts = String(form.starts ?? '').trim();  // a datetime-local input's value: the reader's time
  if (starts) body.starts = new Date(starts).toISOString();
  if (body.venue !== 'club' && form.rated === true) body.rated = true;
  if (body.venue === 'club') delete body.clock;
  return body;
}
