// closeup_cpu: what one turn mail's close-up card costs to draw: a mid-game 1830 view (four
// seats, 300 random moves in), its holdings card as compose.ts makes it (no board cut-outs: a
// first turn's close-up), drawn to PNG on a picture worker (picture-pool.ts) as the mail does,
// without the picture cache. Reported: CPU ms per picture (the whole process, so the worker
// thread and libuv's pool are counted) and wall ms, the median of rounds; also the board of
// the same view (board_cpu_ms), for scale.
import type { Emit } from '../index.ts';
import { games } from '../../../rules/index.ts';
import { nameRows, phoneCloseUp } from '../../../server/mail/closeup.ts';
import { PicturePool } from '../../../server/mail/picture-pool.ts';
import { positionAfter } from '../../support/playout.ts';

const ROUNDS = 7;
const PER_ROUND = 10;

async function measure(draw: () => Promise<unknown>): Promise<{ cpu: number; wall: number }> {
  for (let i = 0; i < 3; i++) await draw();
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < PER_ROUND; i++) await draw();
    const c = process.cpuUsage(c0);
    wall.push((performance.now() - t0) / PER_ROUND);
    cpu.push((c.user + c.system) / 1000 / PER_ROUND);
  }
  const median = (v: number[]) => v.sort((a, b) => a - b)[v.length >> 1]!;
  return { cpu: Math.round(median(cpu) * 100) / 100, wall: Math.round(median(wall) * 100) / 100 };
}

export async function run(emit: Emit): Promise<void> {
  const rules = games.find((g) => g.id === '1830')!;
  const state = positionAfter(rules, 4, 300, 'closeup-bench');
  const view = rules.view(state, 0);
  const rows = nameRows(rules.holdings!(view), (t) => t.replace(/\{seat:(\d+)[^}]*\}/g, (_, n) => `Player ${+n + 1}`));
  const closeUp = phoneCloseUp({ rows, before: null, after: undefined })!;
  const board = rules.svg!(view, 'mail');
  const pool = new PicturePool({ threads: 1 });
  try {
    const card = await measure(() => pool.draw(closeUp, { cache: false }, 'bench'));
    const whole = await measure(() => pool.draw(board, { cache: false }, 'bench'));
    emit({
      name: 'closeup_cpu',
      cpu_ms: card.cpu,
      wall_ms: card.wall,
      board_cpu_ms: whole.cpu,
      board_wall_ms: whole.wall,
      texts: (closeUp.match(/<text\b/g) ?? []).length,
    });
  } finally {
    await pool.close();
  }
}
