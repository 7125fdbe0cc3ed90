// The game page: talks to the server of docs/api.md, replays its events one by one (so the
// computer's plays, the pegs and every combination of the show can be followed), and offers
// hints, manual counting with muggins, options, statistics and three languages.

import * as api from './api.js';
import { Board } from './board.js';
import { backEl, cardEl, cardText, installSuitSprite, sortCards } from './cards.js';
import { EV } from './codes.js';
import { Live } from './live.js';
import {
  applyStatic, cardName, comboLine, errorText, getLang, initLang, numText, onLangChange, reasonsLine, seatLabel, setLang,
  showLines, t,
} from './i18n.js';

const LS_GAME = 'cribbage.engine.game';
const LS_OPTIONS = 'cribbage.options';
const LS_STATS = 'cribbage.engine.stats';
const LS_NAME = 'cribbage.name';
const LEVELS = ['weak', 'normal', 'strong'];
const COLORS = ['#1e63c4', '#c62828', '#2e7d32', '#ef6c00'];
const SPEEDS = { slow: 1.7, normal: 1, fast: 0.45, instant: 0 };
const LIVE_ANSWER_MS = 4000;  // an action sent over the socket and not answered by then goes over HTTP
const LIVE_STATE_MS = 2500;   // the state of an action stored through the socket, not come by then, is read
const DEFAULT_OPTIONS = { level: 'normal', variant: 'standard', target: '', counting: 'auto', dealer: 'cut', speed: 'normal' };

const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);

const S = {
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
  live: null,        // the WebSocket of a table with people (live.js)
  liveStatus: '',
  pending: null,     // the newest pushed STATE not shown yet
  pumping: false,
  expectFresh: false, // the next state answers our own action: all its events are new
  seenEvents: null,  // the events of the last state shown (a push repeats them: only new ones replay)
  epoch: 0,          // grows when the page goes to another game: what still runs for the last one stops
  awaiting: null,    // the action sent over the live socket and not answered yet: {ref, done, timer}
  actions: 0,        // how many actions were sent over the socket (each one's ref)
  offered: null,     // {id, version} of the newest state offered to the pump
  following: null,   // the game (or watch code) the page is going to ("play again")
  shown: '',         // "id:version" of the decision the server was told this page shows (markShown)
};

// ------------------------------------------------------------------ small helpers

function loadJSON(key, fallback) {
  try {
    const v = JSON.parse(localStorage.getItem(key));
    return v ?? fallback;
  } catch {
    return fallback;
  }
}
function saveJSON(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode: ignore */ }
}
/** The current game {id, token, seat}: in this tab (sessionStorage) first, else the last one. */
function loadGame() {
  try {
    const own = JSON.parse(sessionStorage.getItem(LS_GAME));
    if (own && own.id) return own;
  } catch { /* no storage */ }
  return loadJSON(LS_GAME, null);
}
function saveGame(game) {
  saveJSON(LS_GAME, game);
  try { sessionStorage.setItem(LS_GAME, JSON.stringify(game)); } catch { /* private mode */ }
}
function loadName() {
  try { return localStorage.getItem(LS_NAME) || ''; } catch { return ''; }
}
function saveName(name) {
  try { localStorage.setItem(LS_NAME, name); } catch { /* private mode */ }
}
function loadOptions() {
  return { ...DEFAULT_OPTIONS, ...loadJSON(LS_OPTIONS, {}) };
}
function speedFactor() {
  if (S.skip) return 0;
  const p = params.get('speed');
  if (p && p in SPEEDS) return SPEEDS[p];
  return SPEEDS[S.options.speed] ?? 1;
}
function pause(ms) {
  const f = speedFactor();
  return f ? new Promise((r) => setTimeout(r, ms * f)) : Promise.resolve();
}
// Styles are set through the CSSOM, never as a style attribute: the Content-Security-Policy has no
// 'unsafe-inline' (hardening.py), which would be needed for style="...".
function setStyle(el, properties) {
  for (const [name, value] of Object.entries(properties)) el.style.setProperty(name, value);
}

// An element: attrs are its attributes, with class, text, style ({'--side': colour}) and on* listeners.
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k === 'style') setStyle(el, v);
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}
const view = () => S.state.view;
const players = () => view().players;
// The rules' facts come with every view (Rules.facts on the server): the page derives none.
const rules = () => view().rules;
const partners = () => rules().partnerships;
const sideOf = (seat) => (seat === null || seat === undefined ? seat : rules().seat_sides[seat]);
const legal = () => (S.state ? S.state.legal || [] : []);

function legalKind() {
  const l = legal();
  if (!l.length) return null;
  if (l.some((a) => a.type === 'pass' || a.type === 'muggins')) return 'muggins';
  return l[0].type;
}
function needsClaim() {
  return legal().some((a) => a.type === 'play' && a.claim !== undefined);
}

// ------------------------------------------------------------------ names

// A table with people: the page shows every seat from its own seat's point of view, so the STATE
// is turned round (localize) to put the page's seat at 0; serverSeat() turns it back for names.
function me() {
  return S.state && typeof S.state.seat === 'number' ? S.state.seat : 0;
}
function serverSeat(seat) {
  return (seat + me()) % players();
}
/** Whether the page only watches a table (a watch link): it shows what every seat sees. */
function spectating(st = S.state) {
  return !!(st && st.spectator);
}
function isPeople(st = S.state) {
  return !!(st && Array.isArray(st.seats) && st.seats.filter((x) => x.kind === 'human').length > 1);
}
/** A seat by its number on the server: "You", else its one name (seatLabel, i18n.js), the same
 * in every panel whoever sits at the table and after a computer takes a seat. */
function tableSeatName(server, st = S.state) {
  if (server === me() && !spectating()) return t('you');
  const info = (st.seats || [])[server];
  if (!info) return t('playerN', { n: server + 1 });
  return seatLabel({ ...info, name: info.name || (st.names || [])[server] }, players());
}

/** The newest word on who sits where: a state of this game offered but not shown yet (the page
 * holds at "Continue", or replays a backlog) already says who left or came, who is online, away. */
function seating() {
  const next = S.pending;
  return next && S.state && next.id === S.state.id && next.version >= S.state.version ? next : S.state;
}

function seatName(seat) {
  if (seat === 0 && !spectating()) return t('you');
  return tableSeatName(serverSeat(seat));
}
function sideName(side) {
  if (partners()) return side === 0 ? t('usTeam') : t('themTeam');
  return seatName(side);
}
function whose(seat, what) {
  if (seat === 0 && !spectating()) return t(what === 'crib' ? 'yourCrib' : 'yourHand');
  return t(what === 'crib' ? 'cribOf' : 'handOf', { name: seatName(seat) });
}
function variantLabel(name) {
  return t(`variant.${name}`);
}

// ------------------------------------------------------------------ the display model

function dispFromView(v) {
  return {
    phase: v.phase,
    dealer: v.dealer,
    scores: [...v.scores],
    prev: [...v.previous_scores],
    starter: v.starter,
    count: v.count,
    sequence: v.sequence.map((card, i) => ({ card, seat: seatOfSequence(v, i) })),
    played: v.played.map((p) => ({ ...p })),
    held: [...v.held],
    hand: [...v.hand],
    kept: [...v.kept],
    discards: [...v.discards],
    handNumber: v.hand_number,
    cribCards: cribFromView(v),
  };
}
function seatOfSequence(v, i) {
  const offset = v.played.length - v.sequence.length;
  const p = v.played[offset + i];
  return p ? p.seat : null;
}
function cribFromView(v) {
  const shown = (v.shown || []).find((s) => s.what === 'crib');
  return shown ? [...shown.cards] : null;
}
function cribCount(D) {
  const r = rules();
  if (D.cribCards) return D.cribCards.length;
  if (D.phase === 'discard') {
    let n = r.crib_from_deck;
    for (const held of D.held) n += Math.max(0, r.deal - held);  // what each seat has thrown so far
    return n;
  }
  if (D.phase === 'deal' || D.phase === 'cut') return 0;
  return r.crib_size;
}

// ------------------------------------------------------------------ rendering

function ensureBoard() {
  const v = view();
  const key = `${v.target}/${v.scores.length}/${getLang()}/${players()}`;
  if (S.board && S.boardKey === key) return;
  S.boardKey = key;
  S.board = new Board($('board'), {
    target: v.target,
    skunkLine: v.rules.skunk_line,
    doubleSkunkLine: v.rules.double_skunk_line,
    sides: v.scores.length,
    colors: COLORS,
    labels: {
      title: t('boardTitle'),
      skunk: t('skunkLine'),
      doubleSkunk: t('doubleSkunkLine'),
      side: (s) => sideName(s),
    },
  });
  S.board.place(S.D.scores, S.D.prev, false);
}

function render(animate = true) {
  if (!S.state) return;
  ensureBoard();
  S.board.place(S.D.scores, S.D.prev, animate);
  renderScoreboard();
  renderOpponents();
  renderCenter();
  renderHand();
  renderControls();
  renderTablePanel();
}

function renderScoreboard() {
  const D = S.D, v = view();
  const board = $('scoreboard');
  board.textContent = '';
  D.scores.forEach((score, side) => {
    const dealerHere = D.dealer !== null && D.dealer !== undefined && sideOf(D.dealer) === side;
    board.append(h('div', { class: `score-chip${side === 0 ? ' mine' : ''}`, style: { '--side': COLORS[side] }, 'data-side': side },
      h('span', { class: 'dot', 'aria-hidden': 'true' }),
      h('span', { class: 'chip-name', text: sideName(side) }),
      h('strong', { class: 'chip-score', text: String(score), 'data-testid': `score-${side}` }),
      dealerHere ? h('span', { class: 'badge dealer', title: t('dealer'), text: t('dealerShort') }) : null));
  });
  const o = S.state.options || {};
  // The computers' strengths, only where computers play (a table of people has none).
  const levels = new Set((S.state.seats || []).filter((x) => x.kind === 'computer').map((x) => x.level || o.level || 'normal'));
  $('game-info').textContent = [
    variantLabel(v.variant), t('targetN', { n: v.target }),
    S.D.handNumber ? t('handN', { n: S.D.handNumber }) : null,
    levels.size ? [...levels].map((level) => t(`level.${level}`)).join(t('listSep')) : null, countingText(o),
  ].filter(Boolean).join(' · ');
}

/** How a table counts ({manual, muggins, muggins_play} of its options), said of every player. */
function countingText(o) {
  const how = !o.manual ? 'auto' : o.muggins_play ? 'mugginsPlay' : o.muggins ? 'muggins' : 'manual';
  return t(`counted.${how}`);
}

function renderOpponents() {
  const D = S.D;
  const box = $('opponents');
  box.textContent = '';
  box.dataset.count = String(players() - 1);
  for (let seat = 1; seat < players(); seat++) {
    const side = sideOf(seat);
    const backs = h('div', { class: 'backs', role: 'img', 'aria-label': t('cardsHeld', { n: D.held[seat] ?? 0 }) });
    for (let i = 0; i < (D.held[seat] ?? 0); i++) backs.append(backEl({ small: true }));
    const played = h('div', { class: 'played-pile' });
    const inSeq = new Set(D.sequence.map((s) => s.card));
    for (const p of D.played) {
      if (p.seat === seat && !inSeq.has(p.card)) played.append(cardEl(p.card, { small: true, label: cardName(p.card) }));
    }
    box.append(h('div', { class: `seat seat-${seat}${D.dealer === seat ? ' is-dealer' : ''}`, style: { '--side': COLORS[side] }, 'data-seat': seat },
      h('div', { class: 'seat-head' },
        h('span', { class: 'seat-name', text: seatName(seat) }),
        partners() && side === sideOf(0) ? h('span', { class: 'badge partner', text: t('partner') }) : null,
        D.dealer === seat ? h('span', { class: 'badge dealer', text: t('dealer') }) : null,
        S.state.view.to_act === seat && !S.state.over ? h('span', { class: 'badge turn', text: '…' }) : null),
      backs, played,
      h('div', { class: 'bubble', id: `bubble-${seat}`, hidden: true })));
  }
  $('me-name').textContent = seatName(0);
  $('me-name').style.setProperty('--side', COLORS[0]);
  const badges = $('me-badges');
  badges.textContent = '';
  if (D.dealer === 0) badges.append(h('span', { class: 'badge dealer', text: t('dealer') }));
  badges.append(h('span', { class: 'bubble', id: 'bubble-0', hidden: true }));
}

