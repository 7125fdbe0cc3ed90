// @ts-check
// The game page's store: the one state (S) of what the server said and what the page shows, the
// values read from it, the named updates that are its only writers (every other module reads S
// and changes it through them: tests/js/updates.test.js), and the pure functions that turn the
// server's STATE into what the page draws (the new events of a pushed state, the body of a new
// game).  The STATE is kept as the server sent it, its seats numbered as the server numbers them;
// the views place each seat (me, placeOfSeat).  What the browser keeps is saved.js's.  No DOM:
// tests/js runs it in node.

import { decision, discardCount as templateDiscardCount, needsClaim as claimNeeded } from './actions.js';
import { atPlace, handOf, placeColor, placeOf, places } from '../shared/display.js';
import { t } from '../shared/i18n.js';
import { loadOptions } from '../shared/saved.js';

export const SPEEDS = { slow: 1.7, normal: 1, fast: 0.45, instant: 0 };

/** The page's address's parameters (?seed=, ?speed=, ?lang=); none in node. */
export const params = new URLSearchParams(globalThis.location ? globalThis.location.search : '');

/**
 * What the views' controls do, given by app.js at start-up: the views draw the store and call
 * these, and need not import the session (which imports them).
 */
export const actions = {
  /** @type {(action: Record<string, any>) => void} a move, sent at the state's version */
  send: () => {},
  /** @type {(card: string) => void} a card of the hand played (or chosen, to state its claim) */
  playCard: () => {},
  /** @type {(card: string) => void} a card of the hand chosen or left for the discard */
  toggleSelect: () => {},
  /** @type {(cards: string[]) => void} a hint's discard chosen */
  chooseDiscard: () => {},
  /** @type {() => void} the hint closed */
  closeHint: () => {},
  /** @type {(state: Record<string, any>) => void} a state of this table, answered to a request */
  offer: () => {},
  /** @type {() => void} leave the table (after asking) */
  leaveTable: () => {},
  /** @type {() => void} the error line's Retry */
  retry: () => {},
  /** @type {() => void} a game against the computer here (offline) */ playHere: () => {},
};

/**
 * A STATE of the server (docs/api.md), kept as it came.
 * @typedef {Record<string, any>} State
 */
/**
 * The store: what the server said and what the page shows.
 * @typedef {{
 *   game: {id: string, token: string, seat?: number, watch?: string} | null,
 *   state: State | null, D: import('../shared/display.js').Display | null, busy: boolean,
 *   selected: Set<string>, cursor: number, hint: Record<string, any> | null,
 *   show: {entries: Record<string, any>[]} | null, continueResolve: (() => void) | null, skip: boolean,
 *   board: import('../shared/board.js').Board | null, boardKey: string, playCard: string | null, highlight: Set<string>,
 *   options: import('../shared/saved.js').Options, variants: Record<string, Record<string, any>> | null,
 *   meta: {levels: string[], default_level: string, pools?: {name: string, players: number, variant: string}[], rating_pools?: string[]} | null,
 *   live: import('./live.js').Live | null, liveStatus: string, pending: State | null, pumping: boolean,
 *   lastStep: number, epoch: number,
 *   awaiting: {ref: string, done: (answer: any) => void, timer: ReturnType<typeof setTimeout>} | null,
 *   actions: number, offered: {id: string, version: number} | null, following: string | null, shown: string,
 *   invites: Record<string, any>[], watchLink: {id: string, url: string} | null, offline: boolean,
 * }} Store
 */
/** @type {Store} */
export const S = {
  game: null,        // {id, token}
  state: null,       // the last STATE from the server
  D: null,           // what the table shows now (follows the events during a replay)
  busy: true,        // true while waiting for the server or replaying events
  selected: new Set(),
  cursor: -1,
  hint: null,
  show: null,        // the show panel: {entries: [...], waiting: bool}
  continueResolve: null,
  skip: false,
  board: null,
  boardKey: '',
  playCard: null,    // card chosen when the play needs a stated claim
  highlight: new Set(),
  options: loadOptions(),
  variants: null,    // every variant's facts by name, from GET /api/variants (for the options)
  meta: null,        // the lists the server defines (the computer levels), from GET /api/meta
  live: null,        // the WebSocket of a table with people (live.js)
  liveStatus: '',
  pending: null,     // the newest pushed STATE not shown yet
  pumping: false,
  lastStep: -1,      // the index of the last step shown (a push repeats steps: only later ones replay)
  epoch: 0,          // grows when the page goes to another game: what still runs for the last one stops
  awaiting: null,    // the action sent over the live socket and not answered yet: {ref, done, timer}
  actions: 0,        // how many actions were sent over the socket (each one's ref)
  offered: null,     // {id, version} of the newest state offered to the pump
  following: null,   // the game (or watch code) the page is going to ("play again")
  shown: '',         // "id:version" of the decision the server was told this page shows (markShown)
  invites: [],       // the invitations of the table the page created
  watchLink: null,   // {id, url}: the creator's watch link, once asked for
  offline: false,    // the server cannot be reached: games against the computer play here
};
// ------------------------------------------------------------------ read from the state

