/**
 * An option of one value given twice with different values is refused: parseArgs kept
 * the last and dropped the first without a word. The same value again, and options
 * made to repeat (--param, one parameter each), are taken.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sim } from '../support/sim-cli.ts';

const PING = ['--platform', 'cm5', '--nodes', '4', 'apps/ping-pong', '--param', 'rounds=1'];

describe.concurrent('an option given twice', () => {
  it('sim sweep --out a --out b wrote b and left a unnamed: refused, nothing written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-repeated-'));
    writeFileSync(join(dir, 's.json'), `${JSON.stringify({ name: 's', runs: [{ app: 'apps/ping-pong', platform: 'cm5', nodes: 4, params: { rounds: 1 } }] })}\n`);
    const r = await sim(['sweep', 's.json', '--out', 'a.jsonl', '-o', 'b.jsonl'], dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('sim sweep: --out given twice (a.jsonl, then b.jsonl); expected it once\n');
    expect(readdirSync(dir)).toEqual(['s.json']);
  });

  it.each([
    ['a run: --seed 1 then --seed=2 ran seed 2', [...PING, '--seed', '1', '--seed=2'], 'sim: --seed given twice (1, then 2); expected it once'],
    ['a run: --platform cm5 then alewife', [...PING, '-p', 'alewife'], 'sim: --platform given twice (cm5, then alewife); expected it once'],
    ['a run: one parameter twice ran the second', [...PING, '--param', 'rounds=2'], 'sim: --param rounds given twice (rounds=1, then rounds=2); expected each parameter once'],
    ['sim calibrate: --vcount 2 then 1', ['calibrate', '--platform', 'cm5', 'apps/calibration/strata.spec', '-o', 'x.samples', '--vcount', '2', '--vcount=1'], 'sim calibrate: --vcount given twice (2, then 1); expected it once'],
    ['sim select: a module input twice', ['select', '--platform', 'cm5', 'stencil', '--param', 'width=64', '--param', 'height=64', '--param', 'iters=2', '--param', 'width=128'], 'sim select: --param width given twice (width=64, then width=128); expected each parameter once'],
  ])('%s: one line, exit 2', async (_what, args, line) => {
    const r = await sim(args, mkdtempSync(join(tmpdir(), 'sim-repeated-')));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`${line}\n`);
  });

  it('the same value twice, and several parameters, run as given once', async () => {
    const r = await sim([...PING, '--seed', '3', '-s', '3', '--param', 'rounds=1', '--json', '--json']);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout) as { seed: number; params: Record<string, unknown> };
    expect(summary.seed).toBe(3);
    expect(summary.params).toEqual({ rounds: 1 });
  });
});
