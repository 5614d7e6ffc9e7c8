import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTrace } from '../../src/cli/load-trace.ts';
import { ROOT, sim, type CliResult } from '../support/sim-cli.ts';

const FOREVER = join(ROOT, 'test/fixtures/forever-app');
const HOG = join(ROOT, 'test/fixtures/hog-app');
/** A small heap, so that the program that keeps ever more memory fills it within a second or two. */
const SMALL_HEAP = { NODE_OPTIONS: '--max-old-space-size=256' };

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'sim-limits-'));
}

/** Starts `sim args` in `cwd`, sends `signal` once `ready(files in cwd)` holds, and resolves with how it ended. */
function signalWhen(args: string[], cwd: string, signal: 'SIGINT' | 'SIGTERM', ready: (files: string[]) => boolean): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/sim.mjs'), ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const poll = setInterval(() => {
      if (ready(readdirSync(cwd))) {
        clearInterval(poll);
        setTimeout(() => child.kill(signal), 500);
      }
    }, 50);
    child.on('close', (code, killedBy) => {
      clearInterval(poll);
      resolve({ code: code ?? (killedBy === null ? -1 : -2), stdout, stderr });
    });
  });
}

/** A run is under way once its trace's temporary file exists. */
const interrupted = (args: string[], cwd: string, signal: 'SIGINT' | 'SIGTERM') => signalWhen(args, cwd, signal, (files) => files.some((f) => f.endsWith('.tmp')));

