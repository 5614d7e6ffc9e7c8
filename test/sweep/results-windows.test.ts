/**
 * A final results file read a window of whole lines at a time, whatever its size: the
 * results of a real 24-run sweep exported as CSV with a window of one line, and of a few
 * lines, give the bytes sim sweep export gives (a file over 512 MB, a sweep of a million
 * runs, was "cannot read the results (ERR_STRING_TOO_LONG)" when read as one string).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/sweep/canonical.ts';
import { resultsCsv } from '../../src/sweep/export-csv.ts';
import { openResults, resultLines } from '../../src/sweep/results-file.ts';
import { sim } from '../support/sim-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'sim-results-windows-'));
const results = join(dir, 'small.jsonl');
let longest = 0;

beforeAll(async () => {
  const r = await sim(['sweep', 'test/fixtures/sweeps/small.json', '--out', results, '--workers', '1']);
  expect(r.code).toBe(0);
  longest = Math.max(...readFileSync(results, 'utf8').split('\n').map((l) => Buffer.byteLength(l) + 1));
}, 60_000);

describe('a results file read in windows', () => {
  it('exports the same CSV with a window of one line, of a few lines, and as sim sweep export writes it', async () => {
    const cli = await sim(['sweep', 'export', results, '--format', 'csv']);
    expect(cli.code).toBe(0);
    const rows = cli.stdout.trimEnd().split('\n');
    expect(rows).toHaveLength(25);
    expect(rows.slice(1).map((r) => Number(r.split(',')[0]))).toEqual([...Array(24).keys()]);
    // The summary's copies of the inputs and its per-node log lines are no columns: each column once, none lastLog.
    const columns = rows[0].split(',');
    expect(new Set(columns).size).toBe(columns.length);
    expect(columns.filter((c) => c.startsWith('lastLog'))).toEqual([]);
    for (const window of [longest, 3 * longest]) expect([...resultsCsv(results, undefined, window)].join('')).toBe(cli.stdout);
    const picked = await sim(['sweep', 'export', results, '--format', 'csv', '--columns', 'status,i']);
    expect([...resultsCsv(results, ['status', 'i'], longest)].join('')).toBe(picked.stdout);
  });

  it('reads every run in order, each line whole, with a window of one line', () => {
    const file = openResults(results, 'run sim sweep merge');
    const entries = [...resultLines(file, longest)];
    expect(entries.map((e) => [e.i, e.line.i, e.where])).toEqual(entries.map((_, k) => [k, k, `${results}:${k + 2}`]));
    expect(entries.map((e) => JSON.stringify(e.line))).toEqual(readFileSync(results, 'utf8').trimEnd().split('\n').slice(1));
  });

  it('quotes a cell holding a quote, comma or line break, doubling its quotes (RFC 4180)', () => {
    const lines = readFileSync(results, 'utf8').split('\n');
    const run0 = JSON.parse(lines[1]) as Record<string, unknown>;
    lines[1] = canonicalJson({ ...run0, status: 'failed', error: { kind: 'run', message: 'node 3 said "no", then\nstopped' } });
    lines[2] = canonicalJson({ ...(JSON.parse(lines[2]) as object), status: 'failed', error: { kind: 'run', message: 'two\rlines' } });
    const edited = join(dir, 'edited.jsonl');
    writeFileSync(edited, lines.join('\n'));
    const csv = [...resultsCsv(edited, ['i', 'error.message', 'status'])].join('');
    expect(csv.split('\n').slice(0, 4)).toEqual(['i,error.message,status', '0,"node 3 said ""no"", then', 'stopped",failed', '1,"two\rlines",failed']);
  });

  it('refuses a results file whose last line has no newline as incomplete', () => {
    const cut = join(dir, 'cut.jsonl');
    writeFileSync(cut, readFileSync(results, 'utf8').trimEnd());
    expect(() => openResults(cut, 'run sim sweep merge')).toThrow(`${cut}: the last line is incomplete (not a final results file; run sim sweep merge)`);
  });

  it('refuses a results file with a line missing, or two lines swapped, as no final results file', () => {
    const lines = readFileSync(results, 'utf8').trimEnd().split('\n');
    const short = join(dir, 'short.jsonl');
    writeFileSync(short, `${lines.filter((_, k) => k !== 5).join('\n')}\n`);
    expect(() => openResults(short, 'run sim sweep merge')).toThrow(`${short}: 23 result lines for 24 runs (not a final results file; run sim sweep merge)`);
    const swapped = join(dir, 'swapped.jsonl');
    [lines[3], lines[4]] = [lines[4], lines[3]];
    writeFileSync(swapped, `${lines.join('\n')}\n`);
    expect(() => [...resultsCsv(swapped, undefined)]).toThrow(`${swapped}:4: run 3 where run 2 belongs (not in sweep order); run sim sweep merge`);
  });

  it('refuses a line longer than a window, naming it', () => {
    expect(() => [...resultsCsv(results, undefined, 100)]).toThrow(`${results}:2: a line of more than 100 bytes; expected result lines (one JSON object of a run per line)`);
  });
});