/** The STATE shown: the views draw only once there is one (render returns before). @returns {State} */
export const shownState = () => /** @type {State} */ (S.state);
/** What the table shows: there is a display whenever a STATE is shown. @returns {import('../shared/display.js').Display} */
export const table = () => /** @type {import('../shared/display.js').Display} */ (S.D);
/** The view of the STATE shown. @returns {Record<string, any>} */
export const view = () => shownState().view;
export const players = () => view().players;
// The rules' facts come with every view (Rules.facts on the server): the page derives none.
export const rules = () => view().rules;
export const partners = () => rules().partnerships;
/** @param {number | null | undefined} seat */
export const sideOf = (seat) => (seat === null || seat === undefined ? seat : rules().seat_sides[seat]);
/**
 * The STATE's action templates: what the page's seat may do now (docs/api.md, "Action
 * templates"; read through actions.js).
 * @returns {import('./actions.js').Template[]}
 */
export const templates = () => (S.state ? S.state.actions || [] : []);

/** What the player is asked to do now: 'discard', 'play', 'count', 'muggins' (pass or call), or null. */
export const decisionNow = () => decisionOf(S.state);
/** Whether a play states its count (manual counting with muggins in the play). */
export const needsClaim = () => claimNeeded(templates());

// ------------------------------------------------------------------ names

/** The page's own seat, drawn at the bottom: a spectator's is seat 0 (it sees what every seat sees). */
export function me() {
  return S.state && typeof S.state.seat === 'number' ? S.state.seat : 0;
}
/** Whether a seat is the page's own (a spectator has none). @param {number | null | undefined} seat */
export function isMine(seat) {
  return !spectating() && seat === me();
}
/** The page's own side (a spectator's: seat 0's). */
export const mySide = () => sideOf(me());
/** How many sides score: one per seat, or two of partners. */
export const sideCount = () => view().scores.length;
/** Where a seat is drawn: 0 the page's own at the bottom, then round the table (display.js placeOf). @param {number} seat */
export const placeOfSeat = (seat) => placeOf(seat, me(), players());
/** The seat drawn at a place. @param {number} place */
export const seatAtPlace = (place) => atPlace(place, me(), players());
/** Where a side is drawn: 0 the page's own (its colour the first), then the others in order. @param {number} side */
export const placeOfSide = (side) => placeOf(side, mySide(), sideCount());
/** The seats in the order they are drawn: [place, seat], the page's own first. */
export const seatPlaces = () => places(me(), players());
/** The sides in the order they are drawn: [place, side], the page's own first. */
export const sidePlaces = () => places(mySide(), sideCount());
/** The colour of a side on screen (a CSS value): the page's own side has the first. @param {number | null | undefined} side */
export const sideColor = (side) => placeColor(placeOfSide(side ?? mySide()));
/** The seat of a side that has one seat (no partners): the first seat of the side. @param {number} side */
export const seatOfSide = (side) => rules().seat_sides.indexOf(side);
/** Whether the page only watches a table (a watch link): it shows what every seat sees. */
export function spectating(st = S.state) {
  return !!(st && st.spectator);
}
/** Whether the table is between people (the server says: STATE's `people`): its chat, its live socket. */
export function isPeople(st = S.state) {
  return !!(st && st.people);
}

/** The newest word on who sits where: a state of this game offered but not shown yet (the page
 * holds at "Continue", or replays a backlog) already says who left or came, who is online, away. */
export function seating() {
  const next = S.pending;
  return next && S.state && next.id === S.state.id && next.version >= S.state.version ? next : S.state;
}

// ------------------------------------------------------------------ the hand

/** The cards of the player's hand on the table, sorted: all dealt ones in the discard, else the kept ones. */
export function handCards() {
  return S.D ? handOf(S.D) : [];
}

/** How many cards the discard takes. */
export function discardCount() {
  return templateDiscardCount(templates()) ?? rules().discard;
}

