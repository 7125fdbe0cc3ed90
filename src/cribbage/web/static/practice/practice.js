// @ts-check
// The practice page: the discard drill and the play drill of docs/api.md ("Trainers").
// The server deals each drill from a seed and judges the answer from the same seed (nothing is
// stored there); this page shows the cards, takes the clicks, shows every choice ranked with the
// loss, and keeps a running tally in localStorage, like the game page's statistics.

import { trainDiscard, trainDiscardAnswer, trainPlay, trainPlayAnswer } from '../shared/api.js';
import { cardEl, cardText, installSuitSprite } from '../shared/cards.js';
import { $, h, loadJSON as load, saveJSON as save } from '../shared/dom.js';
import {
  cardName, errorText, numText, reasonsLine, relabelPage, startLanguage, t,
} from '../shared/i18n.js';
import { keepOffline } from '../shared/offline.js';

const LS_DRILL = 'cribbage.train.drill';
const LS_SIDE = 'cribbage.train.side';
const LS_TALLY = 'cribbage.train.tally';
const LS_SCORES = 'cribbage.train.scores';
const DRILLS = ['discard', 'play'];



// ------------------------------------------------------------------ the tally

const emptyTally = () => ({ decisions: 0, best: 0, pointDecisions: 0, pointsLost: 0, winDecisions: 0, winLost: 0 });

function loadTally() {
  const stored = load(LS_TALLY, {});
  const tally = {};
  for (const drill of DRILLS) tally[drill] = { ...emptyTally(), ...(stored[drill] || {}) };
  return tally;
}

/** Count one judged answer (its loss, and whether it was ranked by the chance of winning). */
function addToTally(drill, answer) {
  const tally = loadTally();
  const one = tally[drill];
  one.decisions += 1;
  if (answer.best) one.best += 1;
  if (answer.ranked_by === 'win') { one.winDecisions += 1; one.winLost += answer.loss; }
  else { one.pointDecisions += 1; one.pointsLost += answer.loss; }
  save(LS_TALLY, tally);
}

const pct = (x) => `${numText(100 * x, 1)}%`;

function renderTally() {
  const tally = loadTally();
  /** @type {[string, (s: ReturnType<typeof emptyTally>) => string][]} */
  const rows = [
    ['train.decisions', (s) => String(s.decisions)],
    ['train.bestShare', (s) => (s.decisions ? `${s.best} (${Math.round((100 * s.best) / s.decisions)}%)` : '–')],
    ['train.avgLoss', (s) => (s.pointDecisions ? numText(s.pointsLost / s.pointDecisions) : '—')],
    ['train.avgWinLoss', (s) => (s.winDecisions ? pct(s.winLost / s.winDecisions) : '–')],
  ];
  const table = h('table', { class: 'tally-table', id: 'tally-table' },
    h('thead', {}, h('tr', {}, h('th', {}), ...DRILLS.map((d) => h('th', { scope: 'col', text: t(`train.${d}Tab`) })))),
    h('tbody', {}, ...rows.map(([key, cell]) => h('tr', { 'data-row': key },
      h('th', { scope: 'row', text: t(key) }),
      ...DRILLS.map((d) => h('td', { 'data-drill': d, text: cell(tally[d]) }))))),
    h('caption', { text: t('train.tallyNote') }));
  $('tally-body').replaceChildren(table);
}

function resetTally() {
  if (!window.confirm(t('train.resetConfirm'))) return;
  save(LS_TALLY, {});
  renderTally();
}

// ------------------------------------------------------------------ the drills

/**
 * A drill as the server dealt it (the discard drill's deal or the play drill's position), or its
 * judged answer: the JSON objects of docs/api.md ("Trainers"), read as they come.
 * @typedef {Record<string, any>} Drill
 */

/**
 * The page's state.
 * @type {{ drill: string, deal: Drill | null, answer: Drill | null, selected: string[], busy: boolean, ticket: number }}
 */
