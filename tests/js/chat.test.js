// @ts-check
// The chat's store (chat.js): messages each once and in the order said, the muted seats kept per
// game in the browser, what a seat may send before it is sent, and the words of every label and
// quick phrase in every language.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';

import { ChatStore, KEEP, MAX_TEXT, PHRASES, checkText, wording } from '../../src/cribbage/web/static/game/chat.js';
import { isChatMessage } from '../../src/cribbage/web/static/game/live.js';

globalThis.document = /** @type {any} */ ({ documentElement: {} });
const { LANGS, STRINGS, errorText, loadLanguages, setLang, t } = await import('../../src/cribbage/web/static/shared/i18n.js');
await loadLanguages();  // a page loads its own language only; these tests compare them all

afterEach(() => setLang('en'));

/** A stand-in for localStorage. */
function keeper() {
  /** @type {Map<string, string>} */
  const kept = new Map();
  return { kept, getItem: (/** @type {string} */ k) => kept.get(k) ?? null, setItem: (/** @type {string} */ k, /** @type {string} */ v) => { kept.set(k, v); } };
}

describe('the chat store', () => {
  it('keeps each message once, in the order said, whatever order they came in', () => {
    const store = new ChatStore('g1', keeper());
    assert.equal(store.add([{ id: 3, seat: 1, phrase: 'gg' }]), true);
    assert.equal(store.add([{ id: 1, seat: 0, text: 'hi' }, { id: 3, seat: 1, phrase: 'gg' }]), true);  // a history after it
    assert.equal(store.add([{ id: 3, seat: 1, phrase: 'gg' }]), false);
    assert.deepEqual(store.messages.map((m) => m.id), [1, 3]);
  });
  it('keeps the last messages only', () => {
    const store = new ChatStore('g1', keeper());
    store.add(Array.from({ length: KEEP + 10 }, (_, i) => ({ id: i + 1, seat: 0, text: String(i) })));
    assert.equal(store.messages.length, KEEP);
    assert.equal(store.messages[0].id, 11);
  });
  it('hides a muted seat and remembers it for the game in this browser', () => {
    const kept = keeper();
    const store = new ChatStore('g1', kept);
    store.add([{ id: 1, seat: 0, text: 'a' }, { id: 2, seat: 1, text: 'b' }]);
    store.toggleMute(1);
    assert.deepEqual(store.visible().map((m) => m.id), [1]);
    assert.equal(new ChatStore('g1', kept).isMuted(1), true);
    assert.equal(new ChatStore('g2', kept).isMuted(1), false);  // another game: its own
    store.toggleMute(1);
    assert.equal(new ChatStore('g1', kept).isMuted(1), false);
    assert.deepEqual(store.visible().map((m) => m.id), [1, 2]);
  });
  it('works without a storage, or with a broken one', () => {
    const broken = { getItem: () => '{not json', setItem: () => { throw new Error('private mode'); } };
    const store = new ChatStore('g1', broken);
    store.toggleMute(0);
    assert.equal(store.isMuted(0), true);
    assert.equal(new ChatStore('g1', null).isMuted(0), false);
  });
  it('remembers what this page reported', () => {
    const store = new ChatStore('g1', keeper());
    store.markReported(4);
    assert.equal(store.reported.has(4), true);
  });
});

