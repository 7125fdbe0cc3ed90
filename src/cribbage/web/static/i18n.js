// @ts-check
// Every text of the game page in Japanese, English and Russian, with the names of the rules.
// t(key, vars) looks a key up in the current language (falling back to English); a value may be a
// function of the vars, for plurals.  The language comes from ?lang=, then localStorage, then the
// browser (navigator.languages), and is remembered when the player switches.

import { parseCard, RANKS, rankLabel } from './cards.js';
import { REASON } from './codes.js';

export const LANGS = ['ja', 'en', 'ru'];
const LS_LANG = 'cribbage.lang';

function ruPlural(n, one, few, many) {
  const a = Math.abs(n) % 100, b = a % 10;
  if (a > 10 && a < 20) return many;
  if (b > 1 && b < 5) return few;
  if (b === 1) return one;
  return many;
}
const enPts = (n) => `${n} point${n === 1 ? '' : 's'}`;
const ruPts = (n) => `${n} ${ruPlural(n, 'очко', 'очка', 'очков')}`;

const en = {
  joinTable: 'Join a table', lobby: 'Lobby', seatsTitle: 'Seats', yourName: 'Your name',
  publicTable: 'List the table in the lobby', inviteCode: 'Invitation code', join: 'Join', refresh: 'Refresh',
  playerN: ({ n }) => `Player ${n}`, openSeat: ({ n }) => `Seat ${n} (open)`, seatN: ({ n }) => `Seat ${n}`,
  person: 'A person (invite)', computerChosen: 'Computer (the strength above)',
  waitingJoin: ({ names }) => `Waiting for people to join: ${names}`, waitingFor: ({ name }) => `Waiting for ${name}…`,
  yourTurn: 'Your turn', toAct: 'to act', joined: 'joined', notJoined: 'not joined yet',
  invitations: 'Invitations', inviteLink: 'Invitation link', copyLink: 'Copy link', copyCode: 'Copy code', copied: 'Copied',
  'live.connecting': 'Connecting…', 'live.live': 'Connected', 'live.reconnecting': 'Reconnecting…', 'live.refused': 'Not connected',
  seatOnline: 'online', seatOffline: 'offline',
  rematch: 'Play again with these players', newGameAlone: 'New game (these players are not invited)', rematchLog: 'A new game at the same table.',
  turnClock: 'Time per turn', noClock: 'No clock', clock30: '30 seconds', clock60: '1 minute', clock120: '2 minutes', clockLeft: ({ n }) => `${n} s left`, away: 'away: a computer moved',
  ifLeaves: 'If someone leaves', takeoverWait: 'Their seat waits for someone', leaveTable: 'Leave the table', leaveConfirmWait: 'Leave this table? Your seat stays open: anyone with its invitation can take it, you too.', leaveConfirmComputer: ({ level }) => `Leave this table? A computer (${level}) plays your seat from now on: you cannot come back to it.`, youLeft: 'You left the table.', computerTakes: 'Give to a computer', leftSeat: ({ name }) => `${name} left the table: the seat is open.`, leftForComputer: ({ name, level }) => `${name} left the table: a computer (${level}) plays the seat.`,
  giveSeatConfirm: ({ name }) => `${name} is offline. Give their seat to a computer? They will not play at this table again.`,
  watching: 'Watching: you see what every player sees.', watchingLog: 'You are watching this table.', getWatchLink: 'Link for spectators', watchLink: 'Watch link',
  yourSeatN: ({ n }) => `Seat ${n}: yours`, atTheTable: 'At the table:',
  joinUnknown: 'No table has this invitation code.', joinTaken: 'This seat is taken already.',
  joinBadName: 'Please give a name of 1 to 30 letters.',
  joinedLog: 'You joined the table.', loading: 'Loading…', lobbyEmpty: 'No public table is waiting for players now.',
  clockN: ({ n }) => `${n} s per turn`, takeoverLevel: ({ level }) => `If someone leaves: ${level}`, takeoverNone: 'If someone leaves: the seat waits', freeSeats: ({ n }) => `${n} free seat${n === 1 ? '' : 's'}`,
  whoWaits: ({ names }) => `Waiting: ${names}`, joinSeat: ({ n }) => `Join (seat ${n})`,
  title: 'Cribbage',
  said: ({ who, what }) => `${who}: ${what}`, listSep: ', ', source: 'Source',
  cardLabel: ({ text, name }) => `${text} ${name}`,
  overcountNote: 'With muggins, a count stated too high is corrected and the excess goes to the opponent.',
  overcountPenalty: ({ name, n }) => `Over-counted: the excess, ${enPts(n)}, goes to ${name}.`,
  welcomeTitle: 'Welcome! Choose your game', welcomeNote: 'You can change these at any time under Options.',
  winPts: 'Chance of winning', hintWinNote: 'Near the end of the game the keeps are ranked by the chance of winning, shown after the cards (the points too).',
  hintPlayWinNote: 'The game may end in this hand: the cards are ranked by the chance of winning.',
  lowballPts: 'Your points (fewer is better)',
  hintLowballNote: 'Lowball: every point you score brings you nearer to losing, so the keeps with the fewest expected points come first.',
  hintPlayLowballNote: 'Lowball: points you score count against you; a higher value is still better for you.',
  'field.hand': 'Hand', 'field.starter': 'Starter', 'field.cards': 'Cards',
  'err.card_invalid': ({ place, card }) => `${place}: “${card}” is not a card. Type a rank (A, 2–9, T or 10, J, Q, K) and a suit (C, D, H, S or ♣♦♥♠), like 5H.`,
  'err.card_duplicate': ({ field, place, card }) => (field === 'starter' ? `The starter ${card} is also in the hand.` : `${place}: ${card} is there twice.`),
  'err.card_count': ({ count, allowed }) => `A hand has ${allowed[0]} to ${allowed[allowed.length - 1]} cards, not ${count}.`,
  'err.starter_missing': 'Type the starter card too.', 'err.no_cards': 'No card was played.',
  'err.count_over_31': ({ count }) => `The count passes 31 (${count}).`, 'err.bad_request': 'The request could not be read.',
  // The errors of the game's API, by code (docs/api.md): the code's own words, else its part before
  // the first dot's ('illegal'), else err.generic.
  'err.illegal': 'That is not allowed now.', 'err.illegal.action': 'That is not allowed now.',
  'err.illegal.card': 'That card cannot be played here.', 'err.illegal.rules': 'These rules do not go together.',
  'err.illegal.muggins': 'No count awaits a muggins call now.', 'err.bad_record': 'This game record cannot be replayed.',
  'err.not_found': 'This game is no longer on the server.', 'err.no_invitation': 'No table has this invitation code.',
  'err.no_watch_code': 'No table has this watch link.', 'err.unauthorized': 'This game belongs to another browser.',
  'err.forbidden': 'Only the table’s creator may do this.', 'err.stale': 'The game has moved on: it is shown as it is now.',
  'err.seat_taken': 'This seat is taken already.', 'err.table_waiting': 'The table still waits for people to join.',
  'err.game_over': 'This game is over.', 'err.invalid': 'That choice is not possible here.',
  'err.corrupt_record': 'This game’s record on the server cannot be replayed.', 'err.too_large': 'The request is too large.',
  'err.computer_unavailable': 'The server cannot play this computer strength.', 'err.internal': 'The server had a problem. Try again.',
  'err.generic': 'Something went wrong. Try again.',
  'err.too_many': ({ retry_after: n }) => `Too many requests: try again in ${n} second${n === 1 ? '' : 's'}.`,
  'err.limits_unavailable': 'The server cannot count requests just now: try again in a few seconds.',
  'err.database_unavailable': 'The server cannot reach its database just now: nothing was changed. Try again in a few seconds.',
  'howto.title': 'How to play cribbage', 'howto.replay': 'Show it combination by combination', 'howto.countIs': ({ n }) => `count ${n}`,
  'howto.lastCard': 'points for the last card played', 'howto.tryTitle': 'Score any hand', 'howto.tryHand': 'Hand (3 to 5 cards)',
  'howto.tryStarter': 'Starter', 'howto.tryCrib': 'It is a crib', 'howto.tryGo': 'Count it',
  'howto.tryHelp': 'Type cards like 5H 5C 5S JD (rank A 2–9 T or 10 J Q K, suit C D H S or ♣♦♥♠).', 'howto.play': 'Play cribbage',
  'howto.noPoints': 'No points', 'howto.loading': 'Counting…',
  // The practice page (/practice): the trainers.
  practice: 'Practice', 'train.pageTitle': 'Cribbage practice', 'train.title': 'Practice',
  'train.intro': 'Choose as in a game; the computer’s advice then ranks every choice and says what yours gave away.',
  'train.discardTab': 'Discard drill', 'train.playTab': 'Play drill', 'train.side': 'Whose crib',
  'train.sideAny': 'Either', 'train.sideDealer': 'Yours (you deal)', 'train.sidePone': 'The opponent’s (you are the pone)',
  'train.throw': 'Throw', 'train.next': 'Next', 'train.tally': 'Your progress', 'train.decisions': 'Decisions',
  'train.bestShare': 'Best choices', 'train.avgLoss': 'Average loss (points)', 'train.avgWinLoss': 'Average loss (chance of winning)',
  'train.tallyNote': 'Kept in this browser.', 'train.resetConfirm': 'Forget your practice progress?',
  'train.roleDealer': 'You deal: the crib is yours', 'train.rolePone': 'You are the pone: the crib is the opponent’s',
  'train.scoresLine': ({ mine, theirs, target }) => `you ${mine}, opponent ${theirs} (game to ${target})`,
  'train.yourThrow': 'Your throw', 'train.played': 'Played this hand', 'train.opponent': 'Opp.', 'train.nothing': 'nothing yet',
  'train.opponentHolds': ({ n }) => `The opponent holds ${n} card${n === 1 ? '' : 's'}.`,
  'train.discardPrompt': ({ n, own }) => `Choose ${n} card${n === 1 ? '' : 's'} to throw to ${own ? 'your' : 'the opponent’s'} crib.`,
  'train.playPrompt': ({ count }) => `Choose the card to play (count ${count}).`,
  'train.best': 'The best choice!', 'train.lossPts': ({ x }) => `You gave away ${x} points.`,
  'train.lossWin': ({ x }) => `You gave away ${x} of the chance of winning.`,
  'train.keepNote': 'Every keep, best first, with the points it is expected to bring (hand, crib, play).',
  'train.valueNote': 'Every card you could play, best first, with the net points it is expected to bring to the end of the play.',
  'train.you': '← you', 'train.colThrow': 'Throw / keep', 'train.colPlay': 'Play', 'train.colWin': 'Win',
  'train.colCard': 'Card', 'train.colValue': 'Value',
  'train.winNote': 'Near the end of the game the keeps are ranked by the chance of winning (the last column).',
  'train.atScore': 'At a score', 'train.yourScore': 'You', 'train.theirScore': 'Opponent',
  'err.bad_scores': ({ target }) => `Scores are two whole numbers from 0 to ${(target || 121) - 1}: yours and the opponent’s.`,
  // The review page (/review): a game's review.
  'review.open': 'Review this game', 'review.nav': 'Review a game', 'review.pageTitle': 'Cribbage game review', 'review.title': 'Game review',
  'review.intro': 'Every decision judged against the computer’s best: what it gave away, and the chance of winning over the game.',
  'review.openFile': 'Open a game record', 'review.seat': 'Review the seat of', 'review.timeline': 'Hand by hand',
  'review.clickNote': 'Choose a decision to see why, and the table as it was.',
  'review.none': 'Open a game record (downloaded from the game’s result, or saved by the terminal game) to review it, or choose “Review this game” at the end of a game.',
  'review.loading': 'Reviewing the game… (a few seconds)',
  'review.notJson': ({ name }) => `“${name}” is not a JSON file, so it is not a game record.`,
  'review.notRecord': ({ name }) => `“${name}” is not a cribbage game record (format “cribbage-record”).`,
  'review.refused': ({ message }) => `The server could not review this record: ${message}`,
  'review.busy': 'The server is busy reviewing other games: try again in a moment.',
  'review.grade.best': 'Best', 'review.grade.fine': 'Fine', 'review.grade.inaccuracy': 'Inaccuracy',
  'review.grade.mistake': 'Mistake', 'review.grade.blunder': 'Blunder',
  'review.kind.discard': 'Discard', 'review.kind.play': 'Play', 'review.kind.count': 'Count',
  'review.inDiscard': 'discard', 'review.inPlay': 'play', 'review.inCount': 'counting',
  'review.pointsAway': ({ x, parts }) => `Points given away: ${x}${parts ? ` (${parts})` : ''}.`,
  'review.winAway': ({ x, parts }) => `Chance of winning given away: ${x}${parts ? ` (${parts})` : ''}.`,
  'review.gameLine': ({ variant, target }) => `${variant}, game to ${target}`,
  'review.unfinished': 'The record ends before the game does.',
  'review.overGame': ({ name }) => `Over the game: ${name}`,
  'review.decisionsN': ({ n }) => `${n} decision${n === 1 ? '' : 's'}`,
  'review.chartWin': ({ name }) => `Chance of winning (${name}) as each hand is dealt, and at the end`,
  'review.chartScores': 'No chance of winning is known for this game (three players, or a target without a table of chances): the graph shows the scores as each hand is dealt instead.',
  'review.end': 'The end', 'review.noLoss': 'nothing given away',
  'review.lossPts': ({ x }) => `gave away ${x} points`, 'review.lossWin': ({ x }) => `gave away ${x} of the chance of winning`,
  'review.discardLine': ({ chosen, best, same }) => (same ? `threw ${chosen}, the best` : `threw ${chosen}; best ${best}`),
  'review.playLine': ({ chosen, best, same }) => (same ? `played ${chosen}, the best` : `played ${chosen}; best ${best}`),
  'review.mugginsLine': ({ called, missed }) => (called ? `called muggins for ${called}; ${missed} missed` : `let the count stand; ${missed} missed`),
  'review.countLine': ({ what, stated, actual }) => `${what}: stated ${stated}, there were ${actual}`,
  'review.what.hand': 'your hand', 'review.what.crib': 'your crib', 'review.what.play': 'points for a card played',
  'review.choice': 'Choice', 'review.yours': 'Yours', 'review.best': 'Best', 'review.pointsNow': 'Points',
  'review.mugginsWhy': ({ name, called, missed }) => (called
    ? `${name} counted; you called muggins for ${enPts(called)}, and the count had missed ${enPts(missed)}.`
    : `${name} counted; you let the count stand, and it had missed ${enPts(missed)}.`),
  'review.left': ({ n }) => `${enPts(n)} left untaken.`,
  'review.wrong': ({ n, name }) => `${enPts(n)} called that were not missed: they went to ${name}.`,
  'review.countWhy': ({ what, stated, actual }) => `${what[0].toUpperCase()}${what.slice(1)}: you stated ${stated}; there were ${enPts(actual)}.`,
  'review.missed': ({ n }) => `${enPts(n)} missed.`, 'review.over': ({ n }) => `${enPts(n)} over-stated (not pegged).`,
  'review.overPenalty': ({ n }) => `${enPts(n)} over-stated: the excess went to the opponent.`,
  'review.taken': ({ n }) => `The opponent took ${enPts(n)} by muggins.`,
  'review.rank': ({ rank, n }) => `Your choice ranked ${rank} of ${n}.`,
  'review.moment': 'The table at that moment', 'review.noDecisions': 'No decision with a choice in this hand.',
  newGame: 'New game', options: 'Options', statistics: 'Statistics', howTo: 'How to play', language: 'Language',
  scores: 'Scores', actions: 'Actions', log: 'Game log', sequenceLabel: 'Cards of the current count',
  yourHandLabel: 'Your hand',
  keysHelp: 'Keys: 1–7 pick a card · Enter confirm · Space toggle · H hint · O options · N new game · S skip · Esc close',
  starter: 'Starter', crib: 'Crib', count: 'Count', deck: 'Deck', hint: 'Hint', showResult: 'Result',
  optionsTitle: 'Options', strength: 'Computer strength', weak: 'Weak', normal: 'Normal', strong: 'Strong',
  variant: 'Variant', target: 'Game to', targetDefault: ({ n }) => (n ? `The variant’s own (${n})` : 'The variant’s own'),
  counting: 'Counting', countAuto: 'Automatic counting', countManual: 'I count my own hands',
  countMuggins: 'I count, with muggins', countMugginsPlay: 'Muggins in the play too (state every card’s points)',
  'counted.auto': 'Automatic counting', 'counted.manual': 'Each player counts their own hands',
  'counted.muggins': 'Each player counts, with muggins', 'counted.mugginsPlay': 'Muggins in the show and the play',
  firstDealer: 'First dealer', dealerCut: 'Cut for deal', dealerYou: 'You', dealerComputer: 'The computer', dealerLeft: 'The player on your left (seat 2)',
  speed: 'Animation speed', slow: 'Slow', normalSpeed: 'Normal', fast: 'Fast',
  optionsNote: 'Strength, variant, target, counting and dealer apply to the next game.',
  startGame: 'Start a new game', saveOptions: 'Save', cancel: 'Cancel', close: 'Close',
  chartCaption: 'Scores after each hand', playAgain: 'Play again', downloadRecord: 'Download the record',
  resetStats: 'Reset', resetConfirm: 'Forget all statistics?',
  'level.weak': 'Weak computer', 'level.normal': 'Normal computer', 'level.strong': 'Strong computer',
  'variant.standard': 'Six-card (standard)', 'variant.short': 'Short game (61)', 'variant.five-card': 'Five-card',
  'variant.seven-card': 'Seven-card (151)', 'variant.three-player': 'Three players', 'variant.four-player': 'Four players (partners)',
  'variant.crib-deal': 'Crib dealt (five cards, throw one)', 'variant.lowball': 'Lowball (first to the target loses)',
  'variantDesc.standard': 'Six cards each, two to the crib, first to 121 wins.',
  'variantDesc.short': 'The standard game to 61: about half as long.',
  'variantDesc.five-card': 'The old game: five cards, keep three, one count to 31, the non-dealer gets 3 at the start; to 61.',
  'variantDesc.seven-card': 'Seven cards, keep five; hands score more, so the game goes to 151.',
  'variantDesc.three-player': 'You and two computers: five cards each, one to the crib, one more from the deck.',
  'variantDesc.four-player': 'Two teams: your partner sits opposite you. Five cards, one to the crib; partners add their points.',
  'variantDesc.crib-deal': 'Local rule: five cards each, two dealt to the crib, each player throws one.',
  'variantDesc.lowball': 'Everything as usual, but the first side to reach the target loses.',
  targetN: ({ n }) => `Game to ${n}`, handN: ({ n }) => `Hand ${n}`,
  you: 'You', computer: 'Computer', computerN: ({ n }) => `Computer ${n}`, partner: 'Partner',
  leftOpponent: 'Left opponent', rightOpponent: 'Right opponent', usTeam: 'You & partner', themTeam: 'Opponents',
  yourHand: 'Your hand', yourCrib: 'Your crib', handOf: ({ name }) => `${name}’s hand`, cribOf: ({ name }) => `${name}’s crib`,
  dealer: 'Dealer', dealerShort: 'D', cardsHeld: ({ n }) => `${n} cards held`, cardsInCrib: ({ n }) => `${n} cards in the crib`,
  played: 'played', boardTitle: 'Cribbage board: two pegs per side, the back peg marks the previous score',
  skunkLine: 'Skunk line', doubleSkunkLine: 'Double skunk line',
  waiting: 'The computer is playing…', pressContinue: 'Press Continue (Enter) for the next deal.',
  chooseDiscard: ({ n, own, name }) => `Choose ${n} card${n === 1 ? '' : 's'} for ${own ? 'your' : `${name}’s`} crib.`,
  toCrib: 'To the crib', toCribShort: 'Crib', yourPlay: ({ count }) => `Your turn: play a card (count ${count}).`,
  countPrompt: 'Count your cards and state the points.', mugginsPrompt: 'Let the count stand, or call muggins on the missed points.',
  cutForDeal: 'Cut for deal', dealsFirst: ({ name }) => (name === 'You' ? 'you deal' : `${name} deals`), recut: 'a tie: cut again',
  dealLog: ({ name }) => `${name === 'You' ? 'You deal' : `${name} deals`}.`,
  starterIs: ({ card }) => `Starter: ${card}`, playLog: ({ name, card, count }) => `${name}: ${card} (count ${count})`,
  go: 'Go!', countReset: 'The count starts again from 0',
  handOver: 'The hand is over.', gameOver: 'Game over',
  theShow: 'The show', continue: 'Continue', seeResult: 'See the result', skip: 'Skip (S)',
  total: 'Total', nineteen: 'Nineteen — no points', stated: ({ n }) => `stated ${n}`,
  pointsN: ({ n }) => enPts(n),
  underCount: ({ n }) => `${enPts(n)} not counted.`, overCount: ({ n }) => `Over-counted: only ${n} pegged.`,
  claimsN: ({ name, n }) => `${name === 'You' ? 'You state' : `${name} states`} ${n}. Check it!`,
  claimLog: ({ whose, n }) => `${whose}: stated ${n}`,
  passed: ({ name }) => `${name} let${name === 'You' ? '' : 's'} the count stand.`,
  mugginsCalled: ({ name, n }) => `Muggins! ${name} take${name === 'You' ? '' : 's'} ${enPts(n)}.`,
  penaltyCalled: ({ name, n }) => `A wrong muggins call: ${enPts(n)} to ${name}.`,
  yourCount: 'Your count', howManyHand: 'Points in your hand:', howManyCrib: 'Points in your crib:', countButton: 'Count',
  missedPoints: 'Missed points', letStand: 'Let it stand', callMuggins: 'Muggins!', or: 'or',
  mugginsAnyone: 'Every opponent may call: the first call takes the points.',
  waitingMuggins: ({ names }) => `Waiting for a muggins call or pass: ${names}…`,
  mugginsLate: 'Too late: another player called muggins first.',
  playClaim: ({ name, card, n }) => `${name} played ${card} and claimed ${n}.`,
  claimFor: ({ card }) => `Points for ${card}:`, play: 'Play',
  thinking: 'Thinking…', hintFailed: 'No hint', hintDiscardTitle: 'Hint: what to keep',
  hintPlayTitle: 'Hint: what to play', keep: 'Keep', handPts: 'Hand', cribPtsMine: 'Crib (yours)',
  cribPtsTheirs: 'Crib (theirs)', peggingPts: 'Pegging', totalPts: 'Total', useThis: 'Use this discard',
  hintDiscardNote: 'Every way to discard, best first, with the expected points (average over all starters).',
  hintPlayNote: 'Every card you can play, best first.',
  'reason.pairs': ({ rank, p }) => `pairs the ${rank} for ${p}`, 'reason.leaves': ({ count, makes }) => `leaves ${count}: a ten-card makes ${makes}`,
  'reason.avoids': ({ count }) => `avoids leaving ${count}`, 'reason.safeLead': 'a safe lead: no card makes 15 on it', 'reason.none': 'no points',
  'reason.sep': ', ',
  youWin: 'You win!', sideWins: ({ name }) => `${name} win${name.includes('&') || name === 'Opponents' ? '' : 's'}.`,
  skunk: 'a skunk', doubleSkunk: 'a double skunk', skunkMarked: 'Skunk! (the loser did not pass the skunk line; counted as one win)',
  doubleSkunkMarked: 'Double skunk! (counted as one win)', lowballNote: ({ n }) => `Lowball: the first to reach ${n} loses.`,
  pegging: 'Pegging', hand: 'Hand', other: 'Other', pointsBySource: 'Points by source', hands: 'hand',
  statPlayed: 'Games played', statWon: 'Won', statLost: 'Lost', statSkunksGiven: 'Skunks given', statSkunksTaken: 'Skunks taken',
  statAvgPegging: 'Average pegging points a game', statAvgHand: 'Average hand points a game', statAvgCrib: 'Average crib points a game',
  statsNote: 'Kept in this browser. A skunk counts as one win.',
  offline: 'The server cannot be reached.', errorPrefix: 'Error', retry: 'Retry',
  newGameLog: ({ variant }) => `New game: ${variant}.`, resumed: 'Game resumed.',
  'combo.fifteen': 'Fifteen', 'combo.pair': 'Pair', 'combo.pair royal': 'Pair royal', 'combo.double pair royal': 'Double pair royal',
  'combo.run': 'Run', 'combo.flush': 'Flush', 'combo.nobs': 'Nobs', 'combo.thirty-one': 'Thirty-one', 'combo.go': 'Go',
  'combo.last card': 'Last card', 'combo.his heels': 'His heels', 'combo.three for last': 'Three for last',
  'combo.muggins': 'Muggins', 'combo.penalty': 'Penalty',
  'combo.double run': 'Double run', 'combo.triple run': 'Triple run', 'combo.double double run': 'Double double run',
  'combo.quadruple run': 'Quadruple run',
  comboLine: ({ kind, name, p, n }) => {
    if (kind === 'run') return `Run of ${n} for ${p}`;
    if (kind.endsWith(' run')) return `${name} of ${n} for ${p}`;
    if (kind === 'flush') return `Flush of ${n} for ${p}`;
    if (kind === 'three for last') return `${name} (${p})`;
    return `${name} for ${p}`;
  },
  rankNames: ['ace', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'jack', 'queen', 'king'],
  suitNames: { C: 'clubs', D: 'diamonds', H: 'hearts', S: 'spades' },
  cardName: ({ rank, suit }) => `${en.rankNames[rank - 1]} of ${en.suitNames[suit]}`,
};

