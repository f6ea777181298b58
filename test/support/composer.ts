// A mail composer for tests that read mails without their pixels: every picture is handed to
// `draw` (its SVG, to look at or to hold up) and comes back as one pixel.
import { join } from 'node:path';
import { MailComposer } from '../../server/mail/compose.ts';
import { DigestBook } from '../../server/mail/digest.ts';
import { MailRenderer } from '../../server/mail/render.ts';
import type { TestService } from './service.ts';

/** A 1×1 PNG. */
export const ONE_PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

export function pixelComposer(t: TestService, draw: (svg: string) => Promise<void> | void): MailComposer {
  const renderer = new MailRenderer(undefined, async (svg) => {
    await draw(svg);
    return ONE_PIXEL;
  });
  return new MailComposer({
    service: t.service,
    renderer,
    from: 'Games <games@example.test>',
    domain: 'example.test',
    digest: new DigestBook(join(t.dataDir, 'mail')),
  });
}