const S = {
  drill: DRILLS.includes(load(LS_DRILL, 'discard')) ? load(LS_DRILL, 'discard') : 'discard',
  deal: null, // the discard drill's deal, or the play drill's position
  answer: null, // the judged answer, once given
  selected: [],
  busy: false,
  ticket: 0, // the latest request: answers to earlier ones are dropped
};

function showError(err) {
  const box = $('drill-error');
  box.hidden = !err;
  box.textContent = err ? t('said', { who: t('errorPrefix'), what: errorText(err) }) : '';
}

function miniCards(cards, who) {
  const row = h('span', { class: 'mini-cards' });
  cards.forEach((c, i) => {
    if (who) row.append(h('span', { class: 'who', text: who[i] }));
    row.append(cardEl(c, { small: true, label: cardName(c) }));
  });
  return row;
}

function infoRow(label, ...content) {
  return h('div', { class: 'row' }, h('span', { class: 'label', text: label }), ...content);
}

function renderInfo() {
  const info = $('drill-info');
  const d = S.deal;
  info.textContent = '';
  if (!d) return;
  if (S.drill === 'discard') {
    const own = d.side === 'dealer';
    info.append(infoRow(t(`variant.${d.variant}`), h('span', { text: own ? t('train.roleDealer') : t('train.rolePone') })));
    if (d.scores) info.append(infoRow(t('scores'), h('span', { text: t('train.scoresLine', { mine: d.scores[0], theirs: d.scores[1], target: d.target }) })));
    return;
  }
  const mine = d.scores[d.seat], theirs = d.scores[1 - d.seat];
  const role = d.dealer === d.seat ? t('train.roleDealer') : t('train.rolePone');
  info.append(
    infoRow(t('handN', { n: d.hand_number }), h('span', { text: role })),
    infoRow(t('scores'), h('span', { text: t('train.scoresLine', { mine, theirs, target: d.target }) })),
    infoRow(t('starter'), miniCards(d.starter ? [d.starter] : []), h('span', { class: 'label', text: t('train.yourThrow') }), miniCards(d.discards)),
    infoRow(t('train.played'), d.played.length
      ? miniCards(d.played.map((p) => p.card), d.played.map((p) => (p.seat === d.seat ? t('you') : t('train.opponent'))))
      : h('span', { text: t('train.nothing') })),
    infoRow(`${t('count')} ${d.count}`, miniCards(d.sequence)),
    infoRow(t('train.opponentHolds', { n: d.held[1 - d.seat] })),
  );
}

function renderHand() {
  const d = S.deal;
  const hand = $('drill-hand');
  hand.textContent = '';
  if (!d) return;
  hand.style.setProperty('--n', String(d.hand.length));
  const legal = S.drill === 'play' ? new Set(d.legal) : null;
  for (const c of d.hand) {
    const el = cardEl(c, { tag: 'button', label: cardName(c) });
    const playable = !legal || legal.has(c);
    el.classList.add(playable ? 'playable' : 'unplayable');
    el.classList.toggle('selected', S.selected.includes(c));
    el.toggleAttribute('disabled', !playable || !!S.answer || S.busy);
    el.addEventListener('click', () => pick(c));
    hand.append(el);
  }
  const wanted = S.drill === 'discard' ? d.discard : 1;
  $('drill-submit').disabled = S.busy || !!S.answer || S.selected.length !== wanted;
  $('drill-submit').textContent = t(S.drill === 'discard' ? 'train.throw' : 'play');
  $('drill-prompt').textContent = S.answer ? ''
    : S.drill === 'discard'
      ? t('train.discardPrompt', { n: d.discard, own: d.side === 'dealer' })
      : t('train.playPrompt', { count: d.count });
}

