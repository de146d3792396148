/**
 * A set of `custom_id`s in flat memory: a million ids take 16 MiB, not the hundreds a `Map` of
 * strings takes. Each id is kept as two independent 32-bit hashes (a 64-bit key: two distinct
 * ids of a million-line file share one with a chance of about 1 in 30 million) with the line it
 * was first seen on, in typed arrays with open addressing.
 */
export class IdSet {
  #keys = new Uint32Array(2 * 1024);
  #lines = new Uint32Array(1024);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** Adds `id` (first seen on `line`); gives the line it was first seen on if it was there already. */
  add(id: string, line = 0): number | undefined {
    const at = this.#find(id);
    if (at.found) return this.#lines[at.slot];
    if ((this.#size + 1) * 2 > this.#lines.length) {
      this.#grow();
      return this.add(id, line);
    }
    this.#keys[2 * at.slot] = at.a;
    this.#keys[2 * at.slot + 1] = at.b;
    this.#lines[at.slot] = line;
    this.#size++;
    return undefined;
  }

  has(id: string): boolean {
    return this.#find(id).found;
  }

  /** The line `id` was first seen on, if it is here. */
  get(id: string): number | undefined {
    const at = this.#find(id);
    return at.found ? this.#lines[at.slot] : undefined;
  }

  #find(id: string): { found: boolean; slot: number; a: number; b: number } {
    let a = 0x811c9dc5;
    let b = 0x9747b28c;
    for (let i = 0; i < id.length; i++) {
      const c = id.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    a >>>= 0;
    // 0 marks an empty slot: a `b` of 0 becomes 1.
    b = b >>> 0 || 1;
    const mask = this.#lines.length - 1;
    for (let slot = (a ^ Math.imul(b, 0x9e3779b1)) & mask; ; slot = (slot + 1) & mask) {
      const kb = this.#keys[2 * slot + 1];
      if (kb === 0) return { found: false, slot, a, b };
      if (kb === b && this.#keys[2 * slot] === a) return { found: true, slot, a, b };
    }
  }

  #grow(): void {
    const keys = this.#keys;
    const lines = this.#lines;
    this.#keys = new Uint32Array(keys.length * 2);
    this.#lines = new Uint32Array(lines.length * 2);
    const mask = this.#lines.length - 1;
    for (let old = 0; old < lines.length; old++) {
      const a = keys[2 * old]!;
      const b = keys[2 * old + 1]!;
      if (b === 0) continue;
      let slot = (a ^ Math.imul(b, 0x9e3779b1)) & mask;
      while (this.#keys[2 * slot + 1] !== 0) slot = (slot + 1) & mask;
      this.#keys[2 * slot] = a;
      this.#keys[2 * slot + 1] = b;
      this.#lines[slot] = lines[old]!;
    }
  }
}
