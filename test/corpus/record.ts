// `npm run --silent corpus -- record`: records the corpus games of every engine's current
// version that are not recorded yet (test/corpus/<rules id>/v<version>/). Run it after a
// version bump; recorded games of older versions stay as they are and keep being checked.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { games } from '../../rules/index.ts';
import { importExport, type Export18xx } from '../../rules/1830/import/replay.ts';
import type { AnyRules, Options } from '../../rules/types.ts';
import { defaultOptions, randomPlayout } from '../support/playout.ts';
import { CORPUS_DIR, record, type RecordedGame } from './corpus.ts';

/** Options with every yes/no option turned the other way (a second set of rules to keep). */
function flipped(rules: AnyRules): Options | null {
  const specs = (rules.options ?? []).filter((o) => o.kind === 'boolean');
  if (specs.length === 0) return null;
  const out = defaultOptions(rules);
  for (const o of specs) out[o.id] = !o.default;
  return out;
}

/** Random playouts: the fewest and the most players with the default options, a middle count with the options flipped. */
function playouts(rules: AnyRules): { name: string; seats: number; options: Options }[] {
  const { min, max } = rules.players;
  const out = [
    { name: `random-${min}p`, seats: min, options: defaultOptions(rules) },
    { name: `random-${max}p`, seats: max, options: defaultOptions(rules) },
  ];
  const other = flipped(rules);
  const mid = Math.ceil((min + max) / 2);
  if (other) out.push({ name: `random-${mid}p-options`, seats: mid, options: other });
  return out;
}

function write(rules: AnyRules, name: string, make: () => RecordedGame): void {
  const dir = join(CORPUS_DIR, rules.id, `v${rules.version}`);
  const file = join(dir, `${name}.json`);
  if (existsSync(file)) return;
  mkdirSync(dir, { recursive: true });
  const game = make();
  writeFileSync(file, JSON.stringify(game) + '\n');
  process.stdout.write(`${rules.id} v${rules.version} ${name}: ${game.actions.length} actions\n`);
}

export function recordAll(): void {
  for (const rules of games) {
    for (const p of playouts(rules)) {
      const seed = `corpus:${rules.id}:v${rules.version}:${p.name}`;
      write(rules, p.name, () => {
        const played = randomPlayout(rules, p.seats, seed, { options: p.options });
        return record(rules, { source: 'random playout', seats: p.seats, seed, options: p.options }, played.actions);
      });
    }
  }
  const real = new URL('../fixtures/18xx.games/1830/', import.meta.url).pathname;
  const g1830 = games.find((r) => r.id === '1830')!;
  for (const f of readdirSync(real).filter((n) => n.endsWith('.json'))) {
    const name = `18xx-games-${f.replace(/\.json$/, '').replace(/_/g, '-')}`;
    write(g1830, name, () => {
      const imp = importExport(JSON.parse(readFileSync(join(real, f), 'utf8')) as Export18xx);
      const seed = `corpus:1830:${name}`;
      return record(
        g1830,
        { source: `18xx.games ${f}`, seats: imp.seats.length, seed, options: imp.options },
        imp.log.map(({ seat, action }) => ({ seat, action })),
      );
    });
  }
}

if (process.argv[2] === 'record') recordAll();
else process.stdout.write('usage: npm run --silent corpus -- record\n');
