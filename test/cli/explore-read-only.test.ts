/**
 * sim explore in a folder that takes no files lists its failing seeds all the same, each
 * repro it cannot write a warning, as a failed run's is: the first one it could not
 * write ended the exploration ("cannot write the file (EACCES)", exit 2), the seeds found unsaid.
 */
import { describe, expect, it } from 'vitest';
import { sim } from '../support/sim-cli.ts';

/** A folder no one can create files in, root included (sysfs refuses new files). */
const READ_ONLY = '/sys';

describe('sim explore where no repro file can be written', () => {
  it('lists the failing seeds without a replay command, warns for each, exit 1', async () => {
    const r = await sim(['explore', 'apps/examples/race', '--runs', '3', '--platform', 'cm5', '--nodes', '4'], READ_ONLY);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^sim explore: 3 perturbed runs of race on cm5, 2 failed:\n {2}--perturb 2: .*\n {4}no repro file; run it again with sim --perturb 2 --record <file> and the same options\n {2}--perturb 3: /);
    expect(r.stderr.trimEnd().split('\n')).toEqual([2, 3].map((p) => expect.stringMatching(new RegExp(`^sim explore: warning: no repro file for --perturb ${p}: repro file sim-repro-race-cm5-n4-s1-p${p}\\.json: cannot write the file \\(E[A-Z]+\\)`))));
  });
});
