// A deep copy of a game state. A state is plain JSON (DESIGN.md: objects, arrays, strings,
// numbers, booleans, null), and the server copies it for every move it plays and for every
// move an engine describes by playing it out; structuredClone, which copies any value, took
// about five times as long on real states as this walk over plain data. The copy lists every
// object's keys in the order the original does (some engines walk objects by key), so
// playing on a copy and replaying the log reach the same state, byte for byte.
// Anything that is not plain data (a Map, a Date, a class instance) is copied by
// structuredClone, so a copy is never wrong, only slower.

const plainProto = Object.prototype;

export function cloneState<T>(value: T): T {
  return copyOf(value) as T;
}

function copyOf(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const n = v.length;
    const out = new Array(n);
    for (let i = 0; i < n; i++) {
      const x = v[i];
      // A hole stays a hole (forEach and `in` tell it from undefined), as structuredClone keeps it.
      if (x !== undefined || i in v) out[i] = copyOf(x);
    }
    return out;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== plainProto && proto !== null) return structuredClone(v);
  const out: Record<string, unknown> = {};
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    // An own "__proto__" key (JSON.parse makes one) is copied as a key, never as the prototype.
    if (k === '__proto__')
      Object.defineProperty(out, k, { value: copyOf(o[k]), enumerable: true, writable: true, configurable: true });
    else out[k] = copyOf(o[k]);
  }
  return out;
}