/**
 * What a state asks of the page's seat: 'discard', 'play', 'count', 'muggins' (pass or call), or null.
 * @param {Record<string, any> | null} st
 * @returns {import('./actions.js').Decision | null}
 */
export function decisionOf(st) {
  return decision((st && st.actions) || []);
}

// ------------------------------------------------------------------ pure: from the STATE

/**
 * The body of POST /api/games for the options chosen (a table with people when a seat is a person's,
 * asking to be rated if chosen by a player signed in: a guest's table is never rated).
 * @param {import('../shared/saved.js').Options} o
 * @param {boolean} [signedIn]  an account's session is kept (it goes with the request)
 */
export function apiOptions(o, signedIn = false) {
  /** @type {Record<string, any>} */
  const body = {
    variant: o.variant,
    manual: o.counting !== 'auto',
    muggins: o.counting === 'muggins' || o.counting === 'muggins-play',
    muggins_play: o.counting === 'muggins-play',
    dealer: o.dealer,
    skunk: 'marked',
    names: [t('you')],
  };
  if (o.level) body.level = o.level;  // else the server's default level
  if (o.target) body.target = Number(o.target);
  const seats = seatChoices(o);
  if (seats) {
    body.seats = [{ kind: 'human' }, ...seats.map((k) => (k === 'human' ? { kind: 'human' } : { kind: 'computer', ...(k ? { level: k } : {}) }))];
    if (seats.includes('human')) {
      body.names = [o.name || t('playerN', { n: 1 })];
      body.public = !!o.public;
      if (o.takeover) body.takeover = o.takeover;
      if (o.clock) body.clock = Number(o.clock);
      if (o.rated && signedIn) body.rated = true;
      return body;  // no seed where several people play: anyone who knew it would know every hand
    }
  }
  const seed = params.get('seed');
  if (seed !== null && seed !== '') body.seed = Number(seed);
  return body;
}

/**
 * The steps of a state not shown yet: those after the last one shown (by their index, docs/api.md).
 * @template {{index: number}} T
 * @param {number} last  the index of the last step shown (-1: none)
 * @param {T[]} events
 * @returns {T[]}
 */
export function newEvents(last, events) {
  return events.filter((ev) => ev.index > last);
}

/**
 * The index of the last of a state's steps, or last when it has none after it.
 * @param {{index: number}[] | undefined} events
 * @param {number} [last]
 */
export function lastStepOf(events, last = -1) {
  const final = events && events.length ? events[events.length - 1].index : -1;
  return Math.max(final, last);
}

/**
 * The cards chosen for the discard after a click on card: chosen, or left if it was; when as
 * many as the discard takes are chosen already, the first chosen one is left for it.
 * @param {Set<string>} selected
 * @param {string} card
 * @param {number} need  how many cards the discard takes
 * @returns {Set<string>}
 */
export function withToggled(selected, card, need) {
  const next = new Set(selected);
  if (next.delete(card)) return next;
  const first = next.values().next();
  if (next.size >= need && !first.done) next.delete(first.value);
  return next.add(card);
}

// ------------------------------------------------------------------ states offered

/**
 * Whether st is an earlier step of the game of than.
 * @param {Record<string, any>} st  a STATE (its id and version)
 * @param {Record<string, any> | null} than
 */
export const isOlder = (st, than) => !!than && than.id === st.id && st.version < than.version;

/**
 * Offer a state (pushed over the socket, or answered) to be shown: false if it is older than the
 * one shown; else it waits to be shown next (S.pending), in place of any offered before it.
 * @param {Record<string, any>} st  the state
 */
export function offerState(st) {
  if (isOlder(st, S.state)) return false;
  if (!S.offered || S.offered.id !== st.id || S.offered.version < st.version) S.offered = { id: st.id, version: st.version };
  S.pending = st;
  return true;
}

/**
 * The state offered to show next, or null: with fresh, the steps not shown yet (the replay's:
 * those after the last one shown, by index), or fresh null for the step shown again (a seat
 * taken, a reconnection): nothing to replay.
 * @returns {{st: Record<string, any>, fresh: Record<string, any>[] | null} | null}
 */
export function takePending() {
  while (S.pending) {
    const st = S.pending;
    S.pending = null;
    if (isOlder(st, S.state)) continue;
    const events = st.events || [];
    const same = !!S.state && S.state.id === st.id && st.version === S.state.version;
    const fresh = same ? null : newEvents(S.lastStep, events);
    S.lastStep = lastStepOf(events, S.lastStep);
    return { st, fresh };
  }
  return null;
}