/** @param {string} card */
function pick(card) {
  if (!S.deal || S.answer || S.busy) return;  // a card of the hand shown: there is a deal
  const wanted = S.drill === 'discard' ? S.deal.discard : 1;
  if (S.selected.includes(card)) S.selected = S.selected.filter((c) => c !== card);
  else if (wanted === 1) S.selected = [card];
  else if (S.selected.length < wanted) S.selected = [...S.selected, card];
  renderHand();
}

const fmt = (x) => numText(x);
const signed = (x) => numText(x, 2, true);

function renderResult() {
  const box = $('drill-result');
  const a = S.answer;
  box.hidden = !a;
  if (!a) return;
  const verdict = $('result-verdict');
  verdict.className = `verdict ${a.best ? 'is-best' : 'is-loss'}`;
  verdict.textContent = a.best ? t('train.best')
    : a.ranked_by === 'win' ? t('train.lossWin', { x: pct(a.loss) }) : t('train.lossPts', { x: fmt(a.loss) });
  const wins = a.ranked_by === 'win';
  const lowball = (S.drill === 'discard' ? a.deal : a.position).lowball;
  const notes = [S.drill === 'discard' ? t('train.keepNote') : t('train.valueNote')];
  if (wins) notes.push(S.drill === 'discard' ? t('train.winNote') : t('hintPlayWinNote'));
  if (lowball) notes.push(S.drill === 'discard' ? t('hintLowballNote') : t('hintPlayLowballNote'));
  $('result-note').textContent = notes.join(' ');
  const table = $('result-table');
  table.textContent = '';
  const you = () => h('span', { class: 'you', text: t('train.you') });
  if (S.drill === 'discard') {
    const own = a.deal.dealer;
    table.append(h('thead', {}, h('tr', {},
      h('th', { text: '#' }), h('th', { text: t('train.colThrow') }), h('th', { text: t('handPts') }),
      h('th', { text: t('crib') }), h('th', { text: t('train.colPlay') }), h('th', { text: t('totalPts') }),
      wins ? h('th', { text: t('train.colWin') }) : null)));
    const body = h('tbody');
    a.options.forEach((o, i) => {
      const crib = own ? o.crib : -o.crib;
      const total = o.hand + crib + o.pegging; // the player's points, in lowball too
      body.append(h('tr', { class: [i === a.chosen ? 'chosen' : '', i === 0 ? 'best' : ''].join(' ').trim() || null },
        h('td', { text: String(i + 1) }),
        h('td', {}, h('span', { class: 'cards', text: o.discard.map(cardText).join(' ') }), i === a.chosen ? you() : null,
          h('span', { class: 'keep', title: t('keep'), text: o.keep.map(cardText).join(' ') })),
        h('td', { text: fmt(o.hand) }), h('td', { text: signed(crib) }), h('td', { text: signed(o.pegging) }),
        h('td', { text: fmt(total) }),
        wins ? h('td', { text: pct(o.win) }) : null));
    });
    table.append(body);
    return;
  }
  table.append(h('thead', {}, h('tr', {},
    h('th', { text: '#' }), h('th', { text: t('train.colCard') }), h('th', { text: t('train.colValue') }),
    wins ? h('th', { text: t('train.colWin') }) : null)));
  const body = h('tbody');
  a.options.forEach((o, i) => {
    const value = lowball ? -o.value : o.value;
    body.append(h('tr', { class: [i === a.chosen ? 'chosen' : '', i === 0 ? 'best' : ''].join(' ').trim() || null },
      h('td', { text: String(i + 1) }),
      h('td', {}, h('span', { class: 'cards', text: cardText(o.card) }), i === a.chosen ? you() : null,
        h('span', { class: 'why', text: reasonsLine(o.reasons) })),
      h('td', { text: signed(value) }),
      wins ? h('td', { text: pct(o.win) }) : null));
  });
  table.append(body);
}

function render() {
  for (const d of DRILLS) $(`tab-${d}`).setAttribute('aria-pressed', String(S.drill === d));
  $('discard-options').hidden = S.drill !== 'discard';
  renderInfo();
  renderHand();
  renderResult();
  renderTally();
}

