// Whose turn it is, what each action does to the turn, and how the game ends.
import { RuleError } from '../types.ts';
import type { PCAction } from './actions.ts';
import { carryOutBuild, planBuild } from './build.ts';
import { BOARD, CARD_BY_ID } from './data.ts';
import { drawCards, drawCount, overLimit } from './draw.ts';
import { endBonuses } from './effects.ts';
import { revealAndDeal } from './setup.ts';
import type { PCState } from './state.ts';
import { checkObstaclePlacement, checkRiver } from './table.ts';

export function toAct(s: PCState): number[] {
  return s.phase === 'over' ? [] : [s.turn];
}

/** Validates the action completely (throws RuleError) and returns a function that applies it. */
export function prepare(s: PCState, seat: number, a: PCAction): () => void {
  if (s.phase === 'over') throw new RuleError('The game is over.');
  if (seat !== s.turn) throw new RuleError('It is not your turn.');
  switch (s.phase) {
    case 'obstacles': {
      if (a.type !== 'obstacle') throw new RuleError('Place an obstacle first (mountain or lake).');
      const shape = checkObstaclePlacement(s, a.obstacle, a.x, a.y, a.rot);
      return () => {
        s.obstacles.push({ id: a.obstacle, x: a.x, y: a.y, rot: a.rot, by: seat, shape });
        s.obstacleSupply.splice(s.obstacleSupply.indexOf(a.obstacle), 1);
        const head = s.setupQueue[0]!;
        head[1]--;
        if (head[1] === 0) s.setupQueue.shift();
        if (s.setupQueue.length > 0) s.turn = s.setupQueue[0]![0];
        else {
          s.phase = 'river';
          s.turn = s.startPlayer;
        }
      };
    }
    case 'river': {
      if (a.type !== 'river') throw new RuleError('Place the river first.');
      checkRiver(s, a.points);
      return () => {
        s.river = a.points.map((p) => [p[0], p[1]]);
        revealAndDeal(s);
      };
    }
    case 'discard': {
      if (a.type !== 'discard') throw new RuleError(`You hold more than ${BOARD.handLimit} cards: discard first.`);
      const need = overLimit(s, seat);
      const hand = s.hands[seat]!;
      if (a.cards.length !== need)
        throw new RuleError(`Discard exactly ${need} card${need > 1 ? 's' : ''} to keep ${BOARD.handLimit}.`);
      if (new Set(a.cards).size !== a.cards.length) throw new RuleError('Name each card once.');
      for (const c of a.cards)
        if (!hand.includes(c)) throw new RuleError(`You do not hold ${CARD_BY_ID[c]?.name ?? c}.`);
      return () => {
        for (const c of a.cards) hand.splice(hand.indexOf(c), 1);
        s.discard.push(...a.cards);
        if (s.lastOrders === seat && s.finalStep === 'build')
          s.phase = 'play'; // after the last draw: now the last build
        else finishTurn(s, seat);
      };
    }
    case 'play':
      return preparePlay(s, seat, a);
  }
  throw new RuleError('Nothing to do now.');
}

function preparePlay(s: PCState, seat: number, a: PCAction): () => void {
  const final = s.lastOrders === seat ? s.finalStep : null;
  if (a.type === 'draw') {
    if (final === 'build') throw new RuleError('You have drawn your last card: now build once more, or pass.');
    if (s.deck.length === 0) throw new RuleError('The draw pile is empty.');
    return () => {
      drawCards(s, seat, final === 'draw' ? 1 : drawCount(s));
      if (final === 'draw') {
        s.finalStep = 'build';
        if (overLimit(s, seat) > 0) s.phase = 'discard';
        return;
      }
      afterAction(s, seat);
    };
  }
  if (final === 'draw') throw new RuleError('Your last turn begins with drawing one card.');
  if (a.type === 'build') {
    const plan = planBuild(s, seat, a);
    return () => {
      carryOutBuild(s, seat, plan);
      if (final === 'build') s.finalStep = 'done';
      else if (s.lastOrders === null && (s.cubes[seat] === 0 || s.clips[seat] === 0)) {
        // Down to only clips or only cubes: one more draw and one more build, then the game ends.
        s.lastOrders = seat;
      }
      afterAction(s, seat);
    };
  }
  if (a.type === 'pass') {
    if (final !== 'build' && s.deck.length > 0)
      throw new RuleError('Draw cards or build a link; you may pass only when the draw pile is empty.');
    return () => {
      if (final === 'build') s.finalStep = 'done';
      finishTurn(s, seat);
    };
  }
  throw new RuleError('On your turn, draw cards or build a link.');
}

function afterAction(s: PCState, seat: number): void {
  if (overLimit(s, seat) > 0) {
    s.phase = 'discard';
    return;
  }
  finishTurn(s, seat);
}

export function finishTurn(s: PCState, seat: number): void {
  s.phase = 'play';
  s.turns[seat]!++;
  if (s.lastOrders === seat && s.finalStep === 'done') {
    endGame(s, 'a player ran down to only clips or only cubes and took a last turn');
    return;
  }
  if (s.endOfLineDrawn && s.turns.every((t) => t === s.turns[0])) {
    endGame(s, 'the End of Line card was drawn and everyone has had the same number of turns');
    return;
  }
  s.turn = (seat + 1) % s.seats;
  if (s.lastOrders === s.turn && s.finalStep === null) s.finalStep = s.deck.length > 0 ? 'draw' : 'build';
}

function endGame(s: PCState, reason: string): void {
  s.phase = 'over';
  s.finalStep = null;
  s.endReason = reason;
  s.bonuses = endBonuses(s);
}
