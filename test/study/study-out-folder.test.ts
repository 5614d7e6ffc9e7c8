/**
 * What `sim study` does with its --out folder at the edges: a study with no runs at its
 * settings (sort-selection of at most 40 keys: every crossover is outside the range)
 * still writes its files (they failed with ENOENT: no round had made the folder); an
 * unreachable --queue is refused before anything is written (it left the round's sweep
 * file); another study's folder is named as such (it was "a stencil-selection study
 * made with other options" of a stencil-gain study's folder).
 */
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sim } from '../support/sim-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'sim-study-out-'));

describe('sim study and its --out folder', () => {
  it('writes the files of a study with no runs at its settings, and its dry run says it has none', async () => {
    const out = join(dir, 'none');
    const args = ['study', 'sort-selection', '--platform', 'cm5', '--nodes', '16', '--trials', '2', '--max-keys', '40', '--out', out];
    const dry = await sim([...args, '--dry-run']);
    expect(dry.stdout).toBe('sim study sort-selection: the study has no runs at these settings; nothing would run\n');
    expect(existsSync(out)).toBe(false);
    const r = await sim(args);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['sort-selection.csv', 'sort-selection.jsonl', 'sort-selection.summary.json', 'sort-selection.summary.txt', 'sort-selection.svg']);
  }, 60_000);

  it('refuses an unreachable queue before writing anything', async () => {
    const out = join(dir, 'queue');
    const r = await sim(['study', 'stencil-gain', '--platform', 'cm5', '--nodes', '16', '--trials', '2', '--max-grid', '48', '--out', out, '--queue', 'redis://127.0.0.1:1/0']);
    expect(r.stderr).toBe('sim: --queue redis://127.0.0.1:1/0: cannot reach Redis (ECONNREFUSED)\n');
    expect(r.code).toBe(2);
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it("names another study's folder as such", async () => {
    const out = join(dir, 'gain');
    expect((await sim(['study', 'stencil-gain', '--platform', 'cm5', '--nodes', '16', '--trials', '2', '--max-grid', '48', '--out', out])).code).toBe(0);
    const r = await sim(['study', 'stencil-selection', '--platform', 'cm5', '--nodes', '16', '--trials', '2', '--max-grid', '48', '--out', out]);
    expect(r.stderr).toBe(`sim: --out ${out}: holds the runs of another study (its round 1 is sweep "stencil-gain-round-1"), not a stencil-selection study; use another --out\n`);
    expect(r.code).toBe(2);
  }, 60_000);
});
