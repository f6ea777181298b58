// vitest global set-up: the pages' scripts are built from templates/games/*/form.ts
// before any test serves a page, so the browser tests drive the current code.
import { buildWeb } from '../../server/web-build.ts';

export default async function setup(): Promise<void> {
  await buildWeb();
}