function renderCenter() {
  const D = S.D;
  const showing = !!S.show;
  $('center').classList.toggle('showing', showing);
  $('show-panel').hidden = !showing;
  if (!showing) $('show-panel').textContent = '';
  // Starter (or the face-down deck before the cut).
  const starter = $('starter');
  starter.textContent = '';
  starter.append(D.starter
    ? cardEl(D.starter, { label: t('said', { who: t('starter'), what: cardName(D.starter) }) })
    : backEl({ label: t('deck') }));
  // Crib: backs, then faces once counted.
  const crib = $('crib');
  crib.textContent = '';
  const cribName = D.dealer === null || D.dealer === undefined ? t('crib') : whose(D.dealer, 'crib');
  if (D.cribCards) {
    for (const c of sortCards(D.cribCards)) crib.append(cardEl(c, { small: true, label: cardName(c) }));
    crib.setAttribute('aria-label', cribName);
  } else {
    const n = cribCount(D);
    crib.setAttribute('aria-label', t('said', { who: cribName, what: t('cardsInCrib', { n }) }));
    for (let i = 0; i < n; i++) crib.append(backEl({ small: true }));
  }
  $('crib-label').textContent = cribName;
  // The count and its cards.
  $('count').textContent = String(D.count);
  const seq = $('sequence');
  seq.textContent = '';
  seq.style.setProperty('--n', String(D.sequence.length));
  for (const { card, seat } of D.sequence) {
    const c = cardEl(card, { label: `${cardName(card)} (${seatName(seat)})` });
    c.style.setProperty('--side', COLORS[sideOf(seat ?? 0)]);
    c.classList.add('seq-card');
    if (S.highlight.has(card)) c.classList.add('hl');
    seq.append(c);
  }
  if (showing) renderShow();
}

function handCards() {
  const D = S.D;
  const cards = D.phase === 'discard' || !D.kept.length ? D.hand : D.kept;
  return sortCards(cards);
}

function renderHand() {
  const D = S.D;
  const hand = $('hand');
  hand.textContent = '';
  if (spectating()) {  // a spectator sees seat 0's cards as every seat's: face down, then played
    const backs = h('div', { class: 'backs', role: 'img', 'aria-label': t('cardsHeld', { n: D.held[0] ?? 0 }) });
    for (let i = 0; i < (D.held[0] ?? 0); i++) backs.append(backEl({}));
    const inSeq = new Set(D.sequence.map((x) => x.card));
    const played = h('div', { class: 'played-pile' });
    for (const p of D.played) {
      if (p.seat === 0 && !inSeq.has(p.card)) played.append(cardEl(p.card, { small: true, label: cardName(p.card) }));
    }
    hand.append(backs, played);
    return;
  }
  const kind = S.busy ? null : legalKind();
  const playable = new Set(legal().filter((a) => a.type === 'play').map((a) => a.card));
  const cards = handCards();
  hand.style.setProperty('--n', String(Math.max(cards.length, 4)));
  const suggested = S.hint && S.hint.kind === 'play' && S.hint.options[0] ? S.hint.options[0].card : null;
  cards.forEach((card, i) => {
    const played = D.phase === 'play' && !D.hand.includes(card);
    const selected = S.selected.has(card);
    // The accessible name begins with what the card shows ("5♥"), then its name; the key is a shortcut.
    let label = t('cardLabel', { text: cardText(card), name: cardName(card) });
    if (played) label += ` (${t('played')})`;
    const el = cardEl(card, { tag: 'button', label });
    el.dataset.index = String(i + 1);
    if (i < 9) el.setAttribute('aria-keyshortcuts', String(i + 1));
    if (played) el.classList.add('played');
    if (selected) el.classList.add('selected');
    if (suggested === card) el.classList.add('suggested');
    if (S.highlight.has(card)) el.classList.add('hl');
    if (S.playCard === card) el.classList.add('selected');
    if (kind === 'discard') {
      el.setAttribute('aria-pressed', selected ? 'true' : 'false');
      el.addEventListener('click', () => toggleSelect(card));
    } else if (kind === 'play' && playable.has(card)) {
      el.classList.add('playable');
      el.addEventListener('click', () => playCard(card));
    } else {
      el.disabled = true;
      if (kind === 'play' && !played) el.classList.add('unplayable');
    }
    hand.append(el);
  });
}

function renderControls() {
  const kind = S.busy ? null : legalKind();
  const v = view();
  const prompt = $('prompt');
  const confirm = $('btn-confirm');
  confirm.hidden = true;
  confirm.disabled = false;
  $('btn-hint').disabled = !(kind === 'discard' || kind === 'play');
  $('btn-hint').hidden = spectating();  // a spectator has no decision to be advised on
  $('btn-result').hidden = !S.state.over || S.busy;
  $('game').setAttribute('aria-busy', S.busy ? 'true' : 'false');
  const claimBar = $('claim-bar');
  claimBar.hidden = true;
  if (S.state.over && !S.busy) {
    prompt.textContent = resultHeadline(S.state.result);
  } else if (!kind) {
    prompt.textContent = S.continueResolve ? t('pressContinue')
      : isPeople() && !S.state.over ? waitingText() : (S.busy ? t('waiting') : '');
  } else if (kind === 'discard') {
    const need = discardCount();
    prompt.textContent = t('chooseDiscard', { n: need, crib: whose(v.dealer, 'crib'), own: v.dealer === 0, name: seatName(v.dealer) });
    confirm.hidden = false;
    confirm.textContent = `${t('toCrib')} (${S.selected.size}/${need})`;
    confirm.disabled = S.selected.size !== need;
  } else if (kind === 'play') {
    prompt.textContent = t('yourPlay', { count: S.D.count });
    if (needsClaim() && S.playCard) renderClaimBar();
  } else if (kind === 'count') {
    prompt.textContent = t('countPrompt');
  } else if (kind === 'muggins') {
    // With two opponents both may call at once (docs/api.md): the first call takes the points.
    const anyone = v.claim && (v.claim.callers || []).length > 1;
    prompt.textContent = anyone ? `${t('mugginsPrompt')} ${t('mugginsAnyone')}` : t('mugginsPrompt');
    if (v.phase !== 'show') renderPlayMugginsBar();
  }
}

function discardCount() {
  const d = legal().find((a) => a.type === 'discard');
  return d ? d.cards.length : rules().discard;
}

// ------------------------------------------------------------------ announcements

let toastSerial = 0;
function announce(text, { side = null, big = false, log = true } = {}) {
  const box = $('toasts');
  const toast = h('div', { class: `toast${big ? ' big' : ''}`, style: side !== null ? { '--side': COLORS[side] } : null, text });
  toast.dataset.serial = String(++toastSerial);
  box.textContent = '';
  box.append(toast);
  setTimeout(() => toast.classList.add('fade'), Math.max(1200, 2200 * (speedFactor() || 0.6)));
  setTimeout(() => toast.remove(), Math.max(1600, 2800 * (speedFactor() || 0.6)));
  if (log) addLog(text);
}
function addLog(text) {
  const log = $('log');
  log.append(h('li', { text }));
  while (log.children.length > 200) log.firstChild.remove();
}
function bubble(seat, text) {
  const b = document.getElementById(`bubble-${seat}`);
  if (!b) return;
  b.textContent = text;
  b.hidden = false;
  setTimeout(() => { b.hidden = true; }, Math.max(900, 1500 * (speedFactor() || 0.6)));
}

function scoreText(ev) {
  const combos = ev.combos && ev.combos.length ? ev.combos : [{ kind: ev.detail, cards: ev.cards || [], points: ev.points }];
  return combos.map((c) => comboLine(c.kind, c.points, c.cards.length)).join(t('listSep'));
}

// ------------------------------------------------------------------ replaying events

async function replay(events, st) {
  const D = S.D;
  const epoch = S.epoch;
  // A count awaiting the muggins decision is not among the events: the server sends it once
  // the decision is taken (syncShowPanel shows its cards and claim from the view meanwhile).
  for (const ev of events) {
    if (epoch !== S.epoch) return;  // the page went to another game meanwhile
    await applyEvent(ev, st, D);
  }
}

function legalKindOf(st) {
  const l = st.legal || [];
  if (!l.length) return null;
  if (l.some((a) => a.type === 'pass' || a.type === 'muggins')) return 'muggins';
  return l[0].type;
}

function setScores(ev, D) {
  const before = [...D.scores];
  if (Array.isArray(ev.scores)) {
    ev.scores.forEach((s, side) => {
      if (s !== before[side]) { D.prev[side] = before[side]; D.scores[side] = s; }
    });
  } else if (ev.points && ev.side !== undefined) {
    D.prev[ev.side] = D.scores[ev.side];
    D.scores[ev.side] += ev.points;
  }
  S.board.place(D.scores, D.prev, true);
  renderScoreboard();
}

async function applyEvent(ev, st, D) {
  switch (ev.kind) {
    case EV.CUT: {
      const cards = (ev.cards || []).map((c, seat) => `${seatName(seat)} ${cardText(c)}`).join(' · ');
      D.dealer = ev.seat;
      announce(t('said', { who: t('cutForDeal'), what: `${cards} — ${t('dealsFirst', { name: seatName(ev.seat) })}` }), { big: true });
      render();
      await pause(1400);
      break;
    }
    case EV.RECUT:
      announce(t('said', { who: t('cutForDeal'), what: `${(ev.cards || []).map(cardText).join(' · ')} — ${t('recut')}` }));
      await pause(900);
      break;
    case EV.DEAL:
      D.dealer = ev.seat;
      // A new hand: the dealt cards come from the final view (the server stops at the discard).
      Object.assign(D, dispFromView(st.view), {
        scores: D.scores, prev: D.prev, dealer: ev.seat, phase: 'discard', starter: null,
        sequence: [], played: [], count: 0, kept: [], discards: [], cribCards: null,
        held: D.held.map(() => rules().deal),
      });
      D.hand = st.view.phase === 'discard' && !st.view.discards.length ? [...st.view.hand] : [...st.view.kept, ...st.view.discards];
      addLog(t('dealLog', { name: seatName(ev.seat) }));
      render();
      await pause(300);
      break;
    case EV.DISCARD: {
      if (ev.seat === 0 && !spectating()) {
        const kept = st.view.hand_number === D.handNumber ? st.view.kept : D.kept;
        D.kept = [...kept];
        D.hand = [...kept];
        D.discards = [...st.view.discards];
        D.held[0] = kept.length;
      } else {
        D.held[ev.seat] = Math.max(0, (D.held[ev.seat] ?? 0) - rules().discard);
      }
      // The people discard at the same time: another's discard leaves the cards chosen here.
      if (ev.seat === 0) S.selected.clear();
      D.phase = 'discard';
      render();
      await pause(ev.seat === 0 ? 150 : 350);
      break;
    }
    case EV.STARTER:
      D.starter = ev.cards[0];
      D.phase = 'play';
      renderCenter();
      announce(t('starterIs', { card: cardText(ev.cards[0]) }));
      $('starter').firstChild?.classList.add('flip');
      await pause(900);
      break;
    case EV.PLAY: {
      const card = ev.cards[0];
      D.sequence.push({ card, seat: ev.seat });
      D.played.push({ card, seat: ev.seat });
      D.count = ev.count;
      if (ev.seat === 0 && !spectating()) D.hand = D.hand.filter((c) => c !== card);
      else D.held[ev.seat] = Math.max(0, (D.held[ev.seat] ?? 1) - 1);
      addLog(t('playLog', { name: seatName(ev.seat), card: cardText(card), count: ev.count }));
      render();
      const last = $('sequence').lastChild;
      if (last) last.classList.add('arrive');
      await pause(ev.seat === 0 ? 350 : 900);
      break;
    }
    case EV.GO:
      bubble(ev.seat, t('go'));
      announce(t('said', { who: seatName(ev.seat), what: t('go') }), { side: sideOf(ev.seat) });
      await pause(800);
      break;
    case EV.RESET:
      await pause(700);
      D.sequence = [];
      D.count = 0;
      S.highlight.clear();
      if (ev.detail === 'end of play') D.phase = 'show';
      else announce(t('countReset'), { log: true });
      render();
      await pause(250);
      break;
    case EV.SCORE: {
      const side = ev.side ?? sideOf(ev.seat);
      S.highlight = new Set((ev.combos || []).flatMap((c) => c.cards));
      setScores(ev, D);
      renderCenter();
      const who = seatName(ev.seat);
      announce(t('said', { who, what: scoreText(ev) }), { side, big: true });
      await pause(1300);
      S.highlight.clear();
      renderCenter();
      break;
    }
    case EV.SHOW:
      await showEvent(ev, D);
      break;
    case EV.MUGGINS:
    case EV.PENALTY:
    case EV.PASS:
      await decisionEvent(ev, D);
      break;
    case EV.HAND_OVER:
      addLog(t('handOver'));
      if (S.show) {
        await waitContinue();
        S.show = null;
      }
      D.sequence = [];
      D.played = [];
      D.count = 0;
      D.starter = null;
      D.cribCards = null;
      render();
      break;
    case EV.WIN:
      addLog(resultHeadline(st.result) || t('gameOver'));
      announce(t('gameOver'), { big: true, log: false });
      await pause(900);
      break;
    default:
      // Unknown kinds are logged, never fatal: the server may add some.
      addLog(ev.kind);
  }
}

