// The perf bench's options (bench/perf-args.ts): --same-apps belongs to a baseline, and survives npm eating it.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePerfArgs, PerfUsageError } from '../../bench/perf-args.ts';

const IDS = ['W1', 'W2', 'W3', 'W4', 'W5'];

describe('bench perf options', () => {
  it('runs the baseline on its own apps unless --same-apps says otherwise', () => {
    expect(parsePerfArgs(['--baseline', 'da376e2'], IDS, {}).sameApps).toBe(false);
    expect(parsePerfArgs(['--baseline', 'da376e2', '--same-apps'], IDS, {})).toMatchObject({ baseline: 'da376e2', sameApps: true });
  });

  it('refuses --same-apps without a baseline, in one line', () => {
    expect(() => parsePerfArgs(['--same-apps'], IDS, {})).toThrow(PerfUsageError);
    expect(() => parsePerfArgs(['--same-apps'], IDS, {})).toThrow(/^bench perf: --same-apps needs --baseline/);
  });

  it('refuses an --only list with an empty name, and an option given twice (it said "(none given)" of W1,; it took the last --runs)', () => {
    expect(parsePerfArgs(['--only', 'w1,W4'], IDS, {}).only).toEqual(['W1', 'W4']);
    expect(() => parsePerfArgs(['--only', 'W1,'], IDS, {})).toThrow(/^bench perf: --only "W1,": an empty name in the list; expected a comma-separated list of W1, W2, W3, W4, W5$/);
    expect(() => parsePerfArgs(['--only', 'W9'], IDS, {})).toThrow(/^bench perf: --only W9: unknown workload W9 /);
    expect(() => parsePerfArgs(['--runs', '1', '--runs', '2'], IDS, {})).toThrow(/^bench perf: --runs given twice; expected it once$/);
  });

  it('reads --same-apps back when npm took it as its own flag', () => {
    const env = { npm_lifecycle_event: 'bench', npm_config_baseline: 'true', npm_config_same_apps: 'true' };
    expect(parsePerfArgs(['da376e2'], IDS, env)).toMatchObject({ baseline: 'da376e2', sameApps: true });
  });
});

describe('npm run bench with perf among other suites', () => {
  it("refuses perf's bad options before any suite runs (the queues suite ran first, then perf refused)", () => {
    const root = join(import.meta.dirname, '..', '..');
    const done = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench', 'run.ts'), 'queues', 'perf', '--runs', '0'], { cwd: root, encoding: 'utf8' });
    expect(done.status).toBe(2);
    expect(done.stderr).toBe('bench perf: --runs 0: expected an integer from 1 to 100\n');
    expect(done.stdout).toBe('');
  });
});
