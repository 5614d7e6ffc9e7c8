/**
 * What `sim study` does with its --out folder at the edges: a study with no runs at its
 * settings (sort-selection of at most 40 keys: every crossover is outside the range)
 * still writes its files (they failed with ENOENT: no round had made the folder); an
 * unreachable --queue is refused before anything is written (it left the round's sweep
 * file); another study's folder is named as such (it was "a stencil-selection study
 * made with other options" of a stencil-gain study's folder).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
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
    // It passed every check, "0 of 0", without a word.
    expect(r.stderr).toBe('sim study sort-selection: the study has no runs at these settings; its summary measures nothing (its checks say n/a)\n');
    expect(r.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['sort-selection.csv', 'sort-selection.jsonl', 'sort-selection.summary.json', 'sort-selection.summary.txt', 'sort-selection.svg']);
    expect(r.stdout).toMatch(/^ {2}error ratio not measured \(no predicted crossover in 1-40\)  \[\d+\/10000\]$/m);
    expect(r.stdout).toMatch(/^ {2}n\/a {3}mean accuracy: - \(target >= 99\.5%\)$/m);
    expect(r.stdout).not.toMatch(/^ {2}pass /m);
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

  // Another --max-keys asks for the same runs here: the summary, rows and figure were replaced without a word.
  it('refuses a folder whose finished summary asked for something else, and takes the same request spelt otherwise', async () => {
    const out = join(dir, 'keys');
    const study = ['study', 'sort-selection', '--platform', 'atm', '--nodes', '16', '--trials', '2', '--out', out];
    const args = [...study, '--max-keys', '60'];
    expect((await sim(args)).code).toBe(0);
    const summary = readFileSync(join(out, 'sort-selection.summary.json'), 'utf8');
    const other = await sim([...study, '--max-keys', '61']);
    expect(other.stderr).toBe(`sim: --out ${out}: holds a sort-selection study made with other options or models: sim study sort-selection --platform atm --nodes 16 --trials 2 --max-keys 60; use another --out, or remove it to start again\n`);
    expect(other.code).toBe(2);
    expect(readFileSync(join(out, 'sort-selection.summary.json'), 'utf8')).toBe(summary);
    // The default seed given, and --json: the same study, complete.
    const same = await sim([...args, '--seed', '1', '--json']);
    expect(same.code).toBe(0);
    expect(JSON.parse(same.stdout)).toMatchObject({ complete: true, study: 'sort-selection', maxKeys: 60 });
  }, 120_000);

  // stencil-selection's trials depend on the machine size (100 at 16 nodes): --trials 100 was refused as another request.
  it("takes a study's default trials given explicitly where they depend on the machine size", async () => {
    const out = join(dir, 'sizes');
    const args = ['study', 'stencil-selection', '--platform', 'cm5', '--nodes', '16', '--max-grid', '16', '--out', out];
    expect((await sim(args)).code).toBe(0);
    const same = await sim([...args, '--trials', '100']);
    expect(same.stderr).toBe('');
    expect(same.code).toBe(0);
  }, 60_000);

  // EEXIST at mkdir, or ENOTDIR in a dry run: "internal error (a bug in the simulator)" with a stack.
  it('refuses a file named runs in --out with one line, run or dry run', async () => {
    const out = join(dir, 'runs-file');
    mkdirSync(out);
    writeFileSync(join(out, 'runs'), 'x\n');
    for (const extra of [[], ['--dry-run']]) {
      const r = await sim(['study', 'stencil-gain', '--platform', 'cm5', '--nodes', '16', '--trials', '2', '--max-grid', '48', '--out', out, ...extra]);
      expect(r.stderr).toBe(`sim: --out ${out}: holds a file named runs, where the study keeps its rounds' sweeps; expected a folder\n`);
      expect(r.code).toBe(2);
    }
    expect(readdirSync(out)).toEqual(['runs']);
  }, 60_000);
});