// ------------------------------------------------------------------ the show

function openShow() {
  if (!S.show) S.show = { entries: [] };
  return S.show;
}

function entryFromEvent(ev, D) {
  return {
    seat: ev.seat,
    what: ev.detail || 'hand',
    cards: [...(ev.cards || [])],
    starter: D.starter,
    combos: showLines(ev.combos || []), // the pairs of a rank, a double run: one line each
    claim: ev.claim ?? null,
    points: ev.points || 0,
    step: 0,
    revealed: false,
    notes: [],
    scores: ev.scores,
    side: ev.side ?? sideOf(ev.seat),
  };
}

async function showEvent(ev, D) {
  const show = openShow();
  const entry = entryFromEvent(ev, D);
  // The count that awaited the muggins decision (shown from the view) becomes this one: one entry.
  show.entries = show.entries.filter((e) => !e.form && !(e.awaiting && e.seat === entry.seat && e.what === entry.what));
  show.entries.push(entry);
  if (entry.what === 'crib') D.cribCards = [...entry.cards];
  D.phase = 'show';
  await explain(entry, ev, D);
}

async function explain(entry, ev, D) {
  entry.revealed = true;
  entry.awaiting = false;
  renderCenter();
  await pause(500);
  for (let i = 0; i < entry.combos.length; i++) {
    entry.step = i + 1;
    renderCenter();
    await pause(entry.combos.length > 8 ? 450 : 750);
  }
  entry.step = entry.combos.length;
  entry.done = true;
  if (ev) setScores(ev, D);
  renderCenter();
  const total = entry.combos.reduce((a, c) => a + c.points, 0);
  addLog(t('said', { who: whose(entry.seat, entry.what), what: total ? t('pointsN', { n: total }) : t('nineteen') })
    + (entry.claim !== null ? ` (${t('stated', { n: entry.claim })})` : ''));
  await pause(900);
}

async function decisionEvent(ev, D) {
  const show = S.show;
  // An over-count's excess (detail "over-count") is given where the count was stated.
  const overCount = ev.kind === EV.PENALTY && ev.detail === 'over-count';
  const inShow = ev.detail === 'show' || ((!ev.detail || overCount) && show);
  let entry = null;
  if (show && inShow) {
    entry = [...show.entries].reverse().find((e) => !e.form);
    if (entry && entry.awaiting) await explain(entry, null, D);
  }
  let text;
  if (ev.kind === EV.PASS) text = t('passed', { name: seatName(ev.seat) });
  else if (ev.kind === EV.MUGGINS) text = t('mugginsCalled', { name: seatName(ev.seat), n: ev.points || 0 });
  else if (overCount) text = t('overcountPenalty', { name: seatName(ev.seat), n: ev.points || 0 });
  else text = t('penaltyCalled', { name: seatName(ev.seat), n: ev.points || 0 });
  if (entry) entry.notes.push(text);
  if (ev.kind !== EV.PASS) setScores(ev, D);
  if (ev.kind !== EV.PASS || ev.seat !== 0) announce(text, { side: ev.side ?? null, big: ev.kind === EV.MUGGINS });
  else addLog(text);
  renderCenter();
  await pause(ev.kind === EV.PASS ? 500 : 1300);
}

function waitContinue() {
  return new Promise((resolve) => {
    S.continueResolve = () => { S.continueResolve = null; S.skip = false; resolve(); };
    renderCenter();
    renderControls();
    const btn = $('btn-continue');
    if (btn) { btn.scrollIntoView({ block: 'nearest' }); btn.focus({ preventScroll: true }); }
  });
}

function comboRow(c, running, active) {
  return h('li', { class: active ? 'active new' : '' },
    h('span', { class: 'combo-name', text: comboLine(c.kind, c.points, c.n ?? c.cards.length) }),
    h('span', { class: 'combo-cards', text: c.cards.map(cardText).join(' ') }),
    h('span', { class: 'combo-total', text: String(running) }));
}

function renderShow() {
  const panel = $('show-panel');
  panel.textContent = '';
  const show = S.show;
  panel.append(h('h2', { class: 'show-title', text: t('theShow') }));
  const entries = show.entries;
  const current = entries[entries.length - 1];
  const summary = h('ul', { class: 'show-summary' });
  for (const e of entries.slice(0, -1)) {
    const total = e.combos.reduce((a, c) => a + c.points, 0);
    summary.append(h('li', { style: { '--side': COLORS[e.side ?? 0] } },
      h('span', { text: whose(e.seat, e.what) }),
      h('strong', { text: String(total) }),
      e.claim !== null ? h('small', { text: ` (${t('stated', { n: e.claim })})` }) : null));
  }
  if (summary.children.length) panel.append(summary);
  if (current) panel.append(renderEntry(current));
  if (S.continueResolve) {
    panel.append(h('div', { class: 'show-continue' },
      h('button', { type: 'button', class: 'primary', id: 'btn-continue', onclick: () => S.continueResolve && S.continueResolve() },
        view().phase === 'over' || S.state.over ? t('seeResult') : t('continue'), ' ', h('kbd', { text: 'Enter' }))));
  } else if (S.busy) {
    panel.append(h('div', { class: 'show-continue' },
      h('button', { type: 'button', class: 'secondary', id: 'btn-skip', onclick: () => { S.skip = true; } }, t('skip'))));
  }
}

function renderEntry(e) {
  const box = h('section', { class: 'show-entry', style: { '--side': COLORS[e.side ?? 0] }, 'aria-live': 'polite' });
  const active = e.revealed && e.step > 0 && !e.done ? e.combos[e.step - 1] : null;
  const hl = new Set(active ? active.cards : []);
  box.append(h('h3', { class: 'entry-title' }, whose(e.seat, e.what),
    e.claim !== null && e.claim !== undefined ? h('span', { class: 'claim', text: t('stated', { n: e.claim }) }) : null));
  const row = h('div', { class: 'entry-cards' });
  for (const c of sortCards(e.cards)) {
    const el = cardEl(c, { label: cardName(c) });
    if (hl.has(c)) el.classList.add('hl');
    row.append(el);
  }
  if (e.hidden) for (let i = 0; i < e.hidden; i++) row.append(backEl());
  if (e.starter) {
    const el = cardEl(e.starter, { label: `${t('starter')}: ${cardName(e.starter)}` });
    el.classList.add('is-starter');
    if (hl.has(e.starter)) el.classList.add('hl');
    row.append(h('span', { class: 'starter-wrap' }, el, h('small', { text: t('starter') })));
  }
  box.append(row);
  if (e.revealed) {
    const list = h('ol', { class: 'combo-list' });
    let running = 0;
    e.combos.slice(0, e.step).forEach((c, i) => {
      running += c.points;
      list.append(comboRow(c, running, !e.done && i === e.step - 1));
    });
    if (!e.combos.length) list.append(h('li', { class: 'nineteen', text: t('nineteen') }));
    box.append(list);
    if (e.done || !e.combos.length) {
      const total = e.combos.reduce((a, c) => a + c.points, 0);
      box.append(h('p', { class: 'entry-total' }, h('span', { text: t('total') }), ' ', h('strong', { 'data-testid': 'show-total', text: String(total) })));
      if (e.claim !== null && e.claim !== undefined && e.claim !== total) {
        box.append(h('p', { class: 'entry-note', text: e.claim < total ? t('underCount', { n: total - e.claim }) : t('overCount', { n: total }) }));
      }
    }
  } else if (e.awaiting) {
    box.append(h('p', { class: 'entry-note', text: t('claimsN', { name: seatName(e.seat), n: e.claim ?? 0 }) }));
  }
  for (const note of e.notes) box.append(h('p', { class: 'entry-note strong', text: note }));
  if (e.form === 'count' && !S.busy) box.append(countForm(e));
  if (e.awaiting && !S.busy && legalKind() === 'muggins') box.append(mugginsForm(e.claim ?? 0));
  return box;
}

function countForm(e) {
  const input = h('input', { type: 'number', id: 'count-input', min: 0, max: 60, inputmode: 'numeric', required: true, 'aria-label': t('yourCount') });
  const form = h('form', { class: 'count-form' },
    h('label', { for: 'count-input', text: e.what === 'crib' ? t('howManyCrib') : t('howManyHand') }),
    input,
    h('button', { type: 'submit', class: 'primary', id: 'btn-count', text: t('countButton') }));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const n = Number.parseInt(input.value, 10);
    if (!Number.isFinite(n) || n < 0) { input.focus(); return; }
    send({ type: 'count', points: n });
  });
  setTimeout(() => { form.scrollIntoView({ block: 'nearest' }); input.focus({ preventScroll: true }); }, 0);
  return form;
}

function mugginsForm(claim) {
  const input = h('input', { type: 'number', id: 'muggins-input', min: 1, max: 60, value: 2, inputmode: 'numeric', 'aria-label': t('missedPoints') });
  const form = h('form', { class: 'muggins-form' },
    h('button', { type: 'button', class: 'secondary', id: 'btn-pass', onclick: () => send({ type: 'pass' }), text: t('letStand') }),
    h('span', { class: 'or', text: t('or') }),
    h('label', { for: 'muggins-input', text: t('missedPoints') }),
    input,
    h('button', { type: 'submit', class: 'primary', id: 'btn-muggins', text: t('callMuggins') }));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const n = Number.parseInt(input.value, 10);
    if (!Number.isFinite(n) || n < 1) { input.focus(); return; }
    send({ type: 'muggins', points: n });
  });
  form.dataset.claim = String(claim);
  return form;
}

function renderPlayMugginsBar() {
  const bar = $('claim-bar');
  bar.hidden = false;
  bar.textContent = '';
  const v = view();
  const c = v.claim;  // the stated count: its card is the last one played
  const last = (v.played || [])[(v.played || []).length - 1];
  if (c && last) bar.append(h('p', { text: t('playClaim', { name: seatName(c.seat), card: cardText(last.card), n: c.points }) }));
  bar.append(mugginsForm(c ? c.points : 0));
}

