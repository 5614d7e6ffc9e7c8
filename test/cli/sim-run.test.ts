import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLATFORM_NAMES } from '../support/platforms.ts';
import { ROOT, sim, type CliResult } from '../support/sim-cli.ts';

/**
 * Runs a run that fails, in a fresh directory (a failed run writes its repro file to
 * the current directory; the suite must leave nothing in the repository), with the
 * fixture's path made absolute.
 */
async function failingRun(args: string[]): Promise<{ r: CliResult; cwd: string }> {
  const cwd = mkdtempSync(join(tmpdir(), 'sim-failing-'));
  const r = await sim(args.map((a) => (a.startsWith('test/fixtures/') ? join(ROOT, a) : a)), cwd);
  return { r, cwd };
}

describe.concurrent('sim runs apps', () => {
  it.each(PLATFORM_NAMES)('runs ping-pong on %s, verifies it and exits 0', async (platform) => {
    const r = await sim(['--platform', platform, 'apps/ping-pong']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    for (const label of ['run', 'params', 'simulated', 'busy/node', 'interrupt/node', 'messages', 'events', 'fingerprint', 'metrics', 'verified']) {
      expect(r.stdout).toMatch(new RegExp(`^${label} +\\S`, 'm'));
    }
    expect(r.stdout).toMatch(/^verified +yes: \d+ round trips echoed correctly$/m);
    expect(r.stdout).toMatch(/^metrics .*roundTripCyclesByHops=/m);
  });

  // A copy of alewife.json with dearer sends, run by its path, read "on alewife (MIT
  // Alewife (simulated))" as the shipped platform does: only --json's hash told them apart.
  it('names a platform file given by its path in the run line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-platform-copy-'));
    const copy = join(dir, 'alewife.json');
    writeFileSync(copy, readFileSync(join(ROOT, 'platforms/alewife.json'), 'utf8').replace('"sendOverheadCycles": 28', '"sendOverheadCycles": 100'));
    const [edited, shipped] = await Promise.all([sim(['--platform', copy, 'apps/ping-pong']), sim(['--platform', 'alewife', 'apps/ping-pong'])]);
    expect(edited.stdout).toMatch(new RegExp(`^run +ping-pong on alewife from ${copy.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(MIT Alewife \\(simulated\\)\\), `, 'm'));
    expect(shipped.stdout).toMatch(/^run +ping-pong on alewife \(MIT Alewife \(simulated\)\), /m);
  });

  it('prints one JSON object with the documented fields', async () => {
    const r = await sim(['--platform', 'alewife', 'apps/cshift', '--nodes', '16', '--seed', '7', '--param', 'shift=3', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout) as Record<string, unknown>;
    for (const key of ['platform', 'platformHash', 'nodes', 'topology', 'network', 'seed', 'app', 'params', 'simulatedCycles', 'simulatedMicros', 'busyCycles', 'spinCycles', 'stallCycles', 'interruptCycles', 'linkUtilization', 'packetsSent', 'bytesSent', 'events', 'wallMs', 'eventsPerSec', 'fingerprint', 'verified', 'verification', 'metrics', 'simulatorVersion']) {
      expect(j, key).toHaveProperty(key);
    }
    expect(j).toMatchObject({ platform: 'alewife', nodes: 16, seed: 7, app: 'cshift', params: { shift: 3, messages: 64 }, verified: true });
    expect(j.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(j.verification).toMatch(/\S/);
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
    // A bare name ending in .json is a file in the working directory, not a shipped platform.
    const dir = mkdtempSync(join(tmpdir(), 'sim-platform-file-'));
    writeFileSync(join(dir, 'mine.json'), readFileSync(join(ROOT, 'platforms/atm.json')));
    const here = await sim(['--platform', 'mine.json', join(ROOT, 'apps/cshift'), '--nodes', '5'], dir);
    expect(here.stderr).toBe('');
    expect(here.stdout).toMatch(/^run +cshift on atm .*5 nodes/m);
  });

  it('shows a run shorter than a microsecond to three digits (it said "= 0 us")', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-fast-'));
    const fast = { ...JSON.parse(readFileSync(join(ROOT, 'platforms/cm5.json'), 'utf8')), clockMHz: 100_000 };
    writeFileSync(join(dir, 'fast.json'), JSON.stringify(fast));
    const r = await sim(['--platform', join(dir, 'fast.json'), 'apps/cshift', '--nodes', '8']);
    expect(r.code).toBe(0);
    const [, cycles, micros] = /^simulated +([\d,]+) cycles = ([\d.]+) us$/m.exec(r.stdout) ?? [];
    expect(Number(micros)).toBeGreaterThan(0);
    expect(Number(micros)).toBeCloseTo(Number(cycles.replaceAll(',', '')) / 100_000, 4);
  });

  it('exits 1 when the app reports a wrong result', async () => {
    const { r, cwd } = await failingRun(['--platform', 'cm5', 'test/fixtures/failing-app', '--nodes', '4']);
    expect(r.code).toBe(1);
    expect(readdirSync(cwd)).toEqual(['sim-repro-failing-cm5-n4-s1.json']);
    expect(r.stdout).toMatch(/^verified +NO: node 3 holds the wrong answer$/m);
    expect(r.stderr).toBe('sim: replay this run with: sim replay sim-repro-failing-cm5-n4-s1.json\n');
    // --json names the repro (it had none), with --record too.
    const j = await failingRun(['--platform', 'cm5', 'test/fixtures/failing-app', '--nodes', '4', '--json']);
    expect(JSON.parse(j.r.stdout)).toMatchObject({ verified: false, verification: 'node 3 holds the wrong answer', repro: 'sim-repro-failing-cm5-n4-s1.json' });
    const rec = await failingRun(['--platform', 'cm5', 'test/fixtures/failing-app', '--nodes', '4', '--json', '--record', 'mine.json']);
    expect(JSON.parse(rec.r.stdout)).toMatchObject({ verified: false, repro: 'mine.json' });
    expect(readdirSync(rec.cwd)).toEqual(['mine.json']);
    const passed = await sim(['--platform', 'cm5', 'apps/ping-pong', '--json']);
    expect(JSON.parse(passed.stdout)).not.toHaveProperty('repro');
  });

  it("ends the summary at yes or NO when verify gives no detail (it printed 'verified NO: ' and nothing after)", async () => {
    const ok = await sim(['--platform', 'cm5', 'test/fixtures/verify-no-detail.ts', '--nodes', '4', '--param', 'ok=true']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^verified +yes$/m);
    const { r } = await failingRun(['--platform', 'cm5', 'test/fixtures/verify-no-detail.ts', '--nodes', '4']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^verified +NO$/m);
  });

  it('says how many messages were still in the network when every node had exited, in the summary and in --json', async () => {
    const { r } = await failingRun(['--platform', 'cm5', 'test/fixtures/last-message-lost.ts', '--nodes', '2']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^unreceived +1 packet was still in the network when every node had exited: its handler never ran \(StrataExit handles messages only until all nodes reach it\)$/m);
    expect(r.stdout).toMatch(/^verified +NO: node 0 handled 0 of 1 message$/m);
    const j = JSON.parse((await failingRun(['--platform', 'cm5', 'test/fixtures/last-message-lost.ts', '--nodes', '2', '--json'])).r.stdout) as Record<string, unknown>;
    expect(j).toMatchObject({ packetsSent: 1, unreceivedPackets: 1, verified: false });
    // A run whose messages were all handled has neither.
    const ok = await sim(['--platform', 'cm5', 'apps/ping-pong', '--json']);
    expect(JSON.parse(ok.stdout)).not.toHaveProperty('unreceivedPackets');
  });

  it('keeps the repros of failed runs that differ in node count or network (the later wrote over the earlier)', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'sim-fail-'));
    for (const extra of [['--nodes', '4'], ['--nodes', '8'], ['--nodes', '4', '--network', 'analytic']]) {
      expect((await sim(['--platform', 'cm5', join(ROOT, 'test/fixtures/failing-app'), ...extra], cwd)).code).toBe(1);
    }
    expect(readdirSync(cwd).sort()).toEqual(['sim-repro-failing-cm5-n4-s1-analytic.json', 'sim-repro-failing-cm5-n4-s1.json', 'sim-repro-failing-cm5-n8-s1.json']);
  });

  it('exits 1 naming the node and cycle when the program throws', async () => {
    const { r, cwd } = await failingRun(['--platform', 'alewife', 'test/fixtures/throwing-app', '--nodes', '4']);
    expect(r.code).toBe(1);
    expect(readdirSync(cwd)).toEqual(['sim-repro-throwing-alewife-n4-s1.json']);
    expect(r.stderr).toMatch(/^sim: run failed: node 2 at cycle \d+: Error: index out of range$/m);
  });

  it('notes --models and --communication given to a run with no auto parameter, which they did nothing for, silently', async () => {
    const r = await sim(['--platform', 'alewife', 'apps/stencil', '--nodes', '4', '--param', 'iters=1', '--models', '/nonexistent', '--communication', 'hybrid']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('sim: note: --models /nonexistent and --communication hybrid are used only to resolve auto parameters (e.g. --param layout=auto), and this run has none\n');
  });

  it('with --json, a failed run prints one object too (stdout was empty)', async () => {
    const { r } = await failingRun(['--platform', 'alewife', 'test/fixtures/throwing-app', '--nodes', '4', '--json']);
    expect(r.code).toBe(1);
    const failed = JSON.parse(r.stdout);
    // stoppedAtCycle was null for every failure but a cut one, though the message names the cycle.
    expect(failed).toEqual({ verified: false, failure: expect.stringMatching(/^node 2 at cycle \d+: Error: index out of range$/), error: 'AppError', stoppedAtCycle: expect.any(Number), repro: 'sim-repro-throwing-alewife-n4-s1.json' });
    expect(failed.failure).toContain(`at cycle ${failed.stoppedAtCycle}:`);
  });

  it('exits 1 with a deadlock report listing every node', async () => {
    const { r, cwd } = await failingRun(['--platform', 'cm5', 'test/fixtures/deadlock-app', '--nodes', '8']);
    expect(r.code).toBe(1);
    expect(readdirSync(cwd)).toEqual(['sim-repro-deadlock-cm5-n8-s1.json']);
    expect(r.stderr).toContain('sim: run failed: deadlock at cycle');
    expect(r.stderr).toContain('  node 0: exited');
    expect(r.stderr).toContain('  nodes 1-7: waiting in completeBarrier');
    // The program's queued output reached stdout before it hung, and the log's last entries follow the report.
    expect(r.stdout.split('\n').filter((l) => l.endsWith('starting')).sort()).toEqual(
      Array.from({ length: 8 }, (_, i) => `node ${i} starting`).sort(),
    );
    expect(r.stderr).toMatch(/last log entry of each node \(loglast\):\n {2}cycle \d+ node 0: skipping the barrier \(on purpose\)$/m);
  });

  it('--log writes every log entry, with global operations, and a failed run reports each node\'s last one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-log-'));
    const file = join(dir, 'run.log');
    const { r } = await failingRun(['--platform', 'alewife', 'test/fixtures/deadlock-app', '--nodes', '4', '--log', file]);
    expect(r.code).toBe(1);
    const log = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(log).toEqual(expect.arrayContaining([expect.stringMatching(/^cycle \d+ node 1: startBarrier$/)]));
    expect(log.filter((l) => l.endsWith(': completeBarrier: waiting'))).toHaveLength(3);
    for (const node of [1, 2, 3]) expect(r.stderr).toMatch(new RegExp(`^ {2}cycle \\d+ node ${node}: completeBarrier: waiting$`, 'm'));
    expect(r.stderr).toMatch(/^ {2}cycle \d+ node 0: skipping the barrier \(on purpose\)$/m);
    // Queued output is logged as one line, its newline escaped.
    expect(log).toEqual(expect.arrayContaining([expect.stringMatching(/^cycle \d+ node 2: qprintf: node 2 starting\\n$/)]));
  });

  it('with --json, the program\'s output goes to stderr and stdout stays one JSON object', async () => {
    const r = await sim(['--platform', 'cm5', 'apps/ping-pong', '--nodes', '2', '--json', '--param', 'rounds=1', '--loglast']);
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ app: 'ping-pong', nodes: 2, verified: true });
    // A program that prints (ping-pong prints nothing): its queued output is on stderr, not in the JSON.
    const { r: printed } = await failingRun(['--platform', 'cm5', 'test/fixtures/deadlock-app', '--nodes', '4', '--json']);
    expect(printed.code).toBe(1);
    expect(printed.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(printed.stdout)).toMatchObject({ verified: false });
    expect(printed.stderr.split('\n').filter((l) => l.endsWith(' starting')).sort()).toEqual(['node 0 starting', 'node 1 starting', 'node 2 starting', 'node 3 starting']);
  });

  it('with --json, --loglast of a verified run goes to stderr, and stdout stays one JSON object', async () => {
    const { r, cwd } = await failingRun(['--platform', 'cm5', 'apps/stencil', '--nodes', '4', '--param', 'iters=1', '--log', 'run.log', '--loglast', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ app: 'stencil', verified: true });
    expect(r.stderr).toMatch(/^last log entry of each node \(loglast\):\n {2}cycle \d+ node 0: completeBarrier: done$/m);
    expect(readdirSync(cwd)).toEqual(['run.log']);
  });

  it('--loglast without --log reports global operations too, as --log would, and the run is the same run', async () => {
    // Global operations were logged only into a log: without one, a deadlock's loglast lacked the waiting nodes.
    const { r } = await failingRun(['--platform', 'alewife', 'test/fixtures/deadlock-app', '--nodes', '4', '--loglast']);
    expect(r.code).toBe(1);
    for (const node of [1, 2, 3]) expect(r.stderr).toMatch(new RegExp(`^ {2}cycle \\d+ node ${node}: completeBarrier: waiting$`, 'm'));
    const args = ['--platform', 'cm5', 'apps/stencil', '--nodes', '4', '--param', 'iters=1', '--json'];
    const [plain, last] = await Promise.all([sim(args), sim([...args, '--loglast'])]);
    expect(last.stderr).toMatch(/^last log entry of each node \(loglast\):\n {2}cycle \d+ node 0: completeBarrier: done$/m);
    expect(JSON.parse(last.stdout).fingerprint).toBe(JSON.parse(plain.stdout).fingerprint);
  });

  it('notes --models given to a failed run with no auto parameter too, before the failure report', async () => {
    const { r } = await failingRun(['--platform', 'cm5', 'test/fixtures/deadlock-app', '--nodes', '4', '--models', '/nonexistent']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^sim: note: --models \/nonexistent is used only to resolve auto parameters .*\n(.*\n)*sim: run failed: deadlock at cycle/);
  });

  it('runs with the largest seed, 2^32 - 1, as with any other', async () => {
    const r = await sim(['--platform', 'cm5', 'apps/ping-pong', '--nodes', '2', '--param', 'rounds=1', '--seed', '4294967295', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ seed: 4294967295, verified: true });
  });

  it('rejects an unwritable --log path with one line and exit 2', async () => {
    const r = await sim(['--platform', 'cm5', 'apps/ping-pong', '--log', '/nonexistent-dir/x.log']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('sim: --log /nonexistent-dir/x.log: no such folder /nonexistent-dir; expected an existing folder\n');
  });

  it('prints help and version', async () => {
    const help = await sim(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('sim --platform <name|file> <app-folder|app-file> [options]');
    expect(help.stdout).toContain('alewife, atm, cm5, paragon');
    const version = await sim(['--version']);
    expect(version.stdout.trim()).toMatch(/^sim \d+\.\d+\.\d+$/);
    expect((await sim(['-v'])).stdout).toBe(version.stdout);
  });
});