/**
 * Run a request: ``work`` resolves to a function that applies its result.  Only the latest
 * request is applied (a drill dealt while another was coming is the one shown).
 */
async function busy(work) {
  const ticket = ++S.ticket;
  S.busy = true;
  $('practice').setAttribute('aria-busy', 'true');
  renderHand();
  let failure = null;
  let apply = null;
  try {
    apply = await work();
  } catch (err) {
    failure = err;
  }
  if (ticket !== S.ticket) return;
  if (apply) apply();
  showError(failure);
  S.busy = false;
  $('practice').setAttribute('aria-busy', 'false');
  render();
}

function newDrill() {
  S.answer = null;
  S.selected = [];
  const drill = S.drill;
  return busy(async () => {
    const deal = drill === 'discard'
      ? await trainDiscard({ side: $('side-select').value || null, scores: chosenScores() })
      : await trainPlay({});
    return () => { S.deal = deal; };
  });
}

function submit() {
  const d = S.deal;
  const drill = S.drill;
  if (!d || S.answer || S.busy) return undefined;
  const chosen = [...S.selected];
  return busy(async () => {
    const answer = drill === 'discard'
      ? await trainDiscardAnswer({ seed: d.seed, variant: d.variant, side: d.side, scores: d.scores, throw: chosen })
      : await trainPlayAnswer({ seed: d.seed, variant: d.variant, card: chosen[0] });
    return () => {
      S.answer = answer;
      addToTally(drill, answer);
    };
  });
}

/** The scores chosen for the discard drill: [yours, theirs], or null (the server checks them). */
function chosenScores() {
  if (!$('score-on').checked) return null;
  // Anything but a whole number is sent as -1, which the server refuses naming the scores.
  return [$('score-mine'), $('score-theirs')].map((el) => {
    const n = el.value.trim() === '' ? NaN : Number(el.value);
    return Number.isInteger(n) ? n : -1;
  });
}

function scoresChanged() {
  $('score-inputs').classList.toggle('is-off', !$('score-on').checked);
  save(LS_SCORES, { on: $('score-on').checked, mine: $('score-mine').value, theirs: $('score-theirs').value });
  if (S.drill === 'discard') newDrill();
}

function choose(drill) {
  if (drill === S.drill) return;
  S.drill = drill;
  save(LS_DRILL, drill);
  S.deal = null;
  S.answer = null;
  S.selected = [];
  render();
  newDrill();
}

function relabel() {
  relabelPage('train.pageTitle', { 'link-play': '/', 'link-howto': '/howto', 'link-review': '/review' });
  render();
}

function start() {
  installSuitSprite();
  startLanguage(relabel);
  for (const d of DRILLS) $(`tab-${d}`).addEventListener('click', () => choose(d));
  $('side-select').value = load(LS_SIDE, '') || '';
  $('side-select').addEventListener('change', (e) => { save(LS_SIDE, e.target.value); newDrill(); });
  const scores = load(LS_SCORES, /** @type {{on?: boolean, mine?: string, theirs?: string}} */ ({}));
  $('score-on').checked = !!scores.on;
  if (scores.mine !== undefined) $('score-mine').value = scores.mine;
  if (scores.theirs !== undefined) $('score-theirs').value = scores.theirs;
  $('score-inputs').classList.toggle('is-off', !$('score-on').checked);
  for (const id of ['score-on', 'score-mine', 'score-theirs']) $(id).addEventListener('change', scoresChanged);
  $('drill-submit').addEventListener('click', submit);
  $('drill-next').addEventListener('click', newDrill);
  $('tally-reset').addEventListener('click', resetTally);
  relabel();
  newDrill();
}

/** @type {any} */ (window).cribbagePractice = S; // for the browser tests: the drill shown and its answer
keepOffline();  // the service worker: the pages open offline after one visit
start();
