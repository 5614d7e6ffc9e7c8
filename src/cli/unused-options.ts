/**
 * A run's options that auto values make do nothing. The note on the options that only
 * resolve auto values (`--models`, `--communication`), given where they do nothing:
 * without an auto value, or `--communication` where the auto values are a sort's (it
 * chooses the stencil's extra rows and columns alone); sim run and sim explore say it on
 * stderr once the runs have run, so that bad input found on the way is one line alone.
 * And the refusal of a parameter an auto value sets in its place.
 */
import { InputError } from '../kernel/errors.ts';
import type { AutoResolution } from '../library/auto.ts';
import type { RunArgs } from './run-args.ts';

/** The note, or null when every such option given was used. */
export function unusedOptionsNote(args: Pick<RunArgs, 'params' | 'models' | 'communication'>, resolution: AutoResolution | null): string | null {
  if (!args.params.some((a) => a.endsWith('=auto'))) {
    const unused = [args.models === undefined ? null : `--models ${args.models}`, args.communication.communication === undefined ? null : `--communication ${args.communication.communication}`].filter((x) => x !== null);
    return unused.length === 0 ? null : `sim: note: ${unused.join(' and ')} ${unused.length === 1 ? 'is' : 'are'} used only to resolve auto parameters (e.g. --param layout=auto), and this run has none`;
  }
  if (resolution !== null && resolution.module !== 'stencil' && args.communication.communication !== undefined) {
    return `sim: note: --communication ${args.communication.communication} chooses the stencil's extra rows and columns; the auto values of module ${resolution.module} do not use it`;
  }
  return null;
}

/**
 * Refuses a --param that an auto value of another key resolved over: apps/sort's
 * digitBits=auto under sample sort sets sampleDigitBits, and `--param sampleDigitBits=5`
 * given with it ran with the resolved 4, without a word.
 * @throws InputError naming both
 */
export function refuseOverridden(params: readonly string[], resolution: AutoResolution | null): void {
  if (resolution === null) return;
  const autoKeys = params.filter((a) => a.endsWith('=auto')).map((a) => a.slice(0, a.indexOf('=')));
  for (const a of params) {
    const key = a.slice(0, a.indexOf('='));
    if (a.endsWith('=auto') || !Object.hasOwn(resolution.resolved, key)) continue;
    throw new InputError(`--param ${a}: ${autoKeys.map((k) => `${k}=auto`).join(' and ')} ${autoKeys.length === 1 ? 'sets' : 'set'} ${key} (to ${String(resolution.resolved[key])}) on this run; give ${key} or the auto value, not both`);
  }
}
