// @ts-check
// What a review says a seat gave away (review.js), made without the DOM (tests/js runs it):
// points in points; the chance of winning as each decision's drop in it, in percentage points,
// added up over the decisions that dropped it.  Such a sum may pass 100 (ten decisions losing 15
// points each): it is never said as a share of the game's chances (docs/api.md, "Review": TOTALS).

import { numText, t } from '../shared/i18n.js';

/** A drop in the chance of winning (0 to 1), in percentage points to one decimal ("3.2"). @param {number} x */
export const chancePoints = (x) => numText(100 * x, 1);

/**
 * The lines of what a seat gave away in a hand or a game: the points (unless all its decisions
 * were judged by the chance of winning and gave none), and the chance of winning lost.
 * @param {Record<string, any>} totals  TOTALS of docs/api.md
 * @returns {string[]}
 */
export function givenAwayLines(totals) {
  const parts = [];
  const pts = [['discard', 'review.inDiscard'], ['play', 'review.inPlay'], ['count', 'review.inCount']];
  for (const [key, word] of pts) if (totals[key] >= 0.005) parts.push(`${t(word)} ${numText(totals[key])}`);
  const lines = [];
  const byWin = totals.win >= 0.0005;
  // A game judged all by the chance of winning (to 61) gives away no points: no line of zeros.
  if (totals.points >= 0.005 || !byWin) {
    lines.push(t('review.pointsAway', { x: numText(totals.points), parts: parts.join(t('listSep')) }));
  }
  if (byWin) {
    const wparts = [];
    if (totals.win_discard >= 0.0005) wparts.push(`${t('review.inDiscard')} ${chancePoints(totals.win_discard)}`);
    if (totals.win_play >= 0.0005) wparts.push(`${t('review.inPlay')} ${chancePoints(totals.win_play)}`);
    lines.push(t('review.winAway', { x: chancePoints(totals.win), n: totals.win_decisions ?? 0, parts: wparts.join(t('listSep')) }));
  }
  return lines;
}

/**
 * What one decision gave away: nothing, points, or how much lower it left the chance of winning.
 * @param {{loss: number, unit: string}} d  a DECISION of docs/api.md
 */
export function lossText(d) {
  if (d.loss < (d.unit === 'win' ? 0.0005 : 0.005)) return t('review.noLoss');
  return d.unit === 'win' ? t('review.lossWin', { x: chancePoints(d.loss) }) : t('review.lossPts', { x: numText(d.loss) });
}