const ja = {
  joinTable: 'テーブルに参加', lobby: 'ロビー', seatsTitle: '席', yourName: 'あなたの名前',
  publicTable: 'ロビーに公開する', inviteCode: '招待コード', join: '参加する', refresh: '更新',
  playerN: ({ n }) => `プレイヤー${n}`, openSeat: ({ n }) => `席${n}（空き）`, seatN: ({ n }) => `席${n}`,
  person: '人（招待する）', computerChosen: 'コンピューター（上の強さ）',
  waitingJoin: ({ names }) => `参加を待っています: ${names}`, waitingFor: ({ name }) => `${name}を待っています…`,
  yourTurn: 'あなたの番です', toAct: '番', joined: '参加済み', notJoined: '未参加',
  invitations: '招待', inviteLink: '招待リンク', copyLink: 'リンクをコピー', copyCode: 'コードをコピー', copied: 'コピーしました',
  'live.connecting': '接続中…', 'live.live': '接続しています', 'live.reconnecting': '再接続中…', 'live.refused': '接続できません',
  seatOnline: 'オンライン', seatOffline: 'オフライン',
  rematch: '同じメンバーでもう一度', newGameAlone: '新しいゲーム（このメンバー抜き）', rematchLog: '同じテーブルで新しいゲームです。',
  turnClock: '1手の持ち時間', noClock: 'なし', clock30: '30秒', clock60: '1分', clock120: '2分', clockLeft: ({ n }) => `残り${n}秒`, away: '離席中：コンピューターが代わりに打ちました',
  ifLeaves: '誰かが抜けたら', takeoverWait: '席は空けて待つ', leaveTable: 'テーブルを抜ける', leaveConfirmWait: 'このテーブルを抜けますか？席は空いたまま待ち、招待コードがあれば誰でも（あなたも）座れます。', leaveConfirmComputer: ({ level }) => `このテーブルを抜けますか？以後はコンピューター（${level}）があなたの席で打ち、この席には戻れません。`, youLeft: 'テーブルを抜けました。', computerTakes: 'コンピューターに任せる', leftSeat: ({ name }) => `${name}がテーブルを抜けました。席は空いています。`, leftForComputer: ({ name, level }) => `${name}がテーブルを抜けました。コンピューター（${level}）が代わりに打ちます。`,
  giveSeatConfirm: ({ name }) => `${name}はオフラインです。この席をコンピューターに任せますか？${name}はこのテーブルに戻れなくなります。`,
  watching: '観戦中：全員に見えるものだけが表示されます。', watchingLog: 'このテーブルを観戦しています。', getWatchLink: '観戦用リンク', watchLink: '観戦リンク',
  yourSeatN: ({ n }) => `席${n}：あなたの席`, atTheTable: 'テーブルの席：',
  joinUnknown: 'この招待コードのテーブルはありません。', joinTaken: 'この席はもう埋まっています。',
  joinBadName: '名前は1〜30文字で入力してください。',
  joinedLog: 'テーブルに参加しました。', loading: '読み込み中…', lobbyEmpty: '今、参加者を待っている公開テーブルはありません。',
  clockN: ({ n }) => `1手${n}秒`, takeoverLevel: ({ level }) => `抜けた席：コンピューター（${level}）`, takeoverNone: '抜けた席：空けて待つ', freeSeats: ({ n }) => `空き${n}席`,
  whoWaits: ({ names }) => `待っている人: ${names}`, joinSeat: ({ n }) => `参加（席${n}）`,
  title: 'クリベッジ',
  said: ({ who, what }) => `${who}：${what}`, listSep: '、', source: '内訳',
  cardLabel: ({ text, name }) => `${text} ${name}`,
  overcountNote: 'マギンズありでは、多すぎる申告は直され、多かった分の点が相手に入ります。',
  overcountPenalty: ({ name, n }) => `申告が多すぎました：多かった${n}点は${name}に入ります。`,
  welcomeTitle: 'ようこそ！ゲームを選んでください', welcomeNote: 'あとから「オプションルール」でいつでも変えられます。',
  winPts: '勝つ確率', hintWinNote: '終盤なので、勝つ確率の高い順に並べています（カードのすぐ右の列。点の期待値も表示）。',
  hintPlayWinNote: 'この回でゲームが終わるかもしれないので、勝つ確率の高い順に並べています。',
  lowballPts: '自分の点（少ないほど良い）',
  hintLowballNote: 'ロウボール：点を取るほど負けに近づくので、点の期待値が少ない順に並べています。',
  hintPlayLowballNote: 'ロウボール：取った点は自分に不利です。値が大きいほど、あなたに有利です。',
  'field.hand': '手札', 'field.starter': 'スターター', 'field.cards': 'カード',
  'err.card_invalid': ({ place, card }) => `${place}：「${card}」はカードではありません。5H のように、数字（A、2〜9、T または 10、J、Q、K）とマーク（C、D、H、S または ♣♦♥♠）を入力してください。`,
  'err.card_duplicate': ({ field, place, card }) => (field === 'starter' ? `スターターの${card}が手札にもあります。` : `${place}：${card}が2回あります。`),
  'err.card_count': ({ count, allowed }) => `手札は${allowed[0]}〜${allowed[allowed.length - 1]}枚です（${count}枚になっています）。`,
  'err.starter_missing': 'スターターも入力してください。', 'err.no_cards': 'カードが出されていません。',
  'err.count_over_31': ({ count }) => `合計が31を超えます（${count}）。`, 'err.bad_request': 'リクエストを読めませんでした。',
  'err.illegal': '今はそれはできません。', 'err.illegal.action': '今はそれはできません。',
  'err.illegal.card': 'そのカードはここでは出せません。', 'err.illegal.rules': 'このルールの組み合わせはできません。',
  'err.illegal.muggins': '今はマギンズを宣言できる計算がありません。', 'err.bad_record': 'この棋譜は再生できません。',
  'err.not_found': 'このゲームはもうサーバーにありません。', 'err.no_invitation': 'この招待コードのテーブルはありません。',
  'err.no_watch_code': 'この観戦リンクのテーブルはありません。', 'err.unauthorized': 'このゲームは別のブラウザのものです。',
  'err.forbidden': 'これはテーブルを作った人だけができます。', 'err.stale': 'ゲームが先に進んでいました。今の状態を表示します。',
  'err.seat_taken': 'この席はもう埋まっています。', 'err.table_waiting': 'テーブルはまだ参加者を待っています。',
  'err.game_over': 'このゲームは終わっています。', 'err.invalid': 'その選択はここではできません。',
  'err.corrupt_record': 'サーバーにあるこのゲームの棋譜は再生できません。', 'err.too_large': 'リクエストが大きすぎます。',
  'err.computer_unavailable': 'サーバーはこの強さのコンピューターを使えません。', 'err.internal': 'サーバーで問題が起きました。もう一度お試しください。',
  'err.generic': '問題が起きました。もう一度お試しください。',
  'err.too_many': ({ retry_after: n }) => `リクエストが多すぎます。${n}秒後にもう一度お試しください。`,
  'err.limits_unavailable': 'サーバーは今リクエストを数えられません。数秒後にもう一度お試しください。',
  'err.database_unavailable': 'サーバーは今データベースに接続できません。何も変更されていません。数秒後にもう一度お試しください。',
  'howto.title': 'クリベッジの遊び方', 'howto.replay': '組を1つずつ見る', 'howto.countIs': ({ n }) => `合計${n}`,
  'howto.lastCard': '最後に出したカードの点', 'howto.tryTitle': '好きな手を数えてみる', 'howto.tryHand': '手札（3〜5枚）',
  'howto.tryStarter': 'スターター', 'howto.tryCrib': 'クリブとして数える', 'howto.tryGo': '数える',
  'howto.tryHelp': '5H 5C 5S JD のように入力します（数字は A 2〜9 T または 10 J Q K、マークは C D H S または ♣♦♥♠）。', 'howto.play': 'クリベッジで遊ぶ',
  'howto.noPoints': '0点', 'howto.loading': '数えています…',
  // 練習ページ（/practice）
  practice: '練習', 'train.pageTitle': 'クリベッジの練習', 'train.title': '練習',
  'train.intro': '対局と同じように選んでください。コンピューターの評価がすべての選択肢を順位づけし、あなたの選択で失った分を示します。',
  'train.discardTab': '捨て札の練習', 'train.playTab': 'プレイの練習', 'train.side': 'クリブの持ち主',
  'train.sideAny': 'どちらでも', 'train.sideDealer': 'あなた（親）', 'train.sidePone': '相手（あなたは子）',
  'train.throw': '捨てる', 'train.next': '次へ', 'train.tally': 'これまでの成績', 'train.decisions': '判断の数',
  'train.bestShare': '最善の選択', 'train.avgLoss': '平均の損失（点）', 'train.avgWinLoss': '平均の損失（勝率）',
  'train.tallyNote': 'このブラウザに保存されます。', 'train.resetConfirm': '練習の成績を消去しますか？',
  'train.roleDealer': 'あなたが親：クリブはあなたのもの', 'train.rolePone': 'あなたは子：クリブは相手のもの',
  'train.scoresLine': ({ mine, theirs, target }) => `あなた ${mine}点、相手 ${theirs}点（${target}点先取）`,
  'train.yourThrow': 'あなたの捨て札', 'train.played': 'この回に出たカード', 'train.opponent': '相手', 'train.nothing': 'まだなし',
  'train.opponentHolds': ({ n }) => `相手の手札は残り${n}枚です。`,
  'train.discardPrompt': ({ n, own }) => `${own ? 'あなたの' : '相手の'}クリブに捨てるカードを${n}枚選んでください。`,
  'train.playPrompt': ({ count }) => `出すカードを選んでください（合計${count}）。`,
  'train.best': '最善の選択です！', 'train.lossPts': ({ x }) => `${x}点を失いました。`,
  'train.lossWin': ({ x }) => `勝率を${x}失いました。`,
  'train.keepNote': '残し方をすべて、良い順に、期待される点（手札・クリブ・プレイ）とともに示します。',
  'train.valueNote': '出せるカードをすべて、良い順に、プレイの終わりまでに期待される差し引きの点とともに示します。',
  'train.you': '← あなた', 'train.colThrow': '捨て札／残り', 'train.colPlay': 'プレイ', 'train.colWin': '勝率',
  'train.colCard': 'カード', 'train.colValue': '評価',
  'train.winNote': 'ゲームの終盤なので、残し方は勝率（最後の列）の順に並んでいます。',
  'train.atScore': '点数を指定', 'train.yourScore': 'あなた', 'train.theirScore': '相手',
  'err.bad_scores': ({ target }) => `点数は0から${(target || 121) - 1}までの整数を2つ（あなたと相手）入力してください。`,
  // 振り返りページ（/review）
  'review.open': 'この対局を振り返る', 'review.nav': '対局の振り返り', 'review.pageTitle': 'クリベッジの対局の振り返り', 'review.title': '対局の振り返り',
  'review.intro': 'すべての判断をコンピューターの最善と比べて評価し、失った分と、対局を通した勝つ確率を示します。',
  'review.openFile': '棋譜ファイルを開く', 'review.seat': '振り返る席', 'review.timeline': '回ごとの振り返り',
  'review.clickNote': '判断を選ぶと、その理由と、その時点の場を表示します。',
  'review.none': '棋譜ファイル（対局結果からダウンロードしたもの、または端末版で保存したもの）を開くか、対局の終わりに「この対局を振り返る」を選んでください。',
  'review.loading': '対局を分析しています…（数秒かかります）',
  'review.notJson': ({ name }) => `「${name}」はJSONファイルではないため、棋譜ではありません。`,
  'review.notRecord': ({ name }) => `「${name}」はクリベッジの棋譜（形式「cribbage-record」）ではありません。`,
  'review.refused': ({ message }) => `サーバーはこの棋譜を分析できませんでした: ${message}`,
  'review.busy': 'サーバーはほかの対局を分析中です。少ししてからもう一度お試しください。',
  'review.grade.best': '最善', 'review.grade.fine': '好手', 'review.grade.inaccuracy': '不正確',
  'review.grade.mistake': '悪手', 'review.grade.blunder': '大悪手',
  'review.kind.discard': '捨て札', 'review.kind.play': 'プレイ', 'review.kind.count': '得点申告',
  'review.inDiscard': '捨て札', 'review.inPlay': 'プレイ', 'review.inCount': '得点申告',
  'review.pointsAway': ({ x, parts }) => `失った点: ${x}${parts ? `（${parts}）` : ''}`,
  'review.winAway': ({ x, parts }) => `失った勝率: ${x}${parts ? `（${parts}）` : ''}`,
  'review.gameLine': ({ variant, target }) => `${variant}・${target}点勝負`,
  'review.unfinished': 'この棋譜は対局の途中で終わっています。',
  'review.overGame': ({ name }) => `対局全体: ${name}`,
  'review.decisionsN': ({ n }) => `判断 ${n}回`,
  'review.chartWin': ({ name }) => `${name}の勝つ確率（各回の配り時点と終局）`,
  'review.chartScores': 'この対局では勝つ確率が分かりません（3人の勝負、または確率表のない目標点の勝負）。代わりに各回の配り時点の得点を示します。',
  'review.end': '終局', 'review.noLoss': '損失なし',
  'review.lossPts': ({ x }) => `${x}点の損失`, 'review.lossWin': ({ x }) => `勝率${x}の損失`,
  'review.discardLine': ({ chosen, best, same }) => (same ? `${chosen}を捨てた（最善）` : `${chosen}を捨てた・最善は${best}`),
  'review.playLine': ({ chosen, best, same }) => (same ? `${chosen}を出した（最善）` : `${chosen}を出した・最善は${best}`),
  'review.mugginsLine': ({ called, missed }) => (called ? `マギンズで${called}点を宣言・数え漏れ${missed}点` : `申告を認めた・数え漏れ${missed}点`),
  'review.countLine': ({ what, stated, actual }) => `${what}: ${stated}点と申告・正しくは${actual}点`,
  'review.what.hand': 'あなたの手札', 'review.what.crib': 'あなたのクリブ', 'review.what.play': '出したカードの点',
  'review.choice': '選択', 'review.yours': 'あなた', 'review.best': '最善', 'review.pointsNow': '得点',
  'review.mugginsWhy': ({ name, called, missed }) => (called
    ? `${name}の申告に対し、あなたはマギンズで${called}点を宣言しました。数え漏れは${missed}点でした。`
    : `${name}の申告を、あなたはそのまま認めました。数え漏れは${missed}点でした。`),
  'review.left': ({ n }) => `${n}点が取られずに残りました。`,
  'review.wrong': ({ n, name }) => `漏れていない${n}点を宣言したため、その点は${name}に入りました。`,
  'review.countWhy': ({ what, stated, actual }) => `${what}: あなたは${stated}点と申告しました。正しくは${actual}点です。`,
  'review.missed': ({ n }) => `${n}点の数え漏れ。`, 'review.over': ({ n }) => `${n}点の申告しすぎ（加算されません）。`,
  'review.overPenalty': ({ n }) => `${n}点の申告しすぎ：超過分は相手に入りました。`,
  'review.taken': ({ n }) => `相手がマギンズで${n}点を取りました。`,
  'review.rank': ({ rank, n }) => `あなたの選択は${n}通り中${rank}番目でした。`,
  'review.moment': 'その時点の場', 'review.noDecisions': 'この回には選択のある判断がありません。',
  newGame: '新しいゲーム', options: 'オプションルール', statistics: '成績', howTo: '遊び方', language: '言語',
  scores: '得点', actions: '操作', log: 'ゲームの記録', sequenceLabel: '今の合計のカード', yourHandLabel: 'あなたの手札',
  keysHelp: 'キー操作：1〜7 カードを選ぶ・Enter 決定・Space 選択の切り替え・H ヒント・O オプション・N 新しいゲーム・S とばす・Esc 閉じる',
  starter: 'スターター', crib: 'クリブ', count: '合計', deck: '山札', hint: 'ヒント', showResult: '結果',
  optionsTitle: 'オプションルール', strength: 'コンピューターの強さ', weak: 'よわい', normal: 'ふつう', strong: 'つよい',
  variant: '遊び方', target: '目標の点', targetDefault: ({ n }) => (n ? `遊び方の標準（${n}点）` : '遊び方の標準'),
  counting: '点の数え方', countAuto: '自動で数える', countManual: '自分で数える',
  countMuggins: '自分で数える（マギンズあり）', countMugginsPlay: 'カードを出す時もマギンズ（1枚ごとに点を言う）',
  'counted.auto': '自動で数える', 'counted.manual': '各自が自分で数える',
  'counted.muggins': '各自が数える（マギンズあり）', 'counted.mugginsPlay': 'ショーでもプレイでもマギンズ',
  firstDealer: '最初の親', dealerCut: 'カードをめくって決める', dealerYou: 'あなた', dealerComputer: 'コンピューター', dealerLeft: '左隣の人（席2）',
  speed: 'アニメーションの速さ', slow: 'ゆっくり', normalSpeed: 'ふつう', fast: 'はやい',
  optionsNote: '強さ・遊び方・目標の点・数え方・親は、次のゲームから変わります。',
  startGame: '新しいゲームを始める', saveOptions: '保存', cancel: 'キャンセル', close: '閉じる',
  chartCaption: '各回のあとの得点', playAgain: 'もう一度遊ぶ', downloadRecord: '記録をダウンロード',
  resetStats: 'リセット', resetConfirm: '成績をすべて消しますか？',
  'level.weak': 'よわい', 'level.normal': 'ふつう', 'level.strong': 'つよい',
  'variant.standard': '6枚クリベッジ（標準）', 'variant.short': '61点で遊ぶ', 'variant.five-card': '5枚クリベッジ',
  'variant.seven-card': '7枚クリベッジ（151点）', 'variant.three-player': '3人で遊ぶ', 'variant.four-player': '4人で遊ぶ（ペア戦）',
  'variant.crib-deal': 'クリブにも配る（5枚、1枚捨てる）', 'variant.lowball': 'ロウボール（先に届いたら負け）',
  'variantDesc.standard': '6枚ずつ配って2枚をクリブに捨て、先に121点に届いた人の勝ち。',
  'variantDesc.short': '標準のルールで、61点に先に届いた人の勝ち。半分くらいの時間で遊べます。',
  'variantDesc.five-card': '昔の遊び方：5枚配って3枚残し、出すのは31までの1回だけ。最初に子に3点。61点で勝負。',
  'variantDesc.seven-card': '7枚配って5枚残します。手札の点が大きいので151点で勝負。',
  'variantDesc.three-player': 'あなたとコンピューター2人。5枚ずつ配って1枚ずつ捨て、山札から1枚をクリブに。',
  'variantDesc.four-player': '向かいのコンピューターと組になります。5枚ずつ配って1枚捨て、組の2人の点を合わせます。',
  'variantDesc.crib-deal': 'ローカルルール：5枚ずつ配ってクリブにも2枚配り、2人は1枚ずつ捨てます。',
  'variantDesc.lowball': 'ルールはそのままで、先に目標の点に届いた方が負けになります。',
  targetN: ({ n }) => `${n}点勝負`, handN: ({ n }) => `${n}回目`,
  you: 'あなた', computer: 'コンピューター', computerN: ({ n }) => `コンピューター${n}`, partner: '相棒',
  leftOpponent: '左の相手', rightOpponent: '右の相手', usTeam: 'あなたと相棒', themTeam: '相手チーム',
  yourHand: 'あなたの手札', yourCrib: 'あなたのクリブ', handOf: ({ name }) => `${name}の手札`, cribOf: ({ name }) => `${name}のクリブ`,
  dealer: '親', dealerShort: '親', cardsHeld: ({ n }) => `手札${n}枚`, cardsInCrib: ({ n }) => `クリブ${n}枚`,
  played: '出した', boardTitle: 'クリベッジボード：1人2本のペグ。後ろのペグは1つ前の点',
  skunkLine: 'スカンクの線', doubleSkunkLine: 'ダブルスカンクの線',
  waiting: 'コンピューターの番です…', pressContinue: '「つづける」（Enter）で次の回へ。',
  chooseDiscard: ({ n, crib }) => `${crib}に捨てるカードを${n}枚選んでください。`,
  toCrib: 'クリブへ', toCribShort: 'クリブへ', yourPlay: ({ count }) => `あなたの番です。カードを出してください（合計${count}）。`,
  countPrompt: '点を数えて、いくつか言ってください。', mugginsPrompt: 'そのまま認めるか、数えもれに「マギンズ」と言います。',
  cutForDeal: '親決め', dealsFirst: ({ name }) => `${name}が親`, recut: '同じなので、めくり直し',
  dealLog: ({ name }) => `${name}が配ります。`,
  starterIs: ({ card }) => `スターター：${card}`, playLog: ({ name, card, count }) => `${name}：${card}（合計${count}）`,
  go: 'ゴー！', countReset: '合計を0に戻します',
  handOver: 'この回はおしまいです。', gameOver: 'ゲーム終了',
  theShow: '手札の点数', continue: 'つづける', seeResult: '結果を見る', skip: 'とばす（S）',
  total: '合計', nineteen: '0点（「19点」）', stated: ({ n }) => `申告${n}点`,
  pointsN: ({ n }) => `${n}点`,
  underCount: ({ n }) => `${n}点の数えもれ。`, overCount: ({ n }) => `多すぎる申告：${n}点だけ入ります。`,
  claimsN: ({ name, n }) => `${name}は${n}点と言いました。確かめましょう！`,
  claimLog: ({ whose, n }) => `${whose}：${n}点と申告`,
  passed: ({ name }) => `${name}はそのまま認めました。`,
  mugginsCalled: ({ name, n }) => `マギンズ！${name}が${n}点もらいます。`,
  penaltyCalled: ({ name, n }) => `まちがったマギンズ：${name}に${n}点。`,
  yourCount: 'あなたの申告', howManyHand: '手札の点：', howManyCrib: 'クリブの点：', countButton: '申告する',
  missedPoints: '数えもれの点', letStand: 'そのまま認める', callMuggins: 'マギンズ！', or: 'または',
  mugginsAnyone: '相手のだれでも言えます。最初に言った人が点をもらいます。',
  waitingMuggins: ({ names }) => `マギンズか認めるかを待っています: ${names}…`,
  mugginsLate: '間に合いませんでした。ほかの人が先にマギンズと言いました。',
  playClaim: ({ name, card, n }) => `${name}は${card}を出して${n}点と言いました。`,
  claimFor: ({ card }) => `${card}の点：`, play: '出す',
  thinking: '考え中…', hintFailed: 'ヒントなし', hintDiscardTitle: 'ヒント：残すカード',
  hintPlayTitle: 'ヒント：出すカード', keep: '残す', handPts: '手札', cribPtsMine: 'クリブ（自分）',
  cribPtsTheirs: 'クリブ（相手）', peggingPts: 'ペギング', totalPts: '合計', useThis: 'この2枚を捨てる',
  hintDiscardNote: '捨て方をすべて、良い順に。点はスターター全部の平均（期待値）です。',
  hintPlayNote: '出せるカードを良い順に。',
  'reason.pairs': ({ rank, p }) => `${rank}とペア ${p}点`, 'reason.leaves': ({ count, makes }) => `合計${count}になる（10点のカードで${makes}にされる）`,
  'reason.avoids': ({ count }) => `合計を${count}にしない`, 'reason.safeLead': '安全な出し始め（1枚で15を作られない）', 'reason.none': '点にならない',
  'reason.sep': '、',
  youWin: 'あなたの勝ち！', sideWins: ({ name }) => `${name}の勝ち`,
  skunk: 'スカンク', doubleSkunk: 'ダブルスカンク', skunkMarked: 'スカンク！（負けた方がスカンクの線に届きませんでした。勝ちは1回として数えます）',
  doubleSkunkMarked: 'ダブルスカンク！（勝ちは1回として数えます）', lowballNote: ({ n }) => `ロウボール：先に${n}点に届いた方が負け。`,
  pegging: 'ペギング', hand: '手札', other: 'その他', pointsBySource: '点の内訳', hands: '回',
  statPlayed: '遊んだ回数', statWon: '勝ち', statLost: '負け', statSkunksGiven: 'スカンク勝ち', statSkunksTaken: 'スカンク負け',
  statAvgPegging: 'ペギングの平均点（1ゲーム）', statAvgHand: '手札の平均点（1ゲーム）', statAvgCrib: 'クリブの平均点（1ゲーム）',
  statsNote: 'このブラウザに保存されます。スカンクも勝ち1回として数えます。',
  offline: 'サーバーにつながりません。', errorPrefix: 'エラー', retry: 'もう一度',
  newGameLog: ({ variant }) => `新しいゲーム：${variant}`, resumed: 'ゲームを再開しました。',
  'combo.fifteen': 'フィフティーン', 'combo.pair': 'ペア', 'combo.pair royal': 'ペア・ロイヤル（3枚）',
  'combo.double pair royal': 'ダブル・ペア・ロイヤル（4枚）', 'combo.run': 'ラン', 'combo.flush': 'フラッシュ', 'combo.nobs': 'ノブ',
  'combo.thirty-one': 'サーティーワン（31）', 'combo.go': 'ゴー', 'combo.last card': 'ラストカード', 'combo.his heels': 'ヒズ・ヒール',
  'combo.three for last': 'スリー・フォー・ラスト', 'combo.muggins': 'マギンズ', 'combo.penalty': 'ペナルティ',
  'combo.double run': 'ダブルラン', 'combo.triple run': 'トリプルラン', 'combo.double double run': 'ダブル・ダブルラン',
  'combo.quadruple run': 'クアドラプルラン',
  comboLine: ({ kind, name, p, n }) => {
    if (kind === 'run') return `ラン（${n}枚）${p}点`;
    if (kind.endsWith(' run')) return `${name}（${n}枚）${p}点`;
    if (kind === 'flush') return `フラッシュ（${n}枚）${p}点`;
    return `${name} ${p}点`;
  },
  suitNames: { C: 'クラブ', D: 'ダイヤ', H: 'ハート', S: 'スペード' },
  cardName: ({ rank, suit }) => `${ja.suitNames[suit]}の${rankLabel(rank)}`,
};

