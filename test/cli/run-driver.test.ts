import { describe, expect, it } from 'vitest';
import { driveRun, SignalWatch } from '../../src/cli/run-driver.ts';
import { progressStyle, runStatus } from '../../src/cli/progress.ts';
import { RunInterrupted, RunLimitError } from '../../src/kernel/errors.ts';
import { AppRun } from '../../src/runtime/run-app.ts';
import { runConfig } from '../../src/runtime/run-config.ts';
import forever from '../fixtures/forever-app/index.ts';
import { loadTestPlatform } from '../support/platforms.ts';

const config = (maxEvents: number) => runConfig(loadTestPlatform('cm5'), forever, { nodes: 4, limits: { maxEvents } });

describe('the CLI drives a run in chunks', () => {
  it('shows a progress line (cycles, events, rate) while the run goes on, and clears it at the end', async () => {
    const lines: (string | null)[] = [];
    const signals = new SignalWatch();
    await expect(driveRun(new AppRun(config(2_000_000)), signals, { afterMs: 0, everyMs: 0, show: (l) => lines.push(l) })).rejects.toBeInstanceOf(RunLimitError);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines[0]).toMatch(/^sim: cycle [\d,]+, [\d,]+ events, [\d.]+ [kM]? ?events\/s, \d+ s$/);
    expect(lines.at(-1)).toBeNull();
  });

  it('shows no line before the run has taken its afterMs, and so clears none', async () => {
    const lines: (string | null)[] = [];
    await expect(driveRun(new AppRun(config(1_000_000)), new SignalWatch(), { afterMs: 3_600_000, everyMs: 0, show: (l) => lines.push(l) })).rejects.toBeInstanceOf(RunLimitError);
    expect(lines).toEqual([]);
  });

  it("a terminal's status line starts once a run has taken 2 s (README), redrawn four times a second; --progress lines from their first period", () => {
    const io = { out: () => {}, err: () => {}, write: () => {}, status: () => {} };
    expect(runStatus(progressStyle(null, true, io), io)).toMatchObject({ afterMs: 2000, everyMs: 250 });
    expect(runStatus(progressStyle(30, true, io), io)).toMatchObject({ afterMs: 30_000, everyMs: 30_000 });
    expect(runStatus(progressStyle(null, false, io), io)).toBeNull();
  });

  it('a caught SIGINT stops the run between chunks with every node in the report, and the handlers go away after', async () => {
    const before = process.listenerCount('SIGINT');
    const signals = new SignalWatch().start();
    expect(process.listenerCount('SIGINT')).toBe(before + 1);
    const run = new AppRun(config(1e9));
    const stopped = driveRun(run, signals, null);
    process.emit('SIGINT', 'SIGINT');
    const e = await stopped.then(
      () => null,
      (x: unknown) => x,
    );
    signals.stop();
    expect(process.listenerCount('SIGINT')).toBe(before);
    expect(e).toBeInstanceOf(RunInterrupted);
    const r = e as RunInterrupted;
    expect(r.signal).toBe('SIGINT');
    expect(r.events).toBe(run.events);
    expect(r.message).toMatch(/^interrupted by SIGINT at cycle \d+ after \d+ events\n {2}node 0: cycle \d+, running\n(.*\n){2} {2}node 3: /);
  });
});
