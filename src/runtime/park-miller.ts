/**
 * Strata's `Random()`: the Park-Miller "minimal standard" generator
 * (seed = seed * 16807 mod (2^31 - 1); Appendix A 3.6, [PM88]). Values lie in
 * [1, 2^31 - 2]. The arithmetic is exact in doubles (products stay below 2^46).
 */
const PARK_MILLER_MODULUS = 2147483647;
const MULTIPLIER = 16807;

export class ParkMiller {
  private seed: number;

  /** @param seed any integer; it is reduced modulo 2^31 - 1 and 0 becomes 1 */
  constructor(seed: number) {
    this.seed = ParkMiller.normalize(seed);
  }

  /** The seed a value reduces to: in [1, 2^31 - 2], since 0 would repeat forever. */
  static normalize(seed: number): number {
    const s = ((Math.trunc(seed) % PARK_MILLER_MODULUS) + PARK_MILLER_MODULUS) % PARK_MILLER_MODULUS;
    return s === 0 ? 1 : s;
  }

  next(): number {
    this.seed = (this.seed * MULTIPLIER) % PARK_MILLER_MODULUS;
    return this.seed;
  }

  /** Sets the seed; returns the seed actually used. */
  reseed(seed: number): number {
    this.seed = ParkMiller.normalize(seed);
    return this.seed;
  }
}