describe('what a seat may send', () => {
  it('is trimmed text of at most MAX_TEXT characters, without control characters', () => {
    assert.deepEqual(checkText('  <b>hi</b>  '), { text: '<b>hi</b>' });
    assert.deepEqual(checkText('   '), { code: 'chat.empty' });
    assert.deepEqual(checkText('x'.repeat(MAX_TEXT + 1)), { code: 'chat.too_long' });
    assert.deepEqual(checkText('😀'.repeat(MAX_TEXT)), { text: '😀'.repeat(MAX_TEXT) });  // characters, not UTF-16 units
    const family = '\u{1F468}\u200d\u{1F469}\u200d\u{1F467}\u200d\u{1F466}';
    assert.deepEqual(checkText(family.repeat(100)), { text: family.repeat(100) });  // graphemes, as the server counts
    assert.deepEqual(checkText('a\u2028b'), { code: 'chat.bad_text' });
    assert.deepEqual(checkText('a\u0007b'), { code: 'chat.bad_text' });
    assert.deepEqual(checkText('a\u202eb'), { code: 'chat.bad_text' });
  });
  it('a quick phrase is worded by the reader, a text is shown as it is', () => {
    assert.deepEqual(wording({ id: 1, seat: 0, phrase: 'gg' }), { key: 'chat.phrase.gg' });
    assert.deepEqual(wording({ id: 1, seat: 0, text: '<i>x</i>' }), { text: '<i>x</i>' });
  });
});

describe('a text sent, kept in the line until the server says it (issue 42, item 9)', () => {
  it('is accepted when this seat\'s message of that text comes back, once', () => {
    const store = new ChatStore('g1', keeper());
    store.sent('hi there');
    assert.equal(store.accepted({ id: 1, seat: 1, text: 'hi there' }, 0), false);  // another seat's
    assert.equal(store.accepted({ id: 2, seat: 0, phrase: 'gg' }, 0), false);  // a phrase of ours
    assert.equal(store.accepted({ id: 3, seat: 0, text: 'hi there' }, 0), true);
    assert.equal(store.accepted({ id: 4, seat: 0, text: 'hi there' }, 0), false);  // once
  });
  it('is never accepted once refused: the line keeps it, to send again', () => {
    const store = new ChatStore('g1', keeper());
    store.sent('one more');
    store.refused();
    assert.equal(store.accepted({ id: 5, seat: 0, text: 'one more' }, 0), false);
    assert.equal(store.accepted({ id: 6, seat: 0, text: 'nothing sent' }, 0), false);
  });
});

describe('the socket messages of the chat', () => {
  it('are its messages, its history, a report answered and its refusals', () => {
    for (const type of ['chat', 'chat_history', 'reported']) assert.equal(isChatMessage({ type }), true);
    assert.equal(isChatMessage({ type: 'error', code: 'chat.too_long' }), true);
    assert.equal(isChatMessage({ type: 'error', code: 'too_many', limit: 'chat' }), true);
    assert.equal(isChatMessage({ type: 'error', code: 'too_many', limit: 'report' }), true);  // reports' own limit
    assert.equal(isChatMessage({ type: 'error', code: 'too_many', limit: 'token' }), false);
    assert.equal(isChatMessage({ type: 'state' }), false);
  });
});

describe('the chat in words', () => {
  const labels = ['chat.title', 'chat.placeholder', 'chat.send', 'chat.mute', 'chat.unmute', 'chat.mutedSeat', 'chat.report',
    'chat.reported', 'chat.reportedNote', 'chat.offline', 'chat.tooMany', 'chat.tooManyReports', 'err.chat',
    ...PHRASES.map((p) => `chat.phrase.${p}`)];
  for (const lang of LANGS) {
    it(`every label and quick phrase has words of its own in ${lang}`, () => {
      for (const key of labels) {
        assert.notEqual(STRINGS[lang][key], undefined, `${lang} ${key}`);
        if (lang !== 'en') assert.notEqual(STRINGS[lang][key], STRINGS.en[key], `${lang} ${key}`);
      }
    });
  }
  it('a quick phrase reads in the reader\'s language', () => {
    assert.equal(t('chat.phrase.gg'), 'Good game');
    setLang('ja');
    assert.equal(t('chat.phrase.gg'), 'いい勝負でした');
    setLang('ru');
    assert.equal(t('chat.phrase.thanks'), 'Спасибо');
    assert.equal(errorText({ code: 'chat.spectator' }), 'Зрители могут читать чат, но не писать в нём.');
    assert.equal(errorText({ code: 'chat.something_new' }), 'Сообщение не удалось отправить.');
  });
});
