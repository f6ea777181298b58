// What one seat may see: the whole table, supplies and scores are public;
// hands are seen only by their holder, the pile's order by nobody, and the
// border and starting stations only once setup has turned them face up.
import type { View } from '../types.ts';
import { BOARD, CARD_BY_ID, END_OF_LINE, STATION_TYPES, type Effect, type StationType } from './data.ts';
import { stationCardsInDeck } from './draw.ts';
import { cubesOn, colourName, stationInfo, startStationId, type PCState } from './state.ts';
import { columnName, GRID, gridOf } from './places.ts';

export function effectText(e: Effect | null | undefined): string {
  if (!e) return '';
  switch (e.kind) {
    case 'points':
      return `When built: +${e.amount} points`;
    case 'draw':
      return `When built: draw ${e.amount} card${e.amount > 1 ? 's' : ''}`;
    case 'freeClips':
      return `When built: ${e.amount} clips free`;
    case 'toll':
      return `Ongoing: +${e.amount} to each player already here when another links in`;
    case 'bridge':
      return 'Ongoing: links here pay nothing for obstacles or the river';
    case 'perCube':
      return `Game end: ${e.amount} per cube you have here`;
    case 'majority':
      return `Game end: ${e.amount} to the most cubes here`;
  }
}

export function lengthsText(m: Partial<Record<StationType, number>>): string {
  return STATION_TYPES.filter((t) => m[t] !== undefined && t !== 'blank')
    .map((t) => `${t} ${m[t]}`)
    .join(' · ');
}

const path = (ps: readonly (readonly [number, number])[]) => ps.map((p) => `${p[0]},${p[1]}`).join(' ');

export function cardView(id: string) {
  const c = CARD_BY_ID[id]!;
  return {
    id: c.id,
    name: c.name,
    type: c.type,
    points: c.points,
    cubes: c.cubes,
    minLength: c.minLength,
    effect: c.effect ?? null,
    effectText: effectText(c.effect),
    lengthsText: lengthsText(c.minLength),
  };
}

export const TYPE_FILL: Record<string, string> = {
  city: '#f5d142',
  town: '#f39a2b',
  suburban: '#e05a4f',
  countryside: '#6cbf5a',
  blank: '#ffffff',
};

function nameOf(s: PCState, id: string): string {
  const st = s.stations.find((x) => x.id === id);
  return st ? stationInfo(st).name : id;
}

/**
 * The reference grid for a page's move board (mm, as its viewBox): one path of its lines, and its
 * captions (column letters along the top, row numbers down the left), kept inside the frame.
 */
function gridDrawing(
  area: [number, number][],
  frame: { x0: number; y0: number },
): { path: string; labels: { x: number; y: number; text: string; anchor: string }[] } {
  const g = gridOf(area);
  const [x1, y1] = [g.x0 + g.columns * GRID, g.y0 + g.rows * GRID];
  const lines: string[] = [];
  for (let k = 0; k <= g.columns; k++) lines.push(`M${g.x0 + k * GRID} ${g.y0}V${y1}`);
  for (let k = 0; k <= g.rows; k++) lines.push(`M${g.x0} ${g.y0 + k * GRID}H${x1}`);
  const top = Math.max(frame.y0 + 20, g.y0 - 6);
  const left = g.x0 - 6 > frame.x0 + 30 ? { x: g.x0 - 6, anchor: 'end' } : { x: frame.x0 + 4, anchor: 'start' };
  return {
    path: lines.join(''),
    labels: [
      ...Array.from({ length: g.columns }, (_, k) => ({
        x: g.x0 + (k + 0.5) * GRID,
        y: top,
        text: columnName(k),
        anchor: 'middle',
      })),
      ...Array.from({ length: g.rows }, (_, k) => ({
        x: left.x,
        y: g.y0 + (k + 0.5) * GRID + 7,
        text: String(k + 1),
        anchor: left.anchor,
      })),
    ],
  };
}

function statusLine(s: PCState): string {
  const who = `{seat:${s.turn}} (${colourName(s.turn)})`;
  switch (s.phase) {
    case 'obstacles':
      return `Setup: ${who} places an obstacle`;
    case 'river':
      return `Setup: ${who} places the river`;
    case 'discard':
      return `${who} discards down to ${BOARD.handLimit}`;
    case 'over':
      return `Game over: ${s.endReason}`;
    default:
      if (s.lastOrders === s.turn && s.finalStep)
        return `${who}'s last turn (${s.finalStep === 'draw' ? 'draw one card' : 'build once more'})`;
      return `${who} to draw or build${s.endOfLineDrawn ? ' (End of Line drawn: last round)' : ''}`;
  }
}

