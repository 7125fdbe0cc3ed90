// @ts-check
// The review page (/review): a game's review (POST /api/review, docs/api.md "Review") shown as a
// graph of the chance of winning, a timeline of the hands and every decision judged against the
// computer's best; choosing a decision shows the table as it was then.  The record comes from the
// game page's result screen (through this tab's sessionStorage) or from a file the player opens.
// The server sends codes and numbers; every word is made here from i18n.js.

import { ApiError, RETRYABLE, reviewRecord } from '../shared/api.js';
import { Board } from '../shared/board.js';
import { backEl, cardEl, cardText, installSuitSprite } from '../shared/cards.js';
import { placeColor, placeOf } from '../shared/display.js';
import { $, h, svg } from '../shared/dom.js';
import {
  cardName, errorText, numText, reasonsLine, relabelPage, seatLabel, startLanguage, STRINGS, t,
} from '../shared/i18n.js';
import { givenAwayLines, lossText } from './reviewlines.js';
import { keepOffline } from '../shared/offline.js';
import { engineCall, engineSupported } from '../engine/engine.js';

const SS_REVIEW = 'cribbage.review'; // {text, seat, fromGame, local?}: the record under review in this tab
const GRADES = ['best', 'fine', 'inaccuracy', 'mistake', 'blunder'];
/** A mark for each grade, so that the grade never rests on its colour alone (chess's signs). */
const MARKS = { best: '★', fine: '✓', inaccuracy: '?!', mistake: '?', blunder: '??' };

/** A JSON object as it came: the game record, the API's review (docs/api.md, "Review"). @typedef {Record<string, any>} Json */
/** A review asked for. @typedef {{ text: string, record: Json, seats: number[], seat: number, fromGame: boolean }} Wanted */
/**
 * What went wrong: a file that is not a record, or a refused request.
 * @typedef {{ kind: 'file', key: string, name: string } | { kind: 'api', err: any }} ReviewError
 */

/**
 * The page's state.
 * @type {{ text: string | null, record: Json | null, seat: number | null, seats: number[], fromGame: boolean,
 *   review: Json | null, selected: number | null, pending: Wanted | null, busy: boolean, error: ReviewError | null,
 *   ticket: number, local: boolean }}
 */
const R = {
  text: null, // the game record under review, as its file's text (sent as it is: 64-bit seeds)
  record: null, // the same, parsed (its seats and names)
  seat: null, // the reviewed seat
  seats: [], // the seats that may be reviewed
  fromGame: false, // opened from the game page's result: the reviewed seat is "you"
  review: null, // the API's review
  selected: null, // the index (in review.decisions) of the decision shown
  pending: null, // {text, record, seats, seat, fromGame} asked for, not received (Retry asks again)
  busy: false,
  error: null, // {kind: 'file'|'api', key?, err?}
  ticket: 0,
  local: false, // a game played in the game page's browser: reviewed by this browser's engine
};



const fmt = (x) => numText(x);
const signed = (x) => numText(x, 2, true);
const pct = (x) => `${numText(100 * x, 1)}%`;
const cardsText = (cards) => cards.map(cardText).join(' ');

// ------------------------------------------------------------------ the record and the seats

/** The seats a record's review may choose from: its people's (null entries), else every seat. */
function reviewableSeats(record) {
  const seats = Array.isArray(record.seats) ? record.seats : [];
  const people = seats.map((s, i) => (s === null ? i : -1)).filter((i) => i >= 0);
  if (people.length) return people;
  const n = (record.rules && record.rules.players) || seats.length || 2;
  return Array.from({ length: n }, (_, i) => i);
}

/** The record of a file's text, or an error key naming what is wrong with it. */
function parseRecord(text) {
  let data;
  try { data = JSON.parse(text); } catch { return { error: 'review.notJson' }; }
  if (!data || typeof data !== 'object' || Array.isArray(data) || data.format !== 'cribbage-record'
      || !Array.isArray(data.actions)) {
    return { error: 'review.notRecord' };
  }
  return { record: data };
}

