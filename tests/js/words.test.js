// @ts-check
// The page's words for cards, numbers, combinations and errors (cards.js, i18n.js), in every
// language the page has; errors are worded by their code, never by the HTTP status.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';

import { ApiError } from '../../src/cribbage/web/static/shared/api.js';
import { cardText, parseCard, sortCards } from '../../src/cribbage/web/static/shared/cards.js';

// setLang marks the document's language: a stand-in document for node.
globalThis.document = /** @type {any} */ ({ documentElement: {} });
const i18n = await import('../../src/cribbage/web/static/shared/i18n.js');
const { LANGS, STRINGS, cardName, comboLine, durationText, errorText, numText, seatLabel, setLang, showLines, t } = i18n;
await i18n.loadLanguages();  // a page loads its own language only; these tests compare them all

afterEach(() => setLang('en'));

describe('cards', () => {
  it('parses the API form and 10 for T, and nothing else', () => {
    assert.deepEqual(parseCard('td'), { rank: 10, suit: 'D', text: 'TD', value: 10, red: true });
    assert.equal(parseCard('10S')?.text, 'TS');
    assert.equal(parseCard('KC')?.value, 10);
    for (const bad of ['1X', '11H', 'Z', '', 'AH2']) assert.equal(parseCard(bad), null, bad);
  });
  it('writes a card as its face shows it, in text presentation', () => {
    assert.equal(cardText('TD'), '10♦\uFE0E');
    assert.equal(cardText('AS'), 'A♠\uFE0E');
    assert.equal(cardText('??'), '??');
  });
  it('sorts by rank, then suit', () => {
    assert.deepEqual(sortCards(['KS', '2H', 'TD', '2C', 'AS']), ['AS', '2C', '2H', 'TD', 'KS']);
  });
});

describe('numbers', () => {
  it('shows decimals with a true minus sign, never −0.00, and a dash for no number', () => {
    assert.equal(numText(1.234), '1.23');
    assert.equal(numText(-1.5, 1), '\u22121.5');
    assert.equal(numText(-0.001), '0.00');
    assert.equal(numText(2, 2, true), '+2.00');
    assert.equal(numText(undefined), '\u2014');
    assert.equal(numText(NaN), '\u2014');
  });
});

describe('durations', () => {
  it('in the largest unit filled twice, rounded up; whole days and hours as such', () => {
    assert.deepEqual([30, 119, 120, 3599, 3600, 7199, 7200, 86399, 86400, 90000, 172801, 259200, 604800].map(durationText),
      ['30 s', '119 s', '2 min', '60 min', '1 h', '120 min', '2 h', '24 h', '1 d', '25 h', '3 d', '3 d', '7 d']);
    setLang('ja');
    assert.equal(t('clockN', { time: durationText(86400 * 3) }), '1手3日');
    setLang('ru');
    assert.equal(t('clockLeft', { time: durationText(5000) }), 'осталось 84 мин');
  });
});

describe('combinations and cards in words', () => {
  const expected = {
    en: ['Fifteen for 2', 'Run of 4 for 4', 'ten of diamonds', '1 point', '21 points'],
    ja: ['フィフティーン 2点', 'ラン（4枚）4点', 'ダイヤの10', '1点', '21点'],
    ru: ['Пятнадцать — 2 очка', 'Последовательность из 4 — 4 очка', '10 бубен', '1 очко', '21 очко'],
  };
  for (const lang of LANGS) {
    it(`in ${lang}`, () => {
      setLang(lang);
      const [fifteen, run, ten, one, many] = expected[lang];
      assert.equal(comboLine('fifteen', 2, 2), fifteen);
      assert.equal(comboLine('run', 4, 4), run);
      assert.equal(cardName('TD'), ten);
      assert.equal(t('pointsN', { n: 1 }), one);
      assert.equal(t('pointsN', { n: 21 }), many);
    });
  }
  it('Russian plurals follow the last digits', () => {
    setLang('ru');
    assert.deepEqual([2, 5, 11, 12, 22, 25].map((n) => t('pointsN', { n })), ['2 очка', '5 очков', '11 очков', '12 очков', '22 очка', '25 очков']);
  });
  it('a show names the pairs of a rank and a double run once each', () => {
    const combos = [
      { kind: 'run', cards: ['3C', '4D', '5H'], points: 3 }, { kind: 'run', cards: ['3C', '4D', '5S'], points: 3 },
      { kind: 'pair', cards: ['5H', '5S'], points: 2 }, { kind: 'fifteen', cards: ['4D', '5H', '6C'], points: 2 },
    ];
    const lines = showLines(combos);
    assert.deepEqual(lines.map((l) => [l.kind, l.points, l.n]), [['double run', 8, 3], ['fifteen', 2, 3]]);
    assert.equal(lines.reduce((a, l) => a + l.points, 0), 10, 'the same total');
  });
  it('a seat has one name', () => {
    assert.equal(seatLabel({ seat: 1, kind: 'computer' }, 2), 'Computer');
    assert.equal(seatLabel({ seat: 2, kind: 'computer' }, 4), 'Computer 3');
    assert.equal(seatLabel({ seat: 1, kind: 'human', taken: false }, 2), t('openSeat', { n: 2 }));
    assert.equal(seatLabel({ seat: 1, kind: 'human', name: 'Aiko' }, 2), 'Aiko');
  });
});

