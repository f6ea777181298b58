// Where the package's own files are, the same from the source tree (tsx) and
// from the build (dist/server/...): found from package.json, not from this
// file's depth, which differs between the two.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder holding package.json: the checkout, or the installed package. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('package.json not found above server/paths');
    dir = up;
  }
  return dir;
}

/** Handlebars templates, read in place by the source and the build alike (not copied into dist/). */
export const TEMPLATES_DIR = join(packageRoot(), 'templates');

/** The pages' scripts as bundled by server/web-build.ts, served at /static/. */
export const WEB_DIR = join(packageRoot(), 'dist', 'web');