function renderClaimBar() {
  const bar = $('claim-bar');
  bar.hidden = false;
  bar.textContent = '';
  const input = h('input', { type: 'number', id: 'claim-input', min: 0, max: 60, value: 0, inputmode: 'numeric' });
  const form = h('form', { class: 'claim-form' },
    h('label', { for: 'claim-input', text: t('claimFor', { card: cardText(S.playCard) }) }),
    input,
    h('button', { type: 'submit', class: 'primary', text: t('play') }),
    h('button', { type: 'button', class: 'secondary', text: t('cancel'), onclick: () => { S.playCard = null; render(false); } }));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const n = Number.parseInt(input.value, 10) || 0;
    const card = S.playCard;
    S.playCard = null;
    send({ type: 'play', card, claim: n });
  });
  bar.append(form);
  setTimeout(() => input.select(), 0);
}

/** After a replay: open the show panel for the player's own count, or a count awaiting muggins. */
function syncShowPanel(st) {
  const kind = legalKindOf(st);
  const v = st.view;
  if (kind === 'count') {
    const show = openShow();
    const next = v.show_order[(v.shown || []).length] || { seat: 0, what: 'hand' };
    const cards = next.what === 'crib' ? (v.crib && v.crib.length ? v.crib : v.discards || []) : v.kept;
    const hidden = next.what === 'crib' ? Math.max(0, v.rules.crib_size - cards.length) : 0;
    show.entries = show.entries.filter((e) => !e.form);
    show.entries.push({ seat: 0, what: next.what, cards: [...cards], hidden, starter: v.starter, combos: [], claim: null, step: 0, notes: [], form: 'count', side: 0 });
  } else if (v.claim && v.phase === 'show') {
    // A count awaiting the muggins decision, for every seat: its cards and the stated points,
    // from the view (its true points come in the events once every opponent has decided).
    const show = openShow();
    show.entries = show.entries.filter((e) => !e.form);
    const last = show.entries[show.entries.length - 1];
    if (!last || !last.awaiting) {
      const { seat, what, points } = v.claim;
      const shown = [...(v.shown || [])].reverse().find((e) => e.seat === seat && e.what === what);
      show.entries.push({ seat, what, cards: shown ? [...shown.cards] : [], starter: v.starter, combos: [], claim: points, step: 0, notes: [], side: sideOf(seat), awaiting: true });
      addLog(t('claimLog', { whose: whose(seat, what), n: points }));
    }
  } else if (S.show && v.phase !== 'show' && !S.continueResolve) {
    S.show = null;
  }
}

// ------------------------------------------------------------------ actions

function toggleSelect(card) {
  if (S.busy || legalKind() !== 'discard') return;
  if (S.selected.has(card)) S.selected.delete(card);
  else {
    if (S.selected.size >= discardCount()) {
      const first = S.selected.values().next().value;
      S.selected.delete(first);
    }
    S.selected.add(card);
  }
  renderHand();
  renderControls();
}

function playCard(card) {
  if (S.busy || legalKind() !== 'play') return;
  if (!legal().some((a) => a.type === 'play' && a.card === card)) return;
  if (needsClaim()) {
    S.playCard = card;
    renderHand();
    renderControls();
    return;
  }
  send({ type: 'play', card });
}

function confirmAction() {
  if (S.continueResolve) { S.continueResolve(); return; }
  const kind = legalKind();
  if (S.busy || !kind) return;
  if (kind === 'discard' && S.selected.size === discardCount()) {
    send({ type: 'discard', cards: [...S.selected] });
  } else if (kind === 'play' && S.cursor >= 0) {
    const card = handCards()[S.cursor];
    if (card) playCard(card);
  }
}

async function send(action) {
  if (!S.game || S.busy) return;
  S.busy = true;
  clearHint();
  hideError();
  renderHand();
  renderControls();
  renderCenter();
  const body = { ...action, version: S.state.version };
  let st;
  const people = isPeople();
  const game = S.game;
  try {
    if (people) S.expectFresh = true;
    const answer = people ? await actLive(body) : null;
    if (answer instanceof api.ApiError) throw answer;
    if (answer) {  // stored: its state comes over the socket like every seat's
      S.selected.clear();
      S.cursor = -1;
      expectVersion(answer.version);
      return;
    }
    if (S.game !== game) return;  // the page went to another game meanwhile
    st = await api.act(game.id, game.token, body);
  } catch (err) {
    S.busy = false;
    S.expectFresh = false;
    if (err.status === 409) {
      await refresh();
      // A muggins call beaten by another opponent's: the refreshed state shows whose call won.
      if (action.type === 'muggins' || action.type === 'pass') announce(t('mugginsLate'));
      return;
    }
    showError(err);
    render(false);
    return;
  }
  S.selected.clear();
  S.cursor = -1;
  if (people) {
    offer(st);
    return;
  }
  await receive(st, true);
}

/** Send an action over the live socket: resolves with its answer (`{type: 'acted', version}`, or a
 * refusal as an ApiError, worded like one over HTTP), or with null when it must go over HTTP: no
 * live socket, or the socket closed before answering, or no answer in time.  The action holds the
 * version it was chosen at, so sending it again over HTTP cannot apply it twice (409 if it was). */
function actLive(body) {
  return new Promise((resolve) => {
    if (!S.live) { resolve(null); return; }
    S.actions += 1;
    const ref = String(S.actions);
    const done = (answer) => {
      if (!S.awaiting || S.awaiting.ref !== ref) return;
      clearTimeout(S.awaiting.timer);
      S.awaiting = null;
      resolve(answer);
    };
    S.awaiting = { ref, done, timer: setTimeout(() => done(null), LIVE_ANSWER_MS) };
    if (!S.live.sendAction(body, ref)) done(null);
  });
}

/** The socket's answer to an action (a late one, after the action went over HTTP, is dropped). */
function liveReply(data) {
  if (!S.awaiting || String(data.ref) !== S.awaiting.ref) return;
  S.awaiting.done(data.type === 'acted' ? data : new api.ApiError(data.status || 400, data.error || '', data));
}

/** After an action stored through the socket: its state comes over the socket; if it has not come
 * after a while (the broker away), it is read over HTTP. */
function expectVersion(version) {
  const id = S.game.id;
  setTimeout(async () => {
    if (!S.game || S.game.id !== id || (S.offered && S.offered.id === id && S.offered.version >= version)) return;
    try {
      offer(await api.getGame(id, S.game.token));
    } catch (err) {
      S.busy = false;
      S.expectFresh = false;
      showError(err);
      render(false);
    }
  }, LIVE_STATE_MS);
}

/** The STATE turned round so that the page's seat is seat 0 (and its side side 0): the page was
 * written for seat 0.  Seat 0 (every game against the computer) is left as it is. */
function localize(st) {
  const meSeat = typeof st.seat === 'number' ? st.seat : 0;
  if (!meSeat) return st;
  const c = structuredClone(st);
  const v = c.view;
  const n = v.players;
  const nSides = v.scores.length;
  const mySide = v.rules.seat_sides[meSeat];
  const ls = (x) => (typeof x === 'number' ? (x - meSeat + n) % n : x);
  const lside = (x) => (typeof x === 'number' ? (x - mySide + nSides) % nSides : x);
  const bySeat = (arr) => (Array.isArray(arr) && arr.length === n ? arr.map((_, k) => arr[(k + meSeat) % n]) : arr);
  const bySide = (arr) => (Array.isArray(arr) && arr.length === nSides ? arr.map((_, k) => arr[(k + mySide) % nSides]) : arr);
  v.seat = 0;
  v.to_act = ls(v.to_act);
  v.dealer = ls(v.dealer);
  v.scores = bySide(v.scores);
  v.previous_scores = bySide(v.previous_scores);
  v.held = bySeat(v.held);
  for (const p of v.played || []) p.seat = ls(p.seat);
  for (const p of v.shown || []) p.seat = ls(p.seat);
  for (const p of v.show_order || []) p.seat = ls(p.seat);
  if (v.claim) {
    v.claim.seat = ls(v.claim.seat);
    v.claim.callers = (v.claim.callers || []).map(ls);
  }
  v.rules = { ...v.rules, seat_sides: bySeat(v.rules.seat_sides).map(lside) };
  for (const a of c.legal || []) if ('seat' in a) a.seat = ls(a.seat);
  for (const ev of c.events || []) {
    if ('seat' in ev) ev.seat = ls(ev.seat);
    if ('side' in ev) ev.side = lside(ev.side);
    if (Array.isArray(ev.scores)) ev.scores = bySide(ev.scores);
    if (ev.kind === EV.CUT && Array.isArray(ev.cards)) ev.cards = bySeat(ev.cards);
  }
  for (const hst of c.score_history || []) hst.scores = bySide(hst.scores);
  c.breakdown = bySide(c.breakdown);
  if (c.result) {
    c.result.winner = lside(c.result.winner);
    c.result.loser = lside(c.result.loser);
    c.result.scores = bySide(c.result.scores);
  }
  return c;
}

/** A state of a table with people (pushed, or the answer to our action): shown in order, newest
 * last, replaying only the events not shown yet. */
function offer(raw) {
  if (raw.rematch && S.game && !S.game.watch && raw.id === S.game.id) {
    followRematch(raw.rematch);  // someone chose to play again: every page goes to the new game
    return;
  }
  if (raw.rematch_watch && S.game && S.game.watch && raw.id === S.game.id) {
    followWatch(raw.rematch_watch);  // the spectators go too, by the new game's watch code
    return;
  }
  const st = localize(raw);
  noteLeavers(S.state, st);
  if (S.state && S.state.id === st.id && st.version < S.state.version) return;
  if (!S.offered || S.offered.id !== st.id || S.offered.version < st.version) S.offered = { id: st.id, version: st.version };
  S.pending = st;
  if (S.pumping) renderTablePanel();  // the seats now, even while the page holds at "Continue"
  pump();
}

async function pump() {
  if (S.pumping) return;
  S.pumping = true;
  try {
    while (S.pending) {
      const st = S.pending;
      S.pending = null;
      if (S.state && S.state.id === st.id && st.version < S.state.version) continue;
      const events = st.events || [];
      if (S.state && S.state.id === st.id && st.version === S.state.version) {
        // The same step (a seat taken, a reconnection, the echo of our own answer); an answer
        // to our own action, whose events are all new, has a later version.
        S.state = st;
        S.seenEvents = events;
        if (!S.busy) { syncShowPanel(st); render(false); bringActionIntoView(); markShown(st); }
        renderTablePanel();
        continue;
      }
      let fresh = events;
      const seen = S.seenEvents;
      if (!S.expectFresh && seen && seen.length <= events.length
          && JSON.stringify(events.slice(0, seen.length)) === JSON.stringify(seen)) {
        fresh = events.slice(seen.length);
      }
      S.expectFresh = false;
      S.seenEvents = events;
      const epoch = S.epoch;
      await receive({ ...st, events: fresh }, true);
      if (epoch !== S.epoch) continue;  // the page went to another game meanwhile
      S.state = st;
      renderTablePanel();
    }
  } finally {
    S.pumping = false;
  }
}

function openLive() {
  if (S.live) { S.live.close(); S.live = null; }
  S.liveStatus = '';
  if (!S.game || !(isPeople() || S.game.watch)) return;
  S.live = new Live(S.game.id, S.game.token, {
    watch: S.game.watch || '',
    onState: (st) => offer(st),
    onStatus: (status) => { S.liveStatus = status; renderTablePanel(); },
    onError: (data) => { console.warn(data.error); if (data.code === 'too_many') showError({ status: 429, data }); },
    onReply: liveReply,
    onClosed: () => { if (S.awaiting) S.awaiting.done(null); },  // unanswered: it goes over HTTP
  });
}

async function receive(st, animate) {
  const epoch = S.epoch;
  const first = !S.state;
  S.state = st;
  S.busy = true;
  if (first || !animate || !S.D) {
    S.D = dispFromView(st.view);
    S.show = null;
    render(false);
  } else {
    try {
      await replay(st.events || [], st);
    } catch (err) {
      console.error(err);
    }
    if (epoch !== S.epoch) return;  // the page went to another game meanwhile
  }
  S.state = st;
  S.D = dispFromView(st.view);
  if (st.over && S.show && !S.continueResolve) {
    await waitContinue();
    if (epoch !== S.epoch) return;
    S.show = null;
  }
  S.busy = false;
  S.skip = false;
  syncShowPanel(st);
  render(true);
  if (st.over) {
    if (!spectating(st)) recordResult(st);
    openResult();
  } else {
    bringActionIntoView();
    markShown(st);
  }
}

