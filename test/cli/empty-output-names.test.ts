/**
 * An output named by an empty string is refused before any work. `--fit ''` passed the
 * check as the working directory (resolve('') is it), the samples were made and
 * written, and then the models' folder could not be made (mkdir '': ENOENT), exit 2.
 */
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sim } from '../support/sim-cli.ts';

describe.concurrent('an empty output name', () => {
  it.each([
    ['sim calibrate --fit', ['calibrate', '--platform', 'cm5', 's.spec', '--nodes', '4', '--vcount', '1', '-o', 's.samples', '--fit', ''], 'sim: --fit: an empty name; expected a folder'],
    ['sim calibrate -o', ['calibrate', '--platform', 'cm5', 's.spec', '--nodes', '4', '--vcount', '1', '-o', ''], 'sim: -o: an empty name; expected a file name'],
    ['a run --log', ['--platform', 'cm5', '--nodes', '4', 'apps/ping-pong', '--log', ''], 'sim: --log: an empty name; expected a file name'],
  ])('%s: one line before any work, exit 2, nothing written', async (_what, args, line) => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-empty-out-'));
    writeFileSync(join(dir, 's.spec'), '{{ i 1 2 ++ @ @ ClearMemory(length) @ @ length:100*i @ }}\n');
    const r = await sim(args, dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`${line}\n`);
    expect(readdirSync(dir)).toEqual(['s.spec']);
  });
});
