/** `--progress <s>`: how far a long command is, as plain lines for the log of a batch job, where no bar is drawn. */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.ts';
import { counter, duration } from '../../src/cli/progress.ts';
import { ROOT, sim } from '../support/sim-cli.ts';
import { simHere } from '../support/sim-here.ts';

/** An Io that keeps what goes to stderr. */
function capture(): { io: Io; err: string[] } {
  const err: string[] = [];
  return { io: { out: () => {}, err: (t) => err.push(t), write: () => {} }, err };
}

const EXPECTED = 'expected the seconds between two progress lines, a number from 1 to 86400';

describe('--progress', () => {
  it('counts in lines with the time left at the rate so far, from a timer while the count stands still, and stops with the counter', async () => {
    const { io, err } = capture();
    const c = counter({ kind: 'lines', everyMs: 30, io }, 'sim sweep small', 'runs', 1000, 200);
    c.update(300, ', 2 failed');
    // No further update: the lines come from the timer, as during a long run.
    await sleep(150);
    c.stop();
    const shown = err.length;
    expect(shown).toBeGreaterThanOrEqual(2);
    expect(err[0]).toMatch(/^sim sweep small: 300\/1,000 runs \(30%\), 2 failed, 0 s elapsed, about \d+ s left$/);
    await sleep(100);
    expect(err).toHaveLength(shown);
  });

  it('starts the period again at an update\'s line: a timer overdue while the thread was busy does not repeat it', async () => {
    const { io, err } = capture();
    const c = counter({ kind: 'lines', everyMs: 50, io }, 'sim calibrate', 'models', 21, 0);
    // Sampling in this thread: no turn of the event loop for longer than the period.
    const busyUntil = performance.now() + 120;
    while (performance.now() < busyUntil);
    c.update(5);
    expect(err).toHaveLength(1);
    await sleep(20);
    c.stop();
    expect(err).toHaveLength(1);
  });

  it('says no time left until something is done, and writes durations as a log reader reads them', () => {
    const { io, err } = capture();
    const c = counter({ kind: 'lines', everyMs: 0, io }, 'sim calibrate', 'models', 12, 0);
    c.update(0);
    c.stop();
    expect(err).toEqual(['sim calibrate: 0/12 models (0%), 0 s elapsed']);
    expect([duration(42_000), duration(300_000), duration(7_500_000)]).toEqual(['42 s', '5 min', '2 h 05 min']);
    // At the edges: a minute is "1 min", an hour "1 h 00 min".
    expect([duration(59_400), duration(60_000), duration(3_540_000), duration(3_600_000)]).toEqual(['59 s', '1 min', '59 min', '1 h 00 min']);
  });

  it('never says 100% before everything is done: the percentage is rounded down', () => {
    const { io, err } = capture();
    const c = counter({ kind: 'lines', everyMs: 0, io }, 'sim sweep', 'runs', 200, 0);
    c.update(199);
    c.update(200);
    c.stop();
    expect(err.map((l) => /\((\d+)%\)/.exec(l)?.[1])).toEqual(['99', '100']);
  });

  it('writes a run\'s status line every period as a plain line (no carriage return), off a terminal', { timeout: 60_000 }, async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'sim-progress-'));
    // A program that never ends, stopped at its event limit after about 3 s (3.6 M events/s here).
    const r = await sim(['--platform', 'cm5', '--nodes', '4', join(ROOT, 'test/fixtures/forever-app'), '--max-events', '12e6', '--progress', '1'], cwd);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^sim: cycle [\d,]+, [\d,]+ events, [\d.]+ [kM]? ?events\/s, 1 s$/m);
    expect(r.stderr).not.toContain('\r');
  });

  it('refuses a period that is not seconds from 1 to a day in one line, before anything runs or is written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-progress-bad-'));
    const sweep = join(dir, 'sweep.json');
    writeFileSync(sweep, JSON.stringify({ name: 'one', runs: [{ app: 'apps/ping-pong', platform: 'cm5', nodes: 4, seeds: [1] }] }));
    const cases: [string[], string][] = [
      [['--platform', 'cm5', 'apps/ping-pong', '--progress', '0'], 'sim: --progress 0'],
      [['sweep', sweep, '--out', join(dir, 'r.jsonl'), '--progress', 'soon'], 'sim sweep: --progress soon'],
      [['study', 'digit-width', '--platform', 'cm5', '--out', join(dir, 'study'), '--progress', '1e3'], 'sim study: --progress 1e3'],
      [['calibrate', '--platform', 'cm5', 'apps/calibration/strata.spec', '-o', join(dir, 's.txt'), '--progress', '90000'], 'sim calibrate: --progress 90000'],
      [['explore', 'apps/ping-pong', '--runs', '2', '--platform', 'cm5', '--progress', '-5'], 'sim explore: --progress -5'],
    ];
    for (const [args, start] of cases) {
      const r = await simHere(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toBe(`${start}: ${EXPECTED}\n`);
    }
    for (const f of ['r.jsonl', 'r.jsonl.part-1-of-1', 'study', 's.txt']) expect(existsSync(join(dir, f)), f).toBe(false);
  });

  it('changes nothing a sweep records', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-progress-sweep-'));
    const sweep = join(dir, 'sweep.json');
    writeFileSync(sweep, JSON.stringify({ name: 'two', runs: [{ app: 'apps/ping-pong', platform: 'cm5', nodes: 4, seeds: [1, 2] }] }));
    const plain = await simHere(['sweep', sweep, '--out', join(dir, 'plain.jsonl')]);
    const lines = await simHere(['sweep', sweep, '--out', join(dir, 'lines.jsonl'), '--progress', '1']);
    expect([plain.code, lines.code]).toEqual([0, 0]);
    expect(readFileSync(join(dir, 'lines.jsonl'), 'utf8')).toBe(readFileSync(join(dir, 'plain.jsonl'), 'utf8'));
  });
});
