// @ts-check
// The live updates of a table with people (docs/api.md, "Live"): a WebSocket that sends the seat's
// token first, then receives the seat's STATE after every change.  When the socket closes it
// reconnects by itself, waiting longer each time (0.5 s doubling up to 10 s); the first message
// after reconnecting is the current state, so the page catches up.  The token never goes in a URL.
// A spectator's socket sends its watch code instead of a token (`watch`): its states are public.
// A seat's page sends its moves over the socket while it is live (sendAction), each with a `ref`:
// the answer to it (`acted`, or an error with the ref) goes to onReply; onClosed hears every close.
// The chat of a table between people (docs/api.md, "Chat") goes to onChat: its messages, its
// history, the answer to a report and its refusals (a chat.* code, or the chat's and the reports'
// limits' too_many, after which the socket stays open); sendMessage sends a chat message or a report.

/** The version of the live messages the page speaks (docs/api.md, "Live"). */
export const PROTOCOL = 1;
/** The types of the chat's messages. */
const CHAT_TYPES = new Set(['chat', 'chat_history', 'reported']);
/** The limits of the chat's messages and reports (over them the socket stays open). */
const CHAT_LIMITS = new Set(['chat', 'report']);

/** Whether a socket message is the chat's (onChat). @param {Record<string, any>} data */
export function isChatMessage(data) {
  if (CHAT_TYPES.has(data.type)) return true;
  return data.type === 'error' && (String(data.code || '').startsWith('chat.') || CHAT_LIMITS.has(data.limit));
}

export class Live {
  /**
   * @param {string} id  the game's
   * @param {string} token  the seat's ('' for a spectator)
   * @param {object} handlers
   * @param {(state: Record<string, any>) => void} handlers.onState  a STATE came
   * @param {(status: string) => void} [handlers.onStatus]  'connecting', 'live', 'reconnecting', 'refused'
   * @param {(data: Record<string, any>) => void} [handlers.onError]  a refusal (a limit): the socket closes
   * @param {(data: Record<string, any>) => void} [handlers.onReply]  the answer to an action (sendAction)
   * @param {() => void} [handlers.onClosed]  the socket closed
   * @param {(data: Record<string, any>) => void} [handlers.onChat]  a message of the chat (isChatMessage)
   * @param {string} [handlers.watch]  a spectator's watch code
   */
  constructor(id, token, { onState, onStatus = () => {}, onError = () => {}, onReply = () => {}, onClosed = () => {}, onChat = () => {}, watch = '' }) {
    this.id = id;
    this.token = token;
    this.watch = watch;
    this.onState = onState;
    this.onStatus = onStatus;
    this.onError = onError;
    this.onReply = onReply;
    this.onClosed = onClosed;
    this.onChat = onChat;
    this.live = false;  // the socket is open and its first state came: actions may go over it
    this.attempts = 0;
    this.stopped = false;
    this.ws = null;
    this.timer = 0;
    this.notBefore = 0;
    this.connect();
  }

  connect() {
    if (this.stopped) return;
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    let ws;
    try {
      ws = new WebSocket(`${scheme}://${location.host}/api/games/${encodeURIComponent(this.id)}/live`);
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    this.live = false;
    this.onStatus('connecting');
    ws.onopen = () => ws.send(JSON.stringify(this.watch ? { watch: this.watch, protocol: PROTOCOL } : { token: this.token, protocol: PROTOCOL }));
    ws.onmessage = (message) => {
      let data;
      try { data = JSON.parse(message.data); } catch { return; }
      if (isChatMessage(data)) {
        this.onChat(data);
      } else if (data.type === 'acted' || (data.type === 'error' && data.ref !== undefined)) {
        this.onReply(data);  // the answer to an action sent with sendAction
      } else if (data.type === 'state' && data.state) {
        this.attempts = 0;
        this.live = true;
        this.onStatus('live');
        this.onState(data.state);
      } else if (data.type === 'error') {
        // Refused by a limit (docs/api.md): the socket closes; reconnect no sooner than told.
        if (data.retry_after > 0) this.notBefore = Date.now() + data.retry_after * 1000;
        this.onError(data);
      }
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.live = false;
      this.onClosed();
      if (this.stopped) return;
      if (event.code === 1008) { this.onStatus('refused'); return; }  // a wrong token: no retry
      this.retry();
    };
  }

  retry() {
    this.onStatus('reconnecting');
    const delay = Math.max(Math.min(10000, 500 * 2 ** this.attempts), (this.notBefore || 0) - Date.now());
    this.attempts += 1;
    clearTimeout(this.timer);
    this.timer = window.setTimeout(() => this.connect(), delay);
  }

  /** Send a seat's action over the socket if it is live: true if it went (its answer comes to
   * onReply with the same `ref`), false if it must go another way. */
  sendAction(action, ref) {
    const ws = this.ws;
    if (!ws || !this.live || ws.readyState !== WebSocket.OPEN) return false;
    try {
      ws.send(JSON.stringify({ type: 'action', action, ref }));
    } catch {
      return false;
    }
    return true;
  }

  /** Send a message of the chat (`{type: 'chat', ...}` or `{type: 'report', ...}`) if the socket
   * is live: true if it went. @param {Record<string, any>} message */
  sendMessage(message) {
    const ws = this.ws;
    if (!ws || !this.live || ws.readyState !== WebSocket.OPEN) return false;
    try {
      ws.send(JSON.stringify(message));
    } catch {
      return false;
    }
    return true;
  }

  /** Say over the socket that the page shows the seat's decision of `version` (its turn clock
   * runs from now): true if it went, false if it must go another way. */
  sendSeen(version) {
    const ws = this.ws;
    if (!ws || !this.live || ws.readyState !== WebSocket.OPEN) return false;
    try {
      ws.send(JSON.stringify({ type: 'seen', version }));
    } catch {
      return false;
    }
    return true;
  }

  /** Drop the socket now (a test of the reconnection, or a network change): it comes back by itself. */
  drop() {
    if (this.ws) this.ws.close();
  }

  close() {
    this.stopped = true;
    this.live = false;
    clearTimeout(this.timer);
    if (this.ws) { const ws = this.ws; this.ws = null; ws.close(); this.onClosed(); }
  }
}
