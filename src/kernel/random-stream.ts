/**
 * Simulator-internal random streams. A run has one seed; every stream is derived
 * from (seed, stream id) so that adding a stream never shifts another one, and the
 * same (seed, id) gives the same sequence in any process or worker. The generator is
 * pure-rand's xoroshiro128+; this file only derives its 128-bit state and offers
 * the few distributions the simulator needs. (Strata's own `Random()` is the
 * Park-Miller generator in the runtime, not this.)
 */
import { xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';

/** Largest accepted run seed: seeds are unsigned 32-bit integers. */
export const MAX_SEED = 0xffffffff;

export class RandomStream {
  private readonly rng: RandomGenerator;

  /**
   * @param seed run seed, an integer in [0, MAX_SEED]
   * @param streamId a stable name such as `network/up-links` or `node/3/targets`
   */
  constructor(seed: number, streamId: string) {
    if (!Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) {
      throw new RangeError(`seed must be an integer in [0, ${MAX_SEED}], got ${seed}`);
    }
    this.rng = xoroshiro128plusFromState(deriveState(seed, streamId));
  }

  /** A uniform unsigned 32-bit integer. */
  uint32(): number {
    return this.rng.next() >>> 0;
  }

  /** A uniform integer in [0, n); n must be a positive integer <= 2^32. */
  int(n: number): number {
    return uniformInt(this.rng, 0, n - 1);
  }

  /** A uniform float in [0, 1) with 53 random bits. */
  float(): number {
    return uniformFloat64(this.rng);
  }

  /** An exponentially distributed float with the given mean. */
  exponential(mean: number): number {
    return -mean * Math.log(1 - uniformFloat64(this.rng));
  }
}

/** FNV-1a over the UTF-16 code units of a string. */
function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** splitmix32 step: a bijective, well-avalanched mix of a 32-bit counter. */
function splitmix32(x: number): number {
  x = (x + 0x9e3779b9) | 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

/** The four 32-bit words of xoroshiro128+ state for (seed, stream id); never all zero. */
function deriveState(seed: number, streamId: string): number[] {
  let x = splitmix32(seed ^ 0x5eed5eed) ^ hashString(streamId);
  const state: number[] = [];
  for (let i = 0; i < 4; i++) {
    x = splitmix32(x + i);
    state.push(x | 0);
  }
  if ((state[0] | state[1] | state[2] | state[3]) === 0) state[0] = 1;
  return state;
}