export function buildView(s: PCState, seat: number | null, toAct: number[]): View {
  const playing = s.phase !== 'obstacles' && s.phase !== 'river';
  const xs = s.area.map((p) => p[0]),
    ys = s.area.map((p) => p[1]);
  const frame = {
    x0: Math.min(...xs) - 60,
    y0: Math.min(...ys) - 60,
    w: Math.max(...xs) - Math.min(...xs) + 120,
    h: Math.max(...ys) - Math.min(...ys) + 120,
  };
  return {
    seat,
    toAct,
    status: statusLine(s),
    phase: s.phase,
    turn: s.turn,
    advanced: s.advanced,
    startPlayer: s.startPlayer,
    clipLength: BOARD.clipLength,
    card: BOARD.card,
    handLimit: BOARD.handLimit,
    players: Array.from({ length: s.seats }, (_, i) => ({
      seat: i,
      colour: colourName(i),
      fill: BOARD.start.colours[i]!.fill,
      score: s.scores[i],
      clips: s.clips[i],
      cubes: s.cubes[i],
      handSize: s.hands[i]!.length,
      turns: s.turns[i],
      start: startStationId(i),
      metro: s.metroCubes[i],
    })),
    area: s.area,
    areaPath: path(s.area),
    frame,
    grid: gridDrawing(s.area, frame),
    board: s.advanced ? BOARD.gigantopolis.board : BOARD.metropolis.board,
    obstacles: s.obstacles.map((o) => {
      const d = BOARD.obstacles.find((b) => b.id === o.id)!;
      return { path: path(o.shape), id: o.id, name: d.name, kind: d.kind, shape: o.shape, by: o.by };
    }),
    obstacleSupply: s.obstacleSupply.map((id) => {
      const d = BOARD.obstacles.find((o) => o.id === id)!;
      return { id, name: d.name, kind: d.kind, shape: d.shape };
    }),
    river: s.river,
    riverPath: s.river ? path(s.river) : null,
    riverLength: BOARD.river.clips * BOARD.clipLength,
    stations: s.stations.map((st, i) => {
      const base = {
        id: st.id,
        kind: st.kind,
        x: st.x,
        y: st.y,
        w: st.w,
        h: st.h,
        left: st.x - st.w / 2,
        top: st.y - st.h / 2,
        fill: '#8b8b8b',
        ink: '#111111',
      };
      // A face-down card's id would name it: show only its place.
      if (st.faceDown)
        return {
          ...base,
          id: `face-down-${i + 1}`,
          faceDown: true,
          name: st.kind === 'start' ? 'Starting station' : 'Station (face down)',
        };
      const info = stationInfo(st);
      return {
        ...base,
        fill: st.kind === 'start' ? BOARD.start.colours[st.owner!]!.fill : TYPE_FILL[info.type]!,
        ink:
          st.kind === 'start' && ['red', 'green', 'black'].includes(BOARD.start.colours[st.owner!]!.name)
            ? '#ffffff'
            : '#111111',
        name: info.name,
        type: info.type,
        points: info.points,
        limit: Number.isFinite(info.limit) ? info.limit : null,
        minLength: info.minLength,
        effect: info.effect ?? null,
        effectText: effectText(info.effect),
        lengthsText: lengthsText(info.minLength),
        noBuildEffect: st.noBuildEffect ?? false,
        owner: st.owner ?? null,
        cubes: st.kind === 'metro' ? s.metroCubes.map((b) => (b ? 1 : 0)) : st.cubes,
        cubeCount: cubesOn(s, st),
      };
    }),
    links: s.links.map((l) => ({
      owner: l.owner,
      from: l.from,
      to: l.to,
      points: l.points,
      clips: l.clips,
      score: l.score,
      path: path(l.points),
      fill: BOARD.start.colours[l.owner]!.fill,
    })),
    deckSize: stationCardsInDeck(s),
    endOfLineDrawn: s.endOfLineDrawn,
    endOfLineInDeck: s.deck.includes(END_OF_LINE),
    discardSize: s.discard.length,
    penalty: s.penalty,
    lastOrders: s.lastOrders,
    finalStep: s.finalStep,
    lastBuild: s.lastBuild && {
      ...s.lastBuild,
      fromName: nameOf(s, s.lastBuild.from),
      toName: nameOf(s, s.lastBuild.to),
    },
    bonuses: s.bonuses,
    hand: seat === null || !playing ? null : s.hands[seat]!.map(cardView),
    mustDiscard: s.phase === 'discard' && seat === s.turn ? s.hands[seat]!.length - BOARD.handLimit : 0,
  };
}
