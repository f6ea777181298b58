// `npm run --silent cli -- random-1830 <count> <folder> [--from <n>]`
// Differential fuzzing, our half: plays `count` random legal games of 1830 with our engine (the
// 18xx.games rule set, 2 to 6 players and the optional rules in turn, game n from the seed
// "random-1830:n") and writes each as an 18xx.games export, <folder>/random-1830-<n>.json.
// 18xx.games's engine then replays them (the 18xx-oracle harness, outside the project: its
// checkpoints.rb gives the state at every round), and `import-18xx <export> --checkpoints <file>`
// names the first place where the two engines differ. One JSON line per game on stdout.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { game1830 } from '../../rules/1830/index.ts';
import { export18xx } from '../../rules/1830/import/export.ts';
import type { Action1830 } from '../../rules/1830/actions.ts';
import { randomInt, seedRandom } from '../../rules/random.ts';
import type { Options } from '../../rules/types.ts';

export const summary =
  'random-1830 <count> <folder> [--from <n>]   random legal 1830 games of ours, written as 18xx.games exports';

const PHASES = ['2', '3', '4', '5', '6', 'D'];

/** Game n: its seats, options and the moves of a uniformly random player (every legal move equally likely). */
export function randomGame(n: number): {
  seats: number;
  options: Options;
  log: { seat: number; action: Action1830 }[];
} {
  const seats = 2 + (n % 5);
  const options: Options = {
    rule_set: '18xx.games',
    multiple_brown_from_ipo: n % 3 === 1,
    optional_6_train: n % 4 === 2,
  };
  const pick = seedRandom(`random-1830:${n}`);
  const state = game1830.setup(seats, `random-1830:${n}`, options);
  const log: { seat: number; action: Action1830 }[] = [];
  for (let step = 0; !state.finished && step < 20000; step++) {
    const seat = game1830.toAct(state)[0];
    if (seat === undefined) break;
    const moves = game1830.moves(state, seat);
    const action = moves[randomInt(pick, moves.length)];
    if (!action) break;
    game1830.apply(state, seat, action);
    log.push({ seat, action });
  }
  return { seats, options, log };
}

export async function run(args: string[]): Promise<number> {
  const rest: string[] = [];
  let from = 0;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--from') from = Number(args[++i]);
    else rest.push(args[i]!);
  }
  const count = Number(rest[0]);
  const folder = rest[1];
  if (!Number.isInteger(count) || count < 1 || !folder || !Number.isInteger(from) || from < 0) {
    process.stderr.write('usage: random-1830 <count> <folder> [--from <n>]\n');
    return 2;
  }
  mkdirSync(folder, { recursive: true });
  for (let n = from; n < from + count; n++) {
    const { seats, options, log } = randomGame(n);
    const players = Array.from({ length: seats }, (_, i) => ({ id: i + 1, name: `Player ${i + 1}` }));
    const exp = export18xx({ players, options, log, id: n });
    const file = join(folder, `random-1830-${n}.json`);
    writeFileSync(file, `${JSON.stringify(exp)}\n`);
    const state = game1830.setup(seats, 'replay', options);
    for (const { seat, action } of log) game1830.apply(state, seat, action);
    const line = {
      file,
      seats,
      moves: log.length,
      actions: exp.actions.length,
      phase: PHASES[state.phase],
      end: state.endCode,
    };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  run(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`${String(err?.stack ?? err)}\n`);
      process.exit(2);
    },
  );
}
