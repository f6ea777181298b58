// One test per rule, each on a hand-set state that decides it.
import { describe, expect, it } from 'vitest';
import { RuleError } from '../../../rules/types.ts';
import { planBuild } from '../../../rules/paperclip-railways/build.ts';
import { BOARD, CARDS } from '../../../rules/paperclip-railways/data.ts';
import { obstacleShape } from '../../../rules/paperclip-railways/table.ts';
import { card, metro, R, start, table } from './table.ts';

const H6 = ['dent', 'settle', 'rannoch', 'corrour', 'ealing', 'salford'];
const build = (from: string, to: string, extra: object = {}) => ({ type: 'build', from, to, ...extra });
const newCard = (from: string, c: string, at: [number, number], extra: object = {}) => ({
  type: 'build',
  from,
  card: c,
  at,
  ...extra,
});

describe('setup', () => {
  it('gives cubes and clips by player count (one cube marks the score)', () => {
    const want: Record<number, [number, number]> = { 2: [25, 60], 3: [25, 60], 4: [23, 54], 5: [22, 48] };
    for (const n of [2, 3, 4, 5]) {
      const s = R.setup(n, 'sup', {});
      expect(s.cubes).toEqual(new Array(n).fill(want[n]![0] - 1));
      expect(s.clips).toEqual(new Array(n).fill(want[n]![1]));
      expect(s.scores).toEqual(new Array(n).fill(0));
    }
  });

  it('sets a third of the stations aside, shuffles the blanks in and the End of Line card into the last ten', () => {
    for (const seed of ['a', 'b', 'c', 'd']) {
      const s = R.setup(3, seed, { promos: true });
      expect(s.box).toHaveLength(32);
      expect(s.deck.indexOf('end-of-line')).toBeGreaterThanOrEqual(s.deck.length - 11);
      expect(s.deck.filter((c) => c.startsWith('request-stop'))).toHaveLength(3);
      expect(R.check!(s)).toEqual([]);
    }
    const plain = R.setup(3, 'a', { promos: false });
    expect(plain.box.filter((c) => c.startsWith('request-stop'))).toHaveLength(3);
  });

  it('lays out the polygon by player count with border stations at the corners and starting stations at the middles of the sides', () => {
    const shapes: Record<number, number> = { 2: 4, 3: 3, 4: 4, 5: 5 };
    for (const n of [2, 3, 4, 5]) {
      const s = R.setup(n, 'area', {});
      expect(s.area).toHaveLength(shapes[n]!);
      const border = s.stations.filter((x) => x.kind === 'card');
      const starts = s.stations.filter((x) => x.kind === 'start');
      expect(border).toHaveLength(n);
      expect(starts.map((x) => x.owner).sort()).toEqual(Array.from({ length: n }, (_, i) => i));
      for (const b of border) expect(s.area.some((c) => c[0] === b.x && c[1] === b.y)).toBe(true);
      if (n > 2) {
        for (const st of starts) {
          const i = s.area.findIndex((c, k) => {
            const d = s.area[(k + 1) % n]!;
            // the midpoint, a half millimetre rounded towards the centre
            return Math.abs(2 * st.x - (c[0] + d[0])) <= 1 && Math.abs(2 * st.y - (c[1] + d[1])) <= 1;
          });
          expect(i).toBeGreaterThanOrEqual(0);
        }
      } else {
        // Two players: the starting stations are the rhombus's other corners.
        for (const st of starts) expect(s.area.some((c) => c[0] === st.x && c[1] === st.y)).toBe(true);
      }
      expect(s.stations.filter((x) => x.kind === 'metro')).toHaveLength(4);
      expect(s.stations.every((x) => x.kind === 'metro' || x.faceDown)).toBe(true);
    }
  });

  it('has the players place obstacles in the seed order, then the start player the river, then deals 4 cards', () => {
    const order: Record<number, number[]> = { 2: [1, 1, 1], 3: [1, 1, 2, 2], 4: [1, 2, 2, 3], 5: [1, 2, 3, 4] };
    for (const n of [2, 3, 4, 5]) {
      const s = R.setup(n, 'order', {});
      const seen: number[] = [];
      while (s.phase === 'obstacles') {
        const seat = R.toAct(s)[0]!;
        seen.push((seat - s.startPlayer + n) % n);
        R.apply(s, seat, R.moves(s, seat)[0]);
      }
      expect(seen).toEqual(order[n]);
      expect(s.phase).toBe('river');
      expect(R.toAct(s)).toEqual([s.startPlayer]);
      expect(s.hands.flat()).toHaveLength(0);
      R.apply(s, s.startPlayer, R.moves(s, s.startPlayer)[0]);
      expect(s.phase).toBe('play');
      expect(s.hands.map((h) => h.length)).toEqual(new Array(n).fill(4));
      expect(s.stations.some((x) => x.faceDown)).toBe(false);
      expect(R.toAct(s)).toEqual([s.startPlayer]);
    }
  });

  it('refuses an obstacle outside the area or on a station, and a river longer than its 32 clips', () => {
    const s = R.setup(4, 'obst', {});
    const seat = R.toAct(s)[0]!;
    expect(() => R.apply(s, seat, { type: 'obstacle', obstacle: 'lake', x: 460, y: 0, rot: 0 })).toThrow(
      /inside the play area/,
    );
    expect(() => R.apply(s, seat, { type: 'obstacle', obstacle: 'lake', x: 0, y: 0, rot: 0 })).toThrow(/station/);
    expect(() => R.apply(s, seat, { type: 'obstacle', obstacle: 'lake', x: 200, y: 200, rot: 45 })).toThrow(/degrees/);
    R.apply(s, seat, { type: 'obstacle', obstacle: 'lake', x: 200, y: 200, rot: 0 });
    expect(s.obstacles[0]!.shape).toEqual(obstacleShape('lake', 200, 200, 0));
    while (s.phase === 'obstacles') R.apply(s, R.toAct(s)[0]!, R.moves(s, R.toAct(s)[0]!)[0]);
    expect(() =>
      R.apply(s, s.startPlayer, {
        type: 'river',
        points: [
          [-470, -300],
          [470, -300],
          [470, -250],
        ],
      }),
    ).toThrow(/32 clips/);
  });

  it('advanced game: four stations on Gigantopolis whose "when built" effects are skipped', () => {
    const s = R.setup(3, 'giga', { advanced: true });
    const giga = s.stations.filter((x) => x.noBuildEffect);
    expect(giga).toHaveLength(4);
    expect(s.stations.some((x) => x.kind === 'metro')).toBe(false);
    // A draw effect on Gigantopolis draws nothing.
    const t = table({
      stations: [start(0, -300, 0), { ...card('manchester', 0, 0), noBuildEffect: true }],
      hands: [H6],
    });
    R.apply(t, 0, build('S1', 'manchester', { pay: ['dent', 'settle', 'rannoch'] }));
    expect(t.hands[0]).toHaveLength(3);
  });
});