const ru = {
  joinTable: 'Присоединиться', lobby: 'Лобби', seatsTitle: 'Места', yourName: 'Ваше имя',
  publicTable: 'Показать стол в лобби', inviteCode: 'Код приглашения', join: 'Присоединиться', refresh: 'Обновить',
  playerN: ({ n }) => `Игрок ${n}`, openSeat: ({ n }) => `Место ${n} (свободно)`, seatN: ({ n }) => `Место ${n}`,
  person: 'Человек (пригласить)', computerChosen: 'Компьютер (сила выше)',
  waitingJoin: ({ names }) => `Ждём игроков: ${names}`, waitingFor: ({ name }) => `Ждём: ${name}…`,
  yourTurn: 'Ваш ход', toAct: 'ходит', joined: 'за столом', notJoined: 'ещё не пришёл',
  invitations: 'Приглашения', inviteLink: 'Ссылка-приглашение', copyLink: 'Копировать ссылку', copyCode: 'Копировать код', copied: 'Скопировано',
  'live.connecting': 'Подключение…', 'live.live': 'На связи', 'live.reconnecting': 'Переподключение…', 'live.refused': 'Нет связи',
  seatOnline: 'в сети', seatOffline: 'не в сети',
  rematch: 'Ещё раз с этими игроками', newGameAlone: 'Новая партия (без этих игроков)', rematchLog: 'Новая партия за тем же столом.',
  turnClock: 'Время на ход', noClock: 'Без часов', clock30: '30 секунд', clock60: '1 минута', clock120: '2 минуты', clockLeft: ({ n }) => `осталось ${n} с`, away: 'отошёл: за него сходил компьютер',
  ifLeaves: 'Если кто-то уйдёт', takeoverWait: 'Место ждёт нового игрока', leaveTable: 'Покинуть стол', leaveConfirmWait: 'Покинуть стол? Место останется свободным: по приглашению его может занять любой, и вы тоже.', leaveConfirmComputer: ({ level }) => `Покинуть стол? Дальше за ваше место играет компьютер (${level}): вернуться на него будет нельзя.`, youLeft: 'Вы покинули стол.', computerTakes: 'Отдать компьютеру', leftSeat: ({ name }) => `${name} покидает стол: место свободно.`, leftForComputer: ({ name, level }) => `${name} покидает стол: за место играет компьютер (${level}).`,
  giveSeatConfirm: ({ name }) => `${name} не в сети. Отдать это место компьютеру? Этот игрок больше не сможет играть за этим столом.`,
  watching: 'Вы зритель: видно то, что видят все игроки.', watchingLog: 'Вы смотрите этот стол.', getWatchLink: 'Ссылка для зрителей', watchLink: 'Ссылка для просмотра',
  yourSeatN: ({ n }) => `Место ${n}: ваше`, atTheTable: 'За столом:',
  joinUnknown: 'Стола с таким кодом нет.', joinTaken: 'Это место уже занято.',
  joinBadName: 'Имя — от 1 до 30 символов.',
  joinedLog: 'Вы сели за стол.', loading: 'Загрузка…', lobbyEmpty: 'Сейчас нет открытых столов, ждущих игроков.',
  clockN: ({ n }) => `${n} с на ход`, takeoverLevel: ({ level }) => `Если кто-то уйдёт: ${level.toLowerCase()}`, takeoverNone: 'Если кто-то уйдёт: место ждёт', freeSeats: ({ n }) => `${ruPlural(n, 'свободно', 'свободно', 'свободно')} мест: ${n}`,
  whoWaits: ({ names }) => `Ждут: ${names}`, joinSeat: ({ n }) => `Сесть (место ${n})`,
  title: 'Криббедж',
  said: ({ who, what }) => `${who}: ${what}`, listSep: ', ', source: 'Источник',
  cardLabel: ({ text, name }) => `${text} ${name}`,
  overcountNote: 'С маггинсом завышенный счёт исправляется, а лишние очки получает соперник.',
  overcountPenalty: ({ name, n }) => `Названо больше, чем есть: лишние ${ruPts(n)} получает ${name}.`,
  welcomeTitle: 'Добро пожаловать! Выберите игру', welcomeNote: 'Это можно изменить в любой момент в «Настройках».',
  winPts: 'Шанс победы', hintWinNote: 'В конце партии варианты упорядочены по шансу на победу (столбец сразу после карт; очки тоже показаны).',
  hintPlayWinNote: 'Партия может закончиться в этой сдаче: карты упорядочены по шансу на победу.',
  lowballPts: 'Ваши очки (меньше — лучше)',
  hintLowballNote: 'Поддавки: каждое очко приближает вас к поражению, поэтому сверху варианты с наименьшими ожидаемыми очками.',
  hintPlayLowballNote: 'Поддавки: набранные очки идут вам во вред; чем больше значение, тем лучше для вас.',
  'field.hand': 'Рука', 'field.starter': 'Стартовая карта', 'field.cards': 'Карты',
  'err.card_invalid': ({ place, card }) => `${place}: «${card}» — не карта. Введите ранг (A, 2–9, T или 10, J, Q, K) и масть (C, D, H, S или ♣♦♥♠), например 5H.`,
  'err.card_duplicate': ({ field, place, card }) => (field === 'starter' ? `Стартовая карта ${card} есть и в руке.` : `${place}: ${card} указана дважды.`),
  'err.card_count': ({ count, allowed }) => `В руке должно быть от ${allowed[0]} до ${allowed[allowed.length - 1]} карт, а не ${count}.`,
  'err.starter_missing': 'Введите и стартовую карту.', 'err.no_cards': 'Ни одной карты не сыграно.',
  'err.count_over_31': ({ count }) => `Счёт больше 31 (${count}).`, 'err.bad_request': 'Запрос не удалось прочитать.',
  'err.illegal': 'Сейчас так нельзя.', 'err.illegal.action': 'Сейчас так нельзя.',
  'err.illegal.card': 'Эту карту здесь сыграть нельзя.', 'err.illegal.rules': 'Эти правила несовместимы.',
  'err.illegal.muggins': 'Сейчас нет подсчёта, на который можно заявить маггинс.', 'err.bad_record': 'Эту запись партии нельзя воспроизвести.',
  'err.not_found': 'Этой партии больше нет на сервере.', 'err.no_invitation': 'Стола с таким кодом нет.',
  'err.no_watch_code': 'Стола с такой ссылкой для зрителей нет.', 'err.unauthorized': 'Эта партия принадлежит другому браузеру.',
  'err.forbidden': 'Это может сделать только создатель стола.', 'err.stale': 'Партия ушла вперёд: показано её текущее состояние.',
  'err.seat_taken': 'Это место уже занято.', 'err.table_waiting': 'Стол ещё ждёт игроков.',
  'err.game_over': 'Эта партия окончена.', 'err.invalid': 'Такой выбор здесь невозможен.',
  'err.corrupt_record': 'Запись этой партии на сервере нельзя воспроизвести.', 'err.too_large': 'Запрос слишком большой.',
  'err.computer_unavailable': 'Сервер не может играть с такой силой компьютера.', 'err.internal': 'На сервере произошла ошибка. Попробуйте ещё раз.',
  'err.generic': 'Что-то пошло не так. Попробуйте ещё раз.',
  'err.too_many': ({ retry_after: n }) => `Слишком много запросов: попробуйте снова через ${n} ${ruPlural(n, 'секунду', 'секунды', 'секунд')}.`,
  'err.limits_unavailable': 'Сервер сейчас не может учесть запрос: попробуйте снова через несколько секунд.',
  'err.database_unavailable': 'Сервер сейчас не может связаться со своей базой данных: ничего не изменилось. Попробуйте снова через несколько секунд.',
  'howto.title': 'Как играть в криббедж', 'howto.replay': 'Показать по комбинациям', 'howto.countIs': ({ n }) => `счёт ${n}`,
  'howto.lastCard': 'очки за последнюю выложенную карту', 'howto.tryTitle': 'Посчитать любую руку', 'howto.tryHand': 'Рука (от 3 до 5 карт)',
  'howto.tryStarter': 'Стартовая карта', 'howto.tryCrib': 'Это криб', 'howto.tryGo': 'Посчитать',
  'howto.tryHelp': 'Вводите карты так: 5H 5C 5S JD (ранг A 2–9 T или 10 J Q K, масть C D H S или ♣♦♥♠).', 'howto.play': 'Играть в криббедж',
  'howto.noPoints': 'Ни одного очка', 'howto.loading': 'Считаю…',
  // Страница тренировки (/practice)
  practice: 'Тренировка', 'train.pageTitle': 'Тренировка в криббедж', 'train.title': 'Тренировка',
  'train.intro': 'Выбирайте, как в партии: затем совет компьютера расставит все варианты и покажет, сколько стоил ваш выбор.',
  'train.discardTab': 'Сброс в криб', 'train.playTab': 'Розыгрыш', 'train.side': 'Чей криб',
  'train.sideAny': 'Любой', 'train.sideDealer': 'Ваш (вы сдаёте)', 'train.sidePone': 'Противника (вы не сдаёте)',
  'train.throw': 'Сбросить', 'train.next': 'Дальше', 'train.tally': 'Ваши успехи', 'train.decisions': 'Решений',
  'train.bestShare': 'Лучших решений', 'train.avgLoss': 'Средняя потеря (очки)', 'train.avgWinLoss': 'Средняя потеря (шанс победы)',
  'train.tallyNote': 'Хранится в этом браузере.', 'train.resetConfirm': 'Забыть результаты тренировки?',
  'train.roleDealer': 'Вы сдаёте: криб ваш', 'train.rolePone': 'Вы не сдаёте: криб противника',
  'train.scoresLine': ({ mine, theirs, target }) => `у вас ${mine}, у противника ${theirs} (игра до ${target})`,
  'train.yourThrow': 'Ваш сброс', 'train.played': 'Сыграно в этой сдаче', 'train.opponent': 'Прот.', 'train.nothing': 'пока ничего',
  'train.opponentHolds': ({ n }) => `У противника ${n} ${ruPlural(n, 'карта', 'карты', 'карт')}.`,
  'train.discardPrompt': ({ n, own }) => `Выберите ${n} ${ruPlural(n, 'карту', 'карты', 'карт')} в ${own ? 'свой' : 'чужой'} криб.`,
  'train.playPrompt': ({ count }) => `Выберите карту для хода (счёт ${count}).`,
  'train.best': 'Лучший выбор!', 'train.lossPts': ({ x }) => `Потеряно очков: ${x}.`,
  'train.lossWin': ({ x }) => `Потеряно шанса на победу: ${x}.`,
  'train.keepNote': 'Все способы оставить карты, лучшие первыми, с ожидаемыми очками (рука, криб, розыгрыш).',
  'train.valueNote': 'Все карты, которыми можно сыграть, лучшие первыми, с ожидаемым итогом очков до конца розыгрыша.',
  'train.you': '← вы', 'train.colThrow': 'Сброс / рука', 'train.colPlay': 'Розыгр.', 'train.colWin': 'Победа',
  'train.colCard': 'Карта', 'train.colValue': 'Оценка',
  'train.winNote': 'В конце партии варианты упорядочены по шансу на победу (последний столбец).',
  'train.atScore': 'При счёте', 'train.yourScore': 'Вы', 'train.theirScore': 'Противник',
  'err.bad_scores': ({ target }) => `Счёт — два целых числа от 0 до ${(target || 121) - 1}: ваш и противника.`,
  // Страница разбора (/review).
  'review.open': 'Разобрать эту партию', 'review.nav': 'Разбор партии', 'review.pageTitle': 'Разбор партии в криббедж', 'review.title': 'Разбор партии',
  'review.intro': 'Каждое решение сравнено с лучшим по оценке компьютера: что оно стоило, и шанс на победу по ходу партии.',
  'review.openFile': 'Открыть запись партии', 'review.seat': 'Разобрать место', 'review.timeline': 'Раздача за раздачей',
  'review.clickNote': 'Выберите решение, чтобы увидеть объяснение и стол в тот момент.',
  'review.none': 'Откройте запись партии (скачанную с экрана итогов или сохранённую в терминальной игре) или выберите «Разобрать эту партию» в конце игры.',
  'review.loading': 'Партия разбирается… (несколько секунд)',
  'review.notJson': ({ name }) => `«${name}» — не файл JSON, а значит, не запись партии.`,
  'review.notRecord': ({ name }) => `«${name}» — не запись партии в криббедж (формат «cribbage-record»).`,
  'review.refused': ({ message }) => `Сервер не смог разобрать эту запись: ${message}`,
  'review.busy': 'Сервер занят разбором других партий: попробуйте ещё раз через минуту.',
  'review.grade.best': 'Лучший', 'review.grade.fine': 'Хороший', 'review.grade.inaccuracy': 'Неточность',
  'review.grade.mistake': 'Ошибка', 'review.grade.blunder': 'Грубая ошибка',
  'review.kind.discard': 'Сброс', 'review.kind.play': 'Ход', 'review.kind.count': 'Подсчёт',
  'review.inDiscard': 'сброс', 'review.inPlay': 'розыгрыш', 'review.inCount': 'подсчёт',
  'review.pointsAway': ({ x, parts }) => `Упущено очков: ${x}${parts ? ` (${parts})` : ''}.`,
  'review.winAway': ({ x, parts }) => `Упущено шанса на победу: ${x}${parts ? ` (${parts})` : ''}.`,
  'review.gameLine': ({ variant, target }) => `${variant}, игра до ${target}`,
  'review.unfinished': 'Запись обрывается до конца партии.',
  'review.overGame': ({ name }) => `За партию: ${name}`,
  'review.decisionsN': ({ n }) => `${n} ${ruPlural(n, 'решение', 'решения', 'решений')}`,
  'review.chartWin': ({ name }) => `Шанс на победу (${name}) в начале каждой раздачи и в конце`,
  'review.chartScores': 'Для этой партии шанс на победу неизвестен (три игрока или цель, для которой нет таблицы шансов): вместо него показан счёт в начале каждой раздачи.',
  'review.end': 'Конец', 'review.noLoss': 'ничего не упущено',
  'review.lossPts': ({ x }) => `упущено ${x} очка`, 'review.lossWin': ({ x }) => `упущено ${x} шанса на победу`,
  'review.discardLine': ({ chosen, best, same }) => (same ? `сброшено ${chosen}, лучший выбор` : `сброшено ${chosen}; лучше ${best}`),
  'review.playLine': ({ chosen, best, same }) => (same ? `сыграна ${chosen}, лучший выбор` : `сыграна ${chosen}; лучше ${best}`),
  'review.mugginsLine': ({ called, missed }) => (called ? `маггинс на ${called}; пропущено ${missed}` : `подсчёт принят; пропущено ${missed}`),
  'review.countLine': ({ what, stated, actual }) => `${what}: заявлено ${stated}, было ${actual}`,
  'review.what.hand': 'ваша рука', 'review.what.crib': 'ваш криб', 'review.what.play': 'очки за сыгранную карту',
  'review.choice': 'Выбор', 'review.yours': 'Ваш', 'review.best': 'Лучший', 'review.pointsNow': 'Очки',
  'review.mugginsWhy': ({ name, called, missed }) => (called
    ? `Считал(а) ${name}; вы объявили маггинс на ${ruPts(called)}, а пропущено было ${ruPts(missed)}.`
    : `Считал(а) ${name}; вы приняли подсчёт, а пропущено было ${ruPts(missed)}.`),
  'review.left': ({ n }) => `Не взято: ${ruPts(n)}.`,
  'review.wrong': ({ n, name }) => `Объявлено ${ruPts(n)}, которых не пропускали: они ушли к игроку ${name}.`,
  'review.countWhy': ({ what, stated, actual }) => `${what[0].toUpperCase()}${what.slice(1)}: вы заявили ${stated}, а было ${ruPts(actual)}.`,
  'review.missed': ({ n }) => `Пропущено: ${ruPts(n)}.`, 'review.over': ({ n }) => `Лишне заявлено: ${ruPts(n)} (не засчитано).`,
  'review.overPenalty': ({ n }) => `Лишне заявлено: ${ruPts(n)}; излишек ушёл противнику.`,
  'review.taken': ({ n }) => `Противник взял маггинсом ${ruPts(n)}.`,
  'review.rank': ({ rank, n }) => `Ваш выбор — ${rank}-й из ${n}.`,
  'review.moment': 'Стол в тот момент', 'review.noDecisions': 'В этой раздаче не было решений с выбором.',
  newGame: 'Новая игра', options: 'Настройки', statistics: 'Статистика', howTo: 'Как играть', language: 'Язык',
  scores: 'Счёт', actions: 'Действия', log: 'Ход игры', sequenceLabel: 'Карты текущего счёта', yourHandLabel: 'Ваши карты',
  keysHelp: 'Клавиши: 1–7 выбрать карту · Enter подтвердить · Пробел отметить · H подсказка · O настройки · N новая игра · S пропустить · Esc закрыть',
  starter: 'Стартовая карта', crib: 'Криб', count: 'Счёт', deck: 'Колода', hint: 'Подсказка', showResult: 'Итог',
  optionsTitle: 'Настройки', strength: 'Сила компьютера', weak: 'Слабый', normal: 'Средний', strong: 'Сильный',
  variant: 'Вариант', target: 'Игра до', targetDefault: ({ n }) => (n ? `Как в варианте (${n})` : 'Как в варианте'),
  counting: 'Подсчёт очков', countAuto: 'Автоматический', countManual: 'Считаю свои карты сам',
  countMuggins: 'Считаю сам, с маггинсом', countMugginsPlay: 'Маггинс и в розыгрыше (называть очки каждой карты)',
  'counted.auto': 'Автоматический подсчёт', 'counted.manual': 'Каждый считает свои карты сам',
  'counted.muggins': 'Каждый считает сам, с маггинсом', 'counted.mugginsPlay': 'Маггинс и в показе, и в розыгрыше',
  firstDealer: 'Первый сдающий', dealerCut: 'По жребию (снять карту)', dealerYou: 'Вы', dealerComputer: 'Компьютер', dealerLeft: 'Игрок слева (место 2)',
  speed: 'Скорость анимации', slow: 'Медленно', normalSpeed: 'Обычно', fast: 'Быстро',
  optionsNote: 'Сила, вариант, цель, подсчёт и сдающий меняются со следующей игры.',
  startGame: 'Начать новую игру', saveOptions: 'Сохранить', cancel: 'Отмена', close: 'Закрыть',
  chartCaption: 'Счёт после каждой сдачи', playAgain: 'Сыграть ещё', downloadRecord: 'Скачать запись партии',
  resetStats: 'Обнулить', resetConfirm: 'Удалить всю статистику?',
  'level.weak': 'Слабый компьютер', 'level.normal': 'Средний компьютер', 'level.strong': 'Сильный компьютер',
  'variant.standard': 'Шестикарточный (обычный)', 'variant.short': 'Короткая игра (до 61)', 'variant.five-card': 'Пятикарточный',
  'variant.seven-card': 'Семикарточный (до 151)', 'variant.three-player': 'Втроём', 'variant.four-player': 'Вчетвером (парный)',
  'variant.crib-deal': 'Сдача в криб (пять карт, сброс одной)', 'variant.lowball': 'Поддавки (первый, набравший цель, проигрывает)',
  'variantDesc.standard': 'По 6 карт, по 2 в криб; побеждает первый, набравший 121 очко.',
  'variantDesc.short': 'Обычные правила до 61 очка: примерно вдвое короче.',
  'variantDesc.five-card': 'Старый вариант: 5 карт, на руках 3, один розыгрыш до 31, противник сдающего сразу получает 3 очка; до 61.',
  'variantDesc.seven-card': 'По 7 карт, на руках 5; очков больше, поэтому игра до 151.',
  'variantDesc.three-player': 'Вы и два компьютера: по 5 карт, по одной в криб и ещё одна из колоды.',
  'variantDesc.four-player': 'Две пары: партнёр сидит напротив. По 5 карт, по одной в криб; очки пары складываются.',
  'variantDesc.crib-deal': 'Домашнее правило: по 5 карт, 2 карты сдаются в криб, каждый сбрасывает одну.',
  'variantDesc.lowball': 'Всё как обычно, но первый, кто наберёт цель, проигрывает.',
  targetN: ({ n }) => `Игра до ${n}`, handN: ({ n }) => `Сдача ${n}`,
  you: 'Вы', computer: 'Компьютер', computerN: ({ n }) => `Компьютер ${n}`, partner: 'Партнёр',
  leftOpponent: 'Соперник слева', rightOpponent: 'Соперник справа', usTeam: 'Вы и партнёр', themTeam: 'Соперники',
  yourHand: 'Ваша рука', yourCrib: 'Ваш криб', handOf: ({ name }) => `${name}: рука`, cribOf: ({ name }) => `${name}: криб`,
  dealer: 'Сдающий', dealerShort: 'С', cardsHeld: ({ n }) => `${n} ${ruPlural(n, 'карта', 'карты', 'карт')} на руках`,
  cardsInCrib: ({ n }) => `${n} ${ruPlural(n, 'карта', 'карты', 'карт')} в крибе`,
  played: 'сыграна', boardTitle: 'Доска для криббеджа: по два колышка, задний отмечает прежний счёт',
  skunkLine: 'Линия скунса', doubleSkunkLine: 'Линия двойного скунса',
  waiting: 'Ходит компьютер…', pressContinue: 'Нажмите «Дальше» (Enter) для следующей сдачи.',
  chooseDiscard: ({ n, own, name }) => `Выберите ${n} ${ruPlural(n, 'карту', 'карты', 'карт')} ${own ? 'в свой криб' : `в криб сдающего (${name})`}.`,
  toCrib: 'В криб', toCribShort: 'В криб', yourPlay: ({ count }) => `Ваш ход: выложите карту (счёт ${count}).`,
  countPrompt: 'Подсчитайте очки и назовите их.', mugginsPrompt: 'Согласиться со счётом или объявить маггинс на пропущенные очки.',
  cutForDeal: 'Жребий', dealsFirst: ({ name }) => `сдаёт: ${name}`, recut: 'ничья, тянем снова',
  dealLog: ({ name }) => `Сдаёт: ${name}.`,
  starterIs: ({ card }) => `Стартовая карта: ${card}`, playLog: ({ name, card, count }) => `${name}: ${card} (счёт ${count})`,
  go: 'Пропускаю!', countReset: 'Счёт начинается снова с 0',
  handOver: 'Сдача окончена.', gameOver: 'Игра окончена',
  theShow: 'Показ', continue: 'Дальше', seeResult: 'Итог игры', skip: 'Пропустить (S)',
  total: 'Итого', nineteen: '«Девятнадцать» — ни одного очка', stated: ({ n }) => `названо ${n}`,
  pointsN: ({ n }) => ruPts(n),
  underCount: ({ n }) => `Не досчитано: ${ruPts(n)}.`, overCount: ({ n }) => `Названо больше: записано только ${n}.`,
  claimsN: ({ name, n }) => `${name}: названо ${n}. Проверьте!`,
  claimLog: ({ whose, n }) => `${whose} — названо ${n}`,
  passed: ({ name }) => `${name}: счёт принят.`,
  mugginsCalled: ({ name, n }) => `Маггинс! ${name} забирает ${ruPts(n)}.`,
  penaltyCalled: ({ name, n }) => `Ошибочный маггинс: ${ruPts(n)} получает ${name}.`,
  yourCount: 'Ваш счёт', howManyHand: 'Очки вашей руки:', howManyCrib: 'Очки вашего криба:', countButton: 'Назвать',
  missedPoints: 'Пропущено очков', letStand: 'Принять счёт', callMuggins: 'Маггинс!', or: 'или',
  mugginsAnyone: 'Объявить может любой соперник: очки забирает тот, кто успел первым.',
  waitingMuggins: ({ names }) => `Ждём маггинс или согласия: ${names}…`,
  mugginsLate: 'Поздно: другой игрок первым объявил маггинс.',
  playClaim: ({ name, card, n }) => `${name}: ${card}, названо ${n}.`,
  claimFor: ({ card }) => `Очки за ${card}:`, play: 'Сыграть',
  thinking: 'Думаю…', hintFailed: 'Подсказки нет', hintDiscardTitle: 'Подсказка: что оставить',
  hintPlayTitle: 'Подсказка: чем ходить', keep: 'Оставить', handPts: 'Рука', cribPtsMine: 'Криб (ваш)',
  cribPtsTheirs: 'Криб (чужой)', peggingPts: 'Розыгрыш', totalPts: 'Итого', useThis: 'Сбросить эти карты',
  hintDiscardNote: 'Все варианты сброса, лучшие сверху; очки — среднее по всем стартовым картам.',
  hintPlayNote: 'Все карты, которыми можно сыграть, лучшие сверху.',
  'reason.pairs': ({ rank, p }) => `пара к ${rank} — ${ruPts(p)}`, 'reason.leaves': ({ count, makes }) => `счёт станет ${count}: десятка сделает ${makes}`,
  'reason.avoids': ({ count }) => `счёт не станет ${count}`, 'reason.safeLead': 'безопасный заход: одной картой 15 не сделать', 'reason.none': 'без очков',
  'reason.sep': ', ',
  youWin: 'Вы победили!', sideWins: ({ name }) => `Победа: ${name}`,
  skunk: 'скунс', doubleSkunk: 'двойной скунс', skunkMarked: 'Скунс! (проигравший не дошёл до линии скунса; считается одной победой)',
  doubleSkunkMarked: 'Двойной скунс! (считается одной победой)', lowballNote: ({ n }) => `Поддавки: первый, набравший ${n}, проигрывает.`,
  pegging: 'Розыгрыш', hand: 'Рука', other: 'Прочее', pointsBySource: 'Откуда очки', hands: 'сдача',
  statPlayed: 'Сыграно партий', statWon: 'Побед', statLost: 'Поражений', statSkunksGiven: 'Скунсов сопернику', statSkunksTaken: 'Скунсов вам',
  statAvgPegging: 'Очки розыгрыша за партию, в среднем', statAvgHand: 'Очки руки за партию, в среднем', statAvgCrib: 'Очки криба за партию, в среднем',
  statsNote: 'Хранится в этом браузере. Скунс считается одной победой.',
  offline: 'Сервер недоступен.', errorPrefix: 'Ошибка', retry: 'Повторить',
  newGameLog: ({ variant }) => `Новая игра: ${variant}.`, resumed: 'Игра продолжена.',
  'combo.fifteen': 'Пятнадцать', 'combo.pair': 'Пара', 'combo.pair royal': 'Тройка (королевская пара)',
  'combo.double pair royal': 'Квартет (двойная королевская пара)', 'combo.run': 'Последовательность', 'combo.flush': 'Масть',
  'combo.nobs': 'Нобс (валет масти стартовой карты)', 'combo.thirty-one': 'Тридцать одно', 'combo.go': 'Го (пропуск)',
  'combo.last card': 'Последняя карта', 'combo.his heels': 'Хиз хилс (валет-стартовая карта)',
  'combo.three for last': 'Три очка за последнюю', 'combo.muggins': 'Маггинс', 'combo.penalty': 'Штраф',
  'combo.double run': 'Двойная последовательность', 'combo.triple run': 'Тройная последовательность',
  'combo.double double run': 'Двойная двойная последовательность', 'combo.quadruple run': 'Четверная последовательность',
  comboLine: ({ kind, name, p, n }) => {
    if (kind === 'run') return `Последовательность из ${n} — ${ruPts(p)}`;
    if (kind.endsWith(' run')) return `${name} из ${n} — ${ruPts(p)}`;
    if (kind === 'flush') return `Масть из ${n} — ${ruPts(p)}`;
    return `${name} — ${ruPts(p)}`;
  },
  rankNames: ['туз', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'валет', 'дама', 'король'],
  suitNames: { C: 'треф', D: 'бубен', H: 'червей', S: 'пик' },
  cardName: ({ rank, suit }) => `${ru.rankNames[rank - 1]} ${ru.suitNames[suit]}`,
};

