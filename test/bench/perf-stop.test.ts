// bench perf stopped by Ctrl-C (SIGINT) while a measured sim runs under GNU time: it
// exits 130 with one line and leaves nothing behind. The handler exited at once, so the
// run's scratch folder (/tmp/perf-rss-*) stayed every time, and a baseline worktree
// deleted while its npm ci still wrote into it failed with ENOTEMPTY and a stack trace.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasGnuTime } from '../../bench/perf-process.ts';

const ROOT = join(import.meta.dirname, '..', '..');

describe.skipIf(!hasGnuTime)('bench perf stopped by SIGINT', () => {
  it('during a measured run: exit 130, one line, no scratch folder left', async () => {
    const scratch = mkdtempSync(join(tmpdir(), 'sim-perf-stop-'));
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'run.ts'), 'perf', '--only', 'W2', '--runs', '1'], { cwd: ROOT, env: { ...process.env, TMPDIR: scratch }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    // A measured run is under way once its scratch folder exists.
    for (let waited = 0; !readdirSync(scratch).some((f) => f.startsWith('perf-rss-')); waited += 20) {
      if (waited > 60_000) throw new Error(`no measured run began in 60 s; stderr: ${stderr}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill('SIGINT');
    expect(await closed).toBe(130);
    expect(stderr.trimEnd().split('\n').at(-1)).toBe('bench perf: stopped by SIGINT');
    expect(stderr).not.toMatch(/\n\s+at /);
    // tsx keeps its compile cache there (tsx-<uid>): not the bench's.
    expect(readdirSync(scratch).filter((f) => !f.startsWith('tsx-'))).toEqual([]);
  }, 90_000);
});
