// What the page needs to know about each variant (the rules themselves live on the server).
export const VARIANTS = {
  standard: { players: 2, deal: 6, discard: 2, fromDeck: 0, target: 121 },
  short: { players: 2, deal: 6, discard: 2, fromDeck: 0, target: 61 },
  'five-card': { players: 2, deal: 5, discard: 2, fromDeck: 0, target: 61 },
  'seven-card': { players: 2, deal: 7, discard: 2, fromDeck: 0, target: 151 },
  'three-player': { players: 3, deal: 5, discard: 1, fromDeck: 1, target: 121 },
  'four-player': { players: 4, deal: 5, discard: 1, fromDeck: 0, target: 121, partners: true },
  'crib-deal': { players: 2, deal: 5, discard: 1, fromDeck: 2, target: 121 },
  lowball: { players: 2, deal: 6, discard: 2, fromDeck: 0, target: 121, lowball: true },
};

export function variantInfo(name, players) {
  return VARIANTS[name] || { players, deal: 6, discard: 2, fromDeck: 0, target: 121 };
}

/** The counts of the show in order: each hand from the dealer's left, then the crib. */
export function showOrder(dealer, players) {
  const order = [];
  for (let i = 1; i <= players; i++) order.push({ seat: (dealer + i) % players, what: 'hand' });
  order.push({ seat: dealer, what: 'crib' });
  return order;
}
