/**
 * The full study results shipped under studies/ (issue 21) stay true to the code and
 * the models: for each of the five studies, the summary (JSON and text), the figure and
 * the CSV are recomputed from the shipped raw rows (`<name>.jsonl.gz`) with the command
 * the summary names, and must equal the shipped bytes; and every model the summary
 * names (those the study depends on, Study.usesModel) must still hash as it did when the
 * study ran, so recalibrating one fails here until the studies that used it are run
 * again, while recalibrating another (say the stencil's, for the sort studies) does not.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseStudyArgs } from '../../src/cli/study-command.ts';
import { modelHash, studyFiles, type ModelHash } from '../../src/cli/study-files.ts';
import { STUDY_NAMES, type Row } from '../../src/study/index.ts';
import { scoreSort, sortText } from '../../src/study/sort-scoring.ts';
import { ROOT } from '../support/sim-cli.ts';

interface ShippedSummary {
  command: string;
  runs: number;
  models: ModelHash[];
}

const shipped = (study: string, file: string) => join(ROOT, 'studies', study, file);

describe('studies/: the shipped full results', () => {
  it.each(STUDY_NAMES)('%s: its models are the shipped ones, and its summary, text, figure and CSV follow from its rows', async (name) => {
    const summary = JSON.parse(readFileSync(shipped(name, `${name}.summary.json`), 'utf8')) as ShippedSummary;
    expect(summary.models.length).toBeGreaterThan(0);
    for (const m of summary.models) {
      const now = modelHash(readFileSync(join(ROOT, m.file), 'utf8'), m.model, m.platform);
      expect(now, `${m.model} (${m.platform}) in ${m.file} changed since studies/${name} was made: run the study again (README, "Reproducing the thesis")`).toBe(m.sha256);
    }
    const words = summary.command.split(' ');
    expect(words.slice(0, 3)).toEqual(['sim', 'study', name]);
    const args = await parseStudyArgs([...words.slice(2), '--out', mkdtempSync(join(tmpdir(), 'sim-shipped-'))]);
    const jsonl = gunzipSync(readFileSync(shipped(name, `${name}.jsonl.gz`))).toString('utf8');
    const rows = jsonl.trim().split('\n').map((l) => JSON.parse(l) as Row);
    const { files } = studyFiles(args, rows, summary.runs);
    expect(files[`${name}.jsonl`]).toBe(jsonl);
    for (const file of [`${name}.summary.json`, `${name}.summary.txt`, `${name}.svg`]) {
      expect(files[file], `studies/${name}/${file}`).toBe(readFileSync(shipped(name, file), 'utf8'));
    }
    expect(files[`${name}.csv`]).toBe(gunzipSync(readFileSync(shipped(name, `${name}.csv.gz`))).toString('utf8'));
  }, 60_000);

  it('the stencil-selection figure draws a study with more rows on a platform than a call takes arguments', async () => {
    // The shipped Alewife rows repeated as further trials, 130,000 rows in all: the
    // figure once took Math.max(...) over them and threw a RangeError.
    const args = await parseStudyArgs(['stencil-selection', '--platform', 'alewife', '--out', mkdtempSync(join(tmpdir(), 'sim-shipped-'))]);
    const jsonl = gunzipSync(readFileSync(shipped('stencil-selection', 'stencil-selection.jsonl.gz'))).toString('utf8');
    const alewife = jsonl.trim().split('\n').map((l) => JSON.parse(l) as Row).filter((r) => r.platform === 'alewife');
    const many: Row[] = [];
    for (let k = 0; many.length < 130_000; k++) for (const r of alewife) many.push({ ...r, trial: (r.trial as number) + k * 1_000_000 });
    const svg = args.study.figure(many, {}, args.options);
    expect(svg).toContain('alewife, 64 nodes');
  }, 60_000);

  it("sort-selection's checks judge the rows: a penalty of 1% or more fails, and no wrong-side point has no penalty to fail", () => {
    const maxKeys = (JSON.parse(readFileSync(shipped('sort-selection', 'sort-selection.summary.json'), 'utf8')) as { maxKeys: number }).maxKeys;
    const rows = gunzipSync(readFileSync(shipped('sort-selection', 'sort-selection.jsonl.gz'))).toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as Row);
    const penaltyCheck = (s: ReturnType<typeof scoreSort>) => s.checks.find((c) => c.check.startsWith('mean penalty'))!;
    expect(penaltyCheck(scoreSort(rows, maxKeys))).toMatchObject({ value: '0.44%', pass: true });
    // The model's pick at each wrong-side point made 2% slower: the mean penalty passes 1%.
    const slower = rows.map((r) => {
      if (r.kind !== 'penalty') return r;
      const pick = (r.keys as number) <= (r.predictedLast as number) ? r.left : r.right;
      return r.variant === pick ? { ...r, measured: (r.measured as number) * 1.02 } : r;
    });
    const failing = scoreSort(slower, maxKeys);
    expect(penaltyCheck(failing).pass).toBe(false);
    expect(sortText(failing)).toMatch(/^ {2}FAIL {2}mean penalty at the 21 wrong-side points: 2\.\d\d% \(target < 1%\)$/m);
    // Without the penalty rows: nothing to average, nothing failed.
    const none = scoreSort(rows.filter((r) => r.kind !== 'penalty'), maxKeys);
    expect(penaltyCheck(none)).toMatchObject({ check: 'mean penalty at the 0 wrong-side points', value: '-', pass: true });
    expect(sortText(none)).toMatch(/^ {2}pass {2}mean penalty at the 0 wrong-side points: - \(target < 1%\)$/m);
  });
});