export const STRINGS = { en, ja, ru };

let current = 'en';
const listeners = [];

function pick(value) {
  return LANGS.includes(value) ? value : null;
}

/** Choose the language: an explicit one (?lang=), the remembered one, then the browser's. */
export function initLang(explicit) {
  let lang = pick(explicit);
  if (!lang) {
    try { lang = pick(localStorage.getItem(LS_LANG)); } catch { lang = null; }
  }
  if (!lang) {
    for (const l of navigator.languages || [navigator.language || 'en']) {
      lang = pick(String(l).slice(0, 2).toLowerCase());
      if (lang) break;
    }
  }
  current = lang || 'en';
  document.documentElement.lang = current;
  return current;
}

export function getLang() {
  return current;
}

export function setLang(lang) {
  if (!pick(lang)) return;
  current = lang;
  document.documentElement.lang = lang;
  try { localStorage.setItem(LS_LANG, lang); } catch { /* ignore */ }
  for (const fn of listeners) fn(lang);
}

export function onLangChange(fn) {
  listeners.push(fn);
}

export function t(key, vars = {}) {
  const value = STRINGS[current][key] ?? en[key];
  if (value === undefined) return key;
  return typeof value === 'function' ? value(vars) : value;
}

export function comboName(kind) {
  return t(`combo.${kind}`);
}