/** When the player must act, the cards, the count and the buttons are brought on screen (they fit
 * one screen together at 390x844 and 1280x800); nothing moves when they are already there. */
function bringActionIntoView() {
  const kind = legalKind();
  if (kind === 'discard' || kind === 'play') {
    document.querySelector('.controls .buttons').scrollIntoView({ block: 'nearest' });
    $('center').scrollIntoView({ block: 'nearest' });
  } else if (kind === 'muggins') {
    // The decision on a stated count: its form, in the show or under the table.
    const form = document.querySelector('.muggins-form');
    if (form) form.scrollIntoView({ block: 'nearest' });
  }
}

async function refresh() {
  if (!S.game) return;
  try {
    const raw = S.game.watch ? await api.watchGame(S.game.watch) : await api.getGame(S.game.id, S.game.token);
    const st = localize(raw);
    S.seenEvents = st.events || [];
    await receive(st, false);
  } catch (err) {
    showError(err);
  }
}

function apiOptions(o) {
  const body = {
    level: o.level,
    variant: o.variant,
    manual: o.counting !== 'auto',
    muggins: o.counting === 'muggins' || o.counting === 'muggins-play',
    muggins_play: o.counting === 'muggins-play',
    dealer: o.dealer,
    skunk: 'marked',
    names: [t('you')],
  };
  if (o.target) body.target = Number(o.target);
  const seats = seatChoices(o);
  if (seats) {
    body.seats = [{ kind: 'human' }, ...seats.map((k) => (k === 'human' ? { kind: 'human' } : { kind: 'computer', level: k }))];
    if (seats.includes('human')) {
      body.names = [o.name || t('playerN', { n: 1 })];
      body.public = !!o.public;
      if (o.takeover) body.takeover = o.takeover;
      if (o.clock) body.clock = Number(o.clock);
      return body;  // no seed where several people play: anyone who knew it would know every hand
    }
  }
  const seed = params.get('seed');
  if (seed !== null && seed !== '') body.seed = Number(seed);
  return body;
}

/** The page leaves the game it shows for another: a replay of the old one still running stops, and
 * a wait for "Continue" in it ends (a page at the last show when someone chose to play again). */
function leaveShown() {
  S.epoch += 1;
  const waiting = S.continueResolve;
  S.continueResolve = null;
  if (waiting) waiting();
}

async function newGame() {
  S.busy = true;
  hideError();
  clearHint();
  closeDialogs();
  S.show = null;
  leaveShown();
  if (S.live) { S.live.close(); S.live = null; }
  try {
    const created = await api.createGame(apiOptions(S.options));
    S.game = { id: created.id, token: created.token, seat: 0 };
    saveGame(S.game);
    S.invites = created.invites || [];
    S.state = null;
    S.D = null;
    S.selected.clear();
    $('log').textContent = '';
    addLog(t('newGameLog', { variant: variantLabel(S.options.variant) }));
    S.state = created.state;
    S.D = dispFromView({ ...created.state.view, scores: created.state.view.scores.map(() => 0), previous_scores: created.state.view.scores.map(() => 0), starter: null, played: [], sequence: [], count: 0 });
    S.D.held = created.state.view.held.map(() => 0);
    S.D.hand = [];
    S.D.kept = [];
    S.busy = true;
    render(false);
    S.seenEvents = created.state.events || [];
    S.expectFresh = false;
    await receive(created.state, true);
    renderTablePanel();
    openLive();
  } catch (err) {
    S.busy = false;
    showError(err);
  }
}

// ------------------------------------------------------------------ hints

function clearHint() {
  S.hint = null;
  const panel = $('hint-panel');
  panel.hidden = true;
  panel.textContent = '';
}

async function showHint() {
  const kind = legalKind();
  if (S.busy || !(kind === 'discard' || kind === 'play')) return;
  const panel = $('hint-panel');
  panel.hidden = false;
  panel.textContent = t('thinking');
  panel.scrollIntoView({ block: 'nearest' });
  try {
    S.hint = await api.getHint(S.game.id, S.game.token);
  } catch (err) {
    panel.textContent = t('said', { who: t('hintFailed'), what: errorText(err) });
    return;
  }
  renderHint();
  renderHand();
  // What the button opened comes into view (beside the table on a wide screen, below on a phone).
  panel.scrollIntoView({ block: 'nearest' });
}

const fmt = (x) => (Number.isInteger(x) ? numText(x, 0) : numText(x));

const pct = (x) => (typeof x === 'number' ? `${numText(100 * x, 1)}%` : '—');

function renderHint() {
  const panel = $('hint-panel');
  panel.textContent = '';
  const hint = S.hint;
  if (!hint) { panel.hidden = true; return; }
  panel.hidden = false;
  panel.append(h('div', { class: 'hint-head' },
    h('h2', { id: 'hint-title', text: hint.kind === 'discard' ? t('hintDiscardTitle') : t('hintPlayTitle') }),
    h('button', { type: 'button', class: 'icon-btn', 'aria-label': t('close'), text: '×', onclick: () => { clearHint(); renderHand(); } })));
  const lowball = !!rules().lowball;
  // The column the order follows is always shown: the chance of winning near the end.
  const byWin = hint.ranked_by === 'win' || hint.options.some((o) => typeof o.win === 'number');
  if (hint.kind === 'discard') {
    const mine = sideOf(view().dealer) === sideOf(0);
    // Lowball ranks by the fewest points: the total is shown as the player's points (lower is better).
    const total = (o) => (lowball ? -o.total : o.total);
    // The column the order follows comes first after the cards, so a phone shows it too.
    const table = h('table', { class: `hint-table${byWin ? ' by-win' : ''}` },
      h('thead', {}, h('tr', {},
        h('th', { text: '#' }), h('th', { text: t('keep') }), h('th', { text: t('toCribShort') }),
        byWin ? h('th', { class: 'win', text: t('winPts') }) : null,
        h('th', { class: 'total', text: lowball ? t('lowballPts') : t('totalPts') }),
        h('th', { text: t('handPts') }), h('th', { text: mine ? t('cribPtsMine') : t('cribPtsTheirs') }),
        h('th', { text: t('peggingPts') }))));
    const body = h('tbody');
    hint.options.forEach((o, i) => {
      const tr = h('tr', { class: i === 0 ? 'best' : '', tabindex: 0, title: t('useThis') },
        h('td', { text: String(i + 1) }),
        h('td', { class: 'cards-text', text: o.keep.map(cardText).join(' ') }),
        h('td', { class: 'cards-text', text: o.discard.map(cardText).join(' ') }),
        byWin ? h('td', { class: 'win', text: pct(o.win) }) : null,
        h('td', { class: 'total', text: fmt(total(o)) }),
        h('td', { text: fmt(o.hand_points) }),
        h('td', { text: fmt(o.crib_points) + (o.crib_weight ? ` \u00d7${o.crib_weight}` : '') }),
        h('td', { text: fmt(o.pegging) }));
      const use = () => {
        S.selected = new Set(o.discard);
        renderHand();
        renderControls();
        $('btn-confirm').focus();
      };
      tr.addEventListener('click', use);
      tr.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); e.stopPropagation(); use(); } });
      body.append(tr);
    });
    table.append(body);
    panel.append(h('p', { class: 'hint-note', text: t('hintDiscardNote') }));
    if (byWin) panel.append(h('p', { class: 'hint-note strong', id: 'hint-win-note', text: t('hintWinNote') }));
    if (lowball) panel.append(h('p', { class: 'hint-note strong', id: 'hint-lowball-note', text: t('hintLowballNote') }));
    panel.append(h('div', { class: 'table-scroll' }, table));
  } else {
    const list = h('ol', { class: 'hint-plays' });
    hint.options.forEach((o, i) => {
      list.append(h('li', { class: i === 0 ? 'best' : '' },
        h('button', { type: 'button', class: 'link-btn', text: cardText(o.card), onclick: () => playCard(o.card), 'aria-label': t('cardLabel', { text: cardText(o.card), name: `${t('play')} ${cardName(o.card)}` }) }),
        h('span', { class: 'hint-value', text: fmt(o.value) }),
        byWin ? h('span', { class: 'hint-value win', text: pct(o.win) }) : null,
        h('span', { class: 'hint-reason', text: reasonsLine(o.reasons) })));
    });
    panel.append(h('p', { class: 'hint-note', text: t('hintPlayNote') }));
    if (byWin) panel.append(h('p', { class: 'hint-note strong', id: 'hint-win-note', text: t('hintPlayWinNote') }));
    if (lowball) panel.append(h('p', { class: 'hint-note strong', id: 'hint-lowball-note', text: t('hintPlayLowballNote') }));
    panel.append(list);
  }
}

// ------------------------------------------------------------------ results and statistics

function resultHeadline(r) {
  if (!r) return '';
  const won = r.winner === 0;
  const name = sideName(r.winner);
  let text = won ? t('youWin') : t('sideWins', { name });
  if (r.skunk === 2) text += ` — ${t('doubleSkunk')}`;
  else if (r.skunk === 1) text += ` — ${t('skunk')}`;
  return text;
}

function loadStats() {
  return {
    played: 0, won: 0, lost: 0, skunksGiven: 0, skunksTaken: 0, doubleGiven: 0, doubleTaken: 0,
    pegging: 0, hand: 0, crib: 0, withBreakdown: 0, games: [], ...loadJSON(LS_STATS, {}),
  };
}

function recordResult(st) {
  const stats = loadStats();
  if (!st.result || stats.games.includes(st.id)) return;
  const r = st.result;
  const won = r.winner === 0;
  stats.played += 1;
  // A skunk counts as one win, as on the seed site; it is only marked.
  if (won) stats.won += 1; else stats.lost += 1;
  if (r.skunk >= 1) {
    if (won) stats.skunksGiven += 1; else if (r.loser === 0) stats.skunksTaken += 1;
  }
  if (r.skunk === 2) {
    if (won) stats.doubleGiven += 1; else if (r.loser === 0) stats.doubleTaken += 1;
  }
  const b = st.breakdown && st.breakdown[0];
  if (b) {
    stats.pegging += b.pegging || 0;
    stats.hand += b.hand || 0;
    stats.crib += b.crib || 0;
    stats.withBreakdown += 1;
  }
  stats.games = [...stats.games, st.id].slice(-100);
  saveJSON(LS_STATS, stats);
}

function statsTable() {
  const s = loadStats();
  const avg = (x) => (s.withBreakdown ? (x / s.withBreakdown).toFixed(1) : '—');
  const pct = s.played ? Math.round((100 * s.won) / s.played) : 0;
  const rows = [
    [t('statPlayed'), s.played], [t('statWon'), `${s.won} (${pct}%)`], [t('statLost'), s.lost],
    [t('statSkunksGiven'), s.skunksGiven + (s.doubleGiven ? ` (${t('doubleSkunk')}: ${s.doubleGiven})` : '')],
    [t('statSkunksTaken'), s.skunksTaken + (s.doubleTaken ? ` (${t('doubleSkunk')}: ${s.doubleTaken})` : '')],
    [t('statAvgPegging'), avg(s.pegging)], [t('statAvgHand'), avg(s.hand)], [t('statAvgCrib'), avg(s.crib)],
  ];
  return h('table', { class: 'stats-table' }, h('tbody', {},
    rows.map(([k, v]) => h('tr', {}, h('th', { scope: 'row', text: k }), h('td', { text: String(v) })))),
  h('caption', { text: t('statsNote') }));
}

