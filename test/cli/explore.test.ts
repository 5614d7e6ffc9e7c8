import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import race from '../../apps/examples/race/index.ts';
import { runApp } from '../../src/runtime/run-app.ts';
import { runConfig } from '../../src/runtime/run-config.ts';
import { loadTestPlatform } from '../support/platforms.ts';
import { ROOT, sim } from '../support/sim-cli.ts';

const runRace = (seed: number, perturb?: number) =>
  runApp(runConfig(loadTestPlatform('cm5'), race, { nodes: 16, seed, network: 'packet', perturb }));

describe('schedule perturbation', () => {
  it('without perturbation the race never fires', () => {
    for (const seed of [1, 2, 3, 4, 5]) expect(runRace(seed).verified).toBe(true);
  });

  it('is deterministic per perturbation seed, and different seeds perturb differently', () => {
    const fingerprint = (p: number) => {
      try {
        return runRace(1, p).fingerprint;
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(fingerprint(4)).toBe(fingerprint(4));
    expect(new Set([1, 4, 5, 6, 8].map(fingerprint)).size).toBeGreaterThan(1);
  });
});

describe('sim explore', () => {
  it('finds failing perturbation seeds, each of which replays to the same failure at the same event', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-explore-'));
    const r = await sim(['explore', join(ROOT, 'apps/examples/race'), '--runs', '12', '--platform', 'cm5', '--nodes', '16'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^sim explore: 12 perturbed runs of race on cm5, [1-9]\d* failed:$/m);
    const files = [...r.stdout.matchAll(/replay: sim replay (\S+)/g)].map((m) => m[1]);
    expect(files.length).toBeGreaterThan(0);
    const first = await sim(['replay', files[0]], dir);
    const again = await sim(['replay', files[0]], dir);
    expect(first.code).toBe(1);
    expect(first.stdout).toMatch(/^sim replay: the run fails as recorded, at event \d+: node 3 at cycle \d+: StrataFail: node 2's message arrived before node 1's/m);
    expect(again.stdout).toBe(first.stdout);
  });

  it('writes repro files for the first --repros failing seeds only: a racy app failing under most seeds filled the directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-explore-'));
    const r = await sim(['explore', join(ROOT, 'apps/examples/race'), '--runs', '12', '--platform', 'cm5', '--nodes', '16', '--repros', '2', '--json'], dir);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as { repros: number; failed: { perturb: number; repro: string | null }[] };
    expect(out.repros).toBe(2);
    expect(out.failed.length).toBeGreaterThan(2);
    const written = out.failed.filter((f) => f.repro !== null);
    expect(written.map((f) => f.perturb)).toEqual(out.failed.slice(0, 2).map((f) => f.perturb));
    expect(readdirSync(dir).sort()).toEqual(written.map((f) => f.repro).sort());
    const text = await sim(['explore', join(ROOT, 'apps/examples/race'), '--runs', '12', '--platform', 'cm5', '--nodes', '16', '--repros', '0'], mkdtempSync(join(tmpdir(), 'sim-explore-')));
    expect(text.stdout).not.toMatch(/replay:/);
    expect(text.stdout).toMatch(new RegExp(`^sim explore: repro files for the first 0 failing seeds only \\(--repros 0\\); .* records any of the other ${out.failed.length}$`, 'm'));
    // Exactly one failing seed past --repros is still said: the seeds up to the second failing one, with --repros 1.
    const runs = String(out.failed[1].perturb);
    const one = await sim(['explore', join(ROOT, 'apps/examples/race'), '--runs', runs, '--platform', 'cm5', '--nodes', '16', '--repros', '1'], mkdtempSync(join(tmpdir(), 'sim-explore-')));
    expect(one.stdout).toMatch(/^sim explore: repro files for the first 1 failing seeds only \(--repros 1\); .* records any of the other 1$/m);
    expect((await sim(['explore', 'apps/examples/race', '--runs', '2', '--platform', 'cm5', '--repros', '-1'])).stderr).toBe('sim: --repros -1: expected an integer from 0 to 1000000\n');
  });

  it('writes a repro of a run stopped at its limit that replays to the same place (it diverged: no limit, no fingerprint recorded)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-explore-'));
    const r = await sim(['explore', join(ROOT, 'apps/stencil'), '--runs', '1', '--platform', 'cm5', '--nodes', '16', '--param', 'width=64', '--param', 'height=64', '--param', 'iters=2', '--max-events', '50'], dir);
    expect(r.code).toBe(1);
    const replay = await sim(['replay', 'sim-repro-stencil-cm5-n16-s1-p1.json'], dir);
    expect(replay.stdout).toMatch(/^sim replay: reproduced the recorded run to where it stopped \(50 events, fingerprint [0-9a-f]{16}; its event digests were not recorded/m);
    expect(replay.stdout).toMatch(/^sim replay: the run stops as recorded: stopped at its limit of 50 events/m);
  });

  it('does not run a seed stopped at its limit again: its repro says where it stopped, a few kB (it was 2.7 bytes an event)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-explore-'));
    const started = performance.now();
    const r = await sim(['explore', 'apps/ping-pong', '--runs', '2', '--platform', 'cm5', '--nodes', '64', '--param', 'rounds=1000', '--max-events', '2000000'], dir);
    const wallMs = performance.now() - started;
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^  --perturb 2: stopped at its limit of 2000000 events/m);
    for (const p of [1, 2]) {
      const file = join(dir, `sim-repro-ping-pong-cm5-n64-s1-p${p}.json`);
      const repro = JSON.parse(readFileSync(file, 'utf8'));
      expect(repro.eventDigests).toBeNull();
      expect(repro.stop).toEqual({ maxCycles: 1e10, maxEvents: 2000000 });
      expect(statSync(file).size).toBeLessThan(10_000);
    }
    const replay = await sim(['replay', 'sim-repro-ping-pong-cm5-n64-s1-p2.json'], dir);
    expect(replay.code).toBe(1);
    expect(replay.stdout).toMatch(/^sim replay: reproduced the recorded run to where it stopped \(2000000 events, fingerprint [0-9a-f]{16}; /);
    expect(wallMs).toBeLessThan(10_000);
  }, 20_000);

  it('resolves auto parameters from the platform models once, as a run does, and says to what (it said nothing of them: which layout was explored?)', async () => {
    const args = ['explore', 'apps/stencil', '--runs', '2', '--platform', 'alewife', '--nodes', '16', '--param', 'layout=auto', '--param', 'extraRows=auto', '--param', 'extraCols=auto', '--param', 'width=64', '--param', 'height=64', '--param', 'iters=2'];
    const r = await sim([...args, '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { auto: { module: string; resolved: Record<string, string | number> } };
    expect(out).toMatchObject({ app: 'stencil', tried: 2, failed: [], auto: { module: 'stencil' } });
    const run = await sim(['--platform', 'alewife', '--nodes', '16', 'apps/stencil', ...args.slice(6), '--json']);
    expect(out.auto).toEqual((JSON.parse(run.stdout) as { auto: unknown }).auto);
    const text = await sim(args);
    expect(text.stdout).toMatch(new RegExp(`^sim explore: auto layout=${out.auto.resolved.layout} extraCols=\\d+ extraRows=\\d+ \\(module stencil: ${out.auto.resolved.layout} predicted [\\d,]+ cycles = [\\d,.]+ us\\)$`, 'm'));
  });

  it('refuses a missing --runs and a --perturb it is meant to vary', async () => {
    const noRuns = await sim(['explore', 'apps/examples/race', '--platform', 'cm5']);
    expect(noRuns.code).toBe(2);
    expect(noRuns.stderr).toBe('sim explore: missing --runs <N>: how many perturbation seeds to try\n');
    const perturb = await sim(['explore', 'apps/examples/race', '--runs', '2', '--platform', 'cm5', '--perturb', '3']);
    expect(perturb.code).toBe(2);
    expect(perturb.stderr).toBe('sim explore: --perturb: it is what explore varies (seeds 1..N); leave it out\n');
  });
});
