/**
 * A study's merged round read a window of whole lines at a time: a real digit-width
 * study of one trial (alewife, 16 nodes), its round file read with a window of one line
 * and of a few lines, measures what the whole file at once does, run by run (a round
 * over 512 MB, read as one string, stopped the study with ERR_STRING_TOO_LONG).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseStudyArgs, readRound } from '../../src/cli/study-command.ts';
import { runId, type Measured } from '../../src/study/index.ts';
import { sim } from '../support/sim-cli.ts';

const out = join(mkdtempSync(join(tmpdir(), 'sim-round-windows-')), 'study');
const STUDY = ['study', 'digit-width', '--platform', 'alewife', '--nodes', '16', '--max-keys', '40', '--trials', '1', '--out', out];
const round = join(out, 'runs', 'round-1.jsonl');

beforeAll(async () => {
  const r = await sim(STUDY);
  expect(r.code).toBe(0);
}, 120_000);

describe("a study's round read in windows", () => {
  it('measures every run as the file records it, with a window of one line and of three', async () => {
    const args = await parseStudyArgs(STUDY.slice(1));
    const runs = args.study.next(args.options, new Map());
    const lines = readFileSync(round, 'utf8').trimEnd().split('\n').slice(1);
    expect(lines).toHaveLength(runs.length);
    const recorded = lines.map((l) => (JSON.parse(l) as { summary: { metrics: { cycles: number } } }).summary.metrics.cycles);
    const longest = Math.max(...lines.map((l) => Buffer.byteLength(l) + 1));
    for (const window of [longest, 3 * longest, undefined]) {
      const measured = new Map<string, Measured>();
      readRound(round, runs, measured, window);
      expect(runs.map((r) => measured.get(runId(r)))).toEqual(recorded.map((cycles) => ({ cycles, failure: null })));
    }
  });
});