describe('drawing', () => {
  it('draws 3 cards with 2 or 3 players and 2 with 4 or 5', () => {
    for (const [n, k] of [
      [2, 3],
      [3, 3],
      [4, 2],
      [5, 2],
    ] as const) {
      const s = table({ seats: n, stations: [start(0, -300, 0)], hands: [['dent']] });
      R.apply(s, 0, { type: 'draw' });
      expect(s.hands[0]).toHaveLength(1 + k);
      expect(s.turn).toBe(1);
    }
  });

  it('keeps at most 6 cards: after drawing the player discards down to 6', () => {
    const s = table({
      seats: 2,
      stations: [start(0, -300, 0)],
      hands: [['dent', 'settle', 'rannoch', 'corrour', 'ealing']],
    });
    R.apply(s, 0, { type: 'draw' });
    expect(s.phase).toBe('discard');
    expect(R.toAct(s)).toEqual([0]);
    expect(() => R.apply(s, 0, { type: 'discard', cards: ['dent'] })).toThrow(/exactly 2/);
    R.apply(s, 0, { type: 'discard', cards: ['dent', 'settle'] });
    expect(s.hands[0]).toHaveLength(6);
    expect(s.turn).toBe(1);
  });

  it('may pass only when the pile is empty', () => {
    const s = table({ stations: [start(0, -300, 0)], hands: [['dent']] });
    expect(() => R.apply(s, 0, { type: 'pass' })).toThrow(/pass only/);
    s.box.push(...s.deck.filter((c) => c !== 'end-of-line'));
    s.deck = [];
    s.endOfLineDrawn = true;
    expect(() => R.apply(s, 0, { type: 'draw' })).toThrow(/empty/);
    R.apply(s, 0, { type: 'pass' });
    expect(s.turn).toBe(1);
  });
});

