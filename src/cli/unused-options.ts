/**
 * The note on a run's options that only resolve auto values (`--models`,
 * `--communication`), given where they do nothing: without an auto value, or
 * `--communication` where the auto values are a sort's (it chooses the stencil's extra
 * rows and columns alone). sim run and sim explore say it on stderr once the runs have
 * run, so that bad input found on the way is one line alone.
 */
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