// The codes of docs/api.md that the game's API answers with (CODES.md of issue 30), and those of
// the scoring endpoints and the limits, which the pages word too.
const CODES = [
  'illegal.card', 'illegal.rules', 'illegal.action', 'illegal.muggins', 'bad_record', 'not_found', 'no_invitation',
  'no_watch_code', 'unauthorized', 'forbidden', 'stale', 'seat_taken', 'table_waiting', 'game_over', 'invalid',
  'corrupt_record', 'computer_unavailable', 'too_many', 'database_unavailable', 'bad_request', 'bad_text', 'internal',
  'limits_unavailable', 'too_large', 'busy', 'seat_online', 'not_over', 'no_hint', 'too_slow',
  // the chat at the table's (docs/api.md, "Chat")
  'chat.empty', 'chat.too_long', 'chat.bad_text', 'chat.bad_phrase', 'chat.bad_message', 'chat.spectator',
  'chat.computer_table', 'chat.no_message', 'chat.stacked', 'chat.invisible',
  'bad_name', 'account.bad_name', 'account.bad_password', 'account.name_taken', 'account.bad_credentials', 'account.bad_session',
  'account.seat_claimed', 'player.not_found', 'ratings.unknown_pool',
  'push.bad_subscription', 'push.not_correspondence', 'seat_not_away',
  // passkeys (docs/api.md, "Passkeys"): the server's, and the browser's refusals the page words
  'passkey.malformed', 'passkey.bad_ceremony', 'passkey.rejected', 'passkey.unknown', 'passkey.taken',
  'passkey.too_many', 'passkey.cancelled', 'passkey.exists', 'passkey.failed',
];

