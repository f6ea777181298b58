// The pages' scripts: each game's templates/games/<id>/form.ts, type-checked
// with the DOM library (tsconfig.browser.json), bundled by esbuild into one
// plain script per game under dist/web/, which the server serves at
// /static/games/<id>/form.js (and templates/pages/<page>.ts at /static/pages/<page>.js). Pages work without them: a script only narrows
// lists and fills in the command field of forms that post on their own.
//
// `npm run build:web` runs this (npm install does it through `prepare`; the
// test suite through its global set-up).
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { TEMPLATES_DIR, WEB_DIR } from './render.ts';

/** The page scripts there are: templates/games/<id>/form.ts for each game that has one, and templates/pages/<page>.ts. */
export function pageScripts(templatesDir = TEMPLATES_DIR): string[] {
  const games = join(templatesDir, 'games');
  const pages = join(templatesDir, 'pages');
  return [
    ...readdirSync(games)
      .map((id) => join(games, id, 'form.ts'))
      .filter((file) => existsSync(file)),
    ...(existsSync(pages) ? readdirSync(pages).filter((f) => f.endsWith('.ts')) : []).map((f) => join(pages, f)),
  ].sort();
}

/** Bundles every page script into outDir (games/<id>/form.js); returns the files written. */
export async function buildWeb(outDir = WEB_DIR, templatesDir = TEMPLATES_DIR): Promise<string[]> {
  const entryPoints = pageScripts(templatesDir);
  const result = await build({
    entryPoints,
    outbase: templatesDir,
    outdir: outDir,
    bundle: true,
    format: 'iife',
    target: 'es2020',
    platform: 'browser',
    charset: 'utf8',
    legalComments: 'none',
    logLevel: 'silent',
    metafile: true,
  });
  return Object.keys(result.metafile.outputs).map((f) => resolve(f));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const files = await buildWeb();
  process.stdout.write(`page scripts: ${files.length} built in ${WEB_DIR}\n`);
}
