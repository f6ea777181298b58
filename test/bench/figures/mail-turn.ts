// turn_mail: composing one turn mail, board PNG included (view, moves,
// history, handlebars HTML and text, the game's SVG rasterised by resvg), for
// each registered game that draws an SVG and for the small test game.
// Target: median under 25 ms.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Emit } from '../index';
import { games } from '../../../rules/index';
import type { AnyRules } from '../../../rules/types';
import { highCard } from '../../support/high-card';
import { makeService } from '../../support/service';
import { createMailer } from '../../../server/mail/index';
import { svgToPng } from '../../../server/mail/snapshot';

export async function run(emit: Emit): Promise<void> {
  const registry: AnyRules[] = [...games.filter((g) => g.id !== highCard.id), highCard];
  const dir = mkdtempSync(join(tmpdir(), 'bench-turn-mail-'));
  const t = await makeService(registry, dir);
  const mailer = createMailer({ service: t.service, dataDir: dir, env: { MAIL_FROM: 'Games <games@example.test>' }, transport: { send: async () => {} }, pngCache: false });
  try {
    for (const rules of registry) {
      const seats = Math.min(rules.players.max, Math.max(rules.players.min, 3));
      const created = await t.service.create({ rules: rules.id, seats, name: 'P0', email: 'p0@example.test', join: true });
      for (let i = 1; i < seats; i++) await t.service.join(created.gameId, { name: `P${i}`, email: `p${i}@example.test` });
      let game = await t.service.open(created.gameId);
      if (game.doc.status === 'open') await t.service.start(created.gameId);
      game = await t.service.open(created.gameId);
      const seat = rules.toAct(game.state)[0]!;
      const rec = game.doc.seats[seat]!;
      const spec = { type: 'turn', gameId: created.gameId, seat, slot: rec.slot, generation: rec.generation, stateSeq: game.stateSeq };
      const wall: number[] = [];
      const cpu: number[] = [];
      const png: number[] = [];
      let pngBytes = 0;
      const svg = rules.svg ? rules.svg(t.service.viewFor(game, seat)) : null;
      for (let i = 0; i < 30; i++) {
        const start = performance.now();
        const c0 = process.cpuUsage();
        const mail = await mailer.composer.compose(spec, `bench:${i}`);
        const c1 = process.cpuUsage(c0);
        wall.push(performance.now() - start);
        // CPU time of the whole process (main thread and the pool threads resvg and zlib use):
        // the machine may be shared, so wall time alone can mislead.
        cpu.push((c1.user + c1.system) / 1000);
        pngBytes = mail?.attachments?.[0] ? Buffer.from(mail.attachments[0].contentBase64, 'base64').length : 0;
        if (svg) {
          const p0 = performance.now();
          await svgToPng(svg, { cache: false });
          png.push(performance.now() - p0);
        }
      }
      const median = (xs: number[]) => {
        const v = xs.slice(5).sort((a, b) => a - b); // the first few warm up templates and fonts
        return v.length ? Math.round(v[Math.floor(v.length / 2)]! * 100) / 100 : null;
      };
      const p90 = (xs: number[]) => {
        const v = xs.slice(5).sort((a, b) => a - b);
        return Math.round(v[Math.min(v.length - 1, Math.floor(0.9 * v.length))]! * 100) / 100;
      };
      emit({ name: 'turn_mail', game: rules.id, svg_chars: svg?.length ?? 0, png_bytes: pngBytes, median_ms: median(wall), p90_ms: p90(wall), cpu_median_ms: median(cpu), png_median_ms: median(png), target_ms: 25 });
    }
  } finally {
    await t.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}
