/**
 * `auto` parameter values (thesis 4.6: run-time selection "performs the evaluations
 * and then executes the selected algorithm"; 5.5: parameters are optimized first,
 * then the optimized versions compared). An app run with `layout=auto`,
 * `extraRows=auto`, `extraCols=auto` or `aspect=auto` (apps/stencil), `digitBits=auto`
 * (apps/radix-sort, apps/sort; on apps/sample-sort the digit width of the samples'
 * radix sort, oversample keys per node) or `algorithm=auto` (apps/sort) has those
 * values resolved from the platform's models before the run, to the concrete values
 * the app already takes, so the run itself is an ordinary run. A tunable not set
 * to auto keeps its value, given or the app's default, pinned in the prediction: layout=auto
 * alone weighs rect at the default aspect (sim select tunes it, as aspect=auto does). The
 * stencil's extra rows and columns so given reach every layout's edge processors, and
 * every layout is weighed with them (stencil-module.ts givenExtraLines).
 */
import { roomProblem } from '../../apps/sample-sort/index.ts';
import { InputError } from '../kernel/errors.ts';
import { select, variantNamed, type Choice, type LibraryModule, type Params, type SelectContext, type Variant } from './module.ts';
import { RADIX, SAMPLE, SORT_MODULE } from './sort-module.ts';
import { givenExtraLines, givenExtraLinesNotes, STENCIL_MODULE } from './stencil-module.ts';

/** What resolving `auto` values decided, for the summary and --json. */
export interface AutoResolution {
  module: string;
  /** The parameters that were `auto`, with their values (apps/sort's digitBits=auto under sample sort as sampleDigitBits, which sample sort reads). */
  resolved: Params;
  /** The variant whose prediction the values come from. */
  variant: string;
  predictedCycles: number;
  predictedMicros: number;
  notes: string[];
}

/** Apps whose parameters may be `auto`, with the module and what each app calls its selector. */
const AUTO_APPS: Record<string, { module: LibraryModule; selector: string | null; params: readonly string[] }> = {
  'apps/stencil': { module: STENCIL_MODULE, selector: 'layout', params: ['layout', 'extraRows', 'extraCols', 'aspect'] },
  'apps/sort': { module: SORT_MODULE, selector: 'algorithm', params: ['algorithm', 'digitBits'] },
  'apps/radix-sort': { module: SORT_MODULE, selector: null, params: ['digitBits'] },
  'apps/sample-sort': { module: SORT_MODULE, selector: null, params: ['digitBits'] },
};

/** The app folders (relative to the project root) that take `auto` values. */
export const AUTO_APP_FOLDERS = Object.keys(AUTO_APPS);

/** The module an app folder belongs to, or undefined. */
export function moduleOfApp(app: string): LibraryModule | undefined {
  return Object.hasOwn(AUTO_APPS, app) ? AUTO_APPS[app].module : undefined;
}

/**
 * The app's auto rule, checking that it has one and takes `auto` for each of `autos`:
 * callers check this before loading any model file, so that a key that cannot be auto
 * is refused for what it is, not for models missing at that node count.
 * @throws InputError naming the first key that cannot be auto
 */
export function autoRule(app: string, autos: readonly string[]): (typeof AUTO_APPS)[string] {
  const rule = Object.hasOwn(AUTO_APPS, app) ? AUTO_APPS[app] : undefined;
  if (rule === undefined) throw new InputError(`${autos.map((k) => `${k}=auto`).join(', ')}: app ${app} has no library module to resolve auto values from (modules cover ${AUTO_APP_FOLDERS.join(', ')})`);
  for (const k of autos) {
    if (!rule.params.includes(k)) throw new InputError(`${k}=auto: ${app} takes auto only for ${rule.params.join(', ')}`);
  }
  return rule;
}

/**
 * Resolves the `auto` values among `values` (every parameter of the app, defaults
 * filled in) for the app folder `app`; returns the values to run with and what was
 * decided, or null when nothing was `auto`. `given` names the parameters the run set
 * itself: a pinned tunable outside it is the app's default, and its note says so.
 */
