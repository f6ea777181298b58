// import_flood: one client moves the longest real 1830 export here from
// 18xx.games over and over, while a second client loads pages (the home page
// and a player's page, in turn). Prints the second client's page-load p50 and
// p99 during the flood (and with no import running, for comparison), and how
// many imports went through. The server runs in its own process.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Emit } from '../index.ts';
import { startChildServer } from '../../support/child.ts';
import { jsonClient, percentile, round } from '../../support/bench-http.ts';

const FLOOD_MS = 20_000;
const exportText = readFileSync(
  new URL('../../fixtures/18xx.games/1830/1830_game_end_bank.json', import.meta.url),
  'utf8',
);

export async function run(emit: Emit): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-import-'));
  const server = await startChildServer(dataDir, { REGISTRY: 'all' });
  const importer = jsonClient(server.url, 2);
  const reader = jsonClient(server.url, 2);
  try {
    const exp = JSON.parse(exportText) as { players: unknown[] };
    const emails = exp.players.map((_, i) => `p${i + 1}@example.test`);
    const first = await importer.call('POST', '/api/import/18xx', { export: exp, emails });
    if (first.status !== 201) throw new Error(`import refused: ${JSON.stringify(first.body)}`);
    const playPath = new URL(first.body.seats[0].playUrl).pathname;

    const loadPages = async (until: () => boolean): Promise<number[]> => {
      const ms: number[] = [];
      for (let i = 0; until(); i++) {
        const t = performance.now();
        const r = await reader.call('GET', i % 2 === 0 ? '/' : playPath);
        if (r.status !== 200) throw new Error(`page load failed: ${r.status}`);
        ms.push(performance.now() - t);
      }
      return ms.sort((a, b) => a - b);
    };

    // Quiet: page loads with nothing else going on.
    const quietEnd = performance.now() + 3_000;
    const quiet = await loadPages(() => performance.now() < quietEnd);

    // The flood: imports back to back for FLOOD_MS, pages loaded meanwhile.
    let flooding = true;
    let imports = 0;
    let failures = 0;
    const importMs: number[] = [];
    const flood = (async () => {
      const end = performance.now() + FLOOD_MS;
      while (performance.now() < end) {
        const t = performance.now();
        const r = await importer.call('POST', '/api/import/18xx', { export: exp, emails });
        importMs.push(performance.now() - t);
        if (r.status === 201) imports++;
        else failures++;
      }
      flooding = false;
    })();
    const busy = await loadPages(() => flooding);
    await flood;
    importMs.sort((a, b) => a - b);
    emit({
      name: 'import_flood',
      export_kb: round(exportText.length / 1024, 0),
      flood_s: FLOOD_MS / 1000,
      imports,
      import_failures: failures,
      import_p50_ms: round(percentile(importMs, 50), 0),
      pages: busy.length,
      page_p50_ms: round(percentile(busy, 50)),
      page_p99_ms: round(percentile(busy, 99)),
      quiet_page_p50_ms: round(percentile(quiet, 50)),
      quiet_page_p99_ms: round(percentile(quiet, 99)),
    });
  } finally {
    importer.close();
    reader.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