function chartSVG(st) {
  const NS = 'http://www.w3.org/2000/svg';
  const history = [...(st.score_history || [])];
  const final = st.result ? st.result.scores : st.view.scores;
  const last = history[history.length - 1];
  if (!history.length || String(last.scores) !== String(final)) history.push({ hand: (last ? last.hand : 0) + 1, scores: final });
  if (!history.length || history[0].scores.some((x) => x !== 0)) history.unshift({ hand: 0, scores: final.map(() => 0) });
  const W = 320, H = 170, L = 30, R = 10, T = 10, B = 24;
  const target = st.view.target;
  const maxY = Math.max(target, ...final);
  const n = history.length - 1 || 1;
  const x = (i) => L + ((W - L - R) * i) / n;
  const y = (v) => T + (H - T - B) * (1 - v / maxY);
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('class', 'chart');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', t('chartCaption'));
  const add = (name, attrs, text) => {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.append(e);
    return e;
  };
  for (const v of [0, Math.round(target / 2), target]) {
    add('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: v === target ? 'grid target' : 'grid' });
    add('text', { x: L - 4, y: y(v) + 3, class: 'axis', 'text-anchor': 'end' }, String(v));
  }
  const skunk = st.view.rules.skunk_line;
  add('line', { x1: L, x2: W - R, y1: y(skunk), y2: y(skunk), class: 'grid skunk' });
  add('text', { x: W - R, y: y(skunk) - 3, class: 'axis', 'text-anchor': 'end' }, t('skunkLine'));
  history.forEach((p, i) => {
    if (n <= 12 || i % Math.ceil(n / 12) === 0) add('text', { x: x(i), y: H - 8, class: 'axis', 'text-anchor': 'middle' }, String(i));
  });
  add('text', { x: W - R, y: H - 1, class: 'axis', 'text-anchor': 'end' }, t('hands'));
  final.forEach((_, side) => {
    const pts = history.map((p, i) => `${x(i).toFixed(1)},${y(p.scores[side] ?? 0).toFixed(1)}`).join(' ');
    add('polyline', { points: pts, class: 'series', stroke: COLORS[side] });
    const lastY = y(history[history.length - 1].scores[side] ?? 0);
    add('circle', { cx: x(n), cy: lastY, r: 3, fill: COLORS[side] });
  });
  return svg;
}

function openResult() {
  const st = S.state;
  const r = st.result;
  if (!r) return;
  $('result-record').hidden = spectating(st);  // the record is the seats', not a spectator's
  $('result-again').hidden = spectating(st) || !(isPeople(st) || S.live);
  // Beside "play again with these players", the other button says it leaves them out.
  $('result-new').textContent = $('result-again').hidden ? t('playAgain') : t('newGameAlone');
  $('result-title').textContent = resultHeadline({ ...r, skunk: 0 });
  $('result-title').tabIndex = -1;
  const sk = $('result-skunk');
  sk.hidden = !r.skunk;
  sk.textContent = r.skunk === 2 ? t('doubleSkunkMarked') : r.skunk === 1 ? t('skunkMarked') : '';
  const scores = $('result-scores');
  scores.textContent = '';
  r.scores.forEach((s, side) => {
    scores.append(h('div', { class: `final-score${side === r.winner ? ' winner' : ''}`, style: { '--side': COLORS[side] } },
      h('span', { text: sideName(side) }), h('strong', { text: String(s) })));
  });
  if (rules().lowball) scores.append(h('p', { class: 'field-help', text: t('lowballNote', { n: view().target }) }));
  const chart = $('result-chart');
  chart.textContent = '';
  chart.append(chartSVG(st));
  const bd = $('result-breakdown');
  bd.textContent = '';
  if (st.breakdown && st.breakdown.length) {
    // One row per source and one column per side: narrow enough for a phone in every language.
    const sources = [['pegging', t('pegging')], ['hand', t('hand')], ['crib', t('crib')], ['other', t('other')]];
    const table = h('table', { class: 'breakdown-table' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: t('source') }),
        st.breakdown.map((_, side) => h('th', { scope: 'col', text: sideName(side) })))),
      h('tbody', {}, sources.map(([key, name]) => h('tr', {},
        h('th', { scope: 'row', text: name }),
        st.breakdown.map((b) => h('td', { text: String(b[key] ?? 0) }))))));
    bd.append(h('h3', { text: t('pointsBySource') }), table);
  }
  const stats = $('result-stats');
  stats.textContent = '';
  stats.append(h('h3', { text: t('statistics') }), statsTable());
  const dlg = $('result-dialog');
  if (!dlg.open) dlg.showModal();
  $('result-title').focus();
}

/** Open the review page (review.js) on this game's record, reviewing this page's seat: the record
 * goes through this tab's sessionStorage, not the address. */
async function reviewGame() {
  try {
    const text = await api.getRecordText(S.game.id, S.game.token);
    sessionStorage.setItem('cribbage.review', JSON.stringify({ text, seat: me(), fromGame: true }));
    location.assign(`/review?lang=${getLang()}`);
  } catch (err) {
    showError(err);
  }
}

async function downloadRecord() {
  try {
    // As the server wrote it: parsed and written again, its 64-bit seeds would be rounded.
    const blob = new Blob([await api.getRecordText(S.game.id, S.game.token)], { type: 'application/json' });
    const a = h('a', { href: URL.createObjectURL(blob), download: `cribbage-${S.game.id}.json` });
    document.body.append(a);
    a.click();
    a.remove();
  } catch (err) {
    showError(err);
  }
}

// ------------------------------------------------------------------ dialogs

function closeDialogs() {
  for (const d of document.querySelectorAll('dialog[open]')) d.close();
}

/** The variants of the server (GET /api/variants) with their facts; until they come, the chosen one. */
async function loadVariants() {
  try {
    S.variants = await api.getVariants();
  } catch {
    return;  // the form keeps the chosen variant only; the next opening tries again
  }
  if ($('options-dialog').open) fillVariantSelect();
}

function fillVariantSelect() {
  const sel = $('opt-variant');
  const value = sel.value || S.options.variant;
  const names = S.variants ? Object.keys(S.variants) : [value];
  sel.textContent = '';
  for (const name of names) sel.append(h('option', { value: name, text: variantLabel(name) }));
  sel.value = names.includes(value) ? value : names[0];
  describeVariant();
}

/** The chosen variant's description, and its own target in the target's default choice. */
function describeVariant() {
  const name = $('opt-variant').value;
  const facts = S.variants && S.variants[name];
  $('variant-desc').textContent = t(`variantDesc.${name}`);
  renderSeatChoices();
  $('opt-target-default').textContent = t('targetDefault', { n: facts ? facts.target : null });
}

/** Nothing remembered yet: the first visit, which chooses the options before the first deal. */
function firstVisit() {
  try { return localStorage.getItem(LS_OPTIONS) === null; } catch { return false; }
}

function openOptions(startMode, welcome = false) {
  const form = $('options-form');
  if (!S.variants) loadVariants();
  fillVariantSelect();
  const o = S.options;
  for (const name of ['level', 'counting', 'dealer', 'speed']) {
    const input = form.querySelector(`input[name="${name}"][value="${o[name]}"]`);
    if (input) input.checked = true;
  }
  if ([...$('opt-variant').options].some((opt) => opt.value === o.variant)) $('opt-variant').value = o.variant;
  $('opt-target').value = o.target;
  renderSeatChoices(o.seats || []);
  $('opt-name').value = o.name || loadName();
  $('opt-public').checked = !!o.public;
  $('opt-takeover').value = o.takeover || '';
  $('opt-clock').value = o.clock || '';
  describeVariant();
  $('opt-start').classList.toggle('primary', true);
  const dlg = $('options-dialog');
  dlg.dataset.mode = startMode ? 'start' : 'edit';
  // The welcome: the same options, titled as a greeting; however it is closed, a game starts.
  dlg.dataset.welcome = welcome ? '1' : '';
  $('options-title').textContent = welcome ? t('welcomeTitle') : t('optionsTitle');
  $('welcome-note').hidden = !welcome;
  $('opt-save').hidden = welcome;
  $('opt-cancel').hidden = welcome;
  // Without a game of one's own (the first visit, or after leaving a table) the lobby and an
  // invitation are a choice too, rather than a game against the computer.
  $('opt-lobby').hidden = !welcome;
  $('opt-join').hidden = !welcome;
  dlg.showModal();
  (startMode ? $('opt-start') : form.querySelector('input[name="level"]:checked'))?.focus();
}

// ------------------------------------------------------------------ tables with people

function variantPlayers(name) {
  const facts = S.variants && S.variants[name];
  if (facts && facts.players) return facts.players;
  return name === 'three-player' ? 3 : name === 'four-player' ? 4 : 2;
}

/** The other seats as chosen ('human', a level), or null when all are computers of the chosen
 * strength (the game against the computer, created exactly as before). */
function seatChoices(o) {
  const n = variantPlayers(o.variant);
  // Seats chosen for a variant of another number of players are not this one's: a 2-player
  // "person" is no invitation at a 4-player table.
  if ((o.seats || []).length !== n - 1) return null;
  const chosen = [];
  for (let seat = 1; seat < n; seat++) chosen.push((o.seats || [])[seat - 1] || '');
  if (chosen.every((k) => k === '')) return null;
  return chosen.map((k) => k || o.level);
}

function renderSeatChoices(values = null) {
  const box = $('opt-seats');
  const name = $('opt-variant').value || S.options.variant;
  const n = variantPlayers(name);
  // The choices carry over only to a variant of as many seats: another starts with computers.
  let current = values || [...box.querySelectorAll('select')].map((sel) => sel.value);
  if (current.length !== n - 1) current = [];
  const partnerships = S.variants && S.variants[name] ? !!S.variants[name].partnerships : name === 'four-player';
  box.textContent = '';
  for (let seat = 1; seat < n; seat++) {
    const id = `opt-seat-${seat}`;
    const sel = h('select', { id, name: `seat-${seat}`, 'data-seat': seat },
      h('option', { value: '', text: t('computerChosen') }),
      LEVELS.map((lv) => h('option', { value: lv, text: t(`level.${lv}`) })),
      h('option', { value: 'human', text: t('person') }));
    sel.value = current[seat - 1] || '';
    sel.addEventListener('change', togglePeopleOptions);
    const label = partnerships && seat === 2 ? `${t('seatN', { n: seat + 1 })} (${t('partner')})` : t('seatN', { n: seat + 1 });
    box.append(h('div', { class: 'seat-choice' }, h('label', { for: id, text: label }), sel));
  }
  togglePeopleOptions();
}

function togglePeopleOptions() {
  const chosen = [...$('opt-seats').querySelectorAll('select')].map((sel) => sel.value);
  const people = chosen.some((value) => value === 'human');
  $('opt-people').hidden = !people;
  // The "computer" dealer is the seat on the dealer's left (seat 2): a computer only when one sits there.
  const label = $('opt-dealer-left');
  label.textContent = chosen.length === 1 && chosen[0] !== 'human' ? t('dealerComputer') : t('dealerLeft');
}

function waitingText() {
  const st = S.state;
  if (!st || st.over) return '';
  const open = st.waiting_for || [];
  if (open.length) return t('waitingJoin', { names: open.map((s) => t('seatN', { n: s + 1 })).join(t('listSep')) });
  if (legal().length) return t('yourTurn');
  const callers = st.view.claim ? st.view.claim.callers || [] : [];
  if (callers.length) return t('waitingMuggins', { names: callers.map(seatName).join(t('listSep')) });
  const next = st.view.to_act;
  if (next === null || next === undefined || next === 0) return '';
  return t('waitingFor', { name: seatName(next) });
}

function copyText(text) {
  const done = () => announce(t('copied'), { log: false });
  if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, () => {});
}

/** The seconds left of a turn clock, from its deadline (the server's time, seconds since the epoch). */
function clockLeftText(deadline) {
  return t('clockLeft', { n: Math.max(0, Math.ceil(Number(deadline) - Date.now() / 1000)) });
}
setInterval(() => {
  for (const el of document.querySelectorAll('.clock-left')) el.textContent = clockLeftText(el.dataset.deadline);
}, 1000);