const SAME_RANK = { 2: 'pair', 3: 'pair royal', 4: 'double pair royal' };
const MULTIPLE_RUNS = { 2: 'double run', 3: 'triple run', '2,2': 'double double run', 4: 'quadruple run' };

/**
 * A show's combinations as players name them (the words only; the server's combos stay as
 * they are): the pairs of one rank are one line ("Pair royal for 6"), runs on the same ranks
 * one line with their pairs ("Double run of 3 for 8").  Each line is { kind, cards, points, n }
 * (n: the run's length, else the cards), standing where its first combination stood; the
 * points add up to the same total.  As cribbage.text.show_lines does for the terminal.
 */
export function showLines(combos) {
  const rankOf = (card) => parseCard(card)?.rank ?? 0;
  const runs = new Map();
  for (const c of combos) {
    if (c.kind !== 'run') continue;
    const key = [...new Set(c.cards.map(rankOf))].sort((a, b) => a - b).join(',');
    runs.set(key, [...(runs.get(key) || []), c]);
  }
  const groupOf = new Map();
  for (const [key, same] of runs) if (same.length > 1) for (const c of same) groupOf.set(c, `runs ${key}`);
  for (const c of combos) {
    if (c.kind !== 'pair') continue;
    const rank = rankOf(c.cards[0]);
    const many = [...runs].find(([key, same]) => same.length > 1 && key.split(',').map(Number).includes(rank));
    groupOf.set(c, many ? `runs ${many[0]}` : `pairs ${rank}`);
  }
  const members = new Map();
  const order = [];
  for (const c of combos) {
    const key = groupOf.get(c);
    if (key === undefined) order.push(c);
    else if (members.has(key)) members.get(key).push(c);
    else { members.set(key, [c]); order.push(key); }
  }
  return order.map((item) => {
    if (typeof item !== 'string') return { ...item, n: item.cards.length };
    const group = members.get(item);
    const cards = [...new Set(group.flatMap((c) => c.cards))];
    const points = group.reduce((a, c) => a + c.points, 0);
    if (item.startsWith('pairs')) return { kind: SAME_RANK[cards.length] || 'pair', cards, points, n: cards.length };
    const count = new Map();
    for (const card of cards) count.set(rankOf(card), (count.get(rankOf(card)) || 0) + 1);
    const shape = [...count.values()].filter((k) => k > 1).sort((a, b) => b - a).join(',');
    const n = count.size;
    return MULTIPLE_RUNS[shape] ? { kind: MULTIPLE_RUNS[shape], cards, points, n } : null;
  }).flatMap((line, i) => (line ? [line] : members.get(order[i]).map((c) => ({ ...c, n: c.cards.length }))));
}

