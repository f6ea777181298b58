// `npm run --silent cli -- <command> [args]`: a small dispatcher.
// Each command is its own file server/cli/<command>.ts exporting
//   summary: string                        one help line
//   run(args: string[]): Promise<number>   the exit status
// so a new command is a new file (e.g. server/cli/import-18xx.ts).
import { existsSync, readdirSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

interface Command {
  summary?: string;
  run(args: string[]): Promise<number> | number;
}

const here = fileURLToPath(import.meta.url);
const dir = join(dirname(here), 'cli');
// '.ts' from the source tree (tsx), '.js' from the build (dist/server/cli.js).
const ext = extname(here);

function commandNames(): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(ext) && !f.endsWith(`.test${ext}`))
    .map((f) => f.slice(0, -ext.length))
    .sort();
}

async function load(name: string): Promise<Command> {
  return (await import(pathToFileURL(join(dir, `${name}${ext}`)).href)) as Command;
}

async function help(): Promise<void> {
  process.stderr.write('usage: npm run --silent cli -- <command> [args]\n\ncommands:\n');
  for (const name of commandNames()) {
    const c = await load(name);
    process.stderr.write(`  ${c.summary ?? name}\n`);
  }
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    await help();
    return name ? 0 : 2;
  }
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name) || !existsSync(join(dir, `${name}${ext}`))) {
    process.stderr.write(`unknown command "${name}"\n`);
    await help();
    return 2;
  }
  return (await load(name)).run(args);
}

if (process.argv[1] && here === process.argv[1]) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`${(err as Error).message}\n`);
      process.exit(1);
    },
  );
}