/** A log line for each person who left since the previous state (their seat opened, or a computer took it). */
function noteLeavers(before, st) {
  if (!before || before.id !== st.id || !Array.isArray(before.seats) || !Array.isArray(st.seats)) return;
  for (const old of before.seats) {
    const now = st.seats[old.seat];
    if (old.kind !== 'human' || !old.taken || !now || old.seat === me()) continue;
    if (now.kind === 'computer') addLog(t('leftForComputer', { name: old.name || t('playerN', { n: old.seat + 1 }), level: t(`level.${now.level || 'normal'}`) }));
    else if (!now.taken) addLog(t('leftSeat', { name: old.name || t('playerN', { n: old.seat + 1 }) }));
  }
}

/** Whether a person's seat has a page connected now, as the server says (``connected``). */
function presenceBadge(online) {
  return h('span', { class: `presence ${online ? 'online' : 'offline'}`, text: t(online ? 'seatOnline' : 'seatOffline') });
}

/** Who sits where, who is to act, the invitations (for the creator) and the live connection. */
function renderTablePanel() {
  const panel = $('table-panel');
  // A table of people stays one (its live connection too) when a computer takes a leaver's seat.
  if (!S.state || !S.game || !(isPeople() || spectating() || S.live)) { panel.hidden = true; panel.textContent = ''; return; }
  const st = S.state;
  const seated = seating();
  const n = players();
  panel.hidden = false;
  panel.textContent = '';
  const status = h('p', { class: 'table-status', id: 'table-status', text: st.over ? resultHeadline(st.result) : spectating() ? t('watching') : waitingText() });
  const live = h('span', { class: `live-status ${S.liveStatus || 'connecting'}`, id: 'live-status', text: t(`live.${S.liveStatus || 'connecting'}`) });
  const list = h('ul', { class: 'table-seats' });
  for (let server = 0; server < n; server++) {
    const info = (seated.seats || [])[server] || { kind: 'human', taken: false };
    const local = (server - me() + n) % n;
    const acting = !st.over && !(seated.waiting_for || []).length && st.view.to_act === local;
    list.append(h('li', { class: `${info.taken ? 'taken' : 'open'}${acting ? ' to-act' : ''}`, 'data-seat': server, style: { '--side': COLORS[sideOf(local)] } },
      h('span', { class: 'dot', 'aria-hidden': 'true' }),
      h('span', { class: 'table-seat-name', text: tableSeatName(server, seated) }),
      h('small', { text: info.kind === 'computer' ? t(`level.${info.level || 'normal'}`) : info.taken ? t('joined') : t('notJoined') }),
      info.kind === 'human' && info.taken ? presenceBadge((seated.connected || []).includes(server)) : null,
      (seated.away || []).includes(server) ? h('span', { class: 'badge away', text: t('away') }) : null,
      seated.turn_clock && seated.turn_clock.seat === server && !st.over
        ? h('span', { class: 'badge clock-left', 'data-deadline': seated.turn_clock.deadline, text: clockLeftText(seated.turn_clock.deadline) }) : null,
      acting ? h('span', { class: 'badge turn', text: t('toAct') }) : null,
      offlinePerson(st, info) ? computerChoice(server, true) : null));
  }
  panel.append(h('div', { class: 'table-head' }, status, live), list);
  const invites = seated.invites || [];
  if (invites.length) {
    const box = h('div', { class: 'invites' }, h('h2', { text: t('invitations') }));
    for (const inv of invites) {
      const link = new URL(inv.url, location.origin).href;
      box.append(h('div', { class: 'invite', 'data-seat': inv.seat },
        h('span', { class: 'invite-seat', text: t('seatN', { n: inv.seat + 1 }) }),
        h('code', { class: 'invite-code', text: inv.code }),
        h('input', { class: 'invite-link', readonly: true, value: link, 'aria-label': t('inviteLink') }),
        h('span', { class: 'invite-buttons' },
          h('button', { type: 'button', class: 'secondary copy-link', text: t('copyLink'), onclick: () => copyText(link) }),
          h('button', { type: 'button', class: 'secondary copy-code', text: t('copyCode'), onclick: () => copyText(inv.code) })),
        me() === 0 ? computerChoice(inv.seat) : null));
    }
    panel.append(box);
  }
  if (!spectating() && me() === 0) panel.append(watchBox());
  if (!spectating() && !st.over) {
    panel.append(h('div', { class: 'leave-box' },
      h('button', { type: 'button', class: 'secondary', id: 'btn-leave', text: t('leaveTable'), onclick: leaveTable })));
  }
}

/** The creator's choice for an open seat, or (after asking) an offline person's: a computer of a
 * level takes it. */
function computerChoice(seat, offline = false) {
  const sel = h('select', { class: 'seat-computer-level', 'aria-label': t('computerTakes') },
    ...['weak', 'normal', 'strong'].map((level) => h('option', { value: level, text: t(`level.${level}`) })));
  sel.value = 'normal';
  return h('span', { class: 'seat-computer', 'data-seat': seat }, sel,
    h('button', { type: 'button', class: 'secondary seat-computer-go', text: t('computerTakes'), onclick: async () => {
      if (offline && !window.confirm(t('giveSeatConfirm', { name: tableSeatName(seat) }))) return;
      try {
        offer(await api.seatComputer(S.game.id, S.game.token, seat, sel.value));
      } catch (err) {
        showError(err);
      }
    } }));
}

/** Whether the creator may give a seat's person to a computer: seated, offline, not the creator. */
function offlinePerson(st, info) {
  return me() === 0 && !spectating(st) && !st.over && info.kind === 'human' && info.taken
    && info.seat !== 0 && !(st.connected || []).includes(info.seat);
}

/** Tell the server this page shows the seat's decision now (docs/api.md, "Turn clock"): the seat's
 * turn clock runs from now.  Once per version, when the clock runs for this seat; over the live
 * socket when it is open, else over HTTP. */
function markShown(st) {
  if (!S.game || spectating(st) || st.over || !st.turn_clock || st.turn_clock.seat !== st.seat) return;
  if (!(st.legal || []).length) return;
  const key = `${st.id}:${st.version}`;
  if (S.shown === key) return;
  S.shown = key;
  if (S.live && S.live.sendSeen(st.version)) return;
  api.seen(S.game.id, S.game.token, st.version).catch((err) => console.warn(err.message));
}

/** Leave the table, after asking: the seat is the server's to give (to a computer, or open again). */
async function leaveTable() {
  const takeover = S.state.options && S.state.options.takeover;
  const question = takeover ? t('leaveConfirmComputer', { level: t(`level.${takeover}`) }) : t('leaveConfirmWait');
  if (!window.confirm(question)) return;
  try {
    await api.leave(S.game.id, S.game.token);
  } catch (err) {
    showError(err);
    return;
  }
  if (S.live) { S.live.close(); S.live = null; }
  localStorage.removeItem(LS_GAME);
  try { sessionStorage.removeItem(LS_GAME); } catch { /* no storage */ }
  S.game = null;
  S.state = { ...S.state, legal: [] };  // the table stays on view, nothing to do at it
  render(false);
  renderTablePanel();
  addLog(t('youLeft'));
  announce(t('youLeft'));
  openOptions(true);
}

/** The creator's watch link: asked for once, on a click, then shown with a copy button. */
function watchBox() {
  const box = h('div', { class: 'watch-box' });
  if (!S.watchLink || S.watchLink.id !== S.game.id) {
    box.append(h('button', { type: 'button', class: 'secondary', id: 'btn-watch-link', text: t('getWatchLink'), onclick: async () => {
      try {
        const link = await api.watchLink(S.game.id, S.game.token);
        S.watchLink = { id: S.game.id, url: new URL(link.url, location.origin).href };
        renderTablePanel();
      } catch (err) {
        showError(err);
      }
    } }));
    return box;
  }
  const url = S.watchLink.url;
  box.append(h('span', { class: 'invite-seat', text: t('watchLink') }),
    h('input', { class: 'watch-link', id: 'watch-link', readonly: true, value: url, 'aria-label': t('watchLink') }),
    h('button', { type: 'button', class: 'secondary copy-link', text: t('copyLink'), onclick: () => copyText(url) }));
  return box;
}

/** A watch link's page: the table as every seat sees it, read-only, never saved as one's own game.
 * An old link of a table whose people played again leads to their latest game. */
async function enterWatch(code) {
  let raw;
  try {
    raw = await api.watchGame(code);
  } catch (err) {
    showError(err);
    return;
  }
  if (raw.rematch_watch) {
    await followWatch(raw.rematch_watch, 'watchingLog');
    return;
  }
  await enterGame({ id: raw.id, token: '', watch: code }, raw, 'watchingLog');
}

/** A spectator goes where the people went ("play again"): the new game's watch code, which the
 * page's address then holds (a reload stays with the new game). */
async function followWatch(code, logKey = 'rematchLog') {
  if (S.following === code) return;
  S.following = code;
  try {
    const raw = await api.watchGame(code);
    if (raw.rematch_watch) {  // they played again once more meanwhile
      S.following = null;
      await followWatch(raw.rematch_watch, logKey);
      return;
    }
    closeDialogs();
    history.replaceState(null, '', `/watch/${encodeURIComponent(code)}${location.search}`);
    await enterGame({ id: raw.id, token: '', watch: code }, raw, logKey);
  } catch (err) {
    S.following = null;
    showError(err);
  }
}

/** What the invitation opens, before joining (GET /api/join/{code}): the seat, the table's
 * variant, target and counting, and who sits there. */
async function previewJoin(code) {
  const box = $('join-table');
  code = code.trim();
  box.dataset.code = code;
  box.textContent = '';
  box.hidden = !code;
  if (!code) return;
  let tb;
  try {
    tb = await api.invitation(code);
  } catch (err) {
    if (box.dataset.code !== code) return;
    box.append(h('p', { class: 'error', text: joinErrorText(err) }));
    return;
  }
  if (box.dataset.code !== code) return;  // another code was typed meanwhile
  const o = tb.options || {};
  const seats = h('ul', { class: 'join-seats' });
  for (const x of tb.seats) {
    const label = x.seat === tb.seat ? t('yourSeatN', { n: x.seat + 1 }) : seatLabel(x, tb.players);
    seats.append(h('li', { 'data-seat': x.seat, class: x.seat === tb.seat ? 'mine' : '' },
      x.kind === 'computer' ? `${label} (${t(`level.${x.level || 'normal'}`)})` : label));
  }
  box.append(
    h('p', { class: 'join-info', text: [variantLabel(tb.variant), t('targetN', { n: tb.target }), countingText(o),
      o.clock ? t('clockN', { n: o.clock }) : null].filter(Boolean).join(' · ') }),
    h('p', { class: 'field-help', text: t('atTheTable') }), seats);
}

function openJoin(code = '', fromLink = false) {
  closeDialogs();
  const dlg = $('join-dialog');
  previewJoin(code);
  $('join-code').value = code;
  $('join-name').value = loadName();
  $('join-error').hidden = true;
  dlg.dataset.fromLink = fromLink ? '1' : '';
  dlg.showModal();
  (code ? $('join-name') : $('join-code')).focus();
}

function joinErrorText(err) {
  if (err.status === 404) return t('joinUnknown');
  if (err.status === 409) return t('joinTaken');
  if (err.status === 429 || err.status === 503) return errorText(err);  // a limit: its code and wait
  if (err.status === 422) return t('joinBadName');
  if (err.status === 0) return t('offline');
  return t('said', { who: t('errorPrefix'), what: errorText(err) });
}

async function submitJoin(event) {
  event.preventDefault();
  const code = $('join-code').value.trim();
  const name = $('join-name').value.trim();
  if (!code) { $('join-code').focus(); return; }
  if (!name) { $('join-name').focus(); return; }
  $('join-submit').disabled = true;
  try {
    const joined = await api.join(code, name);
    saveName(name);
    // The invitation's address is no longer needed: the page is the game's, its token stored.
    if (location.pathname !== '/') history.replaceState(null, '', '/');
    const dlg = $('join-dialog');
    dlg.dataset.fromLink = '';
    dlg.close();
    await enterGame({ id: joined.id, token: joined.token, seat: joined.seat }, joined.state);
  } catch (err) {
    const box = $('join-error');
    box.hidden = false;
    box.textContent = joinErrorText(err);
  } finally {
    $('join-submit').disabled = false;
  }
}

