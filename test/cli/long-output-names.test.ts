/**
 * Output names near and beyond the longest a file system takes (255 bytes). A name of
 * 246 to 255 bytes passed the checks, but the temporary file beside it (`.<name>.<pid>.tmp`)
 * was too long: the run or the sampling ran and then failed, ENAMETOOLONG, exit 2. A
 * name beyond 255 bytes passed the checks too and failed the same way after the work.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sim } from '../support/sim-cli.ts';

const SPEC = '{{ i 1 2 ++ @ @ ClearMemory(length) @ @ length:100*i @ }}\n';

describe.concurrent('a long output name', () => {
  const fits = `${'a'.repeat(250)}.json`;
  it.each([
    ['a run --record', ['--platform', 'cm5', '--nodes', '4', 'apps/ping-pong', '--record', fits]],
    ['sim calibrate -o', ['calibrate', '--platform', 'cm5', 's.spec', '--nodes', '4', '--vcount', '1', '-o', fits]],
  ])('%s of 255 bytes is written (its temporary file beside it was a name too long)', async (_what, args) => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-long-out-'));
    writeFileSync(join(dir, 's.spec'), SPEC);
    const r = await sim(args, dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([fits, 's.spec']);
    expect(readFileSync(join(dir, fits), 'utf8').length).toBeGreaterThan(100);
  });

  const beyond = `${'b'.repeat(300)}.json`;
  it.each([
    ['a run --record', ['--platform', 'cm5', '--nodes', '4', 'apps/ping-pong', '--record', beyond], '--record'],
    ['sim calibrate -o', ['calibrate', '--platform', 'cm5', 's.spec', '--nodes', '4', '--vcount', '1', '-o', beyond], '-o'],
    ['sim study --out', ['study', 'digit-width', '--platform', 'alewife', '--nodes', '16', '--trials', '1', '--out', `${beyond}/study`], '--out'],
    // One byte past the longest, at the edge of the check.
    ['a run --record of 256 bytes', ['--platform', 'cm5', '--nodes', '4', 'apps/ping-pong', '--record', `${'c'.repeat(251)}.json`], '--record'],
  ])('%s: one line before any work, exit 2, nothing written', async (_what, args, option) => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-long-out-'));
    writeFileSync(join(dir, 's.spec'), SPEC);
    const r = await sim(args, dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`sim: ${option} ${args.at(-1)}: a name of ${args.at(-1)!.split('/')[0].length} bytes; expected at most 255 (the longest a file system takes)\n`);
    expect(readdirSync(dir)).toEqual(['s.spec']);
  });
});
