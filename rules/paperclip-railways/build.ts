// Building a link in the seed's eight steps. `planBuild` checks everything
// and works out the result without touching the state; `carryOutBuild`
// then applies a plan. The form's preview, `moves` and `apply` share them.
import { refuse } from './refuse.ts';
import type { BuildAction } from './actions.ts';
import { BOARD, CARD_BY_ID } from './data.ts';
import { buildEffects, freeClipsOf, hasBridge } from './effects.ts';
import { measureLink, type LinkGeometry, type StationLike } from './link.ts';
import {
  findStation,
  hasCube,
  isFull,
  minLengthTo,
  stationInfo,
  type LastBuild,
  type PCState,
  type Station,
} from './state.ts';
import { checkStationPlacement } from './table.ts';

export interface BuildPlan {
  from: Station;
  /** The end station; for a new card not yet on the table. */
  to: Station;
  isNew: boolean;
  geometry: LinkGeometry;
  minLength: number;
  freeClips: number;
  pay: string[];
  cubesNeeded: number;
  /** Cubes actually placed (in a last build a player may be short of cubes). */
  placeFrom: boolean;
  placeTo: boolean;
  onObstacle: boolean;
  placementPenalty: number;
  obstaclePenalty: number;
  stationPoints: number;
  crossingCost: number;
  /** Build-effect points (not counting draws). */
  effectPoints: number;
  /** Total change to the builder's score. */
  total: number;
}

function owns(s: PCState, seat: number, st: Station): boolean {
  return (st.kind === 'start' && st.owner === seat) || hasCube(s, st, seat);
}

function cardsFor(clips: number, free: number): number {
  return Math.max(1, Math.ceil(Math.max(0, clips - free) / 3));
}

/** Cheapest cards first: lowest points, then by id. */
export function autoPay(hand: string[], exclude: string | undefined, count: number): string[] {
  return hand
    .filter((c) => c !== exclude)
    .sort((a, b) => CARD_BY_ID[a]!.points - CARD_BY_ID[b]!.points || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, count);
}

