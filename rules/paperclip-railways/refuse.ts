// Refusing a move. Normally a refusal is a RuleError with a message the
// player reads. While `moves` probes candidate links it only needs to know
// whether a candidate is legal, so inside `probe` a refusal throws one shared
// marker instead: building an Error (its stack trace) for each of hundreds of
// rejected candidates was most of the cost of listing moves. The flag is set
// and cleared synchronously around the call, so the rules stay pure.
import { RuleError } from '../types.ts';

const REFUSED = { refused: true } as const;
let probing = 0;

export function refuse(message: string): never {
  if (probing > 0) throw REFUSED;
  throw new RuleError(message);
}

/** Runs `fn`; returns its result, or null when it refused. Other errors pass through. */
export function probe<T>(fn: () => T): T | null {
  probing++;
  try {
    return fn();
  } catch (e) {
    if (e === REFUSED || e instanceof RuleError) return null;
    throw e;
  } finally {
    probing--;
  }
}
