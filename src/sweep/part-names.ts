/**
 * The names of a sweep's result parts (parts.ts): `<out>.part-<i>-of-<n>`, a shard's
 * (1-of-1 for a whole local sweep), and `<out>.part-queue`, a queue coordinator's,
 * each with its timing sidecar. Apart from parts.ts so that a plain `sim` run, which
 * refuses to write over a part, need not load the sweep's reading and writing.
 */
import { basename } from 'node:path';
import type { Shard } from './shard.ts';

/** The part a shard (or, with `'queue'`, a queue coordinator) appends to. */
export function partPath(out: string, shard: Shard | 'queue'): string {
  return shard === 'queue' ? `${out}.part-queue` : `${out}.part-${shard.index}-of-${shard.count}`;
}

/** The timing sidecar of a part: one line per run with its wall time, host and Node version. */
export const timingPath = (part: string): string => `${part}.timing.jsonl`;

export const PART_NAME = /^\.part-(?:(\d+)-of-(\d+)|queue)$/;

/** Whether `path` names a sweep's part or its timing sidecar: files only a sweep may write. */
export function isPartFile(path: string): boolean {
  return /\.part-(?:\d+-of-\d+|queue)(?:\.timing\.jsonl)?$/.test(basename(path));
}
