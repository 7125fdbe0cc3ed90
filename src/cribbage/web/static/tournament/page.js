// @ts-check
// The tournaments' page: /tournaments lists them (and a signed-in account creates one),
// /tournaments/{id} shows one: registration, the director's tools, this round's tables (Play for
// the reader's own game, Watch for each game in progress, a club table's result form), the
// standings, the bracket, a player's scorecard and the champion.  Everything shown is the
// server's GET /api/tournaments/{id} (docs/api.md, "Tournaments"), read again every few seconds
// while the tab is shown and the tournament not finished; the page computes no rule.
// The account is the one the game page signed in (shared/saved.js): no sign-in of its own.

import { openSeat } from '../shared/api.js';
import { $, h, saveJSON } from '../shared/dom.js';
import { errorText, getLang, relabelPage, startLanguage, t } from '../shared/i18n.js';
import { heldSeat, keepSeat, loadSession, saveGame } from '../shared/saved.js';
import { LS_TURN_SOUND, soundOn } from '../game/yourturn.js';
import { POLL_MS, keepPolling, newlyReady, readyGame, registration, resultBody, route, settingsBody } from './model.js';
import { renderReadyPush } from './notify.js';
import * as tapi from './tapi.js';
import {
  renderBracket, renderChampions, renderDirector, renderEntrants, renderList, renderPairings, renderScorecard,
  renderStandings, settingsLine,
} from './views.js';
import { keepOffline } from '../shared/offline.js';

/**
 * The page's state: the tournament shown (as the server last sent it, and as its JSON text), the
 * list, the scorecard open, the polling timer.
 * @type {{ id: string | null, T: Record<string, any> | null, shown: string, list: Record<string, any>[] | null,
 *   card: number | null, timer: number, missing: boolean }}
 */
const P = { id: null, T: null, shown: '', list: null, card: null, timer: 0, missing: false };

/** What the controls do (views.js). @type {import('./views.js').Acts} */
const acts = {
  play: (gameId) => { void play(gameId); },
  review: (gameId, seat) => { void review(gameId, seat); },
  scorecard: (entrant) => { P.card = entrant; render(); $('t-scorecard-card').scrollIntoView({ block: 'nearest' }); },
  result: (table, winner, loserPoints) => act(() => tapi.enterResult(String(P.id), resultBody(table, winner, loserPoints))),
  checkIn: (number) => act(() => tapi.checkIn(String(P.id), number)),
  start: () => act(() => tapi.start(String(P.id))),
  guest: (name, partner) => act(() => tapi.addGuest(String(P.id), name, partner || undefined)),
};

// ------------------------------------------------------------------ errors and the account

/** The words of each setting and result field a refusal may name (`invalid`, its `field`). */
const FIELD_WORDS = {
  variant: 'tournament.variant', games: 'tournament.games', pairing: 'tournament.pairing', best_of: 'tournament.bestOf',
  consolation: 'tournament.consolation', clock: 'tournament.clock', limit: 'tournament.limit', rated: 'tournament.rated',
  venue: 'tournament.venue', winner: 'tournament.winner', loser_points: 'tournament.loserPoints', forfeit: 'tournament.forfeit',
  name: 'tournament.name',
};

/** A refusal in words: a setting or a result out of its range by its field, else by its code. @param {any} err */
function refusalText(err) {
  const data = (err && err.data) || {};
  if (err && data.field === 'partner' && (err.code === 'invalid' || err.code === 'tournament.registered')) {
    if (err.code === 'tournament.registered') return t('tournament.partnerEntered', { name: data.name });
    return data.name ? t('tournament.noSuchPartner', { name: data.name }) : t('tournament.badPartner');
  }
  const words = err && err.code === 'invalid' ? FIELD_WORDS[/** @type {keyof FIELD_WORDS} */ (data.field)] : undefined;
  return words ? t('tournament.bad', { what: t(words), low: data.low, high: data.high }) : errorText(err);
}

