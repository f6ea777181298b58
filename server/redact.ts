// Keys never reach a log line. This is the one place that says how: every
// logger the app hands out (requests, the game service, mail, the store) is a
// child of `redactingLogger`, which rewrites the fields below before a line is
// written, whichever route or module logged it.
//   - fields that name a key (key, seatKey, adminKey, ...) are replaced whole;
//   - fields that may carry a path or free text (path, url, err, problem, ...)
//     keep their words, but every key-shaped token in them is replaced.
import type { Logger } from 'pino';

/** Fields whose value is a key. */
const KEY_FIELDS = ['key', 'seatKey', 'adminKey', 'inviteKey', 'spectatorKey', 'seatKeys'];
/** Fields that may hold a path, a URL or an error text with a key inside. */
const TEXT_FIELDS = ['path', 'url', 'err', 'error', 'problem', 'referer', 'location', 'to', 'file'];

/**
 * A key-shaped token: 16 to 64 base64url characters (keys are 24; game ids, at
 * 12, stay readable). Words that long in a path or an error are rare, and
 * losing one to ':key' costs less than logging a key.
 */
const KEY_TOKEN = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{16,64}(?![A-Za-z0-9_-])/g;

/** Text with every key-shaped token replaced. */
export function redactText(text: string): string {
  return text.replace(KEY_TOKEN, ':key');
}

/** A request path for the log: no query string, key-shaped segments replaced. */
export function redactPath(url: string): string {
  return redactText(url.split('?')[0]!);
}

const paths = [...KEY_FIELDS, ...TEXT_FIELDS].flatMap((f) => [f, `*.${f}`]);

function censor(value: unknown, path: string[]): unknown {
  const field = path[path.length - 1]!;
  if (KEY_FIELDS.includes(field)) return '[key]';
  if (typeof value === 'string') return field === 'path' || field === 'url' ? redactPath(value) : redactText(value);
  if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean') return value;
  return redactText(JSON.stringify(value) ?? '');
}

/** The logger with key redaction on every line it and its children write. */
export function redactingLogger(logger: Logger): Logger {
  return logger.child({}, { redact: { paths, censor } });
}
