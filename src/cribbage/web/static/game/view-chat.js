// @ts-check
// The chat panel of a table between people (loaded by controller.js at such tables only): the
// messages said (a quick phrase in the reader's language, a text only ever as text: textContent,
// never markup), the quick-phrase buttons and a line to type in (a seat's page; a spectator only
// reads), a mute button per seat (this browser hides its messages, chat.js remembers) and a
// report button per message of another seat.

import { ChatStore, MAX_TEXT, PHRASES, checkText, wording } from './chat.js';
import { $, h } from '../shared/dom.js';
import { errorText, onLangChange, seatLabel, t } from '../shared/i18n.js';

/**
 * @typedef {object} ChatPanel
 * @property {(data: Record<string, any>) => void} receive  a chat message of the socket
 * @property {() => void} close  the panel goes (another game)
 */

/**
 * The panel's elements, put under the table's controls (before the game log); a spectator's
 * (not ``writing``) has no phrases nor line to type in.
 * @param {boolean} writing
 */
function panelOf(writing) {
  const log = h('ol', { id: 'chat-log', class: 'chat-log', 'aria-live': 'polite' });
  const muted = h('div', { id: 'chat-muted', class: 'chat-muted' });
  const note = h('p', { id: 'chat-note', class: 'chat-note', role: 'status' });
  const title = h('h2', { id: 'chat-title', class: 'chat-title' });
  const phrases = h('div', { id: 'chat-phrases', class: 'chat-phrases' });
  const input = h('input', { id: 'chat-text', maxlength: String(MAX_TEXT), autocomplete: 'off', enterkeyhint: 'send' });
  const submit = h('button', { type: 'submit', id: 'chat-send', class: 'secondary' });
  const form = h('form', { id: 'chat-form', class: 'chat-form' }, input, submit);
  const panel = h('section', { id: 'chat', class: 'chat-panel', 'aria-labelledby': 'chat-title' },
    title, muted, log, writing && phrases, writing && form, note);
  const before = document.querySelector('#game .log');
  if (before) before.before(panel); else $('game').append(panel);
  return { panel, log, muted, note, title, phrases, input, submit, form };
}

/**
 * Why the server refused a message or a report, in the reader's language: over the chat's or the
 * reports' limit, with when to try again; else the code's words.
 * @param {Record<string, any>} data  the socket's error
 */
function refusalText(data) {
  if (data.code === 'too_many' && data.limit === 'chat') return t('chat.tooMany', { n: data.retry_after });
  if (data.code === 'too_many' && data.limit === 'report') return t('chat.tooManyReports', { n: data.retry_after });
  return errorText({ code: data.code, data });
}

/**
 * Draw the chat panel of a game under the table's controls.
 * @param {object} options
 * @param {string} options.gameId
 * @param {number} options.mySeat  the page's seat (-1: a spectator, who reads only)
 * @param {() => Array<Record<string, any>>} options.seats  the table's seats as the STATE has them
 * @param {(message: Record<string, any>) => boolean} options.send  over the live socket: false if it did not go
 * @returns {ChatPanel}
 */
export function mountChat({ gameId, mySeat, seats, send }) {
  const store = new ChatStore(gameId);
  const writing = mySeat >= 0;
  const { panel, log, muted, note, title, phrases, input, submit, form } = panelOf(writing);
  let closed = false;

  /** Say a line in the panel (a refusal worded by its code, or a thanks). @param {string} text */
  const say = (text) => { note.textContent = text; };
  /** @param {Record<string, any>} message */
  const out = (message) => { if (!send(message)) say(t('chat.offline')); };
  /** @param {number} seat */
  const nameOf = (seat) => {
    if (seat === mySeat) return t('you');  // as the scoreboard says
    const all = seats();
    const found = all.find((s) => s.seat === seat);
    return found ? seatLabel(/** @type {any} */ (found), all.length) : t('seatN', { n: seat + 1 });
  };

  function renderLog() {
    log.replaceChildren(...store.visible().map((m) => {
      const said = wording(m);
      const others = m.seat !== mySeat;
      const reported = store.reported.has(m.id);
      return h('li', { class: `chat-line${'key' in said ? ' chat-phrase' : ''}`, 'data-seat': m.seat, 'data-id': m.id },
        h('span', { class: 'chat-who', text: `${nameOf(m.seat)}: ` }),
        h('span', { class: 'chat-said', text: 'key' in said ? t(said.key) : said.text }),
        others && h('button', { type: 'button', class: 'chat-mute link-btn', text: t('chat.mute'), onclick: () => { store.toggleMute(m.seat); render(); } }),
        others && writing && h('button', {
          type: 'button', class: 'chat-report link-btn', disabled: reported, text: t(reported ? 'chat.reported' : 'chat.report'),
          onclick: () => out({ type: 'report', message: m.id }),
        }));
    }));
    log.scrollTop = log.scrollHeight;
  }

  function render() {
    if (closed) return;
    title.textContent = t('chat.title');
    phrases.replaceChildren(...PHRASES.map((code) => h('button', {
      type: 'button', class: 'chat-quick secondary', 'data-phrase': code, text: t(`chat.phrase.${code}`),
      onclick: () => out({ type: 'chat', phrase: code }),
    })));
    input.placeholder = t('chat.placeholder');
    input.setAttribute('aria-label', t('chat.placeholder'));
    submit.textContent = t('chat.send');
    muted.replaceChildren(...[...store.muted].sort().map((seat) => h('p', { class: 'chat-muted-seat' },
      t('chat.mutedSeat', { name: nameOf(seat) }), ' ',
      h('button', { type: 'button', class: 'chat-unmute link-btn', text: t('chat.unmute'), onclick: () => { store.toggleMute(seat); render(); } }))));
    renderLog();
  }

  // The line keeps what was typed until the server says it (store.accepted): a refusal (a flood
  // over the chat limit, a check) is said, and the text is there to send again.
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const checked = checkText(input.value);
    if ('code' in checked) { say(errorText({ code: checked.code })); return; }
    say('');
    if (!send({ type: 'chat', text: checked.text })) { say(t('chat.offline')); return; }
    store.sent(checked.text);
  });
  onLangChange(render);
  render();
  return {
    receive(data) {
      if (closed) return;
      if (data.type === 'chat' && data.message) {
        if (store.accepted(data.message, mySeat) && input.value.trim() === data.message.text) input.value = '';
        if (store.add([data.message])) renderLog();
      }
      else if (data.type === 'chat_history' && Array.isArray(data.messages)) { if (store.add(data.messages)) renderLog(); }
      else if (data.type === 'reported') { store.markReported(data.message); say(t('chat.reportedNote')); renderLog(); }
      else if (data.type === 'error') {
        if (data.limit !== 'report') store.refused();  // a report's refusal leaves a text in flight alone
        say(refusalText(data));
      }
    },
    close() { closed = true; panel.remove(); },
  };
}