/** A number as every page shows it: ``digits`` decimals and a true minus sign (U+2212) for a
 * negative, never a hyphen nor "−0.00"; with ``sign`` a plus for a positive; "—" for no number. */
export function numText(x, digits = 2, sign = false) {
  if (typeof x !== 'number' || !Number.isFinite(x)) return '\u2014';
  const text = Math.abs(x).toFixed(digits);
  if (Number(text) === 0) return text;
  return (x < 0 ? '\u2212' : sign ? '+' : '') + text;
}

/** The one name of a seat on every page (the table, its scores and show, the lobby, the review):
 * a computer is "Computer N", N its seat counted from 1 as in "Seat N" (plain "Computer" at seat 1
 * of two players: computer_name in service.py is the same rule); an open seat is "Seat N (open)";
 * a person is the name they gave.  {seat, kind, taken, name} as in a STATE's seats; players: the
 * table's number of seats. */
export function seatLabel({ seat, kind, taken = true, name = '' }, players) {
  if (kind === 'computer') return players === 2 && seat === 1 ? t('computer') : t('computerN', { n: seat + 1 });
  if (!taken) return t('openSeat', { n: seat + 1 });
  return name || t('playerN', { n: seat + 1 });
}

/** "Fifteen for 2", "フィフティーン 2点", "Пятнадцать — 2 очка"; n = the number of cards. */
export function comboLine(kind, points, n) {
  return t('comboLine', { kind, name: comboName(kind), p: points, n });
}

