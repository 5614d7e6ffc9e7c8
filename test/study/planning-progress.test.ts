/**
 * Planning a stencil study's trials (about 5 ms a trial: minutes for `sim study
 * stencil-gain --trials 100000 --dry-run`) printed nothing until it ended. Now, on a
 * terminal, a planning longer than a second shows a bar (trials planned of all), cleared
 * when planning ends; the cursor is never hidden (planning cannot be stopped cleanly, and
 * Ctrl-C there would leave it hidden). Off a terminal the bytes are the same as before.
 * The terminal is script(1)'s.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planningProgress } from '../../src/cli/progress.ts';
import { ROOT, sim } from '../support/sim-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'sim-planning-progress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 500 stencil-gain trials on the CM-5: a few seconds of planning. */
const ARGS = ['study', 'stencil-gain', '--platform', 'cm5', '--trials', '500', '--dry-run', '--out', 'out'];
const LINE = 'sim study stencil-gain: round 1 would run 6423 of its 6423 runs (0 recorded)';
const hasScript = spawnSync('script', ['--version']).status === 0;
const quote = (s: string): string => `'${s.replaceAll("'", `'\\''`)}'`;

describe('a stencil study planning many trials', () => {
  it.skipIf(!hasScript)('on a terminal, shows a bar of the trials planned, clears it, and keeps the cursor', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
    // CI set hides progress bars.
    delete env.CI;
    const screen = await new Promise<string>((resolve) => {
      const child = spawn('script', ['-qec', [process.execPath, join(ROOT, 'bin/sim.mjs'), ...ARGS].map(quote).join(' '), '/dev/null'], { cwd: dir, env });
      let text = '';
      child.stdout.on('data', (d) => (text += d));
      child.on('close', () => resolve(text));
    });
    expect(screen).toMatch(/sim study stencil-gain: planning \[[^\]]*\] \d+\/500 trials/);
    expect(screen).not.toContain('\x1b[?25l');
    // The bar's line is erased before the result is printed.
    expect(screen.slice(screen.lastIndexOf('\x1b[2K'))).toBe(`\x1b[2K${LINE}\r\n`);
  }, 30_000);

  it('off a terminal, prints only the line, as before', async () => {
    const r = await sim(ARGS, dir);
    expect(r).toEqual({ code: 0, stdout: `${LINE}\n`, stderr: '' });
  }, 30_000);

  // With --progress, the planning's line came on every period until the study ended,
  // "planning: 80/80 trials (100%)" between the runs' lines.
  it('with --progress, prints its lines while planning and none once planning has ended', async () => {
    const lines: string[] = [];
    const io = { out: () => {}, err: (text: string) => void lines.push(text), write: () => {} };
    const planning = planningProgress({ kind: 'lines', everyMs: 20, io }, 'sim study x: planning');
    planning.onPlanned(1, 2);
    await new Promise((resolve) => setTimeout(resolve, 70));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.at(-1)).toMatch(/^sim study x: planning: 1\/2 trials \(50%\)/);
    planning.onPlanned(2, 2);
    const ended = lines.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(lines.length).toBe(ended);
    planning.stop();
  });
});
