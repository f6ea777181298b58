// What the mail picture keeps between mails (static layers, sprites,
// composites, compressed bands): a map bounded by the bytes its values hold,
// most recently used last, the oldest forgotten first.

export class Kept<V> {
  private readonly entries = new Map<string, { value: V; bytes: number }>();
  private total = 0;

  constructor(private readonly maxBytes: number) {}

  /** The value kept under `key`, now the most recently used. */
  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  /** Keeps a value of a known size, forgetting the oldest others while over the bound. */
  set(key: string, value: V, bytes: number): V {
    this.delete(key);
    this.entries.set(key, { value, bytes });
    this.total += bytes;
    for (const [k, e] of this.entries) {
      if (this.total <= this.maxBytes || k === key) break;
      this.entries.delete(k);
      this.total -= e.bytes;
    }
    return value;
  }

  /**
   * Keeps a value still being made: it is found at once (so it is made only
   * once), counts its size once made, and is forgotten if making it fails.
   */
  setMaking<T>(key: string, value: V & Promise<T>, sizeOf: (made: T) => number): V {
    this.set(key, value, 0);
    value.then(
      (made) => {
        if (this.entries.get(key)?.value === value) this.set(key, value, sizeOf(made));
      },
      () => {
        if (this.entries.get(key)?.value === value) this.delete(key);
      },
    );
    return value;
  }

  delete(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.total -= e.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }
}
