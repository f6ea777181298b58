// turn_mail: composing one turn mail, board PNG included (view, moves,
// history, handlebars HTML and text, the game's SVG rasterised by resvg), for
// each registered game that draws an SVG and for the small test game.
// Target: median under 25 ms.
// The mails follow games along seeded random moves (a new game when one
// ends), a mail to a seat to act after every move, as a server sends them:
// each mail has its own position and picture (the whole-picture cache is
// off). What a mail keeps for the next (server/mail/snapshot.ts: static
// layers, sprites, compressed bands) is what a running server keeps, so
// median_ms/cpu_median_ms are the steady state after WARM mails (which also
// warm the JIT). cold_* figures clear those caches before each mail (the
// first mail of a board after a restart).
// png_* figures time the picture alone: png_plain drawn in one piece (no
// layers, nothing kept), png_again the start position's picture drawn again
// (everything kept), png_mid_again the same for a position 60 moves in.
// pooled_* figures: the same mails with the picture drawn on a worker thread (as a server does,
// MAIL_PICTURE_THREADS): pooled_loop_* is how long each mail held up the event loop.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Emit } from '../index.ts';
import { games } from '../../../rules/index.ts';
import type { AnyRules } from '../../../rules/types.ts';
import { highCard } from '../../support/high-card.ts';
import { makeService } from '../../support/service.ts';
import { createMailer } from '../../../server/mail/index.ts';
import { clearLayerCache, svgToPng } from '../../../server/mail/snapshot.ts';
import { randomInt, seedRandom } from '../../../rules/random.ts';
import { positionAfter } from '../../support/playout.ts';

/** Mails before the figures start: the first draws the static layers, the rest warm the JIT. */
const WARM = 20;
const MAILS = 80;

/** The figures this file emits (BENCH_ONLY matches figure names). */
export const figures = ['turn_mail'];