function saveSession() {
  try {
    sessionStorage.setItem(SS_REVIEW, JSON.stringify({ text: R.text, seat: R.seat, fromGame: R.fromGame, ...(R.local ? { local: true } : {}) }));
  } catch { /* private mode or too large: the review is still shown */ }
}

function loadSession() {
  try {
    const kept = sessionStorage.getItem(SS_REVIEW);
    if (kept === null) return null;
    const data = JSON.parse(kept);
    if (data && typeof data.text === 'string') return data;
  } catch { /* nothing stored */ }
  return null;
}

// ------------------------------------------------------------------ names

function rules() {
  return (R.review && R.review.rules) || (R.record && R.record.rules) || {};
}

/** A seat's name: "you" for the game page's own seat, or for the one person of a game against
 * computers; a computer of the game page's levels by the game page's one rule (seatLabel); else
 * the record's name. */
function seatName(seat) {
  if (R.fromGame && seat === R.seat) return t('you');
  const seats = R.record && Array.isArray(R.record.seats) ? R.record.seats : [];
  if (!R.fromGame && seats[seat] === null && seats.filter((s) => s === null).length === 1) return t('you');
  const info = seats[seat];
  if (info && info.player && STRINGS.en[`level.${info.player}`] !== undefined) {
    return seatLabel({ seat, kind: 'computer' }, seats.length);
  }
  const names = (R.review && R.review.names) || (R.record && R.record.names) || [];
  return names[seat] || t('playerN', { n: seat + 1 });
}

function sideOf(seat) {
  const sides = rules().seat_sides;
  return Array.isArray(sides) ? sides[seat] : seat;
}

/** A side's colour as on the game page, which gives its own side the first (blue): the reviewed
 * seat's side here. */
function colorOf(side) {
  const sides = rules().seat_sides;
  const n = Array.isArray(sides) ? Math.max(...sides) + 1 : 2;
  const mine = R.seat === null || R.seat === undefined ? 0 : sideOf(R.seat);
  return placeColor(placeOf(side, mine, n));
}

function sideName(side) {
  const sides = rules().seat_sides;
  if (!Array.isArray(sides)) return seatName(side);
  return sides.map((s, seat) => (s === side ? seatName(seat) : null)).filter((x) => x !== null).join(' & ');
}

// ------------------------------------------------------------------ requests

/**
 * Ask for the review of a record (its file's text) from ``seat`` (null: its first reviewable
 * seat).  Only a review received replaces the one shown: a bad file or a refused record leaves the
 * page as it was, and Retry asks again for the same.  Only the latest request is applied.
 */
async function requestReview(text, seat, fromGame, name = '') {
  const parsed = parseRecord(text);
  if (parsed.error) {
    // A bad file leaves the review shown before it as it was.
    R.error = { kind: 'file', key: parsed.error, name };
    render();
    return;
  }
  const { record } = parsed;
  const seats = reviewableSeats(record);
  const wanted = { text, record, seats, seat: seats.includes(seat) ? seat : seats[0], fromGame: !!fromGame };
  const ticket = ++R.ticket;
  R.pending = wanted;
  R.busy = true;
  R.error = null;
  render();
  let review = null;
  let failure = null;
  try {
    review = await reviewOf(wanted.text, wanted.seat);
  } catch (err) {
    failure = err;
  }
  if (ticket !== R.ticket) return;
  R.busy = false;
  if (review) {
    Object.assign(R, wanted, { review, selected: null, pending: null });
    saveSession();
  } else {
    R.error = { kind: 'api', err: failure };
  }
  render();
}

/**
 * The review of a record: the server's (POST /api/review), or this browser's engine's, the same
 * review by the same package, for a game played in the browser and whenever the server cannot be
 * reached.
 * @param {string} text @param {number} seat
 */
async function reviewOf(text, seat) {
  if (R.local && engineSupported()) return engineCall('review', text, seat);
  try {
    return await reviewRecord(text, seat);
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 'offline' || !engineSupported()) throw err;
    return engineCall('review', text, seat);
  }
}

async function openFile(event) {
  const file = event.target.files && event.target.files[0];
  if (!file) return;
  let text;
  try { text = await file.text(); } catch { text = ''; }
  event.target.value = '';
  R.local = false;  // a file: the server reviews it (this browser's engine when it cannot be reached)
  requestReview(text, null, false, file.name);
}

