// @ts-check
// The game page's table (a view of the store): the board and scores, the other seats, the starter,
// crib and count, the player's hand, the prompt and its controls, and the show panel with its
// count and muggins forms.  What a control does is the session's (store.actions).

import { backEl, cardEl, cardText, sortCards } from '../shared/cards.js';
import { Board } from '../shared/board.js';
import { $, h } from '../shared/dom.js';
import { cardName, comboLine, getLang, t } from '../shared/i18n.js';
import { renderTablePanel } from './view-panels.js';
import { cribCount, inPlaceOrder, placeColor } from '../shared/display.js';
import { claimRange, playableCards } from './actions.js';
import {
  S, actions, decisionNow, discardCount, handCards, isMine, isPeople, me, mySide, needsClaim, partners, players,
  seatPlaces, setBoard, setPlayCard, shownState, sideColor, sideOf, sidePlaces, skipReplay, spectating, table, templates, view,
} from './store.js';
import { countingText, levelLabel, matchScore, resultHeadline, seatName, sideName, variantLabel, waitingText, whose } from './words.js';

// ------------------------------------------------------------------ rendering

export function ensureBoard() {
  const v = view();
  const key = `${v.target}/${v.scores.length}/${getLang()}/${players()}/${me()}`;
  if (S.board && S.boardKey === key) return;
  setBoard(new Board($('board'), {
    target: v.target,
    skunkLine: v.rules.skunk_line,
    doubleSkunkLine: v.rules.double_skunk_line,
    sides: v.scores.length,
    colors: sidePlaces().map(([place]) => placeColor(place)),
    labels: {
      title: t('boardTitle'),
      skunk: t('skunkLine'),
      doubleSkunk: t('doubleSkunkLine'),
      side: (track) => sideName(sidePlaces()[track][1]),
    },
  }), key);
  placePegs(table(), false);
}

/**
 * The pegs at a display's scores: the board's tracks are the sides' places, the page's own first.
 * @param {import('../shared/display.js').Display} D
 * @param {boolean} animate
 */
export function placePegs(D, animate) {
  if (S.board) S.board.place(inPlaceOrder(D.scores, mySide()), inPlaceOrder(D.prev, mySide()), animate);
}

export function render(animate = true) {
  if (!S.state) return;
  ensureBoard();
  placePegs(table(), animate);
  renderScoreboard();
  renderOpponents();
  renderCenter();
  renderHand();
  renderControls();
  renderTablePanel();
}

export function renderScoreboard() {
  const D = table(), v = view();
  const board = $('scoreboard');
  board.textContent = '';
  for (const [place, side] of sidePlaces()) {
    const dealerHere = D.dealer !== null && D.dealer !== undefined && sideOf(D.dealer) === side;
    board.append(h('div', { class: `score-chip${place === 0 ? ' mine' : ''}`, style: { '--side': placeColor(place) }, 'data-side': side },
      h('span', { class: 'dot', 'aria-hidden': 'true' }),
      h('span', { class: 'chip-name', text: sideName(side) }),
      h('strong', { class: 'chip-score', text: String(D.scores[side]), 'data-testid': `score-${side}` }),
      dealerHere ? h('span', { class: 'badge dealer', title: t('dealer'), text: t('dealerShort') }) : null));
  }
  const st = shownState();
  const o = st.options || {};
  // The computers' strengths, only where computers play (a table of people has none).
  const levels = new Set((st.seats || []).filter((x) => x.kind === 'computer').map((x) => x.level || o.level));
  $('game-info').textContent = [
    matchScore(st.match), variantLabel(v.variant), t('targetN', { n: v.target }),
    D.handNumber ? t('handN', { n: D.handNumber }) : null,
    levels.size ? [...levels].map(levelLabel).join(t('listSep')) : null, countingText(o),
  ].filter(Boolean).join(' · ');
}

