// @ts-check
// What the profile, the leaderboard and Play now show, computed without the DOM (tests/js runs
// it): a pool's name, the pool a leaderboard opens on, a rating as one number with its
// uncertainty, a rating's change, and the points of a rating's graph over time (docs/api.md,
// "Players and ratings").

import { t } from '../shared/i18n.js';

/**
 * A pool's name in the page's language, the one name of it on every screen (Play now, the
 * profile, the leaderboard): its words are lang/*.js's `pool.<name>`.
 * @param {string} pool
 */
export function poolLabel(pool) {
  return t(`pool.${pool}`);
}

/**
 * The pool a profile's leaderboard opens on: the pool of the player's last rated game, else of
 * their first rating; null for a player without a rating.
 * @param {{recent?: {pool: string}[], ratings?: {pool: string}[]}} profile  PROFILE of docs/api.md
 * @returns {string | null}
 */
export function profilePool(profile) {
  const last = (profile.recent || [])[0] || (profile.ratings || [])[0];
  return last ? last.pool : null;
}

/**
 * A rating as shown: the number and how far it may be off, e.g. "1579 ± 484".
 * @param {{shown: number, uncertainty: number}} rating
 */
export function ratingText(rating) {
  return `${rating.shown} ± ${rating.uncertainty}`;
}

/**
 * A rating's change in a game, signed ("+12", "−8", "±0"); '' for a pool's first game (null).
 * @param {number | null | undefined} change
 */
export function changeText(change) {
  if (change === null || change === undefined) return '';
  if (change > 0) return `+${change}`;
  return change < 0 ? `−${-change}` : '±0';
}

/**
 * The points of a rating's graph in a width × height box (pad kept free at each edge): x by the
 * game's order (oldest left), y by the rating (highest up), scaled to the lowest and highest shown
 * (a span of at least minSpan, so that a flat or short history is not blown up).  One game: a
 * point in the middle.
 * @param {{shown: number}[]} history  oldest first
 * @param {{width: number, height: number, pad?: number, minSpan?: number}} box
 * @returns {{points: [number, number][], low: number, high: number}}
 */
export function graphPoints(history, { width, height, pad = 4, minSpan = 50 }) {
  if (!history.length) return { points: [], low: 0, high: 0 };
  const values = history.map((p) => p.shown);
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high - low < minSpan) {
    const middle = (high + low) / 2;
    low = Math.floor(middle - minSpan / 2);
    high = low + minSpan;
  }
  const innerW = width - 2 * pad;
  const innerH = height - 2 * pad;
  const last = values.length - 1;
  /** @type {[number, number][]} */
  const points = values.map((v, i) => [
    round(pad + (last ? (innerW * i) / last : innerW / 2)),
    round(pad + (innerH * (high - v)) / (high - low)),
  ]);
  return { points, low, high };
}

/** @param {number} x */
const round = (x) => Math.round(x * 10) / 10;
