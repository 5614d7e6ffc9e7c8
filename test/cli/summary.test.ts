/**
 * The run summary (src/cli/summary.ts) of a run that took no measurable wall time: its
 * event rate is 0, not Infinity (JSON has no Infinity: it became null) or NaN.
 */
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simHere } from '../support/sim-here.ts';
import { ROOT } from '../support/sim-cli.ts';
import pingPong from '../../apps/ping-pong/index.ts';
import { formatSummary, summaryJson } from '../../src/cli/summary.ts';
import { runApp } from '../../src/runtime/run-app.ts';
import { runConfig } from '../../src/runtime/run-config.ts';
import { loadTestPlatform } from '../support/platforms.ts';

describe('a run summary', () => {
  const s = runApp(runConfig(loadTestPlatform('cm5'), pingPong, { nodes: 2, params: { rounds: 1 } }));

  it('of 0 ms of wall time gives 0 events/s', () => {
    expect(s.events).toBeGreaterThan(0);
    expect(JSON.parse(summaryJson(s, { wallMs: 0 }, 'test'))).toMatchObject({ wallMs: 0, eventsPerSec: 0 });
    expect(formatSummary(s, { wallMs: 0 })).toMatch(/^events +\d+ in 0 ms wall \(0 events\/s\)$/m);
  });

  it('gives the rate of the wall time measured', () => {
    expect(JSON.parse(summaryJson(s, { wallMs: 1000 }, 'test')).eventsPerSec).toBe(s.events);
  });
});

// It said "from /.../platforms/cm5.json" of the shipped file named by its absolute path.
describe("a run summary's platform line", () => {
  it('names a platform file only when it is not the shipped one, however the shipped one was named', async () => {
    const copy = join(mkdtempSync(join(tmpdir(), 'sim-summary-')), 'cm5.json');
    copyFileSync(join(ROOT, 'platforms', 'cm5.json'), copy);
    const run = (platform: string) => simHere(['--platform', platform, '--nodes', '2', 'apps/ping-pong', '--param', 'rounds=1']);
    for (const shipped of ['cm5', join(ROOT, 'platforms', 'cm5.json')]) expect((await run(shipped)).stdout).toMatch(/^run +ping-pong on cm5 \(/m);
    expect((await run(copy)).stdout).toMatch(new RegExp(`^run +ping-pong on cm5 from ${copy.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} \\(`, 'm'));
  });
});
