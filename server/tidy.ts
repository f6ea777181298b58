// Temp files a killed process left behind. A durable write goes to a temp file
// first (store/durable-file.ts: `.<name>.<12 hex>.tmp`; store/group-commit.ts:
// `<name>.tmp-<pid>-<n>`) and is renamed over its target once on disk; a kill
// between the two leaves the temp file, which nothing else ever removes. At
// start-up no write of this process is under way yet, so every such file in
// the data folder is left over. (games/ is tidied by the store itself.)
import type { Dirent } from 'node:fs';
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';

const DURABLE_TEMP = /^\..+\.[0-9a-f]{12}\.tmp$/;
const COMMIT_TEMP = /\.tmp-(\d+)-\d+$/;

function leftOver(name: string): boolean {
  if (DURABLE_TEMP.test(name)) return true;
  const m = COMMIT_TEMP.exec(name);
  return m !== null && Number(m[1]) !== process.pid;
}

/** Removes left-over temp files in `dataDir` and its folders (three levels); returns how many. */
export async function removeLeftOverTempFiles(dataDir: string, depth = 3): Promise<number> {
  let removed = 0;
  let entries: Dirent[];
  try {
    entries = await readdir(dataDir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    if (e.isDirectory()) {
      if (depth > 1 && e.name !== 'games') removed += await removeLeftOverTempFiles(join(dataDir, e.name), depth - 1);
    } else if (e.isFile() && leftOver(e.name)) {
      await unlink(join(dataDir, e.name)).then(
        () => removed++,
        () => {},
      );
    }
  }
  return removed;
}