describe('building a link', () => {
  const base = () =>
    table({
      stations: [start(0, -300, 0), card('york', 0, 0), card('dent', 0, 250), start(1, 300, 0)],
      hands: [H6, H6.map((c) => c)],
    });

  it('starts only from your starting station or a station with your cube', () => {
    const s = base();
    expect(() => R.apply(s, 0, build('york', 'dent'))).toThrow(/start from your starting station/);
    expect(() => R.apply(s, 0, build('S2', 'york'))).toThrow(/start from/);
    s.stations[1]!.cubes[0] = 1;
    expect(() => planBuild(s, 0, build('york', 'dent') as never)).not.toThrow();
  });

  it('links only to the types the start station lists a length for', () => {
    const s = table({ stations: [start(0, -300, 0), card('london', 0, 0, [1]), card('dent', 0, 250)], hands: [H6] });
    expect(() => R.apply(s, 0, build('london', 'dent'))).toThrow(/lists no length to countryside/);
  });

  it('reaches a blank Request Stop from any station at length 1, and a starting station at the shortest length listed', () => {
    // London lists no length to countryside or blanks; a Request Stop is still in reach.
    const s = table({
      stations: [card('london', -100, 0, [1]), card('request-stop-1', 0, 100), start(1, 200, 0)],
      hands: [H6],
    });
    const p = planBuild(s, 0, build('london', 'request-stop-1') as never);
    expect(p.minLength).toBe(1);
    // From london to a starting station: its shortest listed length (suburban 3).
    expect(planBuild(s, 0, build('london', 'S2', { bends: [[50, -100]] }) as never).minLength).toBe(3);
    // The length 1 that starting stations and the Metropolis list for Request Stops is not
    // their shortest length to a starting station: S1 (countryside 2) cannot reach S2 one clip away.
    const t = table({ stations: [start(0, -300, 0), start(1, -300, 74), ...metro()], hands: [H6] });
    expect(() => R.apply(t, 0, build('S1', 'S2'))).toThrow(/needs at least 2 clips; this one is 1/);
    t.metroCubes[0] = true;
    expect(planBuild(t, 0, build('M-city', 'S2') as never).minLength).toBe(3); // Metropolis City: suburban 3
  });

  it('needs at least the minimum length the start station sets for the end type', () => {
    // york lists 6 clips to a town; bath is 5 clips away edge to edge.
    const s = table({ stations: [card('york', -200, 0, [1]), card('bath', -200 + 64 + 150, 0)], hands: [H6] });
    expect(() => R.apply(s, 0, build('york', 'bath'))).toThrow(/at least 6 clips; this one is 5/);
    expect(() => planBuild(s, 0, build('york', 'bath', { bends: [[-50, 60]] }) as never)).not.toThrow();
  });

  it('refuses a link from a station to itself and a second link by the same player between the same two stations', () => {
    const s = base();
    expect(() => R.apply(s, 0, build('S1', 'S1'))).toThrow(/two different stations/);
    R.apply(s, 0, build('S1', 'york'));
    s.turn = 0;
    expect(() => R.apply(s, 0, build('S1', 'york', { bends: [[-150, 100]] }))).toThrow(/already have a link/);
    expect(() => R.apply(s, 0, build('york', 'S1', { bends: [[-150, 100]] }))).toThrow(/already have a link/);
    // Another player may link the same pair.
    s.turn = 1;
    s.stations[0]!.cubes[1] = 1;
    expect(() => planBuild(s, 1, build('S1', 'york', { bends: [[-150, -100]] }) as never)).not.toThrow();
  });

  it('takes no link at a full station, at either end', () => {
    const s = base();
    s.stations[1]!.cubes = [0, 2, 1, 1]; // york holds 4 cubes: full
    expect(() => R.apply(s, 0, build('S1', 'york'))).toThrow(/full/);
    const t = table({ stations: [card('dent', -300, 0, [1, 1, 1]), card('york', 0, 0)], hands: [H6] });
    expect(() => R.apply(t, 0, build('dent', 'york'))).toThrow(/Dent is full/);
  });

  it('pays one card per 3 clips, exactly, from the hand', () => {
    const s = base();
    const p = planBuild(s, 0, build('S1', 'york') as never);
    expect(p.geometry.clips).toBe(8);
    expect(p.pay).toHaveLength(3);
    expect(() => R.apply(s, 0, build('S1', 'york', { pay: ['dent', 'settle'] }))).toThrow(/exactly 3 cards/);
    expect(() => R.apply(s, 0, build('S1', 'york', { pay: ['dent', 'settle', 'london'] }))).toThrow(
      /do not hold London/,
    );
    R.apply(s, 0, build('S1', 'york', { pay: ['dent', 'settle', 'rannoch'] }));
    expect(s.hands[0]).toEqual(['corrour', 'ealing', 'salford']);
    expect(s.discard).toEqual(['dent', 'settle', 'rannoch']);
    expect(s.clips[0]).toBe(54 - 8);
  });

  it('needs at least one card even when every clip is free', () => {
    // garsdale gives 3 free clips; a 3-clip link to it still costs a card.
    const s = table({ stations: [start(0, -300, 0), card('garsdale', -300 + 64 + 60, 0)], hands: [H6] });
    const p = planBuild(s, 0, build('S1', 'garsdale') as never);
    expect(p.geometry.clips).toBe(2);
    expect(p.freeClips).toBe(3);
    expect(p.pay).toHaveLength(1);
    const t = table({ stations: [start(0, -300, 0), card('garsdale', 0, 0)], hands: [H6] });
    const q = planBuild(t, 0, build('S1', 'garsdale') as never);
    expect(q.geometry.clips).toBe(8);
    expect(q.pay).toHaveLength(2); // 8 - 3 free = 5 clips: 2 cards
  });

  it('takes clips and cubes from the supply and refuses when they run short', () => {
    const s = base();
    s.clips[0] = 7;
    expect(() => R.apply(s, 0, build('S1', 'york'))).toThrow(/needs 8 clips and you have 7/);
    s.clips[0] = 54;
    s.cubes[0] = 1;
    expect(() => R.apply(s, 0, build('S1', 'york'))).toThrow(/needs 2 cubes/);
    s.cubes[0] = 23;
    R.apply(s, 0, build('S1', 'york'));
    expect(s.stations[0]!.cubes[0]).toBe(1);
    expect(s.stations[1]!.cubes[0]).toBe(1);
    expect(s.cubes[0]).toBe(21);
  });

  it('puts only one cube ever on the Metropolis, and that cube serves all four regions', () => {
    const s = table({ stations: [start(0, -300, -200), ...metro(), card('clapham', 300, 200)], hands: [H6] });
    R.apply(s, 0, build('S1', 'M-city'));
    expect(s.metroCubes[0]).toBe(true);
    expect(s.cubes[0]).toBe(22 - 2);
    s.turn = 0;
    // Leave from another region: the one cube is enough, only clapham takes a cube.
    R.apply(s, 0, build('M-suburban', 'clapham'));
    expect(s.cubes[0]).toBe(22 - 3);
    expect(s.stations.find((x) => x.id === 'clapham')!.cubes[0]).toBe(1);
  });

  it('refuses a link from one area of the Metropolis to another: the Metropolis is one station', () => {
    const s = table({ stations: [start(0, -300, -200), ...metro()], hands: [H6] });
    s.metroCubes[0] = true;
    const around = build('M-city', 'M-town', {
      bends: [
        [-35, -150],
        [35, -150],
      ],
    });
    const before = JSON.stringify(s);
    expect(() => R.apply(s, 0, around)).toThrow(/may not join two areas of the Metropolis/);
    expect(JSON.stringify(s)).toBe(before);
    expect(R.moves(s, 0).some((m) => m.type === 'build' && m.from.startsWith('M-') && m.to?.startsWith('M-'))).toBe(
      false,
    );
    s.version = 1; // games set up under rules version 1 keep the link
    R.apply(s, 0, around);
    expect(s.links).toHaveLength(1);
  });

  it('scores both stations plus the clips, minus crossings and 2 per obstacle; the crossed player scores 1', () => {
    const s = table({
      stations: [start(0, -300, 0), card('york', 0, 0), card('dent', -100, -200), card('settle', -100, 200)],
      hands: [H6],
    });
    s.links.push({
      owner: 1,
      from: 'dent',
      to: 'settle',
      points: [
        [-100, -178],
        [-100, 178],
      ],
      clips: 12,
      score: 0,
    });
    s.obstacles.push({ id: 'lake', x: -200, y: 0, rot: 0, by: 1, shape: obstacleShape('lake', -200, 0, 0) });
    R.apply(s, 0, build('S1', 'york', { pay: ['corrour', 'ealing', 'salford'] }));
    // S1 2 + York 4 + 8 clips - 1 crossing - 2 for the lake
    expect(s.scores[0]).toBe(2 + 4 + 8 - 1 - 2);
    expect(s.scores[1]).toBe(1);
    expect(s.lastBuild).toMatchObject({ clips: 8, crossings: 1, obstacles: 1, total: 11 });
  });
});

