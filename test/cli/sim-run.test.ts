import { describe, expect, it } from 'vitest';
import { PLATFORM_NAMES } from '../support/platforms.ts';
import { sim } from '../support/sim-cli.ts';

describe.concurrent('sim runs apps', () => {
  it.each(PLATFORM_NAMES)('runs ping-pong on %s, verifies it and exits 0', async (platform) => {
    const r = await sim(['--platform', platform, 'apps/ping-pong']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    for (const label of ['run', 'params', 'simulated', 'busy/node', 'messages', 'events', 'fingerprint', 'metrics', 'verified']) {
      expect(r.stdout).toMatch(new RegExp(`^${label} +\\S`, 'm'));
    }
    expect(r.stdout).toMatch(/^verified +yes: \d+ round trips echoed correctly$/m);
    expect(r.stdout).toMatch(/^metrics .*roundTripCyclesByHops=/m);
  });

  it('prints one JSON object with the documented fields', async () => {
    const r = await sim(['--platform', 'alewife', 'apps/cshift', '--nodes', '16', '--seed', '7', '--param', 'shift=3', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as Record<string, unknown>;
    for (const key of ['platform', 'nodes', 'seed', 'app', 'params', 'simulatedCycles', 'simulatedMicros', 'events', 'wallMs', 'eventsPerSec', 'fingerprint', 'verified', 'metrics']) {
      expect(j, key).toHaveProperty(key);
    }
    expect(j).toMatchObject({ platform: 'alewife', nodes: 16, seed: 7, app: 'cshift', params: { shift: 3, messages: 64 }, verified: true });
    expect(j.fingerprint).toMatch(/^[0-9a-f]{16}$/);
  });

  it('prints the same fingerprint on every run, with the fat tree routing adaptively', async () => {
    const args = ['--platform', 'cm5', 'apps/patterns', '--param', 'pattern=random', '--param', 'blockBytes=1024', '--json'];
    const fp = async () => (JSON.parse((await sim(args)).stdout) as { fingerprint: string }).fingerprint;
    const [a, b] = await Promise.all([fp(), fp()]);
    expect(a).toBe(b);
  });

  it('accepts a platform file by path and an app module by file', async () => {
    const r = await sim(['--platform', 'platforms/atm.json', 'apps/cshift/index.ts', '--nodes', '5']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^run +cshift on atm .*5 nodes/m);
  });

  it('exits 1 when the app reports a wrong result', async () => {
    const r = await sim(['--platform', 'cm5', 'test/fixtures/failing-app', '--nodes', '4']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^verified +NO: node 3 holds the wrong answer$/m);
  });

  it('exits 1 naming the node and cycle when the program throws', async () => {
    const r = await sim(['--platform', 'alewife', 'test/fixtures/throwing-app', '--nodes', '4']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^sim: run failed: node 2 at cycle \d+: Error: index out of range$/m);
  });

  it('exits 1 with a deadlock report listing every node', async () => {
    const r = await sim(['--platform', 'cm5', 'test/fixtures/deadlock-app', '--nodes', '8']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('sim: run failed: deadlock at cycle');
    expect(r.stderr).toContain('  node 0: exited');
    expect(r.stderr).toContain('  nodes 1-7: waiting in completeBarrier');
  });

  it('prints help and version', async () => {
    const help = await sim(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('sim --platform <name|file> <app-folder|app-file> [options]');
    expect(help.stdout).toContain('alewife, atm, cm5, paragon');
    const version = await sim(['--version']);
    expect(version.stdout.trim()).toMatch(/^sim \d+\.\d+\.\d+$/);
  });
});
