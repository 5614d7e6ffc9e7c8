/**
 * The stuck watch (src/cli/stuck-watch.ts): a run whose thread stops moving, as an
 * app's loop that never yields stops it, gets one line saying how to stop it, from a
 * second thread, while the stuck thread still holds the process; a run that keeps
 * beating gets none.
 */
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STUCK_AFTER_MS, StuckWatch } from '../../src/cli/stuck-watch.ts';
import { ROOT } from '../support/sim-cli.ts';

/** Holds this thread for `ms` without returning to the event loop, as a loop in app code would. */
function hold(ms: number, beat?: () => void): void {
  const end = Date.now() + ms;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (Date.now() < end) {
    Atomics.wait(pause, 0, 0, 20);
    beat?.();
  }
}

function watched(run: (watch: StuckWatch) => void): string {
  const file = join(mkdtempSync(join(tmpdir(), 'sim-stuck-')), 'stderr');
  const fd = openSync(file, 'w');
  const watch = new StuckWatch(200, fd);
  try {
    run(watch);
  } finally {
    watch.stop();
  }
  hold(100);
  closeSync(fd);
  return readFileSync(file, 'utf8');
}

describe('the stuck watch', () => {
  it('says once, while the thread is still held, that Ctrl-C cannot stop it and what will', () => {
    const said = watched(() => hold(1200));
    expect(said).toBe(`sim: the run has not moved for 0.2 s. If the app's code is in a loop that never yields, Ctrl-C cannot stop it (a run takes signals between events): Ctrl-\\ (SIGQUIT) or kill -9 ${process.pid} will\n`);
  });

  it('waits as long as the README says a run waits before it speaks', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(`says, after ${STUCK_AFTER_MS / 1000} s without progress, that Ctrl-\\ (SIGQUIT)`);
  });

  it('says nothing while the run beats', () => {
    expect(watched((watch) => hold(1200, () => watch.beat()))).toBe('');
  });
});
