/**
 * Pictures in memory, least recently used first out, bounded by bytes. Keys start with the camera and
 * name exactly what went into a picture (image, quality, drawn layers), so nothing stale is ever served;
 * `forgetCamera` frees memory when a camera's layers or access change.
 */
export class PictureCache {
  readonly #entries = new Map<string, Buffer>();
  #bytes = 0;
  readonly maxBytes: number;
  readonly #lookups: { hit(): void; miss(): void } | undefined;
  /** `lookups` is told of every `get`, hit or miss (the metrics' hit ratio). */
  constructor(maxBytes = 64 * 1024 * 1024, lookups?: { hit(): void; miss(): void }) {
    this.maxBytes = maxBytes;
    this.#lookups = lookups;
  }

  static key(webcamId: number, imageName: string, quality: string, selectionKey: string): string {
    return `${webcamId}|${imageName}|${quality}|${selectionKey}`;
  }

  has(key: string): boolean {
    return this.#entries.has(key);
  }

  get(key: string): Buffer | undefined {
    const value = this.#entries.get(key);
    if (value) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
      this.#lookups?.hit();
    } else this.#lookups?.miss();
    return value;
  }

  set(key: string, value: Buffer): void {
    if (value.length > this.maxBytes) return;
    this.#drop(key);
    this.#entries.set(key, value);
    this.#bytes += value.length;
    for (const [oldest] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#drop(oldest);
    }
  }

  forgetCamera(webcamId: number): void {
    for (const key of [...this.#entries.keys()]) if (key.startsWith(`${webcamId}|`)) this.#drop(key);
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.#entries.size, bytes: this.#bytes };
  }

  #drop(key: string): void {
    const value = this.#entries.get(key);
    if (value) {
      this.#bytes -= value.length;
      this.#entries.delete(key);
    }
  }
}
