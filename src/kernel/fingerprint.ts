/**
 * Run fingerprint: a running 64-bit hash (two independent 32-bit lanes) folded over
 * every dispatched event. Two runs with the same fingerprint dispatched the same
 * events in the same order with the same times. Not cryptographic; it is a cheap,
 * well-mixed checksum for determinism checks, traces and replay.
 */
export class Fingerprint {
  private h1 = 0x243f6a88; // arbitrary non-zero starting points (digits of pi)
  private h2 = 0x85a308d3;

  /** Folds one event (time in cycles, kind, two integer arguments) into the hash. */
  add(time: number, kind: number, a0: number, a1: number): void {
    const lo = time >>> 0;
    const hi = (time / 4294967296) >>> 0;
    let h1 = this.h1;
    let h2 = this.h2;
    h1 = Math.imul(h1 ^ lo, 0x9e3779b1);
    h2 = Math.imul(h2 ^ kind, 0x85ebca77);
    h1 = Math.imul(h1 ^ (h1 >>> 15) ^ a0, 0xc2b2ae3d);
    h2 = Math.imul(h2 ^ (h2 >>> 13) ^ a1 ^ hi, 0x27d4eb2f);
    this.h1 = h1 ^ (h2 >>> 16);
    this.h2 = h2 ^ (h1 >>> 16);
  }

  /**
   * 16 bits of the running state: once two runs' hashes differ they (almost always)
   * keep differing, so comparing these per event finds where runs diverge.
   */
  digest16(): number {
    return (this.h1 ^ (this.h2 >>> 16)) & 0xffff;
  }

  /** The current value as 16 lowercase hex digits. */
  hex(): string {
    const a = avalanche(this.h1 ^ Math.imul(this.h2, 0x165667b1));
    const b = avalanche(this.h2 ^ Math.imul(this.h1, 0x27d4eb2f));
    return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
  }
}

function avalanche(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x;
}
