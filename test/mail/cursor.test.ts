// The mail cursor's file (server/mail/cursor.ts): its versions, read and written.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MailCursor } from '../../server/mail/cursor.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const fileIn = () => {
  const d = mkdtempSync(join(tmpdir(), 'pbem-cursor-'));
  dirs.push(d);
  return join(d, 'cursor.json');
};

describe('the mail cursor file', () => {
  it('reads version 1 (one object keyed by game) and writes it again as version 2', async () => {
    const file = fileIn();
    writeFileSync(file, JSON.stringify({ version: 1, games: { g1: 4, g2: 0 } }));
    const c = new MailCursor(file);
    expect(await c.load()).toBe(true);
    expect([c.get('g1'), c.get('g2'), c.get('g3')]).toEqual([4, 0, undefined]);
    await c.save();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 2, ids: ['g1', 'g2'], seqs: [4, 0] });
    const again = new MailCursor(file);
    await again.load();
    again.set('g2', 3);
    again.set('g1', 2); // never back
    expect([again.get('g1'), again.get('g2')]).toEqual([4, 3]);
  });

  it('refuses a file written by a newer server, saying what to do', async () => {
    const file = fileIn();
    writeFileSync(file, JSON.stringify({ version: 3, whatever: [] }));
    await expect(new MailCursor(file).load()).rejects.toThrow(
      /written by a newer server \(version 3; this server reads versions 1 to 2\)\. Run the newer server/,
    );
  });

  it('reads positions in any order and saves them in id order, changes merged in', async () => {
    const file = fileIn();
    writeFileSync(file, JSON.stringify({ version: 2, ids: ['g3', 'g1', 'g2'], seqs: [3, 1, 2] }));
    const c = new MailCursor(file);
    await c.load();
    expect(['g1', 'g2', 'g3', 'g0'].map((id) => c.get(id))).toEqual([1, 2, 3, undefined]);
    c.set('g2', 5);
    c.set('g0', 1);
    c.set('g4', 7);
    await c.save();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      version: 2,
      ids: ['g0', 'g1', 'g2', 'g3', 'g4'],
      seqs: [1, 1, 5, 3, 7],
    });
    c.set('g1', 2);
    expect(['g0', 'g1', 'g2', 'g3', 'g4'].map((id) => c.get(id))).toEqual([1, 2, 5, 3, 7]);
  });
});