export async function run(emit: Emit): Promise<void> {
  const registry: AnyRules[] = [...games.filter((g) => g.id !== highCard.id), highCard];
  const dir = mkdtempSync(join(tmpdir(), 'bench-turn-mail-'));
  const t = await makeService(registry, dir);
  const mailer = createMailer({
    service: t.service,
    dataDir: dir,
    env: { MAIL_FROM: 'Games <games@example.test>', MAIL_PICTURE_THREADS: '0' },
    transport: { send: async () => {} },
    pngCache: false,
  });
  // The same mails with the pictures drawn on a worker thread, as a server draws them
  // (MAIL_PICTURE_THREADS): how long each holds up the event loop.
  const pooled = createMailer({
    service: t.service,
    dataDir: dir,
    env: { MAIL_FROM: 'Games <games@example.test>', MAIL_PICTURE_THREADS: '1' },
    transport: { send: async () => {} },
    pngCache: false,
  });
  try {
    for (const rules of registry) {
      const seats = Math.min(rules.players.max, Math.max(rules.players.min, 3));
      const newGame = async () => {
        const made = await t.service.create({
          rules: rules.id,
          seats,
          name: 'P0',
          email: 'p0@example.test',
          join: true,
        });
        for (let i = 1; i < seats; i++)
          await t.service.join(made.gameId, { name: `P${i}`, email: `p${i}@example.test` });
        if ((await t.service.open(made.gameId)).doc.status === 'open') await t.service.start(made.gameId);
        return made.gameId;
      };
      let gameId = await newGame();
      const game = await t.service.open(gameId);
      const seat = rules.toAct(game.state)[0]!;
      const wall: number[] = [];
      const cpu: number[] = [];
      const pooledLoop: number[] = [];
      const pooledWall: number[] = [];
      let pngBytes = 0;
      const svg = rules.svg ? rules.svg(t.service.viewFor(game, seat)) : null;
      const picker = seedRandom(`bench-turn-mail-${rules.id}`);
      // Each figure in its own loop, so one loop's garbage is not collected on another's clock.
      for (let i = 0; i < WARM + MAILS; i++) {
        let now = await t.service.open(gameId);
        // A finished game is followed by a new one (its first mail draws its board's static layers).
        if (now.doc.status !== 'active') now = await t.service.open((gameId = await newGame()));
        const toAct = rules.toAct(now.state);
        const mover = toAct[randomInt(picker, toAct.length)]!;
        const moverRec = now.doc.seats[mover]!;
        const turn = {
          type: 'turn',
          gameId,
          seat: mover,
          slot: moverRec.slot,
          generation: moverRec.generation,
          stateSeq: now.stateSeq,
        };
        const start = performance.now();
        const c0 = process.cpuUsage();
        const mail = await mailer.composer.compose(turn, `bench:${i}`);
        const c1 = process.cpuUsage(c0);
        const p0 = performance.now();
        const e0 = performance.eventLoopUtilization();
        await pooled.composer.compose(turn, `bench-pooled:${i}`);
        const e1 = performance.eventLoopUtilization(e0);
        if (i >= WARM) {
          pooledLoop.push(e1.active);
          pooledWall.push(performance.now() - p0);
        }
        if (i >= WARM) {
          wall.push(performance.now() - start);
          // CPU time of the whole process (main thread and the pool threads resvg and zlib use):
          // the machine may be shared, so wall time alone can mislead.
          cpu.push((c1.user + c1.system) / 1000);
          pngBytes = Math.max(
            pngBytes,
            mail?.attachments?.[0] ? Buffer.from(mail.attachments[0].contentBase64, 'base64').length : 0,
          );
        }
        const moves = rules.moves(now.state, mover);
        if (moves.length === 0) break;
        await t.service.move(gameId, mover, {
          seq: now.stateSeq,
          action: structuredClone(moves[randomInt(picker, moves.length)]),
        });
      }
      const coldWall: number[] = [];
      const coldCpu: number[] = [];
      let last = await t.service.open(gameId);
      if (last.doc.status !== 'active') last = await t.service.open((gameId = await newGame()));
      const lastSeat = last.state && rules.toAct(last.state)[0];
      const lastRec = last.doc.seats[lastSeat ?? 0]!;
      const spec = {
        type: 'turn',
        gameId,
        seat: lastSeat,
        slot: lastRec.slot,
        generation: lastRec.generation,
        stateSeq: last.stateSeq,
      };
      for (let i = 0; lastSeat !== undefined && i < 15; i++) {
        clearLayerCache();
        const start = performance.now();
        const c0 = process.cpuUsage();
        await mailer.composer.compose(spec, `bench-cold:${i}`);
        const c1 = process.cpuUsage(c0);
        coldWall.push(performance.now() - start);
        coldCpu.push((c1.user + c1.system) / 1000);
      }
      const timePng = async (doc: string | null, opts: { cache: false; layers?: boolean }) => {
        const out: number[] = [];
        for (let i = 0; doc && i < 15; i++) {
          const p0 = performance.now();
          await svgToPng(doc, opts);
          out.push(performance.now() - p0);
        }
        return out;
      };
      const png = await timePng(svg, { cache: false });
      const plain = await timePng(svg, { cache: false, layers: false });
      const mid = await timePng(
        rules.svg ? rules.svg(rules.view(positionAfter(rules, seats, 60, 'bench-mid'), 0)) : null,
        { cache: false },
      );
      const median = (xs: number[]) => {
        const v = xs.slice(xs === wall || xs === cpu ? 0 : 2).sort((a, b) => a - b); // the first few warm up templates and fonts
        return v.length ? Math.round(v[Math.floor(v.length / 2)]! * 100) / 100 : null;
      };
      const p90 = (xs: number[]) => {
        const v = [...xs].sort((a, b) => a - b);
        return Math.round(v[Math.min(v.length - 1, Math.floor(0.9 * v.length))]! * 100) / 100;
      };
      emit({
        name: 'turn_mail',
        game: rules.id,
        mails: wall.length,
        svg_chars: svg?.length ?? 0,
        png_bytes: pngBytes,
        median_ms: median(wall),
        p90_ms: p90(wall),
        cpu_median_ms: median(cpu),
        cold_median_ms: median(coldWall),
        cold_cpu_median_ms: median(coldCpu),
        png_plain_median_ms: median(plain),
        png_again_median_ms: median(png),
        png_mid_again_median_ms: median(mid),
        pooled_loop_median_ms: median(pooledLoop),
        pooled_loop_p90_ms: p90(pooledLoop),
        pooled_median_ms: median(pooledWall),
        target_ms: 25,
      });
    }
  } finally {
    await pooled.stop();
    await t.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}