export function renderOpponents() {
  const D = table();
  const box = $('opponents');
  box.textContent = '';
  box.dataset.count = String(players() - 1);
  for (const [place, seat] of seatPlaces().slice(1)) {
    const side = sideOf(seat);
    const backs = h('div', { class: 'backs', role: 'img', 'aria-label': t('cardsHeld', { n: D.held[seat] ?? 0 }) });
    for (let i = 0; i < (D.held[seat] ?? 0); i++) backs.append(backEl({ small: true }));
    const played = h('div', { class: 'played-pile' });
    const inSeq = new Set(D.sequence.map((s) => s.card));
    for (const p of D.played) {
      if (p.seat === seat && !inSeq.has(p.card)) played.append(cardEl(p.card, { small: true, label: cardName(p.card) }));
    }
    box.append(h('div', { class: `seat seat-${seat}${D.dealer === seat ? ' is-dealer' : ''}`, style: { '--side': sideColor(side) }, 'data-seat': seat, 'data-place': place },
      h('div', { class: 'seat-head' },
        h('span', { class: 'seat-name', text: seatName(seat) }),
        partners() && side === mySide() ? h('span', { class: 'badge partner', text: t('partner') }) : null,
        D.dealer === seat ? h('span', { class: 'badge dealer', text: t('dealer') }) : null,
        view().to_act === seat && !shownState().over ? h('span', { class: 'badge turn', text: '…' }) : null),
      backs, played,
      h('div', { class: 'bubble', id: `bubble-${seat}`, hidden: true })));
  }
  $('me-name').textContent = seatName(me());
  $('me-name').style.setProperty('--side', placeColor(0));
  const badges = $('me-badges');
  badges.textContent = '';
  if (D.dealer === me()) badges.append(h('span', { class: 'badge dealer', text: t('dealer') }));
  badges.append(h('span', { class: 'bubble', id: `bubble-${me()}`, hidden: true }));
}

export function renderCenter() {
  const D = table();
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
    const c = cardEl(card, { label: seat === null ? cardName(card) : `${cardName(card)} (${seatName(seat)})` });
    c.style.setProperty('--side', sideColor(sideOf(seat ?? me())));
    c.classList.add('seq-card');
    if (S.highlight.has(card)) c.classList.add('hl');
    seq.append(c);
  }
  if (showing) renderShow();
}

export function renderHand() {
  const D = table();
  const hand = $('hand');
  hand.textContent = '';
  if (spectating()) {  // a spectator sees seat 0's cards as every seat's: face down, then played
    const seat = me();
    const backs = h('div', { class: 'backs', role: 'img', 'aria-label': t('cardsHeld', { n: D.held[seat] ?? 0 }) });
    for (let i = 0; i < (D.held[seat] ?? 0); i++) backs.append(backEl({}));
    const inSeq = new Set(D.sequence.map((x) => x.card));
    const played = h('div', { class: 'played-pile' });
    for (const p of D.played) {
      if (p.seat === seat && !inSeq.has(p.card)) played.append(cardEl(p.card, { small: true, label: cardName(p.card) }));
    }
    hand.append(backs, played);
    return;
  }
  const kind = S.busy ? null : decisionNow();
  const playable = new Set(playableCards(templates()));
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
      el.addEventListener('click', () => actions.toggleSelect(card));
    } else if (kind === 'play' && playable.has(card)) {
      el.classList.add('playable');
      el.addEventListener('click', () => actions.playCard(card));
    } else {
      el.toggleAttribute('disabled', true);
      if (kind === 'play' && !played) el.classList.add('unplayable');
    }
    hand.append(el);
  });
}

