// @ts-check
// What the seat may do now, read from the STATE's action templates ("actions", docs/api.md):
// which decision it has, which cards it may play or throw, the ranges of the points it states,
// and the action JSON to send.  The server made the templates from the engine's legal actions
// (cribbage.engine.templates); nothing here knows a rule of the game.  No DOM.

/** @typedef {{min: number, max: number}} Range  every whole number from min to max */
/** @typedef {{type: 'discard', cards: string[], count: number}} DiscardTemplate  any `count` different `cards` */
/** @typedef {{type: 'play', cards: string[], claim?: Range}} PlayTemplate  one of `cards`, with a claim in `claim` if given */
/** @typedef {{type: 'count' | 'muggins', points: Range}} PointsTemplate */
/** @typedef {{type: 'pass'}} PassTemplate */
/** @typedef {DiscardTemplate | PlayTemplate | PointsTemplate | PassTemplate} Template */
/**
 * An action as the page sends it (docs/api.md, "Act"; the seat is the token's).
 * @typedef {{type: 'discard', cards: string[]}
 *   | {type: 'play', card: string, claim?: number}
 *   | {type: 'count' | 'muggins', points: number}
 *   | {type: 'pass'}} Action
 */
/** @typedef {'discard' | 'play' | 'count' | 'muggins'} Decision */

/**
 * The decision the seat has now: 'muggins' when it may call muggins or pass, else the type of its
 * templates; null when it has nothing to do.
 * @param {readonly Template[]} templates
 * @returns {Decision | null}
 */
export function decision(templates) {
  if (!templates.length) return null;
  if (templates.some((t) => t.type === 'pass' || t.type === 'muggins')) return 'muggins';
  return /** @type {Decision} */ (templates[0].type);
}

/**
 * Whether the seat has something to do now.
 * @param {readonly Template[]} templates
 */
export function hasTurn(templates) {
  return templates.length > 0;
}

/**
 * The cards the seat may play now, in the templates' order.
 * @param {readonly Template[]} templates
 * @returns {string[]}
 */
export function playableCards(templates) {
  const cards = templates.flatMap((t) => (t.type === 'play' ? t.cards : []));
  return [...new Set(cards)];
}

/**
 * Whether the seat may play `card` now.
 * @param {readonly Template[]} templates
 * @param {string} card
 */
export function canPlay(templates, card) {
  return templates.some((t) => t.type === 'play' && t.cards.includes(card));
}

/**
 * Whether `card` may be among the seat's discards now.
 * @param {readonly Template[]} templates
 * @param {string} card
 */
export function canDiscard(templates, card) {
  return templates.some((t) => t.type === 'discard' && t.cards.includes(card));
}

/**
 * How many cards the seat throws to the crib now; null when it has no discard to make.
 * @param {readonly Template[]} templates
 * @returns {number | null}
 */
export function discardCount(templates) {
  const found = templates.find((t) => t.type === 'discard');
  return found && found.type === 'discard' ? found.count : null;
}

/**
 * The range of the points the seat states: with a card ('play', manual pegging), for a hand or
 * crib ('count') or as a muggins call ('muggins'); null when it states none of that kind now.
 * @param {readonly Template[]} templates
 * @param {'play' | 'count' | 'muggins'} kind
 * @returns {Range | null}
 */
export function claimRange(templates, kind) {
  for (const t of templates) {
    if (t.type !== kind) continue;
    if (t.type === 'play') return t.claim ? { ...t.claim } : null;
    if (t.type === 'count' || t.type === 'muggins') return { ...t.points };
  }
  return null;
}

/**
 * Whether a play now needs its points stated (manual pegging).
 * @param {readonly Template[]} templates
 */
export function needsClaim(templates) {
  return claimRange(templates, 'play') !== null;
}

/**
 * @param {Range | undefined} range
 * @param {unknown} value
 */
function within(range, value) {
  return range !== undefined && Number.isInteger(value) && range.min <= Number(value) && Number(value) <= range.max;
}

/**
 * Whether one template describes `action`.
 * @param {Template} t
 * @param {Action} action
 */
function matches(t, action) {
  if (t.type === 'discard' && action.type === 'discard') {
    const cards = action.cards;
    return Array.isArray(cards) && cards.length === t.count && new Set(cards).size === cards.length
      && cards.every((c) => t.cards.includes(c));
  }
  if (t.type === 'play' && action.type === 'play') {
    const stated = action.claim !== undefined && action.claim !== null;
    if (t.claim ? !within(t.claim, action.claim) : stated) return false;
    return t.cards.includes(action.card);
  }
  if ((t.type === 'count' || t.type === 'muggins') && action.type === t.type) return within(t.points, action.points);
  return t.type === 'pass' && action.type === 'pass';
}

/**
 * Whether the templates allow `action` (a discard's cards in any order).  The server checks the
 * action again with the engine; this only keeps the page from sending what it would refuse.
 * @param {readonly Template[]} templates
 * @param {Action} action
 */
export function allows(templates, action) {
  return templates.some((t) => matches(t, action));
}

/**
 * The action to send for the seat's choice (a copy), or null when the templates do not allow it: a
 * card it may not play, a claim missing, out of range or stated where none is, the wrong number
 * of cards.
 * @param {readonly Template[]} templates
 * @param {Action} choice
 * @returns {Action | null}
 */
export function actionFor(templates, choice) {
  if (!allows(templates, choice)) return null;
  return choice.type === 'discard' ? { type: 'discard', cards: [...choice.cards] } : { ...choice };
}
