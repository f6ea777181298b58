// One public line of history per action. It names nothing hidden: a draw
// says how many cards, a discard how many, never which.
import type { PCAction } from './actions.ts';
import { planBuild } from './build.ts';
import { BOARD, CARD_BY_ID } from './data.ts';
import { drawCount, stationCardsInDeck } from './draw.ts';
import { findStation, stationInfo, type PCState } from './state.ts';
import { polylineLength } from './geometry.ts';
import { placeWords, squareOf, stationNear } from './places.ts';
import { imperative, LABEL_MAX, labelWith } from '../label.ts';

function stationName(s: PCState, id: string): string {
  const st = findStation(s, id);
  if (st) return stationInfo(st).name;
  return CARD_BY_ID[id]?.name ?? id;
}

/** "an 8-clip link", "a 7-clip link". */
function article(n: number): string {
  return n === 8 || n === 11 || n === 18 || (n >= 80 && n < 90) ? 'an' : 'a';
}

/** The river by the grid squares it runs through: "from B3 via D2 to F3". */
function riverWords(s: PCState, points: readonly (readonly number[])[]): string {
  const sq = points.map((p) => squareOf(s.area, p[0]!, p[1]!));
  const via = sq.slice(1, -1);
  return `from ${sq[0]}${via.length ? ` via ${via.join(', ')}` : ''} to ${sq[sq.length - 1]}`;
}

/** A card's name, or its first word where the whole would not fit a label (no two cards share one). */
function cardWords(id: string, short: boolean): string {
  const name = CARD_BY_ID[id]?.name ?? id;
  return short && name.length > 12 ? name.split(' ')[0]! : name;
}

export function describeAction(a: PCAction, s: PCState, seat: number): string {
  switch (a.type) {
    case 'obstacle': {
      const name = BOARD.obstacles.find((o) => o.id === a.obstacle)?.name ?? a.obstacle;
      return `placed the ${name}${a.rot ? ` turned ${a.rot}°` : ''} ${placeWords(s, a.x, a.y)}`;
    }
    case 'river':
      return `laid the river ${riverWords(s, a.points)} (${Math.round(polylineLength(a.points))} mm)`;
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
 * A move's button words (rules/types.ts `label`), in the imperative, at most LABEL_MAX long: what
 * tells the move apart (the stations, the grid square of what is placed), then the points as fit.
 * Only the seat reads them, so a discard names its own cards (the history line never does).
 */
export function labelAction(a: PCAction, s: PCState, seat: number): string {
  switch (a.type) {
    case 'discard': {
      const words = (short: boolean) => a.cards.map((id) => cardWords(id, short));
      const all = `Discard ${list(words(false))}`;
      return all.length <= LABEL_MAX ? all : `Discard ${list(words(true))}`;
    }
    case 'obstacle': {
      const name = BOARD.obstacles.find((o) => o.id === a.obstacle)?.name ?? a.obstacle;
      const near = stationNear(s, a.x, a.y);
      return labelWith(
        `Place the ${name}${a.rot ? ` turned ${a.rot}°` : ''} at ${squareOf(s.area, a.x, a.y)}`,
        near ? `, next to ${near}` : '',
      );
    }
    case 'river':
      return labelWith(`Lay the river ${riverWords(s, a.points)}`, ` (${Math.round(polylineLength(a.points))} mm)`);
    case 'build': {
      const to =
        a.to !== undefined
          ? stationName(s, a.to)
          : `${stationName(s, a.card ?? '')} (new${a.at ? ` at ${squareOf(s.area, a.at[0]!, a.at[1]!)}` : ''})`;
      const core = `Build ${stationName(s, a.from)} – ${to}`;
      try {
        const p = planBuild(s, seat, a);
        return labelWith(
          core,
          `: ${p.total >= 0 ? '+' : ''}${p.total} points`,
          `, ${p.geometry.clips} clip${p.geometry.clips === 1 ? '' : 's'}`,
        );
      } catch {
        return core;
      }
    }
    default:
      return imperative(describeAction(a, s, seat));
  }
}

function list(names: string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
