// scratch: profile a pg child under 1-client move load
import { startPgChild } from '../support/pg-child.ts';
import { jsonClient } from '../support/bench-http.ts';
import pg from 'pg';
const url = process.env.TEST_DATABASE_URL!;
const schema = `prof_${Date.now().toString(36)}`;
const p = await startPgChild({ TEST_DATABASE_URL: url, PG_SCHEMA: schema, DATA_DIR: '/tmp/prof/data', MAIL: 'off' }, process.env.PROF ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []);
const c = jsonClient(p.url, 8);
const games: { keys: string[]; seq: number; toAct: number[] }[] = [];
for (let i = 0; i < 200; i++) {
  const g = await c.call('POST', '/api/games', { rules: 'high-card', seats: 4, name: 'P0', email: 'p0@example.test' });
  const joined = [g.body.seatKey as string];
  for (let q = 1; q < 4; q++) joined.push((await c.call('POST', `/api/join/${g.body.inviteKey}`, { name: `P${q}`, email: `p${q}@example.test` })).body.seatKey);
  const keys: string[] = []; let seq = 0; let toAct: number[] = [];
  for (const key of joined) { const st = (await c.call('GET', `/api/play/${key}`)).body; keys[st.you] = key; seq = st.game.seq; toAct = st.view.toAct; }
  games.push({ keys, seq, toAct });
}
const conc = Number(process.env.CONC ?? 1);
import { readFileSync } from 'node:fs';
const cpu = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const sys = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[12]) * 10;
const sy0 = sys(p.child.pid!);
const adm = new pg.Client({ connectionString: url }); await adm.connect();
const xacts = async () => Number((await adm.query("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")).rows[0].xact_commit);
const x0 = await xacts();
const c0 = cpu(p.child.pid!); const s0 = process.cpuUsage();
const end = performance.now() + 6000; let moves = 0;
await Promise.all(Array.from({ length: conc }, async () => {
  while (performance.now() < end) {
    const g = games.shift(); if (!g) return;
    const r = await c.call('POST', `/api/play/${g.keys[g.toAct[0]!]}/move`, { seq: g.seq, n: 0 });
    if (r.status === 200) { moves++; g.seq = r.body.seq; g.toAct = r.body.toAct; if (r.body.status === 'active' && g.toAct.length) games.push(g); }
  }
}));
const sc = process.cpuUsage(s0); await new Promise((r) => setTimeout(r, 700)); const x1 = await xacts(); await adm.end(); console.log('xacts/move', (x1 - x0) / moves, 'moves/s', moves / 6, 'server cpu ms/move', (cpu(p.child.pid!) - c0) / moves, 'of which sys', (sys(p.child.pid!) - sy0) / moves, 'client cpu ms/move', (sc.user + sc.system) / 1000 / moves);
c.close();
p.child.kill('SIGTERM'); await p.exited;
const admin = new pg.Client({ connectionString: url }); await admin.connect(); await admin.query(`DROP SCHEMA "${schema}" CASCADE`); await admin.end();
