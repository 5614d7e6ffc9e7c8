/**
 * A finished study's folder, edited, then read again: a real digit-width study of one
 * trial (alewife, 16 nodes), copied for each story.
 *
 * - Its round's part edited so that one width's run failed, as a deadlocked run is
 *   recorded: the study run again completes, counts the trial as failed and says its
 *   platform has nothing to fit (it stopped with "sim: fitModel: expected a non-empty
 *   list of samples { y, x }", exit 2, no files, naming no run).
 * - A run's cycles edited to 0 or below: one line naming the run (the fit stopped on a
 *   0, and -5 was scored "-839260.00% (optimal)").
 * - Its merged round file edited: --dry-run, which reads that file as it is, refuses it
 *   with one line naming the file and line (it was "internal error: SyntaxError" for a
 *   line cut short, a TypeError for a null line, and took a line at another run's place).
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sim } from '../support/sim-cli.ts';

const STUDY = ['study', 'digit-width', '--platform', 'alewife', '--nodes', '16', '--max-keys', '40', '--trials', '1'];
const dir = mkdtempSync(join(tmpdir(), 'sim-edited-study-'));
const base = join(dir, 'base');

beforeAll(async () => {
  const r = await sim([...STUDY, '--out', base]);
  expect(r.code).toBe(0);
}, 120_000);

/** A copy of the finished study, with the lines of its round file `file` (under runs/) edited. */
function edited(name: string, file: string, edit: (lines: string[]) => void): string {
  const out = join(dir, name);
  cpSync(base, out, { recursive: true });
  const path = join(out, 'runs', file);
  const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
  edit(lines);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return out;
}

describe('a finished digit-width study, edited', () => {
  it('with a failed run in its one trial, completes: the trial failed and nothing to fit', async () => {
    const out = edited('failed', 'round-1.jsonl.part-1-of-1', (lines) => {
      const failed = { ...JSON.parse(lines[1]), status: 'failed', summary: null, error: { kind: 'run', message: 'deadlock at cycle 9000: 16 node(s) waiting with nothing left to happen' } };
      lines[1] = JSON.stringify(Object.fromEntries(Object.entries(failed).sort()));
    });
    rmSync(join(out, 'runs', 'round-1.jsonl'));
    const r = await sim([...STUDY, '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}alewife 16 nodes: nothing to fit: every trial has a failed run$/m);
    expect(r.stdout).toMatch(/^alewife +1 +0 +0 +0 +1$/m);
    const summary = JSON.parse(readFileSync(join(out, 'digit-width.summary.json'), 'utf8'));
    expect(summary.ceiling).toEqual([]);
    // A failed trial is no pass: the check says so.
    expect(summary.checks).toEqual([expect.objectContaining({ value: '0 optimal + 0 within 0.5% of 1 (1 failed)', pass: false })]);
    expect(readFileSync(join(out, 'digit-width.summary.txt'), 'utf8')).toMatch(/^ {2}FAIL {2}g\(i\)'s choice optimal, or within 0\.5% \(counted apart\): 0 optimal \+ 0 within 0\.5% of 1 \(1 failed\) \(target 1 of 1\)$/m);
  }, 120_000);

  it.each([
    ['a line cut short', (l: string[]) => (l[3] = l[3].slice(0, 50)), 'not a JSON line (a results file holds one JSON object per line)'],
    ['a null line', (l: string[]) => (l[3] = 'null'), 'expected a JSON object'],
    ['two lines swapped', (l: string[]) => ([l[3], l[4]] = [l[4], l[3]]), "run 3 where run 2 belongs (not in sweep order); remove the round's files to run it again"],
  ])('with %s in its merged round, is refused by --dry-run with one line', async (what, edit, message) => {
    const out = edited(what.replace(/\W+/g, '-'), 'round-1.jsonl', edit);
    const r = await sim([...STUDY, '--out', out, '--dry-run']);
    expect(r.stderr).toBe(`sim: ${join(out, 'runs', 'round-1.jsonl')}:4: ${message}\n`);
    expect(r.code).toBe(2);
  }, 60_000);

  it.each([
    // "sim: fitModel: a sample of 0 cycles, which a fit of relative error cannot weight", naming no run.
    [0, 'zero'],
    // Scored: "chose 4, best 3, -839260.00% (optimal)".
    [-5, 'negative'],
  ])('with a run of %s cycles in its part (%s), is refused when run again, naming the run', async (cycles, what) => {
    const out = edited(`cycles-${what}`, 'round-1.jsonl.part-1-of-1', (lines) => {
      const k = lines.findIndex((l) => l.includes('"i":2,'));
      const line = JSON.parse(lines[k]);
      line.summary.metrics.cycles = cycles;
      lines[k] = JSON.stringify(line);
    });
    rmSync(join(out, 'runs', 'round-1.jsonl'));
    const r = await sim([...STUDY, '--out', out]);
    expect(r.stderr).toBe(`sim: ${join(out, 'runs', 'round-1.jsonl')}:4: run 2 took ${cycles} cycles; expected a positive whole number, as a run records; remove the round's files to run it again\n`);
    expect(r.code).toBe(2);
  }, 60_000);

  // The run rewrote the round's sweep file, then the sweep refused: 'holds the results of sweep
  // "digit-width-round-1" (...), not "digit-width-round-1"'; the dry run said the round would run.
  it.each([
    ['merged', false],
    ['in its part only', true],
  ])('run again with other options (its round %s), is refused by the run and the dry run, its files as they were', async (_what, partOnly) => {
    const out = edited(`other-options-${partOnly ? 'part' : 'merged'}`, 'round-1.jsonl', () => {});
    if (partOnly) rmSync(join(out, 'runs', 'round-1.jsonl'));
    const before = Object.fromEntries(readdirSync(join(out, 'runs')).map((f) => [f, readFileSync(join(out, 'runs', f), 'utf8')]));
    const other = [...STUDY, '--seed', '2'];
    for (const extra of [[], ['--dry-run']]) {
      const r = await sim([...other, '--out', out, ...extra]);
      expect(r.stderr).toBe(`sim: --out ${out}: holds a digit-width study made with other options (--trials, --seed, --platform, --nodes or the study's own): its round 1 has other runs; use another --out, or remove it to start again\n`);
      expect(r.code).toBe(2);
    }
    expect(Object.fromEntries(readdirSync(join(out, 'runs')).map((f) => [f, readFileSync(join(out, 'runs', f), 'utf8')]))).toEqual(before);
  }, 60_000);
});
