// @ts-check
// Playing cards drawn with HTML, CSS and inline SVG suit symbols: crisp at any size, no images.
// A card is written as in the API: rank A 2-9 T J Q K, then suit C D H S ("TD" is the ten of diamonds).

const SVG_NS = 'http://www.w3.org/2000/svg';

export const RANKS = 'A23456789TJQK';
export const SUITS = 'CDHS';

// Suit outlines in a 100 x 100 box, drawn once in a hidden sprite and reused with <use>.
const SUIT_PATHS = {
  H: 'M50 92C24 70 4 52 4 30 4 14 16 4 29 4c10 0 17 6 21 14C54 10 61 4 71 4c13 0 25 10 25 26 0 22-20 40-46 62z',
  D: 'M50 3 88 50 50 97 12 50z',
  S: 'M50 4C28 28 6 42 6 62c0 14 10 23 22 23 9 0 15-5 19-11-1 10-5 18-13 23h32c-8-5-12-13-13-23 4 6 10 11 19 11 12 0 22-9 22-23C94 42 72 28 50 4z',
  C: 'M50 6a21 21 0 0 0-17 33A21 21 0 1 0 46 74c-1 9-5 16-12 21h32c-7-5-11-12-12-21a21 21 0 1 0 13-35A21 21 0 0 0 50 6z',
};

/** Put the suit symbols into the document once (call before drawing cards). */
export function installSuitSprite(doc = document) {
  if (doc.getElementById('suit-sprite')) return;
  const svg = doc.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('id', 'suit-sprite');
  svg.setAttribute('aria-hidden', 'true');
  svg.style.display = 'none';
  for (const [suit, d] of Object.entries(SUIT_PATHS)) {
    const symbol = doc.createElementNS(SVG_NS, 'symbol');
    symbol.setAttribute('id', `suit-${suit}`);
    symbol.setAttribute('viewBox', '0 0 100 100');
    const path = doc.createElementNS(SVG_NS, 'path');
    path.setAttribute('d', d);
    path.setAttribute('fill', 'currentColor');
    symbol.append(path);
    svg.append(symbol);
  }
  doc.body.prepend(svg);
}

export function parseCard(text) {
  const s = String(text).trim().toUpperCase().replace(/^10/, 'T');
  const rank = RANKS.indexOf(s[0]) + 1;
  const suit = s[1];
  if (s.length !== 2 || rank < 1 || !SUITS.includes(suit)) return null;
  return { rank, suit, text: s, value: Math.min(rank, 10), red: suit === 'H' || suit === 'D' };
}

/** The rank as printed on the card face: A 2 ... 10 J Q K. */
export function rankLabel(rank) {
  return rank === 10 ? '10' : RANKS[rank - 1];
}

export const SUIT_CHAR = { C: '♣', D: '♦', H: '♥', S: '♠' };

/** Plain text like "10♦" (with a text-presentation selector so phones do not draw emoji). */
export function cardText(text) {
  const c = parseCard(text);
  return c ? `${rankLabel(c.rank)}${SUIT_CHAR[c.suit]}\uFE0E` : String(text);
}

/**
 * Cards sorted by rank, then suit (a card that is none goes last).
 * @param {readonly string[]} cards
 */
export function sortCards(cards) {
  return [...cards].sort((a, b) => {
    const x = parseCard(a), y = parseCard(b);
    if (!x || !y) return (x ? 0 : 1) - (y ? 0 : 1);
    return x.rank - y.rank || SUITS.indexOf(x.suit) - SUITS.indexOf(y.suit);
  });
}

function suitIcon(suit, cls) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('class', cls);
  svg.setAttribute('viewBox', '0 0 100 100');
  svg.setAttribute('aria-hidden', 'true');
  const use = document.createElementNS(SVG_NS, 'use');
  use.setAttribute('href', `#suit-${suit}`);
  svg.append(use);
  return svg;
}

function corner(card, where) {
  const span = document.createElement('span');
  span.className = `corner ${where}`;
  const rank = document.createElement('b');
  rank.textContent = rankLabel(card.rank);
  span.append(rank, suitIcon(card.suit, 'corner-suit'));
  return span;
}

/**
 * A face-up card.  ``tag`` is "button" for cards the player can use, else "div".
 * ``label`` is the accessible name (the caller translates it).
 */
export function cardEl(text, { tag = 'div', label = '', small = false } = {}) {
  const card = parseCard(text);
  const el = document.createElement(tag);
  el.className = `card face ${card && card.red ? 'red' : 'black'}${small ? ' small' : ''}`;
  el.dataset.card = card ? card.text : String(text);
  if (tag === 'button') el.setAttribute('type', 'button');
  if (label) {
    if (tag === 'button') el.setAttribute('aria-label', label);
    else { el.setAttribute('role', 'img'); el.setAttribute('aria-label', label); }
  }
  if (!card) { el.textContent = '?'; return el; }
  const inner = document.createElement('span');
  inner.className = 'card-inner';
  const middle = document.createElement('span');
  if (card.rank > 10) {
    middle.className = 'middle court';
    const letter = document.createElement('b');
    letter.textContent = rankLabel(card.rank);
    middle.append(letter, suitIcon(card.suit, 'court-suit'));
  } else {
    middle.className = 'middle';
    middle.append(suitIcon(card.suit, card.rank === 1 ? 'pip ace' : 'pip'));
  }
  inner.append(corner(card, 'tl'), middle, corner(card, 'br'));
  el.append(inner);
  return el;
}

/** A face-down card. */
export function backEl({ small = false, label = '' } = {}) {
  const el = document.createElement('div');
  el.className = `card back${small ? ' small' : ''}`;
  if (label) { el.setAttribute('role', 'img'); el.setAttribute('aria-label', label); }
  else el.setAttribute('aria-hidden', 'true');
  return el;
}
