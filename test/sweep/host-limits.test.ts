/**
 * A sweep records only what its inputs decide. A run that a limit of the host stops (the
 * thread's stack here; the heap's in test/cli/run-limits.test.ts) is no result: with
 * --workers 1 an app recursing 30,000 deep overflowed the main thread's stack (about
 * 1 MB) and was recorded as failed, while in a worker thread (4 MB) it verified, so the
 * same sweep's results differed with the worker count. Now it is refused, not recorded,
 * and every line either executor records is the other's.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sim } from '../support/sim-cli.ts';

const DEEP = join(ROOT, 'test/fixtures/deep-recursion-app');
const linesOf = (file: string): string[] => readFileSync(file, 'utf8').trim().split('\n');

describe('sim sweep: a run stopped by the host is not a result', () => {
  it("refuses a run that overflows the main thread's stack instead of recording it failed; one and two workers record nothing that differs", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-host-limits-'));
    writeFileSync(join(dir, 'deep.json'), JSON.stringify({ name: 'deep', runs: [{ app: DEEP, platform: 'cm5', nodes: 2 }, { app: 'apps/ping-pong', platform: 'cm5', nodes: 2 }] }));
    const [one, two] = await Promise.all([sim(['sweep', 'deep.json', '--out', 'one.jsonl'], dir), sim(['sweep', 'deep.json', '--out', 'two.jsonl', '--workers', '2'], dir)]);
    expect(one.stdout).toBe('sim sweep deep: 2 runs: 1 verified, 0 unverified, 0 failed, 1 missing; ran 2, 0 already recorded; not all runs recorded yet\n');
    expect(one.stderr).toMatch(
      /^sim sweep: refused: run 0 \(run-[0-9a-f]{64}\): node 0 at cycle \d+: RangeError: Maximum call stack size exceeded: how deep a run may recurse is the host thread's stack, not the run's, so not recorded; make the app recurse less deeply \(a worker thread, --workers 2 or more, has a larger stack\)\n$/,
    );
    expect(one.code).toBe(1);
    expect(two.code === 0 || two.code === 1).toBe(true);
    const recordedByTwo = new Set(linesOf(join(dir, 'two.jsonl.part-1-of-1')));
    for (const line of linesOf(join(dir, 'one.jsonl.part-1-of-1'))) expect(recordedByTwo.has(line), line.slice(0, 120)).toBe(true);
  });
});