/** @param {any} err  an ApiError, or null to hide the line */
function showError(err) {
  const line = $('t-error');
  line.hidden = !err;
  line.textContent = err ? refusalText(err) : '';
  if (err) line.scrollIntoView({ block: 'nearest' });
}

/** Who is signed in here, or how to sign in (on the main page: this page has no sign-in). */
function renderSigned() {
  const session = loadSession();
  const line = $('t-signed');
  line.replaceChildren();
  if (session) {
    line.textContent = t('account.signedInAs', { name: session.name });
    return;
  }
  const link = document.createElement('a');
  link.href = `/?lang=${getLang()}`;
  link.id = 't-signin-link';
  link.textContent = t('tournament.signInLink');
  line.append(t('tournament.signInFirst'), ' ', link);
}

// ------------------------------------------------------------------ requests

/** The reader's requests, one after another: a click while another request is on its way waits
 * its turn (never dropped, as a click on the check-in button that registering had just drawn was). */
let requests = Promise.resolve();

/** A request of the reader's that answers the tournament: shown at once. @param {() => Promise<any>} ask */
function act(ask) {
  requests = requests.then(() => send(ask));
  return requests;
}

/** @param {() => Promise<any>} ask */
async function send(ask) {
  try {
    const answer = await ask();
    showError(null);
    if (answer && answer.id === P.id) take(answer);
    await refresh();  // the answer has no watch codes' news: read it as everyone does
  } catch (err) {
    showError(err);
  }
}

/** A tournament read: shown, and "your next game is ready" said if it is new. @param {Record<string, any>} T */
function take(T) {
  const ready = newlyReady(P.T, T);
  const text = JSON.stringify(T);
  P.T = T;
  if (text !== P.shown) render();  // the same as before: nothing drawn again
  P.shown = text;
  if (ready) announce();
}

/** Your next game is ready: the title says it, and the chime sounds if the player chose it. */
function announce() {
  showTitle();
  if (soundOn()) import('../game/chime.js').then((m) => m.chime()).catch(() => {});
}

async function refresh() {
  if (!P.id) return;
  try {
    take(await tapi.getTournament(P.id));
    showError(null);
  } catch (err) {
    if (err.code === 'tournament.not_found') P.missing = true;
    showError(err);
    render();
  }
}

/** Read again in POLL_MS while the tab is shown and the tournament runs; never two timers. */
function schedule() {
  clearTimeout(P.timer);
  P.timer = 0;
  if (!keepPolling(P.T, document.visibilityState === 'visible') || P.missing) return;
  P.timer = window.setTimeout(async () => {
    await refresh();
    schedule();
  }, POLL_MS);
}

/** The reader's seat of a game for this browser: the one held, else a new key the account opens. @param {string} gameId */
async function seatHere(gameId) {
  const held = heldSeat(gameId);
  if (held) return held;
  const opened = await openSeat(gameId);
  const seat = { id: gameId, token: String(opened.token), seat: Number(opened.seat) };
  keepSeat(seat);
  return seat;
}

/** Play: the game becomes this tab's game, and the game page opens on it. @param {string} gameId */
async function play(gameId) {
  try {
    saveGame(await seatHere(gameId));
    location.assign(`/?lang=${getLang()}`);
  } catch (err) {
    showError(err);
  }
}

/**
 * A finished game of the tournament on the review page, from the seat of the scorecard's entrant
 * (its record is anyone's once the game is over).
 * @param {string} gameId @param {number} seat
 */
async function review(gameId, seat) {
  try {
    const record = await tapi.gameRecord(String(P.id), gameId);
    sessionStorage.setItem('cribbage.review', JSON.stringify({ text: JSON.stringify(record), seat, fromGame: false }));
    location.assign(`/review?lang=${getLang()}`);
  } catch (err) {
    showError(err);
  }
}

// ------------------------------------------------------------------ the list

async function loadList() {
  try {
    P.list = (await tapi.listTournaments()).tournaments;
    showError(null);
  } catch (err) {
    showError(err);
  }
  render();
}