/** Go to the rematch of this game ("play again"): the same token acts at the same seat there. */
async function followRematch(id) {
  if (S.following === id || !S.game) return;
  S.following = id;
  try {
    const raw = await api.getGame(id, S.game.token);
    closeDialogs();
    await enterGame({ ...S.game, id }, raw, 'rematchLog');
  } catch (err) {
    S.following = null;
    showError(err);
  }
}

async function playAgain() {
  try {
    const again = await api.rematch(S.game.id, S.game.token);
    await followRematch(again.id);
  } catch (err) {
    showError(err);
  }
}

async function enterGame(game, raw, logKey = 'joinedLog') {
  if (S.live) { S.live.close(); S.live = null; }
  leaveShown();
  S.game = game;
  if (!game.watch) saveGame(game);  // a spectator's game is never saved as one's own
  clearHint();
  hideError();
  S.show = null;
  S.pending = null;
  S.state = null;
  S.D = null;
  S.selected.clear();
  $('log').textContent = '';
  const st = localize(raw);
  S.seenEvents = st.events || [];
  S.expectFresh = false;
  await receive(st, false);
  renderTablePanel();
  addLog(t(logKey));
  openLive();
}

async function openLobby() {
  closeDialogs();
  $('lobby-dialog').showModal();
  await fillLobby();
}

async function fillLobby() {
  const body = $('lobby-body');
  body.textContent = t('loading');
  let data;
  try {
    data = await api.getLobby();
  } catch (err) {
    body.textContent = t('said', { who: t('errorPrefix'), what: errorText(err) });
    return;
  }
  body.textContent = '';
  if (!data.tables.length) { body.append(h('p', { class: 'field-help', id: 'lobby-empty', text: t('lobbyEmpty') })); return; }
  const list = h('ul', { class: 'lobby-list' });
  for (const tb of data.tables) {
    const o = tb.options || {};
    const counting = countingText(o);
    const free = tb.seats.filter((x) => !x.taken).length;
    const takeover = o.takeover ? t('takeoverLevel', { level: t(`level.${o.takeover}`) }) : t('takeoverNone');
    const info = [variantLabel(tb.variant), t('targetN', { n: tb.target }), counting,
      o.clock ? t('clockN', { n: o.clock }) : null, takeover, t('freeSeats', { n: free })].filter(Boolean).join(' · ');
    const waiting = tb.seats.filter((x) => x.kind === 'human' && x.taken).map((x) => x.name).join(t('listSep'));
    const seats = h('ul', { class: 'lobby-seats' });
    for (const x of tb.seats) {
      const label = seatLabel(x, tb.seats.length);
      const who = x.kind === 'computer' ? `${label} (${t(`level.${x.level || 'normal'}`)})` : label;
      seats.append(h('li', {}, h('span', { text: who }),
        !x.taken && x.code ? h('button', { type: 'button', class: 'primary lobby-join', 'data-code': x.code, text: t('joinSeat', { n: x.seat + 1 }), onclick: () => openJoin(x.code) }) : null));
    }
    list.append(h('li', { class: 'lobby-table' },
      h('p', { class: 'lobby-info', text: info }),
      waiting ? h('p', { class: 'lobby-waiting', text: t('whoWaits', { names: waiting }) }) : null,
      seats));
  }
  body.append(list);
}

function readOptions() {
  const form = $('options-form');
  const data = new FormData(form);
  const name = String(data.get('name') || '').trim();
  if (name) saveName(name);
  return {
    seats: [...$('opt-seats').querySelectorAll('select')].map((sel) => sel.value),
    public: data.get('public') === 'on',
    takeover: String(data.get('takeover') || ''),
    clock: String(data.get('clock') || ''),
    name,
    level: data.get('level') || 'normal',
    variant: data.get('variant') || 'standard',
    target: data.get('target') || '',
    counting: data.get('counting') || 'auto',
    dealer: data.get('dealer') || 'cut',
    speed: data.get('speed') || 'normal',
  };
}

function openStats() {
  const body = $('stats-body');
  body.textContent = '';
  body.append(statsTable());
  $('stats-dialog').showModal();
}

// ------------------------------------------------------------------ errors

function showError(err) {
  const box = $('error');
  box.hidden = false;
  box.textContent = '';
  if (err && err.message) console.warn(err.message);
  const message = err && err.status === 0 ? t('offline') : t('said', { who: t('errorPrefix'), what: errorText(err) });
  box.append(h('span', { text: message }), ' ',
    h('button', { type: 'button', class: 'secondary', text: t('retry'), onclick: () => { hideError(); if (S.game && S.state) refresh(); else newGame(); } }));
}
function hideError() {
  $('error').hidden = true;
}

// ------------------------------------------------------------------ keyboard

function onKey(e) {
  if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
  if (document.querySelector('dialog[open]')) return;
  const target = e.target;
  const typing = target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;
  if (typing) return;
  const key = e.key;
  if (key === 'Enter') {
    // Enter confirms: on a card in the discard it sends the discard (Space toggles the card).
    const onCard = target instanceof HTMLElement && target.closest('#hand');
    const onButton = target instanceof HTMLButtonElement && !onCard;
    if (onButton) return;
    e.preventDefault();
    if (onCard && legalKind() === 'play' && !S.busy) {
      const card = target.closest('.card').dataset.card;
      playCard(card);
      return;
    }
    confirmAction();
    return;
  }
  if (key === ' ' && S.continueResolve) { e.preventDefault(); S.continueResolve(); return; }
  if (/^[1-9]$/.test(key)) {
    const i = Number(key) - 1;
    const cards = handCards();
    if (i >= cards.length) return;
    e.preventDefault();
    const kind = legalKind();
    if (kind === 'discard') toggleSelect(cards[i]);
    S.cursor = i;
    const btn = $('hand').querySelector(`[data-index="${i + 1}"]`);
    if (btn && !btn.disabled) btn.focus();
    return;
  }
  const lower = key.toLowerCase();
  if (lower === 'h') { e.preventDefault(); showHint(); }
  else if (lower === 'o') { e.preventDefault(); openOptions(false); }
  else if (lower === 'n') { e.preventDefault(); openOptions(true); }
  else if (lower === 's' && S.busy && !S.continueResolve) { S.skip = true; }
  else if (key === 'Escape') { clearHint(); renderHand(); }
}

// ------------------------------------------------------------------ start-up

function relabel() {
  applyStatic(document);
  document.title = t('title');
  $('lang-select').value = getLang();
  $('link-howto').href = `/howto?lang=${getLang()}`;
  $('link-practice').href = `/practice?lang=${getLang()}`;
  if ($('options-dialog').open) renderSeatChoices();
  if (S.state) {
    S.boardKey = '';
    render(false);
    renderTablePanel();
    if (S.hint) renderHint();
    if ($('result-dialog').open) openResult();
  }
  if ($('options-dialog').open) {
    fillVariantSelect();
    if ($('options-dialog').dataset.welcome) $('options-title').textContent = t('welcomeTitle');
  }
}

function wire() {
  $('btn-new').addEventListener('click', () => openOptions(true));
  $('btn-options').addEventListener('click', () => openOptions(false));
  $('btn-stats').addEventListener('click', openStats);
  $('btn-join').addEventListener('click', () => openJoin(''));
  $('btn-lobby').addEventListener('click', openLobby);
  $('lobby-close').addEventListener('click', () => $('lobby-dialog').close());
  // Back from the lobby or the join dialog with no game at all (from the welcome): the welcome again.
  const welcomeAgain = () => {
    if (!S.game && !S.state && !document.querySelector('dialog[open]')) openOptions(true, true);
  };
  $('lobby-dialog').addEventListener('close', welcomeAgain);
  $('lobby-refresh').addEventListener('click', fillLobby);
  $('join-form').addEventListener('submit', submitJoin);
  $('join-code').addEventListener('change', () => previewJoin($('join-code').value));
  $('join-cancel').addEventListener('click', () => $('join-dialog').close());
  $('join-dialog').addEventListener('close', () => {
    const dlg = $('join-dialog');
    if (dlg.dataset.fromLink) {
      // The invitation was not taken: the page goes on as at /.
      dlg.dataset.fromLink = '';
      history.replaceState(null, '', '/');
      resumeOrNew(firstVisit());
    } else {
      welcomeAgain();
    }
  });
  $('btn-hint').addEventListener('click', showHint);
  $('btn-confirm').addEventListener('click', confirmAction);
  $('btn-result').addEventListener('click', openResult);
  $('lang-select').addEventListener('change', (e) => setLang(e.target.value));
  $('opt-variant').addEventListener('change', describeVariant);
  $('options-dialog').addEventListener('close', () => {
    const dlg = $('options-dialog');
    const how = dlg.returnValue;
    if (dlg.dataset.welcome) {
      dlg.dataset.welcome = '';
      S.options = readOptions();
      $('options-title').textContent = t('optionsTitle');
      $('welcome-note').hidden = true;
      $('opt-save').hidden = false;
      $('opt-cancel').hidden = false;
      $('opt-lobby').hidden = true;
      $('opt-join').hidden = true;
      if (how === 'lobby') openLobby();
      else if (how === 'join') openJoin('');
      else {
        saveJSON(LS_OPTIONS, S.options);
        newGame();
      }
    } else if (how === 'start' || how === 'save') {
      S.options = readOptions();
      saveJSON(LS_OPTIONS, S.options);
      if (how === 'start') newGame();
    }
    dlg.returnValue = '';
  });
  $('result-new').addEventListener('click', () => { $('result-dialog').close(); newGame(); });
  $('result-again').addEventListener('click', playAgain);
  $('result-close').addEventListener('click', () => $('result-dialog').close());
  $('result-record').addEventListener('click', downloadRecord);
  $('result-review').addEventListener('click', reviewGame);
  $('stats-close').addEventListener('click', () => $('stats-dialog').close());
  $('stats-reset').addEventListener('click', () => {
    if (window.confirm(t('resetConfirm'))) {
      saveJSON(LS_STATS, {});
      openStats();
      $('stats-dialog').close();
      openStats();
    }
  });
  document.addEventListener('keydown', onKey);
  let resizeTimer = 0;
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => S.board && S.board.resize(), 150);
  });
  onLangChange(relabel);
}

async function start() {
  installSuitSprite();
  initLang(params.get('lang'));
  const welcome = firstVisit();
  wire();
  relabel();
  loadVariants();
  const watchMatch = location.pathname.match(/^\/watch\/([^/]+)\/?$/);
  if (watchMatch) {
    await enterWatch(decodeURIComponent(watchMatch[1]));
    return;
  }
  const joinMatch = location.pathname.match(/^\/join\/([^/]+)\/?$/);
  if (joinMatch) {
    openJoin(decodeURIComponent(joinMatch[1]), true);
    return;
  }
  await resumeOrNew(welcome);
}

async function resumeOrNew(welcome = false) {
  const saved = loadGame();
  if (saved && saved.id && saved.token) {
    S.game = saved;
    try {
      const st = localize(await api.getGame(saved.id, saved.token));
      S.seenEvents = st.events || [];
      await receive(st, false);
      renderTablePanel();
      openLive();
      addLog(t('resumed'));
      return;
    } catch (err) {
      if (err.status !== 404 && err.status !== 401 && err.status !== 403) {
        showError(err);
        return;
      }
      localStorage.removeItem(LS_GAME);
      try { sessionStorage.removeItem(LS_GAME); } catch { /* no storage */ }
      S.game = null;
    }
  }
  if (welcome) {
    openOptions(true, true);
    return;
  }
  await newGame();
}

start();

// For tests and curious visitors: the current state, read-only.
window.cribbage = {
  get state() { return S.state; },
  get busy() { return S.busy; },
  get live() { return S.liveStatus; },
  dropLive() { if (S.live) S.live.drop(); },
};
