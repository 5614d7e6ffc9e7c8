// The perf bench's split diagnostic (bench/phase-child.mjs): one sim command line run
// in one process, timed in two parts, the first 100,000 events and the rest, or (with
// --by-kind) the rest by event kind. Either run must be the run `sim` makes: the same
// fingerprint and events.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function node(script: string, args: string[]): { status: number | null; json: Record<string, unknown> | null; stderr: string } {
  const done = spawnSync(process.execPath, [join(ROOT, script), ...args], { cwd: ROOT, encoding: 'utf8' });
  const line = done.stdout.split('\n').find((l) => l.startsWith('{'));
  return { status: done.status, json: line === undefined ? null : (JSON.parse(line) as Record<string, unknown>), stderr: done.stderr };
}

describe('bench/phase-child.mjs', () => {
  it("splits sim's own run after 100,000 events: the same fingerprint, and every event in one part or the other", () => {
    // About 360,000 events.
    const args = ['--platform', 'cm5', 'apps/patterns', '--nodes', '16', '--param', 'pattern=cshift', '--param', 'blockBytes=4096', '--param', 'rounds=8'];
    const split = node('bench/phase-child.mjs', args);
    const sim = node('bin/sim.mjs', [...args, '--json']);
    expect(split.status).toBe(0);
    expect(split.json?.fingerprint).toBe(sim.json?.fingerprint);
    expect(split.json?.verified).toBe(true);
    expect(split.json?.firstEvents).toBe(100_000);
    expect(Number(split.json?.firstEvents) + Number(split.json?.restEvents)).toBe(sim.json?.events);
    for (const key of ['buildMs', 'firstMs', 'restMs']) expect(Number(split.json?.[key])).toBeGreaterThan(0);
  });

  it("with --by-kind times sim's own run after 100,000 events by event kind: every later event in one kind", () => {
    const args = ['--platform', 'cm5', 'apps/patterns', '--nodes', '16', '--param', 'pattern=cshift', '--param', 'blockBytes=4096', '--param', 'rounds=8'];
    const timed = node('bench/phase-child.mjs', ['--by-kind', ...args]);
    const sim = node('bin/sim.mjs', [...args, '--json']);
    expect(timed.status).toBe(0);
    expect(timed.json?.fingerprint).toBe(sim.json?.fingerprint);
    expect(timed.json?.events).toBe(sim.json?.events);
    const kinds = timed.json?.byKind as { kind: string; events: number; ms: number }[];
    expect(kinds.map((k) => k.kind).sort()).toEqual(['control-done', 'packet-deliver', 'packet-head', 'packet-tail', 'resume']);
    expect(kinds.reduce((sum, k) => sum + k.events, 0)).toBe(Number(sim.json?.events) - 100_000);
    for (const k of kinds) expect(k.ms, k.kind).toBeGreaterThan(0);
  });

  it('says bad input in one line, exit 2, and prints no split', () => {
    const { status, json, stderr } = node('bench/phase-child.mjs', ['--platform', 'cm5', 'apps/patterns', '--nodes', '16', '--param', 'blockBytes=6']);
    expect(status).toBe(2);
    expect(json).toBeNull();
    expect(stderr).toBe('bench/phase-child.mjs: app patterns: blockBytes 6: expected a multiple of 4 (whole words)\n');
  });
});
