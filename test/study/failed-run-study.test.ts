/**
 * A study whose recorded run failed: a real digit-width study of one trial, its round's
 * part edited so that one width's run failed as a deadlocked run is recorded, then the
 * study run again over that folder. It completes, counts the trial as failed, and says
 * that its platform has nothing to fit; it stopped with "sim: fitModel: expected a
 * non-empty list of samples { y, x }" (exit 2, no files), naming no run.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sim } from '../support/sim-cli.ts';

const STUDY = ['study', 'digit-width', '--platform', 'alewife', '--nodes', '16', '--max-keys', '40', '--trials', '1'];

describe('a digit-width study whose one trial has a failed run', () => {
  it('completes, with the trial failed and nothing to fit', async () => {
    const out = mkdtempSync(join(tmpdir(), 'sim-failed-study-'));
    expect((await sim([...STUDY, '--out', out])).code).toBe(0);
    const part = join(out, 'runs', 'round-1.jsonl.part-1-of-1');
    const lines = readFileSync(part, 'utf8').trimEnd().split('\n');
    const failed = { ...JSON.parse(lines[1]), status: 'failed', summary: null, error: { kind: 'run', message: 'deadlock at cycle 9000: 16 node(s) waiting with nothing left to happen' } };
    lines[1] = JSON.stringify(Object.fromEntries(Object.entries(failed).sort()));
    writeFileSync(part, `${lines.join('\n')}\n`);
    rmSync(join(out, 'runs', 'round-1.jsonl'));
    const r = await sim([...STUDY, '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}alewife 16 nodes: nothing to fit: every trial has a failed run$/m);
    expect(r.stdout).toMatch(/^alewife +1 +0 +0 +0 +1$/m);
    expect(JSON.parse(readFileSync(join(out, 'digit-width.summary.json'), 'utf8')).ceiling).toEqual([]);
  }, 120_000);
});
