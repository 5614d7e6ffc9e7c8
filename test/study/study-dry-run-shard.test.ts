/**
 * `sim study --dry-run --shard i/n` counts that shard's runs of the round, as `sim sweep
 * --dry-run --shard` does: it counted the whole round's, as if --shard were not given.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sim } from '../support/sim-cli.ts';

const STUDY = ['study', 'stencil-gain', '--platform', 'cm5', '--nodes', '16', '--trials', '2', '--out', 'st'];

describe('sim study --dry-run with --shard', () => {
  it("says what this shard would run, before and after it ran, and the rest of the round's", { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-study-dry-shard-'));
    expect((await sim([...STUDY, '--dry-run'], dir)).stdout).toBe('sim study stencil-gain: round 1 would run 27 of its 27 runs (0 recorded)\n');
    expect((await sim([...STUDY, '--dry-run', '--shard', '1/2'], dir)).stdout).toBe('sim study stencil-gain: round 1 would run 14 of the 14 of its 27 runs in shard 1/2 (0 recorded)\n');
    expect((await sim([...STUDY, '--shard', '1/2'], dir)).code).toBe(0);
    expect((await sim([...STUDY, '--dry-run', '--shard', '1/2'], dir)).stdout).toBe('sim study stencil-gain: round 1 would run 0 of the 14 of its 27 runs in shard 1/2 (14 recorded)\n');
    const other = await sim([...STUDY, '--dry-run', '--shard', '2/2', '--json'], dir);
    expect(JSON.parse(other.stdout)).toEqual({ study: 'stencil-gain', round: 1, runs: 27, shard: '2/2', inShard: 13, recorded: 0, complete: false });
    expect((await sim([...STUDY, '--dry-run'], dir)).stdout).toBe('sim study stencil-gain: round 1 would run 13 of its 27 runs (14 recorded)\n');
  });
});
