// @ts-check
// The profile's and the leaderboard's numbers (standings.js): a rating with its uncertainty, a
// change, and the graph of a rating over time scaled into its box; a pool's one name, and the
// pool a profile's leaderboard opens on.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';

// setLang marks the document's language: a stand-in document for node.
globalThis.document = /** @type {any} */ ({ documentElement: {} });
const i18n = await import('../../src/cribbage/web/static/shared/i18n.js');
const { changeText, graphPoints, poolLabel, profilePool, ratingText } = await import('../../src/cribbage/web/static/game/standings.js');
await i18n.loadLanguages();

afterEach(() => i18n.setLang('en'));

describe('the pools and the players', () => {
  it('names each pool once in each language, from its pool key', () => {
    for (const lang of i18n.LANGS) {
      i18n.setLang(lang);
      for (const pool of ['standard', 'short', 'three', 'partners']) {
        assert.equal(poolLabel(pool), i18n.STRINGS[lang][`pool.${pool}`], `${lang} ${pool}`);
      }
    }
    i18n.setLang('ja');
    assert.equal(poolLabel('short'), 'ショート (61)');
  });
  it('warns of a deletion with the deleted player\'s name the profile shows, in every language', () => {
    for (const lang of i18n.LANGS) {
      i18n.setLang(lang);
      const deleted = i18n.t('players.deleted');
      assert.ok(i18n.t('account.deleteWarning').includes(deleted), `${lang}: ${i18n.t('account.deleteWarning')}`);
      if (lang !== 'en') assert.ok(!i18n.t('account.deleteWarning').includes('deleted player'), lang);
    }
  });
  it('says the pool has nobody and the player has no rating in different words', () => {
    for (const lang of i18n.LANGS) {
      i18n.setLang(lang);
      assert.notEqual(i18n.t('players.noRating'), i18n.t('players.empty'), lang);
    }
  });
  it('opens a profile\'s leaderboard on the pool of its last game, else of its first rating', () => {
    const recent = [{ pool: 'short' }, { pool: 'standard' }];
    assert.equal(profilePool({ recent, ratings: [{ pool: 'standard' }, { pool: 'short' }] }), 'short');
    assert.equal(profilePool({ recent: [], ratings: [{ pool: 'three' }] }), 'three');
    assert.equal(profilePool({ recent: [], ratings: [] }), null);
  });
});

describe('a rating as shown', () => {
  it('is the number with how far it may be off', () => {
    assert.equal(ratingText({ shown: 1579, uncertainty: 484 }), '1579 ± 484');
  });
  it('changes with a sign, and the first game of a pool shows none', () => {
    assert.deepEqual([12, -8, 0, null].map(changeText), ['+12', '−8', '±0', '']);
  });
});

describe('the graph of a rating', () => {
  const box = { width: 200, height: 60, pad: 5, minSpan: 10 };
  it('runs from the oldest game at the left to the newest at the right, the highest at the top', () => {
    const { points, low, high } = graphPoints([{ shown: 1500 }, { shown: 1600 }, { shown: 1550 }], box);
    assert.deepEqual([low, high], [1500, 1600]);
    assert.deepEqual(points, [[5, 55], [100, 5], [195, 30]]);
  });
  it('keeps a flat history in the middle rather than blowing up a small change', () => {
    const { points, low, high } = graphPoints([{ shown: 1500 }, { shown: 1502 }], box);
    assert.equal(high - low, 10);
    for (const [, y] of points) assert.ok(y > 5 && y < 55, `y ${y}`);
    assert.ok(points[1][1] < points[0][1]);  // a gain goes up
  });
  it('puts one game in the middle, and nothing for no game', () => {
    assert.deepEqual(graphPoints([{ shown: 1579 }], box).points, [[100, 30]]);
    assert.deepEqual(graphPoints([], box).points, []);
  });
});
