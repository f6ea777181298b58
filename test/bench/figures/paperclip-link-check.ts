// Checking and scoring one link (planBuild: placement, geometry, crossings,
// obstacles, payment, score) on a table with 200 links already laid.
import type { Emit } from '../index.ts';
import { paperclipRailways as R } from '../../../rules/paperclip-railways/index.ts';
import { planBuild } from '../../../rules/paperclip-railways/build.ts';
import { BOARD } from '../../../rules/paperclip-railways/data.ts';
import { obstacleShape } from '../../../rules/paperclip-railways/table.ts';
import { randomInt, seedRandom } from '../../../rules/random.ts';

export function run(emit: Emit): void {
  const s = R.setup(4, 'bench-table', {});
  const rnd = seedRandom('bench-links');
  const card = (id: string, x: number, y: number) => ({
    id,
    kind: 'card' as const,
    card: id,
    x,
    y,
    w: BOARD.card.w,
    h: BOARD.card.h,
    cubes: [0, 0, 0, 0],
  });
  s.stations = [
    { id: 'S1', kind: 'start', owner: 0, x: -400, y: 0, w: BOARD.card.w, h: BOARD.card.h, cubes: [0, 0, 0, 0] },
    card('york', 400, 0),
    card('bath', -400, 300),
  ];
  s.obstacles = [{ id: 'lake', x: 0, y: 250, rot: 0, by: 1, shape: obstacleShape('lake', 0, 250, 0) }];
  s.river = [
    [-200, -450],
    [-100, -100],
    [150, -200],
    [250, 450],
  ];
  // 200 links of other players, two or three segments each, criss-crossing the middle.
  for (let i = 0; i < 200; i++) {
    const pts: [number, number][] = [];
    const segs = 2 + randomInt(rnd, 2);
    for (let k = 0; k <= segs; k++) pts.push([randomInt(rnd, 760) - 380, randomInt(rnd, 760) - 380]);
    s.links.push({ owner: 1 + (i % 3), from: `a${i}`, to: `b${i}`, points: pts, clips: 10, score: 0 });
  }
  s.phase = 'play';
  s.turn = 0;
  // A long link needs many cards: a bench hand of twenty (the hand limit is not the point here).
  s.hands[0] = [...s.box, ...s.deck].filter((c) => c !== 'end-of-line' && c !== 'york' && c !== 'bath').slice(0, 20);
  s.clips[0] = 60;
  const action = {
    type: 'build' as const,
    from: 'S1',
    to: 'york',
    bends: [
      [-150, -300],
      [200, 200],
    ] as [number, number][],
  };
  const warm = planBuild(s, 0, action);
  const times: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const t = performance.now();
    planBuild(s, 0, action);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  emit({
    name: 'paperclip_link_check',
    links: s.links.length,
    median_us: Math.round(times[times.length >> 1]! * 1000 * 10) / 10,
    crossings: warm.crossingCost,
    clips: warm.geometry.clips,
  });
}