/** One reason of a play hint, from its code and numbers (docs/api.md): "pairs the 7 for 2"... */
export function reasonLine(reason) {
  switch (reason.code) {
    case REASON.COMBO:
      if (reason.kind === 'pair' && reason.rank) {
        return t('reason.pairs', { rank: rankLabel(RANKS.indexOf(reason.rank) + 1), p: reason.points });
      }
      return comboLine(reason.kind, reason.points, reason.length ?? 0);
    case REASON.LEAVES:
      return t('reason.leaves', { count: reason.count, makes: reason.makes });
    case REASON.AVOIDS:
      return t('reason.avoids', { count: reason.count });
    case REASON.SAFE_LEAD:
      return t('reason.safeLead');
    case REASON.NO_POINTS:
      return t('reason.none');
    default:
      return String(reason.code);  // a code this page does not know yet
  }
}

/** A play hint's reasons, joined in the language's way. */
export function reasonsLine(reasons) {
  return (reasons || []).map(reasonLine).join(t('reason.sep'));
}

/**
 * What the player sees of an error: the words of its code (docs/api.md), with the values the code
 * names; a code with no words of its own has those of its part before the first dot ('illegal'
 * for 'illegal.card'), and an unknown one a general line.  Never worded by the HTTP status.
 * @param {{code?: string, data?: Record<string, any> | null} | null | undefined} err
 */
