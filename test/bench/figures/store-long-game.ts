// A long game on the production path (game service, embedded store): the real 1830 game of
// 18xx.games (bank broke) moved here, its log grown with notes to 100, 1,000, 5,000 and
// 20,000 entries, then played on with the game's own next moves.
//   long_game_move      a move's wall and CPU time (median of the game's next MOVES moves, each
//                       `service.move` on the warm game, its fdatasync included in the wall
//                       time). Goal: flat, the 20,000-entry figure within 1.3x of the 1,000.
//   move_bytes_written  bytes a move writes: its journal line, and the same entry appended to
//                       the game's log at compaction; `of_entry` is their sum over the entry's
//                       size (goal: flat, under 4). The metadata file and index.json are
//                       rewritten once per compaction (every 8 MiB of journal), reported apart.
//   cold_open           service.open of the 1,000-entry game on a freshly started service
//                       (from the newest snapshot; `first_ms` is the first open of the series).
//                       Goal: p99 under 20 ms.
//   step_page           the state after entry N (random N) of that game, as the step page asks
//                       for it. Goal: p99 under 20 ms.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Emit } from '../index.ts';
import { game1830 } from '../../../rules/1830/index.ts';
import { importExport, type Export18xx } from '../../../rules/1830/import/replay.ts';
import { createLinks } from '../../../server/links.ts';
import { GameService } from '../../../server/service.ts';
import { sealEntry } from '../../../server/store/chain.ts';
import { shardFile } from '../../../server/store/index-shards.ts';
import { LowdbGameStore } from '../../../server/store/lowdb-store.ts';
import { percentile, round } from '../../support/bench-http.ts';

const links = createLinks(Buffer.alloc(32, 7), 'http://example.test');
const MOVES = 30;

function realGame() {
  const url = new URL('../../fixtures/18xx.games/1830/1830_game_end_bank.json', import.meta.url);
  return importExport(JSON.parse(readFileSync(url, 'utf8')) as Export18xx);
}

async function started(dir: string): Promise<{ service: GameService; store: LowdbGameStore }> {
  const store = new LowdbGameStore({ dataDir: dir });
  const service = new GameService({ store, registry: [game1830], links });
  await service.init();
  return { service, store };
}

/** A game of `length` entries (the real game's first moves, then notes) whose next moves are still to play. */
export async function longGame(dir: string, length: number) {
  const imp = realGame();
  // (not the game's last moves: it stays running)
  const played = Math.min(imp.log.length - 60, length - 10);
  const { service, store } = await started(dir);
  const { gameId, seatKeys } = await service.importGame({
    rules: '1830',
    options: imp.options,
    creator: { name: 'Ada', email: 'ada@example.test' },
    seats: imp.seats.map((_, i) => ({ name: `P${i + 1}`, email: `p${i + 1}@example.test` })),
    actions: imp.log.slice(0, played).map(({ seat, action }) => ({ seat, action })),
  });
  const log = [...(await service.open(gameId)).doc.log];
  const notes = [];
  while (log.length < length) {
    const e = sealEntry(log, { at: new Date().toISOString(), kind: 'notice', text: 'A note to make the log long' });
    log.push(e);
    notes.push(e);
  }
  if (notes.length > 0) await store.append(gameId, { expectedSeq: log.length - notes.length, entries: notes });
  await store.close();
  return { gameId, seatKeys, next: imp.log.slice(played, played + MOVES) };
}

const size = (file: string) => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

export const figures = ['long_game_move', 'move_bytes_written', 'cold_open', 'step_page'];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(emit: Emit): Promise<void> {
  for (const length of [100, 1_000, 5_000, 20_000]) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-long-'));
    try {
      const { gameId, next } = await longGame(dir, length);
      const { service, store } = await started(dir);
      const journal = join(dir, 'index.journal');
      const logFile = join(dir, 'games', `${gameId}.jsonl`);
      const [j0, l0] = [size(journal), size(logFile)];
      let entryBytes = 0;
      const wall: number[] = [];
      const cpu: number[] = [];
      for (const { seat, action } of next) {
        const game = await service.open(gameId);
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        await service.move(gameId, seat, { seq: game.stateSeq, action });
        wall.push(performance.now() - t0);
        const c = process.cpuUsage(c0);
        cpu.push((c.user + c.system) / 1000);
        entryBytes += JSON.stringify(game.doc.log.at(-1)).length + 1;
      }
      emit({
        name: 'long_game_move',
        entries: length,
        moves: MOVES,
        wall_ms: round(median(wall), 2),
        cpu_ms: round(median(cpu), 2),
        goal: 'flat: 20,000 within 1.3x of 1,000',
      });
      const journalBytes = size(journal) - j0;
      await store.close(); // compaction: the entries go to the game's log
      const logBytes = size(logFile) - l0;
      emit({
        name: 'move_bytes_written',
        entries: length,
        entry_bytes: Math.round(entryBytes / MOVES),
        journal_bytes: Math.round(journalBytes / MOVES),
        log_bytes: Math.round(logBytes / MOVES),
        of_entry: round((journalBytes + logBytes) / entryBytes, 2),
        per_compaction_bytes: size(join(dir, 'games', `${gameId}.json`)) + size(shardFile(dir, gameId)),
        goal_of_entry: 4,
      });
      if (length !== 1_000) continue;
      const opens: number[] = [];
      let fromSeed = 0;
      for (let i = 0; i < 21; i++) {
        const s = await started(dir);
        const t = performance.now();
        await s.service.open(gameId);
        const ms = performance.now() - t;
        if (i === 0) fromSeed = ms;
        else opens.push(ms);
        await s.service.settled();
        await s.store.close();
      }
      opens.sort((a, b) => a - b);
      emit({
        name: 'cold_open',
        entries: length + MOVES,
        p50_ms: round(percentile(opens, 50), 2),
        p99_ms: round(percentile(opens, 99), 2),
        first_ms: round(fromSeed, 1),
        goal_p99_ms: 20,
      });
      const s = await started(dir);
      const game = await s.service.open(gameId);
      const steps: number[] = [];
      for (let i = 0; i < 60; i++) {
        const seq = 1 + ((i * 7919) % game.doc.log.length);
        const t = performance.now();
        await s.service.stateAt(game, seq);
        steps.push(performance.now() - t);
      }
      await s.service.settled();
      await s.store.close();
      steps.sort((a, b) => a - b);
      emit({
        name: 'step_page',
        entries: game.doc.log.length,
        p50_ms: round(percentile(steps, 50), 2),
        p99_ms: round(percentile(steps, 99), 2),
        goal_p99_ms: 20,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
