// One public line of history per action. It names nothing hidden: a draw
// says how many cards, a discard how many, never which.
import type { PCAction } from './actions.ts';
import { planBuild } from './build.ts';
import { BOARD, CARD_BY_ID } from './data.ts';
import { drawCount, stationCardsInDeck } from './draw.ts';
import { findStation, stationInfo, type PCState } from './state.ts';
import { polylineLength } from './geometry.ts';
import { partOfTable, placeWords } from './places.ts';
import { imperative } from '../label.ts';

function stationName(s: PCState, id: string): string {
  const st = findStation(s, id);
  if (st) return stationInfo(st).name;
  return CARD_BY_ID[id]?.name ?? id;
}

/** "an 8-clip link", "a 7-clip link". */
function article(n: number): string {
  return n === 8 || n === 11 || n === 18 || (n >= 80 && n < 90) ? 'an' : 'a';
}

export function describeAction(a: PCAction, s: PCState, seat: number): string {
  switch (a.type) {
    case 'obstacle': {
      const name = BOARD.obstacles.find((o) => o.id === a.obstacle)?.name ?? a.obstacle;
      return `placed the ${name} ${placeWords(s, a.x, a.y)}${a.rot ? ` turned ${a.rot}°` : ''}`;
    }
    case 'river':
      return `laid the river from ${partOfTable(...(a.points[0] as [number, number]))} to ${partOfTable(...(a.points[a.points.length - 1] as [number, number]))} (${Math.round(polylineLength(a.points))} mm)`;
    case 'draw': {
      const last = s.lastOrders === seat && s.finalStep === 'draw';
      const n = Math.min(last ? 1 : drawCount(s), stationCardsInDeck(s));
      return last ? `drew a last card` : `drew ${n} card${n === 1 ? '' : 's'}`;
    }
    case 'discard':
      return `discarded ${a.cards.length} card${a.cards.length === 1 ? '' : 's'} down to ${BOARD.handLimit}`;
    case 'pass':
      return 'passed';
    case 'build': {
      const toName = a.to !== undefined ? stationName(s, a.to) : stationName(s, a.card ?? '');
      const where = a.to === undefined && a.at ? ` (a new station ${placeWords(s, a.at[0]!, a.at[1]!)})` : '';
      try {
        const p = planBuild(s, seat, a);
        const extras: string[] = [];
        if (p.crossingCost) extras.push(`${p.crossingCost} crossing${p.crossingCost > 1 ? 's' : ''}`);
        if (p.geometry.obstacles)
          extras.push(
            `${p.geometry.obstacles} obstacle${p.geometry.obstacles > 1 ? 's' : ''}${p.obstaclePenalty ? '' : ' (bridged)'}`,
          );
        if (p.placementPenalty) extras.push(`station on an obstacle −${p.placementPenalty}`);
        return `built ${article(p.geometry.clips)} ${p.geometry.clips}-clip link ${stationName(s, a.from)} – ${toName}${where}, paying ${p.pay.length} card${p.pay.length > 1 ? 's' : ''}: ${p.total >= 0 ? '+' : ''}${p.total} points${extras.length ? ` (${extras.join(', ')})` : ''}`;
      } catch {
        return `builds a link ${stationName(s, a.from)} – ${toName}${where}`;
      }
    }
  }
}

/**
 * A move's button words (rules/types.ts `label`), in the imperative. Only the seat reads them, so
 * a discard names its own cards (the history line never does).
 */
export function labelAction(a: PCAction, s: PCState, seat: number): string {
  if (a.type === 'discard') {
    const names = a.cards.map((id) => CARD_BY_ID[id]?.name ?? id);
    return `Discard ${names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`}`;
  }
  // The crossings and obstacles a build meets show on the picture; the label keeps the points.
  return imperative(describeAction(a, s, seat).replace(/( points) \(.*\)$/, '$1'));
}
