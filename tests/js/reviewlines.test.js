// @ts-check
// What a review says was given away (reviewlines.js): the chance of winning as each decision's
// drop in it, added up in percentage points over so many decisions, never a share over 100%.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';

// setLang marks the document's language: a stand-in document for node.
globalThis.document = /** @type {any} */ ({ documentElement: {} });
const i18n = await import('../../src/cribbage/web/static/shared/i18n.js');
const { givenAwayLines, lossText } = await import('../../src/cribbage/web/static/review/reviewlines.js');
await i18n.loadLanguages();

afterEach(() => i18n.setLang('en'));

/** A game judged by the chance of winning (to 61): drops adding up past 100 points. */
const game = {
  seat: 0, discard: 0, play: 0, count: 0, points: 0, win_discard: 0.6, win_play: 0.465, win: 1.065, win_decisions: 14, decisions: 30,
};

describe('the chance of winning given away', () => {
  it('is a sum of drops over the decisions that lost some, in percentage points, never a share over 100%', () => {
    assert.deepEqual(givenAwayLines(game), [
      'Chance of winning lost at 14 decisions, added up: 106.5 percentage points (discard 60.0, play 46.5).',
    ]);
    for (const lang of i18n.LANGS) {
      i18n.setLang(lang);
      const [line] = givenAwayLines(game);
      assert.ok(line.includes('106.5') && line.includes('14') && !line.includes('%'), `${lang}: ${line}`);
    }
  });
  it('says one decision\'s drop without adding up', () => {
    const one = { ...game, win_discard: 0.059, win_play: 0, win: 0.059, win_decisions: 1 };
    assert.deepEqual(givenAwayLines(one), ['Chance of winning lost at 1 decision: 5.9 percentage points (discard 5.9).']);
  });
  it('says how much lower a decision left the chance, and points in points', () => {
    assert.equal(lossText({ loss: 0.032, unit: 'win' }), 'lowered the chance of winning by 3.2 percentage points');
    assert.equal(lossText({ loss: 1.5, unit: 'points' }), 'gave away 1.50 points');
    assert.equal(lossText({ loss: 0.0001, unit: 'win' }), 'nothing given away');
    i18n.setLang('ja');
    assert.equal(lossText({ loss: 0.032, unit: 'win' }), '勝率を3.2ポイント下げた');
  });
});