// ------------------------------------------------------------------ tables with people

/** The computer levels, weakest first (GET /api/meta); until they come, the chosen one only. */
export function levels() {
  if (S.meta) return [...S.meta.levels];
  return S.options.level ? [S.options.level] : [];
}

/** The level a computer gets unless one is chosen: the server's default (GET /api/meta); until
 * it comes, the chosen one ('' if none). */
export function defaultLevel() {
  return S.meta ? S.meta.default_level : S.options.level;
}

/**
 * How many play a variant, as its facts say (GET /api/variants); null until they came.
 * @param {string} name
 * @returns {number | null}
 */
export function variantPlayers(name) {
  const facts = S.variants && S.variants[name];
  return facts && facts.players ? facts.players : null;
}

/** The other seats as chosen ('human', a level), or null when all are computers of the chosen
 * strength (the game against the computer, created exactly as before).
 * @param {import('../shared/saved.js').Options} o
 */
export function seatChoices(o) {
  // Until the variants' facts came, the seats chosen are taken as the variant's.
  const n = variantPlayers(o.variant) ?? (o.seats || []).length + 1;
  // Seats chosen for a variant of another number of players are not this one's: a 2-player
  // "person" is no invitation at a 4-player table.
  if ((o.seats || []).length !== n - 1) return null;
  const chosen = [];
  for (let seat = 1; seat < n; seat++) chosen.push((o.seats || [])[seat - 1] || '');
  if (chosen.every((k) => k === '')) return null;
  return chosen.map((k) => k || o.level);
}

// ------------------------------------------------------------------ updates: the store's one writer

/** The page waits (for the server, or while it replays steps), or the player may act. @param {boolean} busy */
export function setBusy(busy) {
  S.busy = busy;
}

/** The STATE shown (null: none yet). @param {State | null} st */
export function showState(st) {
  S.state = st;
}

/** What the table shows now (display.js). @param {import('../shared/display.js').Display | null} D */
export function setDisplay(D) {
  S.D = D;
}

/**
 * The table a replay draws (its display, which may no longer be S.D) after a step.
 * @param {import('../shared/display.js').Display} D
 * @param {Partial<import('../shared/display.js').Display>} fields
 */
export function updateDisplay(D, fields) {
  Object.assign(D, fields);
}

/** The steps of a state are shown: only later ones replay. @param {{index: number}[] | undefined} events */
export function shownSteps(events) {
  S.lastStep = lastStepOf(events);
}

/** The page goes to a game ({id, token, seat}, or a spectator's {id, token: '', watch}): nothing
 * of the last one is shown or chosen any more.
 * @param {NonNullable<Store['game']>} game
 */
export function startGame(game) {
  Object.assign(S, { game, state: null, D: null, pending: null, show: null, hint: null, playCard: null });
  clearChoice();
}

/** The page's game (null: none, as after leaving a table). @param {Store['game']} game */
export function setGame(game) {
  S.game = game;
}

/** The invitations of a table just created. @param {Record<string, any>[] | undefined} invites */
export function setInvites(invites) {
  S.invites = invites || [];
}

/** The page left its table: the table stays on view, with nothing to do at it. */
export function leftTable() {
  S.game = null;
  if (S.state) S.state = { ...S.state, actions: [] };
}

/** The page leaves the game it shows (its replay stops; a wait for "Continue" in it ends). */
export function leaveShown() {
  S.epoch += 1;
  const waiting = S.continueResolve;
  S.continueResolve = null;
  if (waiting) waiting();
}

/** The cards chosen for the discard (a hint's, or the player's). @param {Iterable<string>} cards */
export function chooseCards(cards) {
  S.selected = new Set(cards);
}

/** A card of the hand chosen, or left (withToggled). @param {string} card @param {number} need */
export function toggleCard(card, need) {
  S.selected = withToggled(S.selected, card, need);
}

/** Nothing chosen: no card for the discard, no card under the keyboard's cursor. */
export function clearChoice() {
  S.selected = new Set();
  S.cursor = -1;
}

/** The card under the keyboard's cursor (its index in the hand shown). @param {number} index */
export function setCursor(index) {
  S.cursor = index;
}

/** The card chosen to play with a stated claim (null: none). @param {string | null} card */
export function setPlayCard(card) {
  S.playCard = card;
}

/** The hint shown (null: none). @param {Record<string, any> | null} hint */
export function setHint(hint) {
  S.hint = hint;
}

/** The cards lit on the table (a combination scored). @param {string[]} cards */
export function setHighlight(cards = []) {
  S.highlight = new Set(cards);
}

