// @ts-check
// The chat of a table between people (docs/api.md, "Chat"): what the server said was said, in
// order, at most KEEP messages; the seats this browser muted (remembered in localStorage, per
// game: their messages are hidden, never refused); the messages this page reported.  No DOM here
// (view-chat.js draws it); a message's text is only ever shown as text (textContent).

/** The quick phrases' codes, as the server knows them (cribbage.app.chat.PHRASES). */
export const PHRASES = ['hello', 'gg', 'nice_hand', 'well_played', 'thanks'];
/** The longest message the server takes, in characters after trimming. */
export const MAX_TEXT = 200;
/** How many messages the panel keeps. */
export const KEEP = 100;

/**
 * A message as the server sends it.
 * @typedef {{ id: number, seat: number, text?: string, phrase?: string, at?: string }} ChatMessage
 */

/**
 * Where the muted seats are kept: localStorage's two methods (a stand-in in the tests).
 * @typedef {{ getItem: (key: string) => string | null, setItem: (key: string, value: string) => void }} Keeper
 */

/** @returns {Keeper | null} */
function browserStorage() {
  try { return globalThis.localStorage || null; } catch { return null; }
}

/**
 * What a seat may send, or why not (the server's code), before it is sent.
 * @param {string} text
 * @returns {{ text: string } | { code: string }}
 */
export function checkText(text) {
  const trimmed = String(text).trim();
  if (!trimmed) return { code: 'chat.empty' };
  // Counted as the server counts: user-perceived characters (a family emoji is one).
  if ([...new Intl.Segmenter().segment(trimmed)].length > MAX_TEXT) return { code: 'chat.too_long' };
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2069\ufeff]/.test(trimmed)) return { code: 'chat.bad_text' };
  return { text: trimmed };
}

export class ChatStore {
  /**
   * @param {string} gameId
   * @param {Keeper | null} [keeper]  where the muted seats are remembered (localStorage)
   */
  constructor(gameId, keeper = browserStorage()) {
    this.gameId = gameId;
    this.keeper = keeper;
    /** @type {ChatMessage[]} */
    this.messages = [];
    /** @type {Set<number>} */
    this.reported = new Set();
    /** @type {Set<number>} */
    this.muted = new Set(this.loadMuted());
    /** @type {string | null} the text sent last, until the server says it or refuses it */
    this.pending = null;
  }

  get key() { return `cribbage.chat.muted.${this.gameId}`; }

  /** @returns {number[]} */
  loadMuted() {
    try {
      const kept = JSON.parse((this.keeper && this.keeper.getItem(this.key)) || '[]');
      return Array.isArray(kept) ? kept.filter((seat) => Number.isInteger(seat)) : [];
    } catch {
      return [];
    }
  }

  saveMuted() {
    try { if (this.keeper) this.keeper.setItem(this.key, JSON.stringify([...this.muted].sort())); } catch { /* private mode */ }
  }

  /**
   * Take messages the server sent (one said now, or a history): each once, in the order said
   * (by id), the last KEEP.  Whether anything new came.
   * @param {ChatMessage[]} messages
   */
  add(messages) {
    const known = new Set(this.messages.map((m) => m.id));
    const fresh = messages.filter((m) => m && Number.isInteger(m.id) && !known.has(m.id));
    if (!fresh.length) return false;
    this.messages = [...this.messages, ...fresh].sort((a, b) => a.id - b.id).slice(-KEEP);
    return true;
  }

  /** The messages shown: those of the seats not muted. */
  visible() {
    return this.messages.filter((m) => !this.muted.has(m.seat));
  }

  /** @param {number} seat */
  isMuted(seat) { return this.muted.has(seat); }

  /** Mute a seat, or unmute it: remembered in this browser. @param {number} seat */
  toggleMute(seat) {
    if (this.muted.has(seat)) this.muted.delete(seat);
    else this.muted.add(seat);
    this.saveMuted();
  }

  /** A message this page reported (the server said so). @param {number} id */
  markReported(id) { this.reported.add(id); }

  /** A text sent: the line keeps it until the server says it (accepted). @param {string} text */
  sent(text) { this.pending = text; }

  /**
   * Whether a message the server said is the text this page sent (so the line may be cleared):
   * said by this page's seat, that very text.
   * @param {ChatMessage} message
   * @param {number} mySeat
   */
  accepted(message, mySeat) {
    if (this.pending === null || message.seat !== mySeat || message.text !== this.pending) return false;
    this.pending = null;
    return true;
  }

  /** The text sent was refused (a limit, a check): it stays in the line, to send again. */
  refused() { this.pending = null; }
}

/**
 * The words key of a message: a quick phrase is worded in the reader's language.
 * @param {ChatMessage} message
 * @returns {{ key: string } | { text: string }}
 */
export function wording(message) {
  if (typeof message.text === 'string') return { text: message.text };
  return { key: `chat.phrase.${message.phrase}` };
}