describe('errors, by code', () => {
  it('every code has words of its own in every language', () => {
    for (const lang of LANGS) {
      for (const code of CODES) assert.equal(typeof STRINGS[lang][`err.${code}`] !== 'undefined', true, `${lang} ${code}`);
    }
  });

  it('are worded by the code, whatever the HTTP status', () => {
    const taken = new ApiError(409, 'the seat is taken', { code: 'seat_taken' });
    const stale = new ApiError(409, 'stale version', { code: 'stale', version: 9 });
    assert.equal(errorText(taken), 'This seat is taken already.');
    assert.equal(errorText(stale), 'The game has moved on: it is shown as it is now.');
    assert.equal(errorText(new ApiError(404, 'no', { code: 'unauthorized' })), 'This game belongs to another browser.');
  });

  it('a code with no words of its own has those of its family, an unknown one a general line', () => {
    assert.equal(errorText(new ApiError(422, 'x', { code: 'illegal.something_new' })), 'That is not allowed now.');
    assert.equal(errorText(new ApiError(422, 'x', { code: 'what_is_this' })), 'Something went wrong. Try again.');
    assert.equal(errorText(new ApiError(418, 'x')), 'Something went wrong. Try again.');
    assert.equal(errorText(null), 'Something went wrong. Try again.');
    assert.equal(errorText(new ApiError(0, 'fetch failed')), t('offline'));
  });

  it('the values a code names are in its words', () => {
    const err = new ApiError(429, 'slow down', { code: 'too_many', limit: 'actions', retry_after: 7 });
    assert.equal(errorText(err), 'Too many requests: try again in 7 seconds.');
    setLang('ru');
    assert.equal(errorText(err), 'Слишком много запросов: попробуйте снова через 7 секунд.');
  });

  it('a table that cannot be rated says why, in each language, and another invalid choice does not', () => {
    for (const lang of LANGS) {
      setLang(lang);
      const rated = errorText(new ApiError(422, 'a rated table seats only people', { code: 'invalid', field: 'rated' }));
      const other = errorText(new ApiError(422, 'x', { code: 'invalid', field: 'clock' }));
      assert.notEqual(rated, other, lang);
      assert.equal(other, errorText(new ApiError(422, 'x', { code: 'invalid' })), lang);
      for (const key of ['ratedGame', 'ratedHelp', 'ratedTable', 'ratedMark', 'acceptRated', 'ratedDecline', 'ratedGuest']) {
        assert.equal(typeof STRINGS[lang][key], 'string', `${lang} ${key}`);
      }
    }
  });

  it('a refused name says why, in each language (issue 41, item 11)', () => {
    const reasons = ['length', 'spaces', 'characters', 'scripts'];
    for (const lang of LANGS) {
      setLang(lang);
      for (const code of ['account.bad_name', 'bad_name']) {
        const words = reasons.map((reason) => errorText(new ApiError(422, 'x', { code, field: 'name', reason })));
        assert.equal(new Set(words).size, reasons.length, `${lang} ${code}: one line per reason`);
      }
      const taken = ['taken', 'confusable', 'held'].map((reason) => errorText(new ApiError(409, 'x', {
        code: 'account.name_taken', field: 'name', reason, until: '2027-01-05T12:00:00+00:00',
      })));
      assert.equal(new Set(taken).size, 3, lang);
      assert.match(taken[2], /2027/, `${lang}: the day the name is free again`);
    }
    setLang('en');
    assert.equal(errorText(new ApiError(422, 'x', { code: 'account.bad_name', reason: 'scripts' })),
      'A word of a name may not mix alphabets (Latin and Cyrillic, say): mixed, it can imitate another name.');
  });

  for (const lang of LANGS) {
    it(`are never the server's English line, in ${lang}`, () => {
      setLang(lang);
      const words = CODES.map((code) => errorText(new ApiError(400, 'an English line from the server', { code, retry_after: 3 })));
      for (const w of words) assert.equal(/English/.test(w) || w === '', false, w);
      if (lang !== 'en') {
        const english = CODES.map((code) => { setLang('en'); const w = errorText(new ApiError(400, '', { code, retry_after: 3 })); setLang(lang); return w; });
        words.forEach((w, i) => assert.notEqual(w, english[i], `${lang} ${CODES[i]}`));
      }
    });
  }

  it('an answer without a code (no answer, or a proxy page) is worded by what it can be', () => {
    assert.equal(new ApiError(0, 'x').code, 'offline');
    assert.equal(new ApiError(502, 'bad gateway').code, 'internal');
    assert.equal(new ApiError(413, 'too large').code, 'too_large');
    assert.equal(new ApiError(409, 'x').code, '');  // the server always sends its code: none is guessed
    assert.equal(new ApiError(401, 'x').code, '');
    assert.equal(new ApiError(409, 'x', { code: 'seat_taken' }).code, 'seat_taken');
  });
});

describe('the notes of a ranking by the chance of winning', () => {
  // Issue 42, item 17: the hint said "Near the end of the game" at 0-0 in a game to 61 (ranked
  // so from its first hand) and "The game may end in this hand" far from the target: the notes
  // say what the ranking is, never why it was chosen.
  const claims = { en: /end/i, ja: /終盤|終わる/, ru: /конце|закончиться/ };
  it('claim nothing about the end of the game, in every language', () => {
    for (const lang of LANGS) {
      for (const key of ['hintWinNote', 'hintPlayWinNote', 'train.winNote']) {
        const words = STRINGS[lang][key];
        assert.ok(words, `${lang} ${key}`);
        assert.doesNotMatch(words, claims[/** @type {'en' | 'ja' | 'ru'} */ (lang)], `${lang} ${key}`);
      }
    }
  });
});
