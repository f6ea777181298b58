// Strict reading of request bodies: a number is a number (or, from a form, the
// digits of one), never `[]`, `""`, `true` or `[[[]]]` coerced to 0; and JSON
// nested deeper than any real request is refused before anything walks it.
import { z } from 'zod';
import { ServiceError } from './errors.ts';

/** Deepest nesting of arrays and objects any request body needs (an action is a few levels deep). */
export const MAX_BODY_NESTING = 32;

/** How deep `[` and `{` nest in JSON text (strings skipped); stops counting once past `limit`. */
export function jsonNesting(text: string | Buffer, limit = Infinity): number {
  const s = typeof text === 'string' ? text : text.toString('utf8');
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) {
        max = depth;
        if (max > limit) return max;
      }
    } else if (c === 93 || c === 125) depth--;
  }
  return max;
}

/** Throws a 400 when JSON text nests deeper than `limit`. */
export function checkNesting(text: string | Buffer, limit = MAX_BODY_NESTING): void {
  if (jsonNesting(text, limit) > limit)
    throw new ServiceError(400, `The request nests more than ${limit} levels deep; no real request does.`);
}

/**
 * A number field: a JSON number, or a form's text of one ("12", "1.5"). Anything else
 * is refused with a message naming the field. `.optional()` lets it be left out.
 */
export function numberField(what: string, o: { whole?: boolean; min?: number; max?: number; missing?: string } = {}) {
  return z.unknown().transform((v, ctx) => {
    const refuse = (message: string) => {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message });
      return z.NEVER;
    };
    if (v === undefined) return refuse(o.missing ?? `Missing ${what}.`);
    let n: number;
    if (typeof v === 'number') n = v;
    else if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) n = Number(v);
    else return refuse(`${what} must be a number${typeof v === 'string' && v.trim() === '' ? ', not empty' : ''}.`);
    if (!Number.isFinite(n)) return refuse(`${what} must be a number.`);
    if (o.whole && !Number.isInteger(n)) return refuse(`${what} must be a whole number.`);
    if (o.min !== undefined && n < o.min)
      return refuse(o.min === 0 ? `${what} cannot be negative.` : `${what} must be at least ${o.min}.`);
    if (o.max !== undefined && n > o.max) return refuse(`${what} must be at most ${o.max}.`);
    return n;
  });
}