export function renderControls() {
  const kind = S.busy ? null : decisionNow();
  const v = view();
  const prompt = $('prompt');
  const confirm = $('btn-confirm');
  confirm.hidden = true;
  confirm.disabled = false;
  $('btn-hint').disabled = !(kind === 'discard' || kind === 'play');
  $('btn-hint').hidden = spectating();  // a spectator has no decision to be advised on
  const over = shownState().over;
  $('btn-result').hidden = !over || S.busy;
  $('game').setAttribute('aria-busy', S.busy ? 'true' : 'false');
  const claimBar = $('claim-bar');
  claimBar.hidden = true;
  if (over && !S.busy) {
    prompt.textContent = resultHeadline(shownState().result);
  } else if (!kind) {
    prompt.textContent = S.continueResolve ? t('pressContinue')
      : isPeople() && !over ? waitingText() : (S.busy ? t('waiting') : '');
  } else if (kind === 'discard') {
    const need = discardCount();
    prompt.textContent = t('chooseDiscard', { n: need, crib: whose(v.dealer, 'crib'), own: isMine(v.dealer), name: seatName(v.dealer) });
    confirm.hidden = false;
    confirm.textContent = `${t('toCrib')} (${S.selected.size}/${need})`;
    confirm.disabled = S.selected.size !== need;
  } else if (kind === 'play') {
    prompt.textContent = t('yourPlay', { count: table().count });
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

export function comboRow(c, running, active) {
  return h('li', { class: active ? 'active new' : '' },
    h('span', { class: 'combo-name', text: comboLine(c.kind, c.points, c.n ?? c.cards.length) }),
    h('span', { class: 'combo-cards', text: c.cards.map(cardText).join(' ') }),
    h('span', { class: 'combo-total', text: String(running) }));
}

export function renderShow() {
  const panel = $('show-panel');
  panel.textContent = '';
  const show = S.show;
  if (!show) return;
  panel.append(h('h2', { class: 'show-title', text: t('theShow') }));
  const entries = show.entries;
  const current = entries[entries.length - 1];
  const summary = h('ul', { class: 'show-summary' });
  for (const e of entries.slice(0, -1)) {
    const total = e.combos.reduce((a, c) => a + c.points, 0);
    summary.append(h('li', { style: { '--side': sideColor(e.side) } },
      h('span', { text: whose(e.seat, e.what) }),
      h('strong', { text: String(total) }),
      e.claim !== null ? h('small', { text: ` (${t('stated', { n: e.claim })})` }) : null));
  }
  if (summary.children.length) panel.append(summary);
  if (current) panel.append(renderEntry(current));
  if (S.continueResolve) {
    panel.append(h('div', { class: 'show-continue' },
      h('button', { type: 'button', class: 'primary', id: 'btn-continue', onclick: () => S.continueResolve && S.continueResolve() },
        view().phase === 'over' || shownState().over ? t('seeResult') : t('continue'), ' ', h('kbd', { text: 'Enter' }))));
  } else if (S.busy) {
    panel.append(h('div', { class: 'show-continue' },
      h('button', { type: 'button', class: 'secondary', id: 'btn-skip', onclick: () => skipReplay() }, t('skip'))));
  }
}

export function renderEntry(e) {
  const box = h('section', { class: 'show-entry', style: { '--side': sideColor(e.side) }, 'aria-live': 'polite' });
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
  if (e.awaiting && !S.busy && decisionNow() === 'muggins') box.append(mugginsForm(e.claim ?? 0));
  return box;
}

/**
 * The range of the points stated in a form of `kind` (the templates', else `fallback` while the
 * seat has no such decision), set as its input's min and max.
 * @param {'play' | 'count' | 'muggins'} kind
 * @param {{min: number, max: number}} fallback
 */
function pointsRange(kind, fallback) {
  return claimRange(templates(), kind) ?? fallback;
}

/**
 * Send an action with the whole number of points typed in input (within its min and max) when
 * form is submitted; anything else leaves the focus in the input.
 * @param {HTMLFormElement} form
 * @param {HTMLInputElement} input
 * @param {'count' | 'muggins'} type  the action's
 */
function sendPoints(form, input, type) {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const n = Number.parseInt(input.value, 10);
    if (!Number.isFinite(n) || n < Number(input.min) || n > Number(input.max)) { input.focus(); return; }
    actions.send({ type, points: n });
  });
}