// ------------------------------------------------------------------ errors

function errorWords(error) {
  if (error.kind === 'file') return t(error.key, { name: error.name });
  const err = error.err;
  if (!(err instanceof ApiError)) return t('err.internal');
  if (err.code === 'busy') return t('review.busy');
  // A record the server cannot replay: its message names the action (its English line, as sent).
  if (err.code === 'bad_record' || err.code === 'invalid') return t('review.refused', { message: err.message });
  return errorText(err);
}

function renderError() {
  const box = $('review-error');
  box.hidden = !R.error;
  const retry = R.error && R.error.kind === 'api' && RETRYABLE.has(R.error.err.code);
  $('review-retry').hidden = !retry;
  $('review-error-text').textContent = R.error ? t('said', { who: t('errorPrefix'), what: errorWords(R.error) }) : '';
}

// ------------------------------------------------------------------ the summary

function gradesLine(grades) {
  return GRADES.filter((g) => grades[g]).map((g) => `${MARKS[g]} ${t(`review.grade.${g}`)} ${grades[g]}`).join(' · ');
}

/** @param {Json} rv the review shown */
function renderSummary(rv) {
  const box = $('review-summary');
  box.textContent = '';
  const result = rv.result;
  const final = result ? result.scores : rv.scores;
  box.append(h('p', { class: 'review-game', text: t('review.gameLine', { variant: t(`variant.${rv.variant}`), target: rv.target }) }));
  const scores = h('div', { class: 'result-scores' });
  final.forEach((score, side) => {
    const el = h('div', { class: `final-score${result && side === result.winner ? ' winner' : ''}` },
      h('span', { text: sideName(side) }), h('strong', { text: String(score) }));
    el.style.setProperty('--side', colorOf(side));
    scores.append(el);
  });
  box.append(scores);
  if (!result) box.append(h('p', { class: 'review-note', text: t('review.unfinished') }));
  const totals = (rv.totals || []).find((x) => x.seat === R.seat);
  if (totals) {
    box.append(h('h3', { text: t('review.overGame', { name: seatName(R.seat) }) }));
    box.append(h('p', { class: 'grades-line', text: `${t('review.decisionsN', { n: totals.decisions })} — ${gradesLine(totals.grades) || '–'}` }));
    for (const line of givenAwayLines(totals)) box.append(h('p', { class: 'away-line', text: line }));
  }
}

// ------------------------------------------------------------------ the graph

/** The chance of winning of the reviewed seat's side at the start of every hand (and at the end);
 * without a win table (three players, other targets), every side's score. */
function chartData(rv) {
  const hands = rv.hands || [];
  const wins = hands.length > 0 && hands.every((x) => Array.isArray(x.win_start));
  const points = hands.map((x) => ({ label: String(x.hand), values: wins ? x.win_start : x.scores_start }));
  const last = hands[hands.length - 1];
  if (last) {
    const end = wins ? last.win_end : last.scores_end;
    if (Array.isArray(end)) points.push({ label: '', values: end });
  }
  return { wins, points };
}