export function resolveAuto(app: string, values: Readonly<Record<string, number | string | boolean>>, ctx: SelectContext, given: ReadonlySet<string>): { values: Record<string, number | string | boolean>; resolution: AutoResolution } | null {
  const autos = Object.keys(values).filter((k) => values[k] === 'auto');
  if (autos.length === 0) return null;
  const rule = autoRule(app, autos);
  const num = (k: string) => Number(values[k]);
  // apps/stencil's extra lines as the run gives them to every layout (an auto one is the square's alone: another layout runs with 0).
  const extraOf = (k: string) => (values[k] === 'auto' ? 0 : num(k));
  let choice: Choice;
  const pinned: Params = {};
  if (app === 'apps/sample-sort') {
    // The samples' radix sort: oversample keys per node of the same width.
    choice = select({ ...SORT_MODULE, variants: [RADIX] }, { keys: num('oversample'), keyBits: num('keyBits') }, ctx);
  } else {
    const mod = rule.module;
    const inputs = Object.fromEntries(mod.inputs.map((i) => [i.name, num(i.name)]));
    const selectorAuto = rule.selector !== null && values[rule.selector] === 'auto';
    const only = rule.selector === null ? RADIX.name : selectorAuto ? null : String(values[rule.selector]);
    // apps/sort's sample sort runs with the run's memory and keys, whose room is its precondition (the
    // variant's own is the default's: memory=1.5 with 300,000 keys per node was refused, though it runs;
    // and algorithm=auto chose a sample sort of dist=few keys with memory 1.5, which the app refuses).
    const withRoom = (v: Variant): Variant => (app === 'apps/sort' && v === SAMPLE ? { ...SAMPLE, problem: (x) => roomProblem(num('memory'), x.keys, String(values.dist), x.keyBits) } : v);
    // apps/stencil gives every layout's edge processors the extra lines the run sets, so every layout is weighed
    // with them (an auto one is the square's alone: another layout runs with 0). Only the square's counted: with
    // extraCols=50 on a 150 x 8 grid, vstrips was chosen and its run refused (64 strips cannot take 50 extra columns).
    const withExtraLines = (v: Variant): Variant => (app === 'apps/stencil' ? givenExtraLines(v, extraOf('extraRows'), extraOf('extraCols')) : v);
    const variants = (only === null ? mod.variants : [variantNamed(mod, only)]).map(withRoom).map(withExtraLines);
    // Values of tunables not set to auto, given or the app's defaults, are kept and pinned: the prediction uses them.
    for (const v of variants) for (const t of v.tunables) if (values[t] !== undefined && values[t] !== 'auto') pinned[t] = values[t] as number;
    // The autos the variants tune (select refuses others; the selector and a tunable the chosen variant lacks are dealt with below).
    choice = select({ ...mod, variants }, inputs, ctx, pinned, autos.filter((k) => variants.some((v) => v.tunables.includes(k))));
    const chosen = variantNamed(mod, choice.variant);
    for (const k of autos) {
      if (k === rule.selector || chosen.tunables.includes(k)) continue;
      // apps/sort running sample sort: digitBits=auto tunes the samples' radix sort (below).
      if (app === 'apps/sort' && k === 'digitBits' && chosen === SAMPLE) continue;
      // A tunable the chosen variant has no model for: under layout=auto it keeps the app's plain value;
      // asked for explicitly on that variant, it is an error.
      if (selectorAuto) continue;
      throw new InputError(`${k}=auto: ${rule.selector ?? 'the app'}=${choice.variant} has no model for ${k} (its tunables: ${chosen.tunables.join(', ') || 'none'})`);
    }
  }
  const winner = choice.predictions.find((p) => p.variant === choice.variant)!;
  // select() calls every pinned value given; one the run did not set is the app's default ('aspect 4: given' under layout=auto alone).
  const notes = winner.notes.map((n) => {
    const t = Object.keys(pinned).find((k) => !given.has(k) && n === `${k} ${pinned[k]}: given`);
    return t === undefined ? n : `${t} ${pinned[t]}: the app's default, not tuned (${t}=auto tunes it)`;
  });
  // A layout other than the square weighed with given extra lines said nothing of them (the square's notes say "given").
  if (app === 'apps/stencil') notes.push(...givenExtraLinesNotes(choice.variant, choice.params, ctx.nodes, extraOf('extraRows'), extraOf('extraCols')));
  // apps/sort choosing sample sort: its digitBits is the samples' radix sort's, tuned as apps/sample-sort's is.
  let samplesDigits: number | undefined;
  if (app === 'apps/sort' && choice.variant === SAMPLE.name && autos.includes('digitBits')) {
    const samples = select({ ...SORT_MODULE, variants: [RADIX] }, { keys: num('oversample'), keyBits: num('keyBits') }, ctx);
    samplesDigits = Number(samples.params.digitBits);
    notes.push(...samples.predictions[0].notes.map((n) => `the samples' radix sort (${num('oversample')} keys per node): ${n}`));
  }
  const resolved: Params = {};
  for (const k of autos) {
    if (k === 'digitBits' && samplesDigits !== undefined) {
      // The width goes where sample sort reads it, sampleDigitBits: in digitBits (the radix
      // variant's) the run ignored it, while the auto line claimed it. digitBits keeps its default.
      resolved.sampleDigitBits = samplesDigits;
      continue;
    }
    const fromChoice = k === rule.selector ? choice.variant : choice.params[k];
    // Under layout=auto, a tunable the winner does not have keeps the app's plain value (0 extra lines, aspect 4).
    resolved[k] = fromChoice ?? PLAIN[k];
  }
  // The values to run with: the resolved ones in place, an auto left unresolved (digitBits above) taking its default.
  const out: Record<string, number | string | boolean> = { ...values, ...resolved };
  for (const k of autos) if (!Object.hasOwn(resolved, k)) delete out[k];
  return {
    values: out,
    // On apps/sample-sort the prediction is of its samples' radix sort alone, not of the run: say so.
    resolution: { module: rule.module.name, resolved, variant: app === 'apps/sample-sort' ? `${choice.variant} sort of the samples (${num('oversample')} keys per node)` : choice.variant, predictedCycles: choice.cycles, predictedMicros: choice.micros, notes },
  };
}

/** The values an unused tunable takes: the apps' defaults. */
const PLAIN: Record<string, number> = { extraRows: 0, extraCols: 0, aspect: 4 };
