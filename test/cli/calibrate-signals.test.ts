/**
 * Ctrl-C or SIGTERM during `sim calibrate`. The signals killed it, with --workers 2 and
 * in the main thread alike: nothing said and, on a terminal, the progress bar's hidden
 * cursor stayed hidden (ESC[?25l never undone). Now it stops cleanly: the units under
 * way are given up (a unit in the main thread between two chunks of its events), the
 * bar is stopped, one line says so and that no samples were written (they are written
 * only once every model is sampled), exit 130 / 143. The terminal cases run under
 * script(1), which gives sim a terminal and reports its exit status.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, type CliResult } from '../support/sim-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'sim-calibrate-signals-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SIM = join(ROOT, 'bin/sim.mjs');
/** Two models of a few samples, then one of 20,000 combines of 4096 words (a minute on 16 nodes). */
writeFileSync(
  join(dir, 'stop.spec'),
  ['{{ r 1 4 ++ @ Barrier() @ CombineInt() @ @ logP:logP @ }}', '{{ r 1 4 ++ @ Barrier() @ GlobalOR() @ @ logP:logP @ }}', '{{ i 1 20000 ++ @ Barrier() @ CombineVector(length) @ @ length:4096 @ }}', ''].join('\n'),
);
writeFileSync(join(dir, 'long.spec'), '{{ i 1 20000 ++ @ Barrier() @ CombineVector(length) @ @ length:4096 @ }}\n');
const calibrate = (spec: string, out: string, workers: number): string[] => [SIM, 'calibrate', '--platform', 'cm5', spec, '-o', out, '--nodes', '16', '--vcount', '2', '--workers', String(workers)];

/** The environment of a sim that shows its bar on a terminal (CI set hides it). */
function barEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.CI;
  return env;
}

const hasScript = spawnSync('script', ['--version']).status === 0;
const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** Seconds of processor time process `pid` has used (/proc/<pid>/stat utime + stime), or null once it is gone. */
function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/**
 * Calls `then` once process `pid` has used `seconds` more processor time than now: a
 * point in its work that a loaded machine does not move, as a wall-clock delay would
 * (a signal before sim listens for it ends sim by Node's default).
 */
function afterCpu(pid: number, seconds: number, then: () => void): void {
  const start = cpuSeconds(pid) ?? 0;
  const look = (): void => {
    const now = cpuSeconds(pid);
    if (now === null) return;
    if (now - start >= seconds) then();
    else setTimeout(look, 20);
  };
  look();
}
const quote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

/**
 * Runs sim calibrate on a terminal (script -qec), sends `signal` to it once it has used
 * `afterCpuSeconds` of processor time after its bar says `at`, and resolves with how it
 * ended (script -e: sim's status), what the terminal showed, and how long after the
 * signal it took.
 */
function onTerminal(args: string[], at: string, signal: 'SIGINT' | 'SIGTERM', afterCpuSeconds = 0): Promise<{ code: number; screen: string; afterSignalMs: number }> {
  const pidFile = join(dir, `pid-${signal}`);
  const command = `echo $$ > ${quote(pidFile)}; exec ${[process.execPath, ...args].map(quote).join(' ')}`;
  return new Promise((resolve) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: dir, env: barEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let screen = '';
    let sentAt = 0;
    child.stdout.on('data', (d) => {
      screen += d;
      if (sentAt === 0 && screen.includes(at) && existsSync(pidFile)) {
        sentAt = -1;
        const pid = Number(readFileSync(pidFile, 'utf8'));
        afterCpu(pid, afterCpuSeconds, () => {
          sentAt = performance.now();
          process.kill(pid, signal);
        });
      }
    });
    child.on('close', (code) => resolve({ code: code ?? -1, screen, afterSignalMs: performance.now() - sentAt }));
  });
}

describe.skipIf(!hasScript)('sim calibrate stopped by a signal on a terminal (script(1))', () => {
  it('with --workers 2, Ctrl-C stops the bar, shows the cursor again, says no samples were written, exit 130', async () => {
    const out = join(dir, 'two.txt');
    const r = await onTerminal(calibrate('stop.spec', out, 2), '2/3 models', 'SIGINT');
    expect(r.code).toBe(130);
    // The cursor the bar hid is shown again.
    expect(r.screen.lastIndexOf('\x1b[?25h')).toBeGreaterThan(r.screen.lastIndexOf('\x1b[?25l'));
    expect(r.screen).toContain('sim calibrate: stopped by SIGINT after 2 of 3 models; no samples written (they are written only once every model is sampled): run the same command again');
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
  }, 20_000);

  it('in the main thread (--workers 1), SIGTERM stops the long model part-way, exit 143', async () => {
    const out = join(dir, 'one.txt');
    // The long model planning (its 20,000 samples, about a second) or running by then.
    const r = await onTerminal(calibrate('stop.spec', out, 1), '2/3 models', 'SIGTERM', 2);
    expect(r.code).toBe(143);
    // Long before the model's minute is up (it stops between chunks of events; a bound
    // far from both, as the machine's load moves the time from signal to exit).
    expect(r.afterSignalMs).toBeLessThan(15_000);
    expect(r.screen.lastIndexOf('\x1b[?25h')).toBeGreaterThan(r.screen.lastIndexOf('\x1b[?25l'));
    expect(r.screen).toContain('sim calibrate: stopped by SIGTERM after 2 of 3 models; no samples written');
    expect(existsSync(out)).toBe(false);
  }, 20_000);
});

describe('sim calibrate stopped by a signal off a terminal', () => {
  it('Ctrl-C: one line on stderr, nothing on stdout, an earlier samples file left as it was, exit 130', async () => {
    const out = join(dir, 'kept.txt');
    writeFileSync(out, 'earlier samples\n');
    const r = await new Promise<CliResult>((resolve) => {
      const child = spawn(process.execPath, calibrate('long.spec', out, 1), { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      // Its one model under way by then (sim started and the model planned: about a second of processor time); before, Node's default would end it.
      afterCpu(child.pid as number, 2.5, () => child.kill('SIGINT'));
      child.on('close', (code, killedBy) => {
        resolve({ code: code ?? (killedBy === null ? -1 : -2), stdout, stderr });
      });
    });
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('sim calibrate: stopped by SIGINT after 0 of 1 models; no samples written (they are written only once every model is sampled): run the same command again\n');
    expect(readFileSync(out, 'utf8')).toBe('earlier samples\n');
  }, 20_000);
});