describe('placing a new station', () => {
  const hand = ['york', 'dent', 'settle', 'rannoch', 'corrour', 'ealing'];
  it('places a card from the hand, which then holds the cube', () => {
    const s = table({ stations: [start(0, -300, 0)], hands: [hand] });
    R.apply(s, 0, newCard('S1', 'york', [0, 0]));
    const york = s.stations.find((x) => x.id === 'york')!;
    expect(york).toMatchObject({ x: 0, y: 0, kind: 'card' });
    expect(york.cubes[0]).toBe(1);
    expect(s.hands[0]).not.toContain('york');
    expect(() => R.apply(s, 1, newCard('S1', 'dent', [0, 0]))).toThrow(RuleError);
  });

  it('may not touch or overlap another station', () => {
    const s = table({ stations: [start(0, -300, 0), card('bath', 0, 0)], hands: [hand] });
    expect(() => R.apply(s, 0, newCard('S1', 'york', [64, 100]))).not.toThrow();
    const t = table({ stations: [start(0, -300, 0), card('bath', 0, 0)], hands: [hand] });
    expect(() => R.apply(t, 0, newCard('S1', 'york', [64, 0]))).toThrow(/touch or overlap Bath/); // edges touch
    expect(() => R.apply(t, 0, newCard('S1', 'york', [30, 10]))).toThrow(/touch or overlap Bath/);
  });

  it('may lie across the border if part of it is inside, not wholly outside', () => {
    const s = table({ stations: [start(0, 0, 300)], hands: [hand] });
    expect(() => planBuild(s, 0, newCard('S1', 'york', [0, 495]) as never)).not.toThrow(); // its top edge inside
    expect(() => planBuild(s, 0, newCard('S1', 'york', [0, 520]) as never)).toThrow(/partly inside/);
    expect(() => planBuild(s, 0, newCard('S1', 'york', [300, 470]) as never)).not.toThrow();
  });

  it("may lie on your own link but not on another player's", () => {
    const s = table({ stations: [start(0, -300, 0), card('bath', 300, 0)], hands: [hand] });
    s.links.push({
      owner: 0,
      from: 'S1',
      to: 'bath',
      points: [
        [-268, 0],
        [268, 0],
      ],
      clips: 18,
      score: 0,
    });
    expect(() =>
      planBuild(
        s,
        0,
        newCard('S1', 'york', [0, 0], {
          bends: [
            [-150, -150],
            [0, -100],
          ],
        }) as never,
      ),
    ).not.toThrow();
    s.links[0]!.owner = 1;
    expect(() =>
      planBuild(
        s,
        0,
        newCard('S1', 'york', [0, 0], {
          bends: [
            [-150, -150],
            [0, -100],
          ],
        }) as never,
      ),
    ).toThrow(/another player's/);
  });

  it('costs the penalty on the construction board when it touches an obstacle or the river, starting at 2', () => {
    const s = table({ stations: [start(0, -300, 0)], hands: [hand] });
    s.obstacles.push({ id: 'lake', x: 87, y: 0, rot: 0, by: 1, shape: obstacleShape('lake', 87, 0, 0) }); // its edge at x = 32
    expect(s.penalty).toBe(2);
    const p = planBuild(s, 0, newCard('S1', 'york', [0, 0]) as never);
    expect(p.placementPenalty).toBe(2);
    R.apply(s, 0, newCard('S1', 'york', [0, 0]));
    expect(s.scores[0]).toBe(p.stationPoints + p.geometry.clips - 2);
    expect(s.penalty).toBe(3);
    // The river counts too.
    const t = table({ stations: [start(0, -300, 0)], hands: [hand] });
    t.river = [
      [32, -200],
      [32, 200],
    ];
    expect(planBuild(t, 0, newCard('S1', 'york', [0, 0]) as never).placementPenalty).toBe(2);
  });
});

describe('station effects', () => {
  it('build points: the builder scores more', () => {
    const s = table({ stations: [start(0, -300, 0), card('bristol', 0, 0)], hands: [H6] });
    R.apply(s, 0, build('S1', 'bristol'));
    expect(s.scores[0]).toBe(2 + 5 + 8 + 2);
  });

  it('draw: the builder draws a card', () => {
    const s = table({ stations: [start(0, -300, 0), card('manchester', 0, 0)], hands: [H6] });
    const top = s.deck[0];
    R.apply(s, 0, build('S1', 'manchester', { pay: ['dent', 'settle', 'rannoch'] }));
    expect(s.hands[0]).toEqual(['corrour', 'ealing', 'salford', top]);
  });

  it('toll: players already at the station score when someone else links to it', () => {
    const s = table({ stations: [start(0, -300, 0), card('london', 0, 0, [0, 1, 0, 2])], hands: [H6] });
    R.apply(s, 0, build('S1', 'london'));
    expect(s.scores.slice(1)).toEqual([1, 0, 1]);
  });

  it('bridge: no penalty for obstacles on links to the station', () => {
    const s = table({ stations: [start(0, -300, 0), card('newcastle', 0, 0)], hands: [H6] });
    s.obstacles.push({ id: 'lake', x: -150, y: 0, rot: 0, by: 1, shape: obstacleShape('lake', -150, 0, 0) });
    const p = planBuild(s, 0, build('S1', 'newcastle') as never);
    expect(p.geometry.obstacles).toBe(1);
    expect(p.obstaclePenalty).toBe(0);
  });

  it('end effects: per cube and majority, and 5 for the longest link to everyone tied', () => {
    const s = table({
      stations: [start(0, -300, 0), card('liverpool', 0, 0, [2, 1]), card('birmingham', 0, 200, [1, 2, 2])],
      hands: [[]],
    });
    s.box.push(...s.deck.filter((c) => c !== 'end-of-line'));
    s.deck = [];
    s.links.push({
      owner: 0,
      from: 'S1',
      to: 'liverpool',
      points: [
        [-268, 0],
        [-32, 0],
      ],
      clips: 8,
      score: 0,
    });
    s.links.push({
      owner: 2,
      from: 'liverpool',
      to: 'birmingham',
      points: [
        [0, 22],
        [0, 178],
      ],
      clips: 8,
      score: 0,
    });
    s.links.push({
      owner: 1,
      from: 'S1',
      to: 'birmingham',
      points: [
        [-268, 10],
        [-32, 190],
      ],
      clips: 7,
      score: 0,
    });
    s.endOfLineDrawn = true;
    s.turns = [3, 4, 4, 4];
    R.apply(s, 0, { type: 'pass' });
    expect(R.outcome(s)).not.toBeNull();
    // liverpool: 2 per cube; birmingham: 5 to the most cubes (seats 1 and 2 tie); longest link 8: seats 0 and 2.
    expect(s.scores).toEqual([4 + 5, 2 + 5, 5 + 5, 0]);
  });
});

describe('the end of the game', () => {
  it('End of Line: play goes on until everyone has had the same number of turns', () => {
    const s = table({
      stations: [start(0, -300, 0)],
      hands: [[], [], [], []],
      deck: ['dent', 'end-of-line', 'settle', 'rannoch', 'corrour', 'ealing', 'salford'],
    });
    s.turn = 1;
    s.turns = [1, 0, 0, 0];
    R.apply(s, 1, { type: 'draw' }); // draws dent and, past the End of Line card, settle
    expect(s.endOfLineDrawn).toBe(true);
    expect(s.hands[1]).toEqual(['dent', 'settle']);
    R.apply(s, 2, { type: 'draw' });
    expect(R.outcome(s)).toBeNull();
    R.apply(s, 3, { type: 'draw' });
    expect(R.outcome(s)).not.toBeNull();
    expect(R.toAct(s)).toEqual([]);
  });

  it('a player down to only clips or only cubes draws one more card and builds once more, then the game ends', () => {
    const s = table({
      seats: 2,
      stations: [start(0, -300, 0), card('york', 0, 0), card('bath', 0, 250)],
      hands: [H6, H6],
    });
    s.cubes[0] = 2;
    R.apply(s, 0, build('S1', 'york'));
    expect(s.cubes[0]).toBe(0);
    expect(s.lastOrders).toBe(0);
    R.apply(s, 1, { type: 'draw' });
    R.apply(s, 1, { type: 'discard', cards: (R.moves(s, 1)[0] as { cards: string[] }).cards });
    expect(s.finalStep).toBe('draw');
    expect(R.moves(s, 0)).toEqual([{ type: 'draw' }]);
    expect(() => R.apply(s, 0, build('york', 'bath'))).toThrow(/drawing one card/);
    const n = s.hands[0]!.length;
    R.apply(s, 0, { type: 'draw' });
    expect(s.hands[0]).toHaveLength(n + 1);
    expect(R.outcome(s)).toBeNull();
    // The last build: no cubes left, so none are placed; its clips are still laid.
    const york = s.stations.find((x) => x.id === 'york')!,
      bath = s.stations.find((x) => x.id === 'bath')!;
    const clips = s.clips[0]!;
    R.apply(s, 0, build('york', 'bath', { bends: [[100, 125]] }));
    expect(s.links).toHaveLength(2);
    expect([york.cubes[0], bath.cubes[0], s.cubes[0]]).toEqual([1, 0, 0]);
    expect(s.clips[0]).toBeLessThan(clips);
    // The two cubes of the first link are all seat 0 ever placed.
    expect(s.stations.reduce((n, st) => n + st.cubes[0]!, 0)).toBe(2);
    expect(R.outcome(s)).not.toBeNull();
  });

  it('most points wins; a tie goes to the most clips left, then is shared', () => {
    const s = table({ seats: 3, stations: [start(0, -300, 0)], hands: [[]] });
    s.box.push(...s.deck.filter((c) => c !== 'end-of-line'));
    s.deck = [];
    s.endOfLineDrawn = true;
    s.scores = [10, 10, 10];
    s.clips = [5, 9, 5];
    s.turns = [2, 3, 3];
    R.apply(s, 0, { type: 'pass' });
    expect(R.outcome(s)!.ranks).toEqual([2, 1, 2]);
  });
});

describe('moves, describe, parse, undo, autoMove', () => {
  it('offers only legal moves: draw and straight links', () => {
    const s = table({
      stations: [
        start(0, -300, 0),
        card('york', 0, 0),
        card('dent', 0, 250),
        ...metro().map((m) => ({ ...m, x: m.x + 250, y: m.y - 300 })),
      ],
      hands: [['bath', ...H6.slice(0, 5)]],
    });
    const moves = R.moves(s, 0);
    expect(moves[0]).toEqual({ type: 'draw' });
    expect(moves.filter((m) => m.type === 'build').length).toBeGreaterThan(2);
    for (const m of moves) {
      const copy = structuredClone(s);
      expect(() => R.apply(copy, 0, structuredClone(m))).not.toThrow();
    }
    expect(R.moves(s, 1)).toEqual([]);
  });

  it('parses text commands with station ids and coordinates', () => {
    const s = table({ stations: [start(0, -300, 0), card('york', 0, 0)], hands: [H6] });
    expect(R.parse!('draw', s, 0)).toEqual({ type: 'draw' });
    expect(R.parse!('build s1 York via -150,100 -100, 60 pay dent settle rannoch', s, 0)).toEqual({
      type: 'build',
      from: 'S1',
      to: 'york',
      bends: [
        [-150, 100],
        [-100, 60],
      ],
      pay: ['dent', 'settle', 'rannoch'],
    });
    expect(R.parse!('build S1 new kirkby-stephen at 10,-200', s, 0)).toEqual({
      type: 'build',
      from: 'S1',
      card: 'kirkby-stephen',
      at: [10, -200],
    });
    expect(R.parse!('discard dent Settle', s, 0)).toEqual({ type: 'discard', cards: ['dent', 'settle'] });
    expect(R.parse!('obstacle lake 100,50 90', s, 0)).toEqual({
      type: 'obstacle',
      obstacle: 'lake',
      x: 100,
      y: 50,
      rot: 90,
    });
    expect(R.parse!('river -300,0 0,80 300,0', s, 0)).toEqual({
      type: 'river',
      points: [
        [-300, 0],
        [0, 80],
        [300, 0],
      ],
    });
    expect(() => R.parse!('build S1 nowhere', s, 0)).toThrow(/no station "nowhere"/);
    expect(() => R.parse!('fly', s, 0)).toThrow(RuleError);
  });

  it('describes moves in public words and cannot undo a draw', () => {
    const s = table({ stations: [start(0, -300, 0), card('york', 0, 0)], hands: [H6] });
    expect(R.describe({ type: 'draw' }, s, 0)).toBe('drew 2 cards');
    expect(R.describe({ type: 'build', from: 'S1', to: 'york' }, s, 0)).toMatch(
      /built an 8-clip link Red start – York, paying 3 cards: \+14 points/,
    );
    expect(R.undoable!({ type: 'draw' }, s)).toBe(false);
    expect(
      R.undoable!(
        {
          type: 'river',
          points: [
            [0, 0],
            [10, 0],
          ],
        },
        s,
      ),
    ).toBe(false); // it reveals the stations and deals
    expect(R.undoable!({ type: 'build', from: 'S1', to: 'york', pay: ['dent', 'settle', 'rannoch'] }, s)).toBe(true);
    expect(R.undoable!({ type: 'build', from: 'S1', to: 'york' }, s)).toBe(true);
    expect(R.autoMove!(s, 0)).toEqual({ type: 'draw' });
  });

  it('autoMove draws in play, discards the cheapest cards, and places setup pieces legally', () => {
    const s = R.setup(2, 'auto', {});
    while (s.phase !== 'play') {
      const seat = R.toAct(s)[0]!;
      const m = R.autoMove!(s, seat)!;
      expect(['obstacle', 'river']).toContain(m.type);
      expect(R.describe(m, s, seat)).toMatch(
        /^(placed the .* at [A-Z]\d{1,2}(, next to .+)?|laid the river from [A-Z]\d{1,2} (via .+ )?to [A-Z]\d{1,2} \(\d+ mm\))$/,
      );
      R.apply(s, seat, m);
    }
    const seat = R.toAct(s)[0]!;
    expect(R.autoMove!(s, seat)).toEqual({ type: 'draw' });
    R.apply(s, seat, { type: 'draw' });
    expect(s.phase).toBe('discard');
    const d = R.autoMove!(s, seat) as { type: 'discard'; cards: string[] };
    expect(d.type).toBe('discard');
    const pts = (id: string) => CARDS.find((c) => c.id === id)!.points;
    const kept = s.hands[seat]!.filter((c) => !d.cards.includes(c));
    expect(Math.max(...d.cards.map(pts))).toBeLessThanOrEqual(Math.min(...kept.map(pts)));
    expect(R.autoMove!(s, 1 - seat)).toBeNull();
  });

  it('refuses malformed builds without changing the state', () => {
    const s = table({ stations: [start(0, -300, 0), card('york', 0, 0)], hands: [H6] });
    const before = JSON.stringify(s);
    for (const bad of [
      { type: 'build', from: 'S1' },
      { type: 'build', from: 'S1', to: 'york', card: 'dent', at: [1, 1] },
      { type: 'build', from: 'S1', to: 'york', bends: [[0.5, 1]] },
      { type: 'build', from: 'S1', to: 'york', extra: 1 },
    ]) {
      expect(() => R.apply(s, 0, bad)).toThrow(RuleError);
      expect(JSON.stringify(s)).toBe(before);
    }
  });

  it('the deck data has 99 cards by type as published', () => {
    const by = (t: string) => CARDS.filter((c) => c.type === t).length;
    expect([by('city'), by('town'), by('suburban'), by('countryside'), by('blank')]).toEqual([11, 33, 29, 23, 3]);
    expect(BOARD.clipLength).toBe(30);
  });
});
