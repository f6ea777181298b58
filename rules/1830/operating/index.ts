// Operating rounds: each floated corporation in share-price order lays track, places a
// station, runs its trains, pays or withholds, and buys trains; privates may be bought in
// phases 3 and 4. The parts:
//   common.ts     shared facts (board, phase, trains for sale, network reach, usable steps)
//   flow.ts       order of corporations, steps of a turn, who acts, end of round and game
//   apply.ts      the actions of a turn, checked before anything changes
//   dividends.ts  pay out or withhold, price moves
//   trains.ts     buying trains, phases, rusting, discards
//   privates.ts   privates bought by corporations, closing, the M&H exchange
//   emergency.ts  the president's emergency money and bankruptcy
//   moves.ts      legal moves for bots and quick links; options.ts: choices for the move form
export { startOperatingRound, operatingActors, endGame } from './flow.ts';
export { applyOperating, suggestRun } from './apply.ts';
export { depotOffer, mustBuyTrain, trainLimit } from './common.ts';
export { applyExchange, exchangeProblem, acceptCompanySale } from './privates.ts';
export { canGoBankrupt, acceptEmergencyPrivateSale } from './emergency.ts';
export { operatingMoves } from './moves.ts';
export { operatingOptions, type OperatingOptions } from './options.ts';