export function planBuild(s: PCState, seat: number, a: BuildAction): BuildPlan {
  const lastBuild = s.finalStep === 'build' && s.lastOrders === seat;
  const hand = s.hands[seat]!;
  // 1. The start station: your starting station or one with your cube.
  const from = findStation(s, a.from);
  if (!from) refuse(`There is no station "${a.from}" on the table.`);
  const fromInfo = stationInfo(from);
  if (!owns(s, seat, from))
    refuse(`You can only start from your starting station or a station with your cube; ${fromInfo.name} has none.`);
  if (isFull(s, from)) refuse(`${fromInfo.name} is full (${fromInfo.limit} cubes).`);
  // 2. The end station: on the table with room, or a new one from the hand.
  let to: Station;
  let isNew = false;
  if (a.to !== undefined) {
    if (a.card !== undefined || a.at !== undefined)
      refuse('Name either a station on the table or a card from your hand with a place, not both.');
    const found = findStation(s, a.to);
    if (!found) refuse(`There is no station "${a.to}" on the table.`);
    to = found;
  } else {
    if (a.card === undefined || a.at === undefined)
      refuse('Name the end station, or a card from your hand and where to place it.');
    if (!hand.includes(a.card)) refuse(`You do not hold ${CARD_BY_ID[a.card]?.name ?? a.card}.`);
    to = {
      id: a.card,
      kind: 'card',
      card: a.card,
      x: a.at[0],
      y: a.at[1],
      w: BOARD.card.w,
      h: BOARD.card.h,
      cubes: new Array(s.seats).fill(0),
    };
    isNew = true;
  }
  const toInfo = stationInfo(to);
  if (to.id === from.id) refuse('A link must join two different stations.');
  // One cube on the Metropolis serves all four areas: for the link's two ends it is one station.
  if (from.kind === 'metro' && to.kind === 'metro' && s.version >= 2)
    refuse(
      'A link may not join two areas of the Metropolis: the Metropolis is one station (one cube serves all four).',
    );
  if (!isNew && isFull(s, to)) refuse(`${toInfo.name} is full (${toInfo.limit} cubes).`);
  if (
    s.links.some(
      (l) => l.owner === seat && ((l.from === from.id && l.to === to.id) || (l.from === to.id && l.to === from.id)),
    )
  ) {
    refuse(`You already have a link between ${fromInfo.name} and ${toInfo.name}.`);
  }
  const minLength = minLengthTo(fromInfo, toInfo);
  if (minLength === null)
    refuse(`${fromInfo.name} lists no length to ${toInfo.type} stations, so it cannot link to ${toInfo.name}.`);
  // 4 (checked before measuring, as the link ends at the card): place the new station.
  const placement = isNew ? checkStationPlacement(s, seat, to.x, to.y) : { onObstacle: false };
  // 3 and 6. Measure the link and check where it runs.
  const geometry = measureLink(s, seat, from as StationLike, to as StationLike, (a.bends ?? []) as [number, number][]);
  if (geometry.clips < minLength) {
    refuse(
      `From ${fromInfo.name} a link to ${toInfo.type === 'start' ? 'a starting station' : `a ${toInfo.type} station`} needs at least ${minLength} clips; this one is ${geometry.clips}.`,
    );
  }
  if (geometry.clips > s.clips[seat]!)
    refuse(`That link needs ${geometry.clips} clips and you have ${s.clips[seat]} left.`);
  // 5. Buy the link: one card per 3 clips, at least one card.
  const freeClips = freeClipsOf(from) + freeClipsOf(to);
  const needCards = cardsFor(geometry.clips, freeClips);
  const available = hand.length - (isNew ? 1 : 0);
  if (available < needCards)
    refuse(`That link costs ${needCards} card${needCards > 1 ? 's' : ''} and you hold ${available} to pay with.`);
  const pay = a.pay ?? autoPay(hand, isNew ? a.card : undefined, needCards);
  if (pay.length !== needCards)
    refuse(`That link costs exactly ${needCards} card${needCards > 1 ? 's' : ''}; you offered ${pay.length}.`);
  if (new Set(pay).size !== pay.length) refuse('Name each card you pay with once.');
  for (const c of pay) {
    if (!hand.includes(c)) refuse(`You do not hold ${CARD_BY_ID[c]?.name ?? c}.`);
    if (isNew && c === a.card) refuse('You cannot pay with the station you are placing.');
  }
  // 7. Cubes: one on each station (only one ever on the Metropolis).
  const wantFrom = !(from.kind === 'metro' && s.metroCubes[seat]);
  const wantTo = !(to.kind === 'metro' && (s.metroCubes[seat] || (from.kind === 'metro' && wantFrom)));
  const cubesNeeded = (wantFrom ? 1 : 0) + (wantTo ? 1 : 0);
  let placeFrom = wantFrom,
    placeTo = wantTo;
  if (cubesNeeded > s.cubes[seat]!) {
    if (!lastBuild) refuse(`That link needs ${cubesNeeded} cubes and you have ${s.cubes[seat]} left.`);
    placeFrom = wantFrom && s.cubes[seat]! > 0;
    placeTo = wantTo && s.cubes[seat]! - (placeFrom ? 1 : 0) > 0;
  }
  // Score: both stations + clips - crossings of others' links - 2 per obstacle.
  const crossingCost = geometry.crossings.reduce((x, y) => x + y, 0);
  const bridged = hasBridge(from) || hasBridge(to);
  const obstaclePenalty = bridged ? 0 : 2 * geometry.obstacles;
  const placementPenalty = isNew && placement.onObstacle ? s.penalty : 0;
  const stationPoints = fromInfo.points + toInfo.points;
  let effectPoints = 0;
  for (const st of [from, to]) {
    const e = stationInfo(st).effect;
    if (e && e.kind === 'points' && !st.noBuildEffect) effectPoints += e.amount;
  }
  const total = stationPoints + geometry.clips - crossingCost - obstaclePenalty - placementPenalty + effectPoints;
  return {
    from,
    to,
    isNew,
    geometry,
    minLength,
    freeClips,
    pay,
    cubesNeeded,
    placeFrom,
    placeTo,
    onObstacle: placement.onObstacle,
    placementPenalty,
    obstaclePenalty,
    stationPoints,
    crossingCost,
    effectPoints,
    total,
  };
}

/** Applies a checked plan: the card, the clips, the cubes, the score and the effects. */
export function carryOutBuild(s: PCState, seat: number, p: BuildPlan): void {
  const hand = s.hands[seat]!;
  // Ongoing tolls are owed to whoever was at the station before this link.
  const tolls = [p.from, p.to].map((st) => ({
    st,
    before: st.kind === 'metro' ? s.metroCubes.map((b) => (b ? 1 : 0)) : [...st.cubes],
  }));
  if (p.isNew) {
    hand.splice(hand.indexOf(p.to.id), 1);
    s.stations.push(p.to);
    if (p.onObstacle) s.penalty = Math.min(BOARD.penalty.max, s.penalty + 1);
  }
  for (const c of p.pay) hand.splice(hand.indexOf(c), 1);
  s.discard.push(...p.pay);
  s.clips[seat]! -= p.geometry.clips;
  for (const [st, place] of [
    [p.from, p.placeFrom],
    [p.to, p.placeTo],
  ] as const) {
    if (!place) continue;
    if (st.kind === 'metro') s.metroCubes[seat] = true;
    else st.cubes[seat]!++;
    s.cubes[seat]!--;
  }
  s.links.push({
    owner: seat,
    from: p.from.id,
    to: p.to.id,
    points: p.geometry.points,
    clips: p.geometry.clips,
    score: p.total,
  });
  s.scores[seat]! += p.total;
  p.geometry.crossings.forEach((n, other) => {
    s.scores[other]! += n;
  });
  buildEffects(s, seat, tolls);
  const last: LastBuild = {
    seat,
    from: p.from.id,
    to: p.to.id,
    clips: p.geometry.clips,
    stationPoints: p.stationPoints,
    crossings: p.crossingCost,
    obstacles: p.geometry.obstacles,
    obstaclePenalty: p.obstaclePenalty,
    placementPenalty: p.placementPenalty,
    effectPoints: p.effectPoints,
    paidCards: p.pay.length,
    total: p.total,
  };
  s.lastBuild = last;
}
