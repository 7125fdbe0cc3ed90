// @ts-check
// A match's next game (docs/api.md, "Matches"): the seats' pages go there by themselves, as a
// spectator's does, and its people are given time to arrive before a seat of one who is not there
// yet is offered to a computer (the STATE's `arrival`, docs/api.md "Leave").  Pure functions, no
// DOM (tests/js/nextgame.test.js).

/**
 * The next game of a match, made by the server as this game ended (its id; docs/api.md,
 * "Matches"), or null: a seat's page goes there by itself once this game's end is shown, as a
 * spectator's page does.  Not for a rematch someone asked for (a page follows that at once), nor
 * once the match is over.
 * @param {Record<string, any> | null | undefined} st  a STATE
 * @returns {string | null}
 */
export function nextOfMatch(st) {
  return st && st.over && st.match && !st.match.over && !st.spectator && st.rematch ? String(st.rematch) : null;
}

/**
 * Whether a rematch's people may still be on their way from the game before (its `arrival`,
 * docs/api.md "Leave"): until then the seat of one who is offline is not offered to a computer.
 * @param {Record<string, any>} st  a STATE
 * @param {number} now  seconds since the epoch
 */
export function arriving(st, now) {
  return typeof st.arrival === 'number' && now < st.arrival;
}
