// Configuration as an operator meets it: the real server process refuses a bad
// variable with one line naming it (and exit status 78), and every variable
// the schema reads is documented in .env.example and the README. Each bad value's
// words are checked on readConfig, which the process prints as they are; two
// processes show the line and the status (a process start costs as much as the rest of this file).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, envSchema, readConfig } from '../../server/config.ts';
import { root, runMain } from '../support/main-process.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'pbem-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('configuration', () => {
  it('refuses a bad value at start with one line naming the variable', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ PORT: 'abc' }, /^configuration error: PORT=abc: must be a port number/],
      [{ SMTP_URL: 'mail.example.test' }, /^configuration error: SMTP_URL: must be smtp:\/\//],
      [{ BASE_URL: 'not-a-url' }, /^configuration error: BASE_URL=not-a-url: must be an http/],
      [{ DIGEST_HOUR: 'banana' }, /^configuration error: DIGEST_HOUR=banana: must be an hour/],
      [{ REMINDER_CRON: 'every day' }, /^configuration error: REMINDER_CRON=every day: must be a cron expression/],
      [{ OUTBOX_PUBLIC: 'maybe' }, /^configuration error: OUTBOX_PUBLIC=maybe: must be one of/],
      [{ INBOUND_AUTH: 'maybe' }, /^configuration error: INBOUND_AUTH=maybe: must be off, dkim or dmarc/],
      [
        { SMTP_INBOUND_PORT: '2525' },
        /^configuration error: SMTP_INBOUND_PORT, INBOUND_SECRET: replies need MAIL_DOMAIN/,
      ],
      [
        { DKIM_DOMAIN: 'example.org' },
        /^configuration error: DKIM_DOMAIN, DKIM_SELECTOR, DKIM_PRIVATE_KEY_FILE: set all three/,
      ],
    ];
    for (const [env, words] of cases) {
      let error: unknown = null;
      try {
        readConfig({ DATA_DIR: dataDir, ...env });
      } catch (err) {
        error = err;
      }
      expect(error, JSON.stringify(env)).toBeInstanceOf(ConfigError);
      expect(`configuration error: ${(error as Error).message}`).toMatch(words);
      expect((error as Error).message).not.toContain('\n');
    }
    // The process: that one line on stderr, exit status 78.
    const { code, stderr } = await runMain({ DATA_DIR: dataDir, ...cases[0]![0] }).exited;
    expect(code).toBe(78);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(cases[0]![1]);
  });

  it('never prints the SMTP_URL, which may carry a password', async () => {
    const { code, stderr } = await runMain({ DATA_DIR: dataDir, SMTP_URL: 'http://user:hunter2@mail.example.test' })
      .exited;
    expect(code).toBe(78);
    expect(stderr).toContain('SMTP_URL');
    expect(stderr).not.toContain('hunter2');
    const inbound = await runMain({ DATA_DIR: dataDir, INBOUND_SECRET: 'hunter3' }).exited;
    expect(inbound.code).toBe(78);
    expect(inbound.stderr).toContain('INBOUND_SECRET');
    expect(inbound.stderr).not.toContain('hunter3');
  });

  it('documents every variable in .env.example and the README', () => {
    const example = readFileSync(join(root, '.env.example'), 'utf8');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    for (const name of Object.keys(envSchema.shape)) {
      expect(example, name).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
      expect(readme, name).toContain(`\`${name}\``);
    }
  });
});
