// @ts-check
// The how-to page: one article per language, every example counted live by the server
// (POST /api/score for a hand or crib, POST /api/peg for a row of the play), its combinations
// highlighted one after another, and a box to score any hand.

import { scorePeg, scoreShow } from '../shared/api.js';
import { $, h } from '../shared/dom.js';
import { backEl, cardEl, cardText, installSuitSprite, parseCard } from '../shared/cards.js';
import {
  cardName, comboLine, errorText, getLang, relabelPage, startLanguage, t,
} from '../shared/i18n.js';
import { keepOffline } from '../shared/offline.js';



const split = (text) => String(text || '').split(/[\s,;]+/).filter(Boolean);

/** Tidy what a visitor typed ("10h", "5♥") into the API's form ("TH", "5H"); unknown text is kept. */
function normalise(token) {
  const symbols = { '♣': 'C', '♦': 'D', '♥': 'H', '♠': 'S', '♧': 'C', '♢': 'D', '♡': 'H', '♤': 'S' };
  const s = token.replace(/[♣♦♥♠♧♢♡♤]/g, (m) => symbols[m]).replace(/\uFE0E|\uFE0F/g, '');
  const card = parseCard(s);
  return card ? card.text : token;
}

function cardRow(cards, starter) {
  const row = h('div', { class: 'ex-cards' });
  for (const c of cards) row.append(parseCard(c) ? cardEl(c, { label: cardName(c) }) : backEl());
  if (starter) {
    const el = cardEl(starter, { label: `${t('starter')}: ${cardName(starter)}` });
    el.classList.add('is-starter');
    row.append(h('span', { class: 'starter-wrap' }, el, h('small', { text: t('starter') })));
  }
  return row;
}

function highlight(box, cards) {
  const set = new Set(cards || []);
  for (const el of box.querySelectorAll('.ex-cards .card')) el.classList.toggle('hl', set.has(el.dataset.card));
}

/** The explained result: every combination with a running total, then the total. */
function resultBlock(box, combos, total, extra) {
  const list = h('ol', { class: 'combo-list' });
  let running = 0;
  combos.forEach((c, i) => {
    running += c.points;
    const li = h('li', { tabindex: 0, 'data-i': i },
      h('span', { class: 'combo-name', text: comboLine(c.kind, c.points, c.cards.length) }),
      h('span', { class: 'combo-cards', text: c.cards.map(cardText).join(' ') }),
      h('span', { class: 'combo-total', text: String(running) }));
    const on = () => { highlight(box, c.cards); li.classList.add('active'); };
    const off = () => { highlight(box, []); li.classList.remove('active'); };
    li.addEventListener('mouseenter', on);
    li.addEventListener('mouseleave', off);
    li.addEventListener('focus', on);
    li.addEventListener('blur', off);
    list.append(li);
  });
  if (!combos.length) list.append(h('li', { class: 'nineteen', text: t('howto.noPoints') }));
  const result = h('div', { class: 'ex-result' }, list,
    h('p', { class: 'entry-total' }, h('span', { text: extra || t('total') }), ' ', h('strong', { class: 'ex-total', text: String(total) })));
  if (combos.length) {
    result.append(h('button', { type: 'button', class: 'secondary replay', text: `▶ ${t('howto.replay')}`, onclick: () => replay(box, list, combos) }));
  }
  return result;
}

async function replay(box, list, combos) {
  if (box.dataset.playing) return;
  box.dataset.playing = '1';
  const items = [...list.children];
  for (let i = 0; i < combos.length; i++) {
    items.forEach((li, j) => li.classList.toggle('active', j === i));
    highlight(box, combos[i].cards);
    await new Promise((r) => setTimeout(r, 900));
  }
  items.forEach((li) => li.classList.remove('active'));
  highlight(box, []);
  delete box.dataset.playing;
}

/** An error in the reader's language: the server's code with its values, worded here. */
function showError(box, err) {
  box.append(h('p', { class: 'error', role: 'alert', text: t('said', { who: t('errorPrefix'), what: errorText(err) }) }));
}

/** Fill one example box from its data attributes (data-hand + data-starter [+ data-crib], or data-peg). */
async function renderExample(box) {
  if (box.dataset.rendered === getLang()) return;
  box.dataset.rendered = getLang();
  const caption = box.querySelector('.ex-caption');
  box.textContent = '';
  if (caption) box.append(caption);
  const peg = box.dataset.peg;
  try {
    if (peg) {
      const cards = split(peg);
      box.append(cardRow(cards, null));
      const play = await scorePeg(cards);
      box.append(resultBlock(box, play.combos, play.points, `${t('howto.countIs', { n: play.count })} · ${t('howto.lastCard')}`));
    } else {
      const hand = split(box.dataset.hand);
      const starter = box.dataset.starter;
      const crib = box.dataset.crib === 'true';
      box.append(cardRow(hand, starter));
      const show = await scoreShow(hand, starter, crib);
      box.append(resultBlock(box, show.combos, show.total, crib ? `${t('crib')} · ${t('total')}` : t('total')));
    }
  } catch (err) {
    showError(box, err);
  }
}

function showArticle() {
  const lang = getLang();
  let shown = null;
  for (const article of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('main > article'))) {
    const on = article.lang === lang;
    article.hidden = !on;
    if (on) shown = article;
  }
  relabelPage('howto.title', { 'link-play': '/' });
  if (shown) for (const box of shown.querySelectorAll('.example')) renderExample(box);
}

async function tryHand(event) {
  event.preventDefault();
  const box = $('try-result');
  box.hidden = false;
  box.textContent = t('howto.loading');
  const hand = split($('try-hand').value).map(normalise);
  const starter = normalise($('try-starter').value.trim());
  const crib = $('try-crib').checked;
  try {
    const show = await scoreShow(hand, starter, crib);
    box.textContent = '';
    box.append(cardRow(show.hand, show.starter), resultBlock(box, show.combos, show.total, crib ? `${t('crib')} · ${t('total')}` : t('total')));
  } catch (err) {
    box.textContent = '';
    box.append(cardRow(hand.filter((c) => parseCard(c)), parseCard(starter) ? starter : null));
    showError(box, err);
  }
}

function start() {
  installSuitSprite();
  startLanguage(showArticle);
  $('try-form').addEventListener('submit', tryHand);
  showArticle();
}

keepOffline();  // the service worker: the pages open offline after one visit
start();