describe.concurrent('runaway runs stop at a limit', () => {
  it('--max-events stops a program that never ends: exit 1, every node clock and call, a repro that replays to the same place', async () => {
    const dir = scratch();
    const r = await sim(['--platform', 'cm5', '--nodes', '16', FOREVER, '--max-events', '200000'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.split('\n');
    expect(lines[0]).toMatch(/^sim: run failed: stopped at its limit of 200000 events \(cycle \d+, 200000 events\) before every node had exited$/);
    for (let node = 0; node < 16; node++) expect(lines[node + 1]).toMatch(new RegExp(`^  node ${node}: cycle \\d+, running$`));
    expect(r.stderr).toMatch(/^sim: --max-events 200000 stopped the run; if it is meant to run longer, give a larger --max-events$/m);
    expect(r.stderr).toMatch(/^sim: replay this run with: sim replay sim-repro-forever-cm5-n16-s1\.json$/m);
    const replay = await sim(['replay', 'sim-repro-forever-cm5-n16-s1.json'], dir);
    expect(replay.stdout).toMatch(/^sim replay: reproduced the recorded run to where it stopped \(200000 events, fingerprint [0-9a-f]{16};/m);
    expect(replay.code).toBe(1);
  });

  it('a program that keeps ever more memory stops near the heap limit as at a limit, with a repro that replays to there (Node aborted with a native stack)', async () => {
    const dir = scratch();
    const r = await sim(['--platform', 'cm5', '--nodes', '4', HOG], dir, SMALL_HEAP);
    expect(r.code).toBe(1);
    const lines = r.stderr.split('\n');
    expect(lines[0]).toMatch(/^sim: run failed: stopped at the JavaScript heap's limit of \d+ MB, nearly full \(cycle \d+, (\d+) events\) before every node had exited$/);
    const events = /, (\d+) events\)/.exec(lines[0])![1];
    for (let node = 0; node < 4; node++) expect(lines[node + 1]).toMatch(new RegExp(`^  node ${node}: cycle \\d+, running$`));
    expect(r.stderr).toMatch(/^sim: the run's program held ever more memory; if it needs that much, give Node a larger heap, e\.g\. NODE_OPTIONS=--max-old-space-size=\d+$/m);
    expect(r.stderr).not.toContain('FATAL ERROR');
    // Replayed under a larger heap: under the same one, the collector's timing decides which look at the heap stops it.
    const replay = await sim(['replay', 'sim-repro-hog-cm5-n4-s1.json'], dir, { NODE_OPTIONS: '--max-old-space-size=512' });
    expect(replay.stdout).toMatch(new RegExp(`^sim replay: reproduced the recorded run to where it stopped \\(${events} events, fingerprint [0-9a-f]{16};`, 'm'));
    // Under a smaller one, the heap ends the replay first: said so, not as a divergence.
    const short = await sim(['replay', 'sim-repro-hog-cm5-n4-s1.json'], dir, { NODE_OPTIONS: '--max-old-space-size=128' });
    expect(short.stdout).toMatch(new RegExp(`^sim replay: this run stopped at the JavaScript heap's limit after \\d+ events, before the recording's ${events}: not a divergence; the run's program held ever more memory; if it needs that much, give Node a larger heap, e\\.g\\. NODE_OPTIONS=--max-old-space-size=\\d+\n$`));
    expect(short.code).toBe(1);
  });

  it("a sweep records no run stopped at the host's heap: the parts made under two heaps are the same bytes, the run refused and missing", async () => {
    // Recorded as failed, its line named the heap's size and the event the collector let it reach
    // (176 MB at 131072 events, 208 MB at 180224): the same key differed between machines, and a
    // rerun with a larger heap never ran it again. (Before that, Node aborted and took the sweep's runs with it.)
    const dir = scratch();
    writeFileSync(join(dir, 'hog.json'), JSON.stringify({ name: 'hog', runs: [{ app: HOG, platform: 'cm5', nodes: 4 }, { app: join(ROOT, 'apps/ping-pong'), platform: 'cm5', nodes: 4 }] }));
    const [small, larger] = await Promise.all([
      sim(['sweep', 'hog.json', '--out', 'small.jsonl', '--workers', '2'], dir, SMALL_HEAP),
      sim(['sweep', 'hog.json', '--out', 'larger.jsonl'], dir, { NODE_OPTIONS: '--max-old-space-size=320' }),
    ]);
    for (const r of [small, larger]) {
      expect(r.stdout).toMatch(/^sim sweep hog: 2 runs: 1 verified, 0 unverified, 0 failed, 1 missing; ran 2, 0 already recorded; not all runs recorded yet$/m);
      expect(r.stderr).toMatch(
        /^sim sweep: refused: run 0 \(run-[0-9a-f]{64}\): stopped at the JavaScript heap's limit of \d+ MB, nearly full \(cycle \d+, \d+ events\) before every node had exited: a limit of this host, not of the run, so not recorded; give Node a larger heap \(NODE_OPTIONS=--max-old-space-size=<MB>\) and run again\n$/,
      );
      expect(r.code).toBe(1);
    }
    expect(readFileSync(join(dir, 'small.jsonl.part-1-of-1'), 'utf8')).toBe(readFileSync(join(dir, 'larger.jsonl.part-1-of-1'), 'utf8'));
  });

  it('--max-cycles stops it too; its trace ends with END_CUT (sim graph says so), its log is whole, --record replays event for event', async () => {
    const dir = scratch();
    const r = await sim(['--platform', 'cm5', '--nodes', '16', FOREVER, '--max-cycles', '1000000', '--trace', 't.trace', '--log', 'run.log', '--record', 'r.json'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^sim: run failed: stopped at its limit of 1000000 simulated cycles \(cycle 1000001, \d+ events\)/);
    expect(readFileSync(join(dir, 'run.log'), 'utf8')).toMatch(/^cycle 0 node 15: started$/m);
    const graph = await sim(['graph', 't.trace', '-o', 't.svg'], dir);
    expect(graph.code).toBe(0);
    expect(readFileSync(join(dir, 't.svg'), 'utf8')).toContain('cut short (at its cycle or event limit), drawn to cycle 1000001');
    const replay = await sim(['replay', 'r.json'], dir);
    expect(replay.stdout).toMatch(/^sim replay: reproduced the recorded run event for event \(\d+ events, fingerprint [0-9a-f]{16}\)$/m);
    expect(replay.stdout).toMatch(/the run stops as recorded, at event \d+: stopped at its limit of 1000000 simulated cycles/);
    // --json said the replay's own stop ("its limit of N events") where the text says the recording's.
    const json = await sim(['replay', 'r.json', '--json'], dir);
    expect(JSON.parse(json.stdout)).toMatchObject({ reproduced: true, failure: expect.stringMatching(/^stopped at its limit of 1000000 simulated cycles/) });
  });

  it("a failed run's trace ends where it failed, not at its last state change", async () => {
    const dir = scratch();
    const r = await sim(['--platform', 'cm5', '--nodes', '4', join(ROOT, 'apps/examples/race'), '--perturb', '2', '--trace', 't.trace'], dir);
    expect(r.code).toBe(1);
    const failedAt = Number(/node \d+ at cycle (\d+): StrataFail/.exec(r.stderr)?.[1]);
    const trace = await loadTrace(join(dir, 't.trace'));
    // Its last state change is earlier (cycle 140): the END record held that.
    expect(trace.nodes.every((n) => n.cycles.every((c) => c < failedAt))).toBe(true);
    expect(trace.lastCycle).toBe(failedAt);
  });

  it('a run that ends within its limits is untouched by them: same events and fingerprint, even at exactly its event count', async () => {
    const plain = JSON.parse((await sim(['--platform', 'cm5', '--nodes', '16', 'apps/cshift', '--json'])).stdout);
    const exact = await sim(['--platform', 'cm5', '--nodes', '16', 'apps/cshift', '--json', '--max-events', String(plain.events), '--max-cycles', String(plain.simulatedCycles)]);
    expect(exact.code).toBe(0);
    const limited = JSON.parse(exact.stdout);
    expect([limited.events, limited.fingerprint]).toEqual([plain.events, plain.fingerprint]);
    const short = await sim(['--platform', 'cm5', '--nodes', '16', join(ROOT, 'apps/cshift'), '--max-events', String(plain.events - 1)], scratch());
    expect(short.code).toBe(1);
  });

  it('refuses a malformed limit with one line, and --help gives the defaults', async () => {
    const r = await sim(['--platform', 'cm5', 'apps/cshift', '--max-cycles', '-5']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('sim: --max-cycles -5: expected a positive integer (e.g. 1000000 or 1e6) up to 2^53\n');
    const help = await sim(['--help']);
    expect(help.stdout).toMatch(/--max-cycles <N> .*\(default 1e10\)/);
    expect(help.stdout).toMatch(/--max-events <N> .*\(default 1e9\)/);
  });
});

describe.concurrent('interrupted runs leave files the tools read', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s: exit %i, a trace with END_CUT that sim graph draws, the log flushed, a repro', async (signal, code) => {
    const dir = scratch();
    const r = await interrupted(['--platform', 'cm5', '--nodes', '16', FOREVER, '--trace', 't.trace', '--log', 'run.log', '--record', 'r.json'], dir, signal);
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(new RegExp(`^sim: run failed: interrupted by ${signal} at cycle \\d+ after \\d+ events$`, 'm'));
    expect(r.stderr).toMatch(/^ {2}node 15: cycle \d+, running$/m);
    expect(readFileSync(join(dir, 'run.log'), 'utf8')).toMatch(/^cycle 0 node 0: started$/m);
    const graph = await sim(['graph', 't.trace', '-o', 't.html'], dir);
    expect(graph.code).toBe(0);
    expect(readFileSync(join(dir, 't.html'), 'utf8')).toMatch(/cut short \(interrupted\), drawn to cycle \d+/);
    const replay = await sim(['replay', 'r.json'], dir);
    expect(replay.stdout).toMatch(/^sim replay: reproduced the recorded run event for event/m);
    // As the recording stopped, not "stopped at its limit of N events", a limit nobody set.
    expect(replay.stdout).toMatch(new RegExp(`^sim replay: the run stops as recorded, at event \\d+: interrupted by ${signal} at cycle \\d+ after \\d+ events$`, 'm'));
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('an exploration stopped by a signal', () => {
  it('reports the seeds it tried and exits 130', async () => {
    const dir = scratch();
    // Each seed hits its limit and leaves a repro: once one is there, the exploration is under way.
    const args = ['explore', FOREVER, '--runs', '1000', '--platform', 'cm5', '--nodes', '4', '--max-events', '20000'];
    const r = await signalWhen(args, dir, 'SIGINT', (files) => files.some((f) => f.startsWith('sim-repro-')));
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/^sim explore: stopped by SIGINT after \d+ of 1000 seeds$/m);
    expect(r.stdout).toMatch(/^sim explore: \d+ perturbed runs? of forever on cm5, \d+ failed:$/m);
    expect(r.stdout).toMatch(/^ {2}--perturb 1: stopped at its limit of 20000 events/m);
  });
});
