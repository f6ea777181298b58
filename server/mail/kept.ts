// What the mail picture keeps between mails (static layers, sprites,
// composites, compressed bands): an LRU cache bounded by the bytes its values
// hold (lru-cache's maxSize; each value's size is given when it is kept).
import { LRUCache } from 'lru-cache';

export class Kept<V extends {}> {
  private readonly cache: LRUCache<string, V>;

  constructor(maxBytes: number) {
    this.cache = new LRUCache<string, V>({ maxSize: maxBytes });
  }

  /** The value kept under `key`, now the most recently used. */
  get(key: string): V | undefined {
    return this.cache.get(key);
  }

  /** Keeps a value of a known size, forgetting the least recently used others while over the bound. */
  set(key: string, value: V, bytes: number): V {
    // lru-cache counts whole, positive sizes; a value larger than the bound is not kept.
    this.cache.set(key, value, { size: Math.max(1, Math.ceil(bytes)) });
    return value;
  }

  /**
   * Keeps a value still being made: it is found at once (so it is made only
   * once), counts its size once made, and is forgotten if making it fails.
   */
  setMaking<T>(key: string, value: V & Promise<T>, sizeOf: (made: T) => number): V {
    this.set(key, value, 1);
    value.then(
      (made) => {
        if (this.cache.peek(key) === value) this.set(key, value, sizeOf(made));
      },
      () => {
        if (this.cache.peek(key) === value) this.cache.delete(key);
      },
    );
    return value;
  }

  delete(key: string): void {
    this.cache.delete(key);
  }

  clear(): void {
    this.cache.clear();
  }
}
