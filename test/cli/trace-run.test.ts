/**
 * A run with its trace, for programs (src/cli/trace-run.ts): the package exported trace
 * readers and a RunConfig took a TraceSink, but no writer, so a program could read only
 * traces the CLI had made. runTraced makes the bytes `sim --trace` writes for the same
 * run, for a run that passes and for one that fails (its trace ends where it stopped).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTraced } from '../../src/api/index.ts';
import { loadRun } from '../../src/cli/run-setup.ts';
import { InputError } from '../../src/kernel/errors.ts';
import { readTrace } from '../../src/trace/reader.ts';
import { simHere } from '../support/sim-here.ts';
import { ROOT } from '../support/sim-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'sim-trace-run-'));

describe('runTraced', () => {
  it.each([
    ['a run that passes', 'apps/ping-pong', ['rounds=3'], ['--trace-network'], { network: true }],
    ['a run that deadlocks', 'test/fixtures/deadlock-app', [], ['--trace-messages'], { messages: true }],
  ] as const)('gives the bytes sim --trace writes, for %s', async (_what, app, params, flags, options) => {
    const file = join(dir, `${app.replace(/\W+/g, '-')}.trace`);
    await simHere(['--platform', 'cm5', '--nodes', '4', join(ROOT, app), ...params.flatMap((p) => ['--param', p]), '--trace', file, ...flags, '--record', join(dir, 'r.json')]);
    const traced = runTraced(await loadRun({ platform: 'cm5', app: join(ROOT, app), nodes: 4, params: [...params] }), options);
    expect(Buffer.from(traced.trace).equals(readFileSync(file))).toBe(true);
    const trace = readTrace(traced.trace, 'memory');
    if (traced.summary !== null) {
      expect(traced.failure).toBeNull();
      expect(trace.header.fingerprint).toBe(traced.summary.fingerprint);
    } else expect(traced.failure?.message).toMatch(/^deadlock at cycle \d+/);
  });

  it('refuses network counters of the analytic network and options it does not have, as InputErrors', async () => {
    const config = await loadRun({ platform: 'cm5', app: 'apps/ping-pong', nodes: 2, network: 'analytic' });
    expect(() => runTraced(config, { network: true })).toThrow(InputError);
    expect(() => runTraced(config, { network: true })).toThrow(/^runTraced option network: the analytic network has no packets in flight to count/);
    expect(() => runTraced(config, { colours: true } as never)).toThrow(/^runTraced option colours: unknown \(expected network, messages\)$/);
    expect(() => runTraced(null as never)).toThrow(InputError);
  });

  it("names a platform a program edited by its values, as the run's summary does", async () => {
    const config = await loadRun({ platform: 'cm5', app: 'apps/ping-pong', nodes: 2 });
    const edited = { ...config.platform, cpu: { ...config.platform.cpu, loadCycles: 9 } };
    const traced = runTraced({ ...config, platform: edited });
    expect(traced.summary?.platformHash).not.toBe(config.platform.contentHash);
    expect(readTrace(traced.trace, 'memory').header.platformHash).toBe(traced.summary?.platformHash);
  });
});
