// @ts-check
// The profile's and the leaderboard's numbers (standings.js): a rating with its uncertainty, a
// change, and the graph of a rating over time scaled into its box.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { changeText, graphPoints, ratingText } from '../../src/cribbage/web/static/standings.js';

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