/** The rest of the replay goes at once (until the next "Continue"). */
export function skipReplay() {
  S.skip = true;
}

/** The replay waits for "Continue": resolve goes on (once). @param {(value?: any) => void} resolve */
export function waitForContinue(resolve) {
  S.continueResolve = () => {
    S.continueResolve = null;
    S.skip = false;
    resolve();
  };
}

/** The replay and the wait are over: the next steps are timed again. */
export function replayDone() {
  S.busy = false;
  S.skip = false;
}

// ------------------------------------------------------------------ updates: the show panel

/** The show panel, opened if it was not. */
export function openShow() {
  if (!S.show) S.show = { entries: [] };
  return S.show;
}

/** The show panel closed. */
export function closeShow() {
  S.show = null;
}

/**
 * A count of the show in the panel: in place of the count form, and of the same count shown
 * while it awaited the muggins decision (one entry).
 * @param {Record<string, any>} entry
 */
export function putShowEntry(entry) {
  const show = openShow();
  show.entries = show.entries.filter((e) => !e.form && !(e.awaiting && e.seat === entry.seat && e.what === entry.what));
  show.entries.push(entry);
}

/**
 * The page's own count to state (a form), in place of any form before it.
 * @param {Record<string, any>} entry
 */
export function putCountForm(entry) {
  const show = openShow();
  show.entries = show.entries.filter((e) => !e.form);
  show.entries.push(entry);
}

/**
 * A count awaiting the muggins decision, unless the panel shows one already: whether it was put.
 * @param {Record<string, any>} entry
 */
export function putAwaitingEntry(entry) {
  const show = openShow();
  show.entries = show.entries.filter((e) => !e.form);
  const last = show.entries[show.entries.length - 1];
  if (last && last.awaiting) return false;
  show.entries.push(entry);
  return true;
}

/**
 * A count of the panel as its explanation goes on (its step, revealed, done), or a note added.
 * @param {Record<string, any>} entry
 * @param {Record<string, any>} fields
 * @param {string} [note]
 */
export function updateEntry(entry, fields, note = undefined) {
  Object.assign(entry, fields);
  if (note !== undefined) entry.notes = [...entry.notes, note];
}

// ------------------------------------------------------------------ updates: transport and lists

/** The live socket of the table (null: none). @param {Store['live']} live */
export function setLive(live) {
  S.live = live;
  if (!live) S.liveStatus = '';
}

/** What the live socket says of itself: 'connecting', 'live', 'reconnecting', 'refused'. @param {string} status */
export function setLiveStatus(status) {
  S.liveStatus = status;
}

/** The ref of the next action sent over the socket. */
export function nextActionRef() {
  S.actions += 1;
  return String(S.actions);
}

/** The action sent over the socket and not answered yet ({ref, done, timer}; null: none). @param {Store['awaiting']} awaiting */
export function setAwaiting(awaiting) {
  S.awaiting = awaiting;
}

/** The pump shows the states offered (true while it runs). @param {boolean} pumping */
export function setPumping(pumping) {
  S.pumping = pumping;
}

/** Whether the server is still to be told the page shows this decision ("id:version"): once each. @param {string} key */
export function markShownOnce(key) {
  if (S.shown === key) return false;
  S.shown = key;
  return true;
}

/** The game (or watch code) the page goes to ("play again"; null: none). @param {string | null} target */
export function follow(target) {
  S.following = target;
}

/** The variants' facts (GET /api/variants). @param {Store['variants']} variants */
export function setVariants(variants) {
  S.variants = variants;
}

/** Whether the server could not be reached (its lists did not come). @param {boolean} offline */
export function setOffline(offline) { S.offline = offline; }
/** The lists the server defines (GET /api/meta). @param {Store['meta']} meta */
export function setMeta(meta) {
  S.meta = meta;
}

/** The options of the next game (the options dialog's). @param {import('../shared/saved.js').Options} options */
export function setOptions(options) {
  S.options = options;
}

/**
 * The board drawn, for its key (target, sides, language, seats: another key draws another).
 * @param {import('../shared/board.js').Board} board
 * @param {string} key
 */
export function setBoard(board, key) {
  S.board = board;
  S.boardKey = key;
}

/** The board is drawn again at the next render (the language changed). */
export function forgetBoard() {
  S.boardKey = '';
}

/** The creator's watch link ({id, url}). @param {Store['watchLink']} link */
export function setWatchLink(link) {
  S.watchLink = link;
}