/** The create form: the settings sent, then the new tournament's page. @param {Event} e */
async function create(e) {
  e.preventDefault();
  const form = /** @type {HTMLFormElement} */ ($('t-create-form'));
  /** @type {Record<string, string | boolean>} */
  const values = {};
  for (const el of /** @type {any} */ (form.elements)) {
    if (el.name) values[el.name] = el.type === 'checkbox' ? el.checked : el.value;
  }
  try {
    const created = await tapi.createTournament(settingsBody(values));
    location.assign(`/tournaments/${encodeURIComponent(created.id)}?lang=${getLang()}`);
  } catch (err) {
    showError(err);
  }
}

// ------------------------------------------------------------------ drawing

function showTitle() {
  const T = P.T;
  if (T && readyGame(T)) document.title = t('tournament.readyTitle', { name: T.name });
  else document.title = T ? `${T.name} — ${t('tournament.pageTitle')}` : t('tournament.pageTitle');
}

/** Where the reader stands. @param {Record<string, any>} T @param {Record<string, any> | undefined} entry */
function standing(T, entry) {
  if (!entry) return '';
  if (entry.withdrawn) return t('tournament.withdrawnMark');
  if (T.you.accept) return t('tournament.invited', { name: entry.players[0] });
  if (entry.partner_pending) return t('tournament.waitingPartner', { name: entry.players[1] });
  return entry.checked_in ? t('tournament.checkedIn') : t('tournament.registered');
}

/**
 * The reader's registration: the buttons `you` allows (in a team event the partner's name to
 * register with), and where the reader stands. @param {Record<string, any>} T
 */
function renderRegistration(T) {
  const signedIn = !!loadSession();
  const buttons = registration(T, signedIn);
  const entry = (T.entrants || []).find((/** @type {any} */ e) => e.number === T.you.entrant);
  const status = standing(T, entry);
  $('t-registration').hidden = !buttons.length && !status;
  $('t-reg-status').textContent = status;
  $('t-reg-status').hidden = !status;
  const labels = {
    register: 'tournament.register', accept: 'tournament.acceptPartner', decline: 'tournament.declinePartner',
    checkin: 'tournament.checkIn', withdraw: 'tournament.withdraw',
  };
  const partner = T.teams && buttons.includes('register')
    ? h('input', { id: 't-partner-name', autocomplete: 'off', 'aria-label': t('tournament.partnerName'), placeholder: t('tournament.partnerName') })
    : null;
  const asks = {
    register: () => tapi.register(String(P.id), partner ? partner.value.trim() : undefined),
    accept: () => tapi.acceptPartner(String(P.id)),
    decline: () => tapi.withdraw(String(P.id)),
    checkin: () => tapi.checkIn(String(P.id)),
    withdraw: () => tapi.withdraw(String(P.id)),
  };
  $('t-reg-buttons').replaceChildren(...(partner ? [partner] : []), ...buttons.map((b) => h('button', {
    type: 'button', id: `t-${b}`, class: b === 'withdraw' || b === 'decline' ? 'secondary' : 'primary', text: t(labels[b]),
    onclick: () => {
      if (b === 'withdraw' && !window.confirm(t('tournament.withdrawConfirm'))) return;
      if (b === 'register' && partner && !partner.value.trim()) { partner.focus(); return; }
      act(asks[b]);
    },
  })));
}

function renderOne() {
  const T = P.T;
  $('t-one').hidden = false;
  if (!T) {
    $('t-name').textContent = P.missing ? t('tournament.notFound') : '';
    return;
  }
  $('t-name').textContent = T.name;
  $('t-stage').textContent = t(`tournament.stage.${T.stage}`);
  $('t-stage').className = `t-stage stage-${T.stage}`;
  $('t-settings').textContent = settingsLine(T);
  $('t-csv').href = tapi.standingsCsv(T.id);
  const ready = readyGame(T);
  $('t-ready').hidden = !ready;
  $('t-ready-play').dataset.game = ready;
  renderRegistration(T);
  renderReadyPush(T, !!loadSession(), $('t-registration'), render);
  renderDirector(T, acts);
  renderEntrants(T, acts);
  renderPairings(T, acts);
  renderStandings(T, acts);
  renderBracket(T, acts);
  renderChampions(T);
  renderScorecard(T, P.card, acts);
}

