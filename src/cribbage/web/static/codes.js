// The codes the server sends, each written once here: the pages compare against these names,
// never against string literals, and make the words from them in the player's language.

/** The codes of a play hint's reasons (the hint's "reasons", docs/api.md). */
export const REASON = Object.freeze({
  COMBO: 'combo',
  LEAVES: 'leaves',
  AVOIDS: 'avoids',
  SAFE_LEAD: 'safe_lead',
  NO_POINTS: 'no_points',
});
