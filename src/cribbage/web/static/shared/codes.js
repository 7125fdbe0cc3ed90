// @ts-check
// The codes the server sends, each written once here: the pages compare against these names,
// never against string literals, and make the words from them in the player's language.

/** The kinds of the game's events (Event.to_json's "kind", docs/api.md). */
export const EV = Object.freeze({
  CUT: 'cut',
  RECUT: 'recut',
  DEAL: 'deal',
  DISCARD: 'discard',
  STARTER: 'starter',
  PLAY: 'play',
  GO: 'go',
  RESET: 'reset',
  SCORE: 'score',
  SHOW: 'show',
  MUGGINS: 'muggins',
  PENALTY: 'penalty',
  PASS: 'pass',
  HAND_OVER: 'hand over',
  WIN: 'win',
});

/** The codes of a play hint's reasons (the hint's "reasons", docs/api.md). */
export const REASON = Object.freeze({
  COMBO: 'combo',
  LEAVES: 'leaves',
  AVOIDS: 'avoids',
  SAFE_LEAD: 'safe_lead',
  NO_POINTS: 'no_points',
});

/** The codes of "Play now"'s refusals the page does more with than word them (docs/api.md, "Play now"). */
export const QUEUE = Object.freeze({
  ALREADY_WAITING: 'queue.already_waiting',
  MATCH_WAITING: 'queue.match_waiting',
  UNAVAILABLE: 'queue.unavailable',
  TOO_MANY: 'too_many',
});
