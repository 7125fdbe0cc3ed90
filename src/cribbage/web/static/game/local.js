// @ts-check
// A game against the computer played in this browser (issue 45): the pure part.  Its id starts
// with 'local-'; where a new game is played (here or at the server); the record kept in a game's
// saved text, taken out as text (api.js uploadBody sends it so).  A record crosses as
// text, never parsed and written again: its seeds are 64-bit numbers, which JavaScript's numbers
// would round.  No DOM: tests/js runs it in node.

export const LOCAL_PREFIX = 'local-';

/** Whether a game's id is one of this browser's games. @param {unknown} id */
export function isLocalGame(id) {
  return typeof id === 'string' && id.startsWith(LOCAL_PREFIX);
}

/**
 * A new id for a game played here: 'local-' and 16 random hex digits.
 * @param {(bytes: Uint8Array) => Uint8Array} [random]
 */
export function newLocalId(random = (bytes) => crypto.getRandomValues(bytes)) {
  const bytes = random(new Uint8Array(8));
  return LOCAL_PREFIX + [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Whether a new game is played in this browser: a game against the computer (never one with
 * people, which the server keeps), when the server cannot be reached, or when the player chose
 * it; never where the browser cannot run the engine.
 * @param {{people: boolean, offline: boolean, chosen: boolean, supported: boolean}} where
 */
export function playsHere({ people, offline, chosen, supported }) {
  return supported && !people && (offline || chosen);
}

/**
 * The text of a top-level member of a JSON object's text (the value as it was written), or null:
 * no such member, or not a JSON object.  Strings are skipped whole, so a name holding
 * '"record":' is not mistaken for the member.
 * @param {string} text
 * @param {string} key
 * @returns {string | null}
 */
export function memberText(text, key) {
  if (typeof text !== 'string') return null;
  let depth = 0;
  let i = 0;
  /** @type {{start: number, end: number} | null} */
  let lastString = null;
  let found = -1;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      const start = i;
      i += 1;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      if (i >= text.length) return null;
      lastString = { start, end: i + 1 };
      i += 1;
      continue;
    }
    if (c === ':' && depth === 1 && lastString && found < 0) {
      let name;
      try { name = JSON.parse(text.slice(lastString.start, lastString.end)); } catch { return null; }
      if (name === key) found = i + 1;
    } else if (c === '{' || c === '[') {
      if (depth === 0 && c !== '{') return null;
      depth += 1;
    } else if (c === '}' || c === ']') {
      depth -= 1;
      if (depth < 0) return null;
    } else if (c === ',' && depth === 1 && found >= 0) {
      return valueText(text.slice(found, i));
    }
    if (depth === 0 && found >= 0) return valueText(text.slice(found, i));
    i += 1;
  }
  return null;
}

/** @param {string} raw */
function valueText(raw) {
  const value = raw.trim();
  return value ? value : null;
}

/**
 * The record in a game's saved text ({"id", "options", "record"}, as the engine's `saved` call
 * answers it), as text; null if the saved text is not one.
 * @param {string} savedText
 */
export function recordTextOf(savedText) {
  const record = memberText(savedText, 'record');
  return record && record.startsWith('{') ? record : null;
}