function renderIndex() {
  $('t-index').hidden = false;
  if (P.list) renderList(P.list);
  const signedIn = !!loadSession();
  $('t-create-form').hidden = !signedIn;
  $('t-create-signin').hidden = signedIn;
  $('t-create-signin').textContent = signedIn ? '' : t('tournament.createSignIn');
  const club = $('c-venue').value === 'club';
  for (const el of document.querySelectorAll('.online-only')) /** @type {HTMLElement} */ (el).hidden = club;
}

/**
 * A field's key, the same in every drawing of the page: its id, else its form's key (a club
 * table's) and its class; '' for a field of neither.
 * @param {Element | null} el
 */
function fieldKey(el) {
  if (!el) return '';
  if (el.id) return el.id;
  const form = /** @type {HTMLElement | null} */ (el.closest('[data-key]'));
  return form ? `${form.dataset.key}|${el.className}` : '';
}

/** What the reader has typed or chosen in the tournament's forms, and where the focus is. */
function typed() {
  /** @type {Map<string, string | boolean>} */
  const fields = new Map();
  for (const el of /** @type {NodeListOf<HTMLInputElement>} */ ($('t-one').querySelectorAll('input, select'))) {
    const key = fieldKey(el);
    if (key) fields.set(key, el.type === 'checkbox' ? el.checked : el.value);
  }
  return { fields, focus: fieldKey(document.activeElement) };
}

/**
 * The forms drawn again as the reader left them (a poll every few seconds must not wipe a score
 * half typed). @param {ReturnType<typeof typed>} kept
 */
function restore(kept) {
  for (const el of /** @type {NodeListOf<HTMLInputElement>} */ ($('t-one').querySelectorAll('input, select'))) {
    const key = fieldKey(el);
    if (!kept.fields.has(key)) continue;
    const value = kept.fields.get(key);
    if (el.type === 'checkbox') {
      el.checked = value === true;
      el.dispatchEvent(new Event('change'));
    } else {
      el.value = String(value);
    }
    if (key === kept.focus) el.focus();
  }
}

function render() {
  renderSigned();
  if (P.id) {
    const kept = typed();
    renderOne();
    restore(kept);
  } else {
    renderIndex();
  }
  showTitle();
  $('tournament').setAttribute('aria-busy', 'false');
}

function relabel() {
  relabelPage('tournament.pageTitle', { 'link-play': '/', 'link-list': '/tournaments', 't-back': '/tournaments' });
  render();
}

// ------------------------------------------------------------------ start-up

function wire() {
  $('t-create-form').addEventListener('submit', create);
  $('c-venue').addEventListener('change', render);
  $('t-ready-play').addEventListener('click', () => { if ($('t-ready-play').dataset.game) void play($('t-ready-play').dataset.game); });
  $('t-scorecard-close').addEventListener('click', () => { P.card = null; render(); });
  $('t-print').addEventListener('click', () => window.print());
  const sound = $('t-sound');
  sound.checked = soundOn();
  sound.addEventListener('change', () => {
    saveJSON(LS_TURN_SOUND, sound.checked);
    if (sound.checked) import('../game/chime.js').then((m) => m.chime()).catch(() => {});  // a sample: sound allowed from now on
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && P.id) refresh().then(schedule);
    else schedule();
  });
}

async function start() {
  P.id = route(location.pathname).id;
  startLanguage(relabel);
  wire();
  relabel();
  if (!P.id) {
    await loadList();
    return;
  }
  await refresh();
  schedule();
}

/** For tests and curious visitors: the tournament shown, read-only. */
/** @type {any} */ (window).tournamentPage = { get tournament() { return P.T; } };

keepOffline();  // the service worker: the pages open offline after one visit
start();
