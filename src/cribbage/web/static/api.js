// The JSON API of docs/api.md.  Every failure becomes an ApiError carrying the server's answer:
// its status and, from the scoring endpoints, a code with its values (data), which the pages word
// in the player's language (i18n.errorText); the English message is for the console only.

export class ApiError extends Error {
  constructor(status, message, data = null) {
    super(message);
    this.status = status;
    this.data = data;
  }
}

// ``json``: a body already in JSON, sent as it is; ``raw``: the answer's text, not parsed.  A game
// record goes both ways as text: its seeds are 64-bit numbers, which JSON.parse would round.
async function request(method, path, { body, token, json, raw = false } = {}) {
  const headers = { Accept: 'application/json' };
  const sent = json !== undefined ? json : body === undefined ? undefined : JSON.stringify(body);
  if (sent !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: sent });
  } catch (err) {
    throw new ApiError(0, String(err && err.message || err));
  }
  let data = null;
  const text = await response.text();
  if (raw && response.ok) return text;
  if (text) {
    try { data = JSON.parse(text); } catch { data = { error: text.slice(0, 200) }; }
  }
  if (!response.ok) {
    const message = data && (data.error || data.detail) ? String(data.error || JSON.stringify(data.detail)) : response.statusText;
    throw new ApiError(response.status, message, data);
  }
  return data;
}

export const createGame = (options) => request('POST', '/api/games', { body: options });
export const getGame = (id, token) => request('GET', `/api/games/${encodeURIComponent(id)}`, { token });
export const act = (id, token, action) =>
  request('POST', `/api/games/${encodeURIComponent(id)}/actions`, { body: action, token });
export const getHint = (id, token) => request('GET', `/api/games/${encodeURIComponent(id)}/hint`, { token });
export const getRecord = (id, token) => request('GET', `/api/games/${encodeURIComponent(id)}/record`, { token });
export const getVariants = () => request('GET', '/api/variants');
export const scoreShow = (hand, starter, crib = false) => request('POST', '/api/score', { body: { hand, starter, crib } });
export const scorePeg = (cards) => request('POST', '/api/peg', { body: { cards } });
export const join = (code, name) => request('POST', '/api/join', { body: { code, name } });
export const invitation = (code) => request('GET', `/api/join/${encodeURIComponent(code)}`);
export const getLobby = () => request('GET', '/api/lobby');
// The trainers (docs/api.md, "Trainers"): stateless, every answer recomputed from the drill's seed.
export const trainDiscard = (options) => request('POST', '/api/train/discard', { body: options });
export const trainDiscardAnswer = (drill) => request('POST', '/api/train/discard/answer', { body: drill });
export const trainPlay = (options) => request('POST', '/api/train/play', { body: options });
export const trainPlayAnswer = (drill) => request('POST', '/api/train/play/answer', { body: drill });
// The review (docs/api.md, "Review"): a record's text in, the review out.
export const getRecordText = (id, token) => request('GET', `/api/games/${encodeURIComponent(id)}/record`, { token, raw: true });
export const reviewRecord = (recordText, seat) => request('POST', `/api/review?seat=${encodeURIComponent(seat)}`, { json: recordText });
export const watchLink = (id, token) => request('POST', `/api/games/${encodeURIComponent(id)}/watch`, { token });
export const watchGame = (code) => request('GET', `/api/watch/${encodeURIComponent(code)}`);
export const leave = (id, token) => request('POST', `/api/games/${encodeURIComponent(id)}/leave`, { token });
export const seatComputer = (id, token, seat, level) =>
  request('POST', `/api/games/${encodeURIComponent(id)}/computer`, { body: { seat, level }, token });
export const seen = (id, token, version) =>
  request('POST', `/api/games/${encodeURIComponent(id)}/seen`, { body: { version }, token });
export const rematch = (id, token) => request('POST', `/api/games/${encodeURIComponent(id)}/rematch`, { token });