/** @param {Json} rv the review shown */
function renderChart(rv) {
  const { wins, points } = chartData(rv);
  const box = $('review-chart');
  box.textContent = '';
  const W = 340, H = 170, L = 34, Rt = 10, T = 10, B = 24;
  const side = sideOf(R.seat);
  const maxY = wins ? 1 : Math.max(rv.target, ...points.flatMap((p) => p.values));
  const n = Math.max(points.length - 1, 1);
  const x = (i) => L + ((W - L - Rt) * i) / n;
  const y = (v) => T + (H - T - B) * (1 - v / maxY);
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', id: 'review-graph' });
  const caption = wins ? t('review.chartWin', { name: sideName(side) }) : t('review.chartScores');
  chart.setAttribute('aria-label', caption);
  chart.dataset.kind = wins ? 'win' : 'scores';
  const ticks = wins ? [0, 0.5, 1] : [0, Math.round(rv.target / 2), rv.target];
  for (const v of ticks) {
    svg('line', { x1: L, x2: W - Rt, y1: y(v), y2: y(v), class: v === ticks[1] ? 'grid target' : 'grid' }, chart);
    svg('text', { x: L - 4, y: y(v) + 3, class: 'axis', 'text-anchor': 'end' }, chart, wins ? `${100 * v}%` : String(v));
  }
  points.forEach((p, i) => {
    if (p.label && (n <= 14 || i % Math.ceil(n / 14) === 0)) {
      svg('text', { x: x(i), y: H - 8, class: 'axis', 'text-anchor': 'middle' }, chart, p.label);
    }
  });
  svg('text', { x: W - Rt, y: H - 1, class: 'axis', 'text-anchor': 'end' }, chart, t('hands'));
  const sides = wins ? [side] : points[0].values.map((_, s) => s);
  for (const s of sides) {
    const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.values[s] ?? 0).toFixed(1)}`).join(' ');
    svg('polyline', { points: line, class: 'series', style: { '--side': colorOf(s) } }, chart);
    points.forEach((p, i) => {
      const dot = svg('circle', { cx: x(i).toFixed(1), cy: y(p.values[s] ?? 0).toFixed(1), r: 3, class: 'point', style: { '--side': colorOf(s) } }, chart);
      const what = wins ? pct(p.values[s]) : String(p.values[s]);
      svg('title', {}, dot, `${p.label ? t('handN', { n: p.label }) : t('review.end')}: ${sideName(s)} ${what}`);
    });
  }
  box.append(chart);
  $('chart-caption').textContent = caption;
}

// ------------------------------------------------------------------ the decisions

function gradeBadge(grade) {
  return h('span', { class: `grade grade-${grade}`, 'data-grade': grade },
    h('span', { class: 'mark', 'aria-hidden': 'true', text: MARKS[grade] }),
    h('span', { class: 'grade-word', text: t(`review.grade.${grade}`) }));
}

/** One line: what was chosen and what was best. */
function decisionLine(d) {
  if (d.kind === 'discard') {
    return t('review.discardLine', { chosen: cardsText(d.chosen.discard), best: cardsText(d.best.discard), same: d.rank === 1 });
  }
  if (d.kind === 'play') {
    return t('review.playLine', { chosen: cardText(d.chosen.card), best: cardText(d.best.card), same: d.rank === 1 });
  }
  if (d.what === 'muggins') return t('review.mugginsLine', { called: d.chosen.points, missed: d.best.points });
  return t('review.countLine', { what: t(`review.what.${d.what}`), stated: d.chosen.points, actual: d.best.points });
}

function decisionItem(d, index) {
  const button = h('button', { type: 'button', class: 'decision', 'data-index': String(index), 'aria-expanded': String(R.selected === index) },
    gradeBadge(d.grade),
    h('span', { class: 'kind', text: d.what === 'muggins' ? t('combo.muggins') : t(`review.kind.${d.kind}`) }),
    h('span', { class: 'line', text: decisionLine(d) }),
    h('span', { class: 'loss', text: lossText(d) }));
  button.addEventListener('click', () => select(index));
  return h('li', { class: `decision-item${R.selected === index ? ' is-selected' : ''}` }, button);
}

function discardTable(d) {
  const wins = d.ranked_by === 'win';
  const lowball = !!rules().lowball;
  const row = (label, o, cls) => {
    const crib = o.own_crib ? o.crib : -o.crib;
    const total = o.hand + crib + o.pegging; // the player's points, in lowball too
    return h('tr', { class: cls },
      h('th', { scope: 'row', text: label }),
      h('td', {}, h('span', { class: 'cards', text: cardsText(o.discard) }),
        h('span', { class: 'keep', text: `${t('keep')}: ${cardsText(o.keep)}` })),
      wins ? h('td', { text: pct(o.win) }) : null, h('td', { class: 'total', text: fmt(total) }),
      h('td', { text: fmt(o.hand) }), h('td', { text: signed(crib) }), h('td', { text: signed(o.pegging) }));
  };
  const notes = [t('train.keepNote')];
  if (wins) notes.push(t('hintWinNote'));  // its column comes first after the cards
  if (lowball) notes.push(t('hintLowballNote'));
  return [
    h('div', { class: 'table-scroll' }, h('table', { class: 'result-table compare' },
      h('thead', {}, h('tr', {}, h('th', {}, h('span', { class: 'visually-hidden', text: t('review.choice') })),
        h('th', { text: t('train.colThrow') }), wins ? h('th', { text: t('train.colWin') }) : null,
        h('th', { class: 'total', text: t('totalPts') }), h('th', { text: t('handPts') }), h('th', { text: t('crib') }),
        h('th', { text: t('train.colPlay') }))),
      h('tbody', {}, row(t('review.yours'), d.chosen, 'chosen'), d.rank === 1 ? null : row(t('review.best'), d.best, 'best')))),
    h('p', { class: 'review-note', text: notes.join(' ') }),
  ];
}

function playTable(d) {
  const wins = d.ranked_by === 'win';
  const lowball = !!rules().lowball;
  const row = (label, o, cls) => h('tr', { class: cls },
    h('th', { scope: 'row', text: label }),
    h('td', {}, h('span', { class: 'cards', text: cardText(o.card) }), h('span', { class: 'why', text: reasonsLine(o.reasons) })),
    h('td', { text: String(o.points) }), h('td', { text: signed(lowball ? -o.value : o.value) }),
    wins ? h('td', { text: pct(o.win) }) : null);
  const notes = [t('train.valueNote')];
  if (wins) notes.push(t('hintPlayWinNote'));
  if (lowball) notes.push(t('hintPlayLowballNote'));
  return [
    h('div', { class: 'table-scroll' }, h('table', { class: 'result-table compare' },
      h('thead', {}, h('tr', {}, h('th', {}, h('span', { class: 'visually-hidden', text: t('review.choice') })),
        h('th', { text: t('train.colCard') }), h('th', { text: t('review.pointsNow') }), h('th', { text: t('train.colValue') }),
        wins ? h('th', { text: t('train.colWin') }) : null)),
      h('tbody', {}, row(t('review.yours'), d.chosen, 'chosen'), d.rank === 1 ? null : row(t('review.best'), d.best, 'best')))),
    h('p', { class: 'review-note', text: notes.join(' ') }),
  ];
}

function countLines(d) {
  const lines = [];
  if (d.what === 'muggins') {
    lines.push(t('review.mugginsWhy', { name: seatName(d.counter), called: d.chosen.points, missed: d.best.points }));
    if (d.left) lines.push(t('review.left', { n: d.left }));
    if (d.wrong) lines.push(t('review.wrong', { n: d.wrong, name: seatName(d.counter) }));
    return lines;
  }
  lines.push(t('review.countWhy', { what: t(`review.what.${d.what}`), stated: d.chosen.points, actual: d.best.points }));
  if (d.missed) lines.push(t('review.missed', { n: d.missed }));
  if (d.over) lines.push(d.penalty ? t('review.overPenalty', { n: d.over }) : t('review.over', { n: d.over }));
  if (d.taken) lines.push(t('review.taken', { n: d.taken }));
  return lines;
}

function whyBlock(d) {
  const block = h('div', { class: 'why-block' });
  if (d.kind === 'discard') block.append(...discardTable(d));
  else if (d.kind === 'play') block.append(...playTable(d));
  else for (const line of countLines(d)) block.append(h('p', { text: line }));
  if (d.rank !== undefined && d.options) block.append(h('p', { class: 'rank-line', text: t('review.rank', { rank: d.rank, n: d.options }) }));
  return block;
}

// ------------------------------------------------------------------ the table at a moment

/**
 * @param {string[]} cards
 * @param {{id?: string, who?: string, chosen?: string[], best?: string[]}} [options]
 */
function miniCards(cards, { id, who, chosen = [], best = [] } = {}) {
  const row = h('div', { class: 'mini-cards', id });
  cards.forEach((c, i) => {
    if (who) row.append(h('span', { class: 'who', text: who[i] }));
    const el = cardEl(c, { small: true, label: cardName(c) });
    if (chosen.includes(c)) el.classList.add('is-chosen');
    if (best.includes(c)) el.classList.add('is-best');
    row.append(el);
  });
  return row;
}

function momentRow(label, ...content) {
  return h('div', { class: 'row' }, h('span', { class: 'label', text: label }), ...content);
}

/** The cards counted at a count decision: your hand or crib, or the count muggins was called on. */
function countedRows(d, v) {
  if (d.what === 'hand') return [momentRow(t('yourHand'), miniCards(v.kept || [], { id: 'moment-counted' }))];
  if (d.what === 'crib') return [momentRow(t('yourCrib'), miniCards(v.crib || [], { id: 'moment-counted' }))];
  if (d.what === 'muggins' && v.claim) {
    const shown = (v.shown || []).filter((x) => x.seat === v.claim.seat && x.what === v.claim.what);
    const cards = shown.length ? shown[shown.length - 1].cards : [];
    const name = seatName(v.claim.seat);
    const label = v.claim.what === 'crib' ? t('cribOf', { name }) : v.claim.what === 'hand' ? t('handOf', { name }) : name;
    return [momentRow(label, miniCards(cards, { id: 'moment-counted' }), h('span', { text: t('stated', { n: v.claim.points }) }))];
  }
  return [];
}

function momentBlock(d) {
  const v = d.table;
  const section = h('section', { class: 'moment', id: 'moment', 'aria-label': t('review.moment') });
  section.append(h('h3', { text: t('review.moment') }));
  const scores = h('div', { class: 'result-scores moment-scores' });
  v.scores.forEach((score, side) => {
    const el = h('div', { class: 'final-score' }, h('span', { text: sideName(side) }), h('strong', { text: String(score) }));
    el.style.setProperty('--side', colorOf(side));
    scores.append(el);
  });
  const board = h('div', { class: 'board moment-board', id: 'moment-board' });
  section.append(scores, board);
  const chosenCards = d.kind === 'discard' ? d.chosen.discard : d.kind === 'play' ? [d.chosen.card] : [];
  const bestCards = d.kind === 'discard' ? d.best.discard : d.kind === 'play' ? [d.best.card] : [];
  const felt = h('div', { class: 'moment-felt' });
  felt.append(
    momentRow(t('dealer'), h('span', { text: seatName(v.dealer) })),
    momentRow(t('starter'), v.starter ? miniCards([v.starter], { id: 'moment-starter' }) : backEl({ small: true, label: t('starter') })),
  );
  if (d.kind === 'play' || v.sequence.length) {
    felt.append(momentRow(`${t('count')} ${v.count}`, v.sequence.length ? miniCards(v.sequence, { id: 'moment-sequence' }) : h('span', { text: '–' })));
  }
  if (v.played.length) {
    felt.append(momentRow(t('train.played'), miniCards(v.played.map((p) => p.card), { who: v.played.map((p) => seatName(p.seat)) })));
  }
  if (v.discards && v.discards.length && d.kind !== 'discard') felt.append(momentRow(t('train.yourThrow'), miniCards(v.discards)));
  if (d.kind === 'count') felt.append(...countedRows(d, v));
  else felt.append(momentRow(t('yourHand'), miniCards(v.hand, { id: 'moment-hand', chosen: chosenCards, best: bestCards })));
  if (chosenCards.length) {
    felt.append(h('p', { class: 'legend' },
      h('span', { class: 'key is-chosen', text: t('review.yours') }),
      d.rank === 1 ? null : h('span', { class: 'key is-best', text: t('review.best') })));
  }
  section.append(felt);
  return { section, board, v };
}

function drawBoard(container, v) {
  const r = rules();
  const sides = r.sides || v.scores.length;
  const board = new Board(container, {
    target: (R.review && R.review.target) || r.target || 121,
    skunkLine: r.skunk_line ?? 91,
    doubleSkunkLine: r.double_skunk_line ?? null,
    sides,
    colors: Array.from({ length: sides }, (_, side) => colorOf(side)),
    labels: { title: t('boardTitle'), skunk: t('skunkLine'), doubleSkunk: t('doubleSkunkLine'), side: (s) => sideName(s) },
  });
  board.place(v.scores, v.previous_scores || v.scores, false);
}

/** @param {number} index a decision of the review shown */
function select(index) {
  if (!R.review) return;
  R.selected = R.selected === index ? null : index;
  renderTimeline(R.review);
  const item = /** @type {HTMLElement | null} */ (document.querySelector(`.decision[data-index="${index}"]`));
  if (item) item.focus();
}

// ------------------------------------------------------------------ the timeline

/** @param {Json} rv the review shown */
function renderTimeline(rv) {
  const list = $('timeline');
  list.textContent = '';
  const mine = rv.decisions.map((d, i) => [d, i]).filter(([d]) => d.seat === R.seat);
  let boardToDraw = null;
  for (const hand of rv.hands) {
    const totals = (hand.totals || []).find((x) => x.seat === R.seat);
    const head = h('div', { class: 'hand-head' },
      h('strong', { text: t('handN', { n: hand.hand }) }),
      h('span', { text: `${t('dealer')}: ${seatName(hand.dealer)}` }),
      h('span', { class: 'hand-scores', text: `${hand.scores_start.join('–')} → ${hand.scores_end.join('–')}` }));
    const side = sideOf(R.seat);
    if (Array.isArray(hand.win_start)) {
      const end = Array.isArray(hand.win_end) ? pct(hand.win_end[side]) : '…';
      head.append(h('span', { class: 'hand-win', text: `${t('winPts')}: ${pct(hand.win_start[side])} → ${end}` }));
    }
    const item = h('li', { class: 'hand-item', 'data-hand': String(hand.hand) }, head);
    if (totals) {
      item.append(h('p', { class: 'hand-totals' }, givenAwayLines(totals).join(' '), ' ', h('span', { class: 'grades-line', text: gradesLine(totals.grades) })));
    }
    const decisions = mine.filter(([d]) => d.hand === hand.hand);
    if (!decisions.length) item.append(h('p', { class: 'review-note', text: t('review.noDecisions') }));
    const ul = h('ul', { class: 'decisions' });
    for (const [d, i] of decisions) {
      const li = decisionItem(d, i);
      if (R.selected === i) {
        const { section, board, v } = momentBlock(d);
        li.append(whyBlock(d), section);
        boardToDraw = [board, v];
      }
      ul.append(li);
    }
    item.append(ul);
    list.append(item);
  }
  if (boardToDraw) drawBoard(...boardToDraw); // in the document, so that it is sized to its place
}

// ------------------------------------------------------------------ the page

function renderSeats() {
  const pick = $('seat-pick');
  const select = $('seat-select');
  pick.hidden = !R.record || R.seats.length < 2;
  select.textContent = '';
  for (const seat of R.seats) select.append(h('option', { value: String(seat), text: `${t('seatN', { n: seat + 1 })}: ${seatName(seat)}` }));
  if (R.seat !== null) select.value = String(R.seat);
  select.disabled = R.busy;
}

function render() {
  $('review').setAttribute('aria-busy', String(R.busy));
  renderSeats();
  renderError();
  $('review-status').textContent = R.busy ? t('review.loading') : !R.record && !R.error ? t('review.none') : '';
  $('review-body').hidden = !R.review;
  if (!R.review) return;
  renderSummary(R.review);
  renderChart(R.review);
  renderTimeline(R.review);
}

function relabel() {
  relabelPage('review.pageTitle', { 'link-play': '/', 'link-practice': '/practice' });
  render();
}

function start() {
  installSuitSprite();
  startLanguage(relabel);
  $('record-file').addEventListener('change', openFile);
  $('seat-select').addEventListener('change', (e) => requestReview(R.text, Number(e.target.value), R.fromGame));
  $('review-retry').addEventListener('click', () => {
    const again = R.pending || R;
    if (again.text) requestReview(again.text, again.seat, again.fromGame);
  });
  relabel();
  const saved = loadSession();
  R.local = !!(saved && saved.local);
  if (saved) requestReview(saved.text, saved.seat, saved.fromGame);
}

/** @type {any} */ (window).cribbageReview = R; // for the browser tests: the record, the review and the decision shown
keepOffline();  // the service worker: the pages open offline after one visit
start();
