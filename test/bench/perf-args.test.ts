// The perf bench's options (bench/perf-args.ts): --same-apps belongs to a baseline, and survives npm eating it.
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

  it('reads --same-apps back when npm took it as its own flag', () => {
    const env = { npm_lifecycle_event: 'bench', npm_config_baseline: 'true', npm_config_same_apps: 'true' };
    expect(parsePerfArgs(['da376e2'], IDS, env)).toMatchObject({ baseline: 'da376e2', sameApps: true });
  });
});
