// A president plays a whole operating turn on a real server from the personal page,
// posting the page's own form fields as a browser without script would.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { games } from '../../../rules/index.ts';
import { importExport, type Export18xx } from '../../../rules/1830/import/replay.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const exp = JSON.parse(
  readFileSync(new URL('../../fixtures/18xx.games/1830/29133.json', import.meta.url), 'utf8'),
) as Export18xx;

describe('1830 operating turn on the personal page', () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startTestServer({ registry: games });
  });
  afterAll(async () => {
    await srv.stop();
  });

  it('lays a tile, places a station, runs the suggested routes, pays out and buys trains, each by a form field as it stands', async () => {
    const { log } = importExport(exp);
    const game = await srv.createGame({ rules: '1830', players: ['Ada', 'Bob', 'Cy', 'Di'] });
    const keyOf: Record<number, string> = {};
    for (const h of game.seats) keyOf[(await srv.state(h.key)).you] = h.key;
    const upto = 89; // PRR is about to lay a tile in operating round 2.1
    for (let i = 0; i < upto; i++) {
      const { seat, action } = log[i]!;
      const st = await srv.state(keyOf[seat]!);
      const r = await srv.api('POST', `/api/play/${keyOf[seat]}/move`, { seq: st.game.seq, action });
      expect(r.status, JSON.stringify(r.body)).toBeLessThan(400);
    }
    const key = keyOf[log[upto]!.seat]!;
    const statuses: string[] = [];
    for (let step = 0; step < 8; step++) {
      const st = await srv.state(key);
      if (!st.view.toAct.includes(st.you)) break;
      statuses.push(st.view.status);
      const html = await (await fetch(`${srv.url}/play/${key}`)).text();
      expect(html).toContain('to act');
      // The game's own form (the standing-orders forms further down have selects of their own).
      const form = html.slice(html.indexOf('operates (treasury'), html.indexOf('<section id="orders"'));
      const m =
        /<option value="([^"]+)"/.exec(form) ??
        /name="command" size="90" value="([^"]+)"/.exec(form) ??
        /<button type="submit" name="command" value="([^"]+)"/.exec(form);
      if (!m) break;
      const command = m[1]!.replace(/&amp;/g, '&');
      const res = await fetch(`${srv.url}/play/${key}/move`, {
        method: 'POST',
        body: new URLSearchParams({ seq: String(st.game.seq), command }),
        redirect: 'manual',
      });
      expect(res.status, `${command}: ${(await res.text()).slice(0, 200)}`).toBe(303);
    }
    expect(statuses.map((x) => x.replace(/^Operating round 2\.1 of 2: /, ''))).toEqual(
      expect.arrayContaining([
        'PRR may lay a tile',
        'PRR may place a station',
        'PRR runs its trains',
        'PRR pays out or withholds $30',
        'PRR may buy trains',
      ]),
    );
    const hist = await srv.api('GET', `/api/play/${key}/history`);
    const texts = JSON.stringify(hist.body).replace(/\\"/g, '"');
    expect(texts).toMatch(/lays tile #57 on H10 \(rotation 1\) for PRR/);
    expect(texts).toMatch(/runs PRR's 2 train for \$30/);
    expect(texts).toMatch(/pays out \$3 per share of PRR's \$30/);
    expect(texts).toMatch(/buys a 3 train from the bank for PRR for \$180/);
  });
});
