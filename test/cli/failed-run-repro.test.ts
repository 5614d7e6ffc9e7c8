/**
 * A failed run's repro, recorded without --record by running the run again (it is
 * deterministic, so that is the run that failed). The run made again went on silently
 * and deaf to Ctrl-C and SIGTERM: a run that failed after minutes held the terminal as
 * long again, then wrote its repro and exited 1. Now it runs as the run did, in chunks
 * that take signals: Ctrl-C there stops it, says so, writes no repro, exits 130.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';

const APP = join(import.meta.dirname, '../fixtures/late-failure-app');
let cwd = '';
let home = '';

beforeEach(() => {
  home = process.cwd();
  cwd = mkdtempSync(join(tmpdir(), 'sim-failed-repro-'));
  process.chdir(cwd);
});
afterEach(() => process.chdir(home));

/** Runs sim in this process; `onErr` sees each stderr line as it is written. */
async function simWatching(args: string[], onErr: (line: string) => void): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = { code: 0, stdout: '', stderr: '' };
  r.code = await main(args, {
    out: (t) => (r.stdout += `${t}\n`),
    err: (t) => {
      r.stderr += `${t}\n`;
      onErr(t);
    },
    write: () => {},
  });
  return r;
}

describe("a failed run's repro, recorded by running it again", () => {
  it('is written when nothing stops the run made again', async () => {
    const r = await simWatching(['--platform', 'cm5', '--nodes', '2', APP, '--param', 'bounces=100000'], () => {});
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^sim: run failed: node 1 at cycle \d+: Error: late failure$/m);
    expect(r.stderr).toMatch(/^sim: replay this run with: sim replay sim-repro-late-failure-cm5-n2-s1\.json$/m);
    expect(existsSync(join(cwd, 'sim-repro-late-failure-cm5-n2-s1.json'))).toBe(true);
  }, 60_000);

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('stops at %s while it runs again, writes no repro, and exits %i', async (signal, code) => {
    // The signal comes as the failure is reported, before the run is made again (its 300,000 bounces are several chunks of events).
    const r = await simWatching(['--platform', 'cm5', '--nodes', '2', APP, '--param', 'bounces=300000', '--json'], (line) => {
      if (line.startsWith('sim: run failed:')) process.emit(signal, signal);
    });
    expect(r.stderr).toMatch(new RegExp(`^sim: stopped by ${signal} while running the failed run again to record its repro; no repro written \\(sim --record <file> records one as the run goes\\)$`, 'm'));
    expect(r.code).toBe(code);
    expect(JSON.parse(r.stdout)).toMatchObject({ verified: false, failure: expect.stringMatching(/late failure$/), repro: null });
    expect(existsSync(join(cwd, 'sim-repro-late-failure-cm5-n2-s1.json'))).toBe(false);
  }, 60_000);

  // It said "replay this run with: sim replay /dev/null".
  it('written to a device says it kept no file to replay', async () => {
    const r = await simWatching(['--platform', 'cm5', '--nodes', '4', join(import.meta.dirname, '../fixtures/deadlock-app'), '--record', '/dev/null'], () => {});
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^sim: the repro went to \/dev\/null, which keeps no file for sim replay to read back$/m);
    expect(r.stderr).not.toMatch(/sim replay \/dev\/null/);
  });
});
