// @ts-check
// A game against the computer played in this browser (issue 45), the pure part of here.js: a new
// game's id ('local-' and random digits), and the record kept in a game's saved text taken out as
// text, and the upload's body written around it.  A record crosses as
// text, never parsed and written again: its seeds are 64-bit numbers, which JavaScript's numbers
// would round.  No DOM: tests/js runs it in node.

import { LOCAL_PREFIX } from './source.js';

/**
 * A new id for a game played here: 'local-' and 16 random hex digits.
 * @param {(bytes: Uint8Array) => Uint8Array} [random]
 */
export function newLocalId(random = (bytes) => crypto.getRandomValues(bytes)) {
  const bytes = random(new Uint8Array(8));
  return LOCAL_PREFIX + [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
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

/**
 * The body of POST /api/games/upload: the game's options and its record, written around the
 * record's own text.
 * @param {Record<string, any>} options
 * @param {string} recordText
 */
export function uploadBody(options, recordText) {
  return `{"options":${JSON.stringify(options)},"record":${recordText}}`;
}
