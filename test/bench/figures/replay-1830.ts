// Replays the 654-action 18xx.games game of 1830 (bank broke) through our engine.
// The 18xx.games export is converted once; the figure is the engine replay alone.
import { readFileSync } from 'node:fs';
import type { Emit } from '../index.ts';
import { game1830 } from '../../../rules/1830/index.ts';
import { importExport, type Export18xx } from '../../../rules/1830/import/replay.ts';

const FILE = '1830_game_end_bank.json';

export function run(emit: Emit): void {
  const url = new URL(`../../fixtures/18xx.games/1830/${FILE}`, import.meta.url);
  const exp = JSON.parse(readFileSync(url, 'utf8')) as Export18xx;
  const { log, options, state: final } = importExport(exp);
  const seats = exp.players.length;
  const times: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < 60; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    const state = game1830.setup(seats, 'bench', options);
    for (const { seat, action } of log) game1830.apply(state, seat, action);
    times.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
    if (i === 0 && !state.finished) throw new Error('replay did not finish');
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  const cpuMedian = cpu[Math.floor(cpu.length / 2)]!;
  emit({
    name: 'replay_1830',
    file: FILE,
    actions: exp.actions.length,
    applied: log.length,
    finished: final.finished,
    median_ms: Math.round(median * 100) / 100,
    cpu_median_ms: Math.round(cpuMedian * 100) / 100,
  });
}
