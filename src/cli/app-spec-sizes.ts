/**
 * Whether the shipped app calibration spec (apps/calibration/apps.spec) can sample a
 * machine size: its grids fit the processor grids of some sizes from 12 to 64 nodes only
 * (the shipped models are of 16, 32 and 64), and at other sizes its planning refuses a
 * sample (a grid the layout cannot split, a division by zero). The "no app models"
 * message suggested calibrating it at any size, a command that then failed.
 */
import { readFileSync } from 'node:fs';
import radixSort from '../../apps/radix-sort/index.ts';
import sampleSort from '../../apps/sample-sort/index.ts';
import stencil from '../../apps/stencil/index.ts';
import { appTask } from '../calibrate/app-tasks.ts';
import { checkAppUnit, type LoadedApp } from '../calibrate/app-units.ts';
import { parseSpecs } from '../calibrate/spec.ts';
import { InputError } from '../kernel/errors.ts';
import type { Platform } from '../platform/schema.ts';
import { projectPath } from './load-inputs.ts';

/** The shipped app spec, relative to the project root. */
export const APP_SPEC = 'apps/calibration/apps.spec';

const APPS: Record<string, LoadedApp> = { 'apps/stencil': stencil, 'apps/radix-sort': radixSort, 'apps/sample-sort': sampleSort };

/**
 * Why APP_SPEC cannot be calibrated on `platform` at `nodes` nodes (its first refusal,
 * up to its first ';', with a value's likely causes), or null when it plans every sample, as sim calibrate checks before it runs.
 */
export function appSpecSizeProblem(platform: Platform, nodes: number): string | null {
  for (const spec of parseSpecs(readFileSync(projectPath(APP_SPEC), 'utf8'), APP_SPEC)) {
    const app = APPS[appTask(spec.task.name)?.app ?? ''];
    if (app === undefined) continue;
    try {
      checkAppUnit({ platform, spec, source: APP_SPEC, nodes, seed: 1, vcount: 1 }, app);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      // A value that is not a number keeps its likely causes: "input width is NaN at sample a=6 b=6 t=1" alone named none.
      const causes = /; expected a finite number[^(]*(\(.*\))$/.exec(e.message)?.[1];
      return `${e.message.split(';')[0]}${causes === undefined ? '' : ` ${causes}`}`;
    }
  }
  return null;
}
