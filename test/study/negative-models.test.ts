/**
 * A study given models that predict a negative time: the shipped 16-node Alewife app
 * models with every coefficient negated, passed as --models. The digit-width study
 * wrote their predictions into its rows ("-149630.87681356774" predicted cycles, exit
 * 0); the stencil studies took them too. Now each is refused while planning, with one
 * line naming the model, its inputs and the value, before anything runs or is written.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sim } from '../support/sim-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'sim-negative-models-'));

/** The shipped alewife models of 16 nodes in a folder of their own, each coefficient through `edit`. */
function models(name: string, edit: (c: number) => number): string {
  const file = JSON.parse(readFileSync(join(ROOT, 'platforms/models/apps/n16/alewife.json'), 'utf8')) as { models: { coefficients: number[] }[] };
  for (const m of file.models) m.coefficients = m.coefficients.map(edit);
  const folder = join(dir, name);
  mkdirSync(folder);
  writeFileSync(join(folder, 'alewife.json'), JSON.stringify(file, null, 1));
  return folder;
}

const study = (name: string, folder: string, out: string, ...more: string[]) => sim(['study', name, '--platform', 'alewife', '--nodes', '16', '--trials', '1', '--models', folder, '--out', join(dir, out), ...more]);

describe('a study with models that predict a negative time', () => {
  const negated = models('negated', (c) => -c);

  it.each([
    ['digit-width', 'RadixSort', ['--max-keys', '40']],
    ['stencil-selection', 'StencilSquare', []],
  ])('%s is refused while planning, naming the model %s, its inputs and the value', async (name, model, more) => {
    const r = await study(name, negated, `${name}-negated`, ...more);
    expect(r.stderr).toMatch(new RegExp(`^sim: model ${model} in ${negated}/alewife\\.json predicts -\\d+ cycles at [^\\n]*iter=\\d+[^\\n]*; expected a time of 0 or more \\(models that predict a negative time do not fit this input: refit or recalibrate them\\)\\n$`));
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(existsSync(join(dir, `${name}-negated`))).toBe(false);
  }, 60_000);

  it('plans as before with the same models unedited', async () => {
    const r = await study('digit-width', models('unedited', (c) => c), 'unedited', '--max-keys', '40', '--dry-run');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(/^sim study digit-width: round 1 would run \d+ of its \d+ runs \(0 recorded\)\n$/);
  }, 60_000);
});
