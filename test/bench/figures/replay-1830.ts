// Replays 1830 games through our engine: replay_1830 the three real 18xx.games games,
// fuzz_replay_1830 the largest randomly played game in test/fixtures/18xx.games/1830/fuzz/.
// Each export is converted once; the figure is the engine replay alone (median of repeats).
import { readdirSync, readFileSync } from 'node:fs';
import type { Emit } from '../index.ts';
import { game1830 } from '../../../rules/1830/index.ts';
import { importExport, type Export18xx } from '../../../rules/1830/import/replay.ts';

export const figures = ['replay_1830', 'fuzz_replay_1830'];

const FIXTURES = new URL('../../fixtures/18xx.games/1830/', import.meta.url);
const REAL = ['1830_game_end_bank.json', '29133.json', '26855.json'];

function load(path: URL): Export18xx {
  return JSON.parse(readFileSync(path, 'utf8')) as Export18xx;
}

/** Median wall and CPU milliseconds of replaying the converted logs, all in a row, `repeats` times. */
function time(games: ReturnType<typeof importExport>[], seats: number[], repeats: number) {
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    games.forEach(({ log, options }, k) => {
      const state = game1830.setup(seats[k]!, 'bench', options);
      for (const { seat, action } of log) game1830.apply(state, seat, action);
    });
    times.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
  }
  const median = (xs: number[]) => Math.round(xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]! * 100) / 100;
  return { median_ms: median(times), cpu_median_ms: median(cpu) };
}

export function run(emit: Emit): void {
  const wanted = process.env.BENCH_ONLY;
  if (!wanted || 'replay_1830'.includes(wanted)) {
    const exps = REAL.map((f) => load(new URL(f, FIXTURES)));
    const games = exps.map((e) => importExport(e));
    emit({
      name: 'replay_1830',
      files: REAL,
      actions: exps.reduce((n, e) => n + e.actions.length, 0),
      applied: games.reduce((n, g) => n + g.log.length, 0),
      finished: games.map((g) => g.state.finished),
      ...time(
        games,
        exps.map((e) => e.players.length),
        30,
      ),
    });
  }
  if (!wanted || 'fuzz_replay_1830'.includes(wanted)) {
    const dir = new URL('fuzz/', FIXTURES);
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    const exps = files.map((f) => ({ f, e: load(new URL(f, dir)) }));
    exps.sort((a, b) => b.e.actions.length - a.e.actions.length);
    const largest = exps[0];
    if (!largest) throw new Error('no fuzzed game in test/fixtures/18xx.games/1830/fuzz/');
    const game = importExport(largest.e);
    emit({
      name: 'fuzz_replay_1830',
      file: largest.f,
      actions: largest.e.actions.length,
      applied: game.log.length,
      finished: game.state.finished,
      ...time([game], [largest.e.players.length], 30),
    });
  }
}
