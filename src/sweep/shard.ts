/**
 * Shards: `--shard i/n` names the i-th of n parts of a job list (1-based, as Slurm,
 * PBS and SGE array indexes are). Sweeps take runs round-robin by index (run j goes to
 * shard j mod n + 1) so long and short runs spread over the shards.
 */
import { InputError } from '../kernel/errors.ts';

export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** The whole list as one shard. */
export const WHOLE: Shard = { index: 1, count: 1 };

/** The most shards `--shard i/n` takes (nine digits). */
export const MAX_SHARDS = 999_999_999;

/** Parses `i/n` with 1 <= i <= n. @throws InputError for anything else */
export function parseShard(text: string): Shard {
  const m = /^(\d{1,9})\/(\d{1,9})$/.exec(text);
  const index = m === null ? NaN : Number(m[1]);
  const count = m === null ? NaN : Number(m[2]);
  // At most 9 digits each: --shard 1/1000000000 was told to have 1 <= i <= n, which it had.
  if (!(index >= 1 && count >= 1 && index <= count)) throw new InputError(`--shard ${text}: expected i/n with 1 <= i <= n <= 999999999 (e.g. 2/4)`);
  return { index, count };
}

/** Whether run `i` (0-based sweep index) belongs to `shard` (round-robin). */
export function inShard(i: number, shard: Shard): boolean {
  return i % shard.count === shard.index - 1;
}

/** The shard (1-based) that run `i` belongs to among `count`. */
export function shardOf(i: number, count: number): number {
  return (i % count) + 1;
}