/** The form of the player's own count in the show. */
export function countForm(e) {
  const { min, max } = pointsRange('count', { min: 0, max: 60 });
  const input = h('input', { type: 'number', id: 'count-input', min, max, inputmode: 'numeric', required: true, 'aria-label': t('yourCount') });
  const form = h('form', { class: 'count-form' },
    h('label', { for: 'count-input', text: e.what === 'crib' ? t('howManyCrib') : t('howManyHand') }),
    input,
    h('button', { type: 'submit', class: 'primary', id: 'btn-count', text: t('countButton') }));
  sendPoints(form, input, 'count');
  setTimeout(() => { form.scrollIntoView({ block: 'nearest' }); input.focus({ preventScroll: true }); }, 0);
  return form;
}

/** The decision on a stated count: let it stand, or call muggins for the points missed. */
export function mugginsForm(claim) {
  const { min, max } = pointsRange('muggins', { min: 1, max: 60 });
  const input = h('input', { type: 'number', id: 'muggins-input', min, max, value: 2, inputmode: 'numeric', 'aria-label': t('missedPoints') });
  const form = h('form', { class: 'muggins-form' },
    h('button', { type: 'button', class: 'secondary', id: 'btn-pass', onclick: () => actions.send({ type: 'pass' }), text: t('letStand') }),
    h('span', { class: 'or', text: t('or') }),
    h('label', { for: 'muggins-input', text: t('missedPoints') }),
    input,
    h('button', { type: 'submit', class: 'primary', id: 'btn-muggins', text: t('callMuggins') }));
  sendPoints(form, input, 'muggins');
  form.dataset.claim = String(claim);
  return form;
}

export function renderPlayMugginsBar() {
  const bar = $('claim-bar');
  bar.hidden = false;
  bar.textContent = '';
  const v = view();
  const c = v.claim;  // the stated count: its card is the last one played
  const last = (v.played || [])[(v.played || []).length - 1];
  if (c && last) bar.append(h('p', { text: t('playClaim', { name: seatName(c.seat), card: cardText(last.card), n: c.points }) }));
  bar.append(mugginsForm(c ? c.points : 0));
}

export function renderClaimBar() {
  const bar = $('claim-bar');
  bar.hidden = false;
  bar.textContent = '';
  const { min, max } = pointsRange('play', { min: 0, max: 60 });
  const input = h('input', { type: 'number', id: 'claim-input', min, max, value: 0, inputmode: 'numeric' });
  const form = h('form', { class: 'claim-form' },
    h('label', { for: 'claim-input', text: t('claimFor', { card: cardText(S.playCard) }) }),
    input,
    h('button', { type: 'submit', class: 'primary', text: t('play') }),
    h('button', { type: 'button', class: 'secondary', text: t('cancel'), onclick: () => { setPlayCard(null); render(false); } }));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const n = Number.parseInt(input.value, 10) || 0;
    if (n < min || n > max) { input.focus(); return; }
    const card = S.playCard;
    setPlayCard(null);
    actions.send({ type: 'play', card, claim: n });
  });
  bar.append(form);
  setTimeout(() => input.select(), 0);
}

/** When the player must act, the cards, the count and the buttons are brought on screen (they fit
 * one screen together at 390x844 and 1280x800); nothing moves when they are already there. */
export function bringActionIntoView() {
  const kind = decisionNow();
  if (kind === 'discard' || kind === 'play') {
    document.querySelector('.controls .buttons')?.scrollIntoView({ block: 'nearest' });
    $('center').scrollIntoView({ block: 'nearest' });
  } else if (kind === 'muggins') {
    // The decision on a stated count: its form, in the show or under the table.
    const form = document.querySelector('.muggins-form');
    if (form) form.scrollIntoView({ block: 'nearest' });
  }
}