export function errorText(err) {
  const code = (err && err.code) || '';
  if (code === 'offline') return t('offline');
  const key = [code, code.split('.')[0]].map((c) => `err.${c}`).find((k) => code && en[k] !== undefined);
  if (!key) return t('err.generic');
  const data = (err && err.data) || {};
  const place = data.field ? t(`field.${data.field}`) : '';
  return t(key, { ...data, allowed: data.allowed || [3, 5], place });
}

export function cardName(text) {
  const card = parseCard(text);
  if (!card) return String(text);
  return t('cardName', { rank: card.rank, suit: card.suit });
}

/**
 * A page's language: ?lang= of its address, else the remembered one, else the browser's; the
 * page's language menu (#lang-select) switches it, and relabel runs after every switch.
 * @param {(lang: string) => void} relabel
 */
export function startLanguage(relabel) {
  initLang(new URLSearchParams(location.search).get('lang'));
  document.getElementById('lang-select').addEventListener('change', (e) => setLang(/** @type {HTMLSelectElement} */ (e.target).value));
  onLangChange(relabel);
}

/**
 * A page's words in the language now: its title, its static texts, its language menu and its
 * links to the other pages (a link's id and its path), which keep the language.
 * @param {string} titleKey
 * @param {Record<string, string>} links
 */
export function relabelPage(titleKey, links) {
  document.title = t(titleKey);
  applyStatic(document);
  /** @type {HTMLSelectElement} */ (document.getElementById('lang-select')).value = current;
  for (const [id, path] of Object.entries(links)) {
    /** @type {HTMLAnchorElement} */ (document.getElementById(id)).href = `${path}?lang=${current}`;
  }
}

/** Translate the static texts: data-i18n (text), data-i18n-aria (aria-label). */
export function applyStatic(root) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-aria]')) el.setAttribute('aria-label', t(el.dataset.i18nAria));
}
