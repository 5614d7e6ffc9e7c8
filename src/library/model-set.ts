/**
 * A platform's fitted models as the libraries use them (thesis 3.6.4: "the models are
 * procedures that take the explanatory variables and return predicted time"): the
 * app models of one machine size and the Strata models, read from the JSON that
 * `sim calibrate --fit` and `sim fit` write (src/calibrate/models.ts), and evaluated
 * on columns named as the model's terms. Pure: the CLI reads the files.
 */
import { z } from 'zod';
import type { FittedModel } from '../calibrate/models.ts';
import { InputError } from '../kernel/errors.ts';
import { LINE_BREAKING_WORDS, ONE_LINE } from '../kernel/one-line.ts';
import { findDuplicateKey } from '../platform/duplicate-keys.ts';

// Names reach messages: a term with a newline split "has a term ... the library does not know" in two.
const oneLine = z.string().regex(ONE_LINE, { error: `expected one line of text, without ${LINE_BREAKING_WORDS}` });
// Strict, as platform and sweep files are: a key sim fit never writes (a misspelt one) was dropped in silence.
const MODEL = z.strictObject({
  platform: oneLine,
  name: oneLine,
  terms: z.array(oneLine).min(1),
  coefficients: z.array(z.number()),
  halfWidths: z.array(z.number()),
  relevant: z.array(z.boolean()),
  rSquared: z.number(),
  mreBuildingPercent: z.number(),
  mreVerificationPercent: z.number().nullable(),
  samples: z.number(),
  verificationSamples: z.number(),
});
const FILE = z.strictObject({ format: z.literal('proteus-strata-models'), version: z.literal(1), provenance: z.unknown(), models: z.array(MODEL) });

/** Columns a model is evaluated on, by term name. */
export type Columns = Readonly<Record<string, number>>;

/**
 * The shipped spec whose calibration gives the model called `name`: the stencil layouts'
 * and the sorts' are apps.spec's, the stencil's Communication hybrid.spec's, the rest
 * Strata's (a missing BlockTransfer was sent to apps.spec, which has none).
 */
function specOf(name: string): string {
  if (name === 'StencilRowComm' || name === 'StencilColComm') return 'apps/calibration/hybrid.spec';
  if (name.startsWith('Stencil') || name === 'RadixSort' || name === 'SampleSort') return 'apps/calibration/apps.spec';
  return 'apps/calibration/strata.spec';
}

/** What a refusal of a negative prediction expects. */
export const NEGATIVE_TIME = 'expected a time of 0 or more (models that predict a negative time do not fit this input: refit or recalibrate them)';

/** A model as a set holds it: its file, and whether evaluate refuses a negative prediction of it. */
type HeldModel = FittedModel & { source: string; refuseNegative?: true };

export class ModelSet {
  readonly #models = new Map<string, HeldModel>();
  readonly #used = new Set<string>();
  #refuseNegative = false;

  readonly platform: string;
  /** The files the models came from, for messages (e.g. "platforms/models/apps/n64/cm5.json"). */
  readonly sources: string[] = [];

  constructor(platform: string) {
    this.platform = platform;
  }

  /**
   * Adds the models of one models file's text; a later file's model replaces an earlier
   * one of the same name. With `refuseNegative`, evaluate refuses a negative prediction
   * of its models (as of every model of a set after refuseNegative()).
   */
  addFile(text: string, source: string, { refuseNegative = false } = {}): this {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new InputError(`${source}: not JSON (${(e as Error).message.split('\n')[0]})`);
    }
    // JSON.parse keeps a key's last value: a second "coefficients" of zeros predicted 0 cycles, and was chosen.
    const twice = findDuplicateKey(text);
    if (twice !== null) throw new InputError(`${source}: key "${twice.path}" is given twice (lines ${twice.firstLine} and ${twice.secondLine}); expected each key once`);
    const parsed = FILE.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InputError(`${source}: not a models file as sim fit writes it (${issue.path.join('.') || 'top level'}: ${issue.message})`);
    }
    this.sources.push(source);
    const seen = new Set<string>();
    for (const m of parsed.data.models) {
      if (m.platform !== this.platform) continue;
      // A second entry of one name silently replaced the first (a later file's may: app models override Strata's).
      if (seen.has(m.name)) throw new InputError(`${source}: model ${m.name} on ${m.platform} is given twice; expected each model once`);
      seen.add(m.name);
      // One entry of each per term: a short "relevant" was "has 12 terms but 12 coefficients".
      for (const key of ['coefficients', 'halfWidths', 'relevant'] as const) {
        if (m[key].length !== m.terms.length) throw new InputError(`${source}: model ${m.name} has ${m.terms.length} terms but ${m[key].length} ${key}; expected one for each term`);
      }
      const twiceTerm = m.terms.find((t, i) => m.terms.indexOf(t) !== i);
      if (twiceTerm !== undefined) throw new InputError(`${source}: model ${m.name} names the term ${twiceTerm} twice; expected each term once`);
      this.#models.set(m.name, { ...m, source, ...(this.#refuseNegative || refuseNegative ? { refuseNegative: true as const } : {}) });
    }
    return this;
  }

  /**
   * Makes evaluate refuse a prediction below 0 cycles of any model of the set, now or
   * added later: for a study, whose rows record the predictions (with --models whose
   * fit gave negative times, sim study wrote "-149630.9" as a run's predicted cycles).
   * The library's select() takes them, as the thesis's printed models draw its derived
   * map with them (selection.md 2.2); sim select refuses only a negative choice.
   */
  refuseNegative(): this {
    this.#refuseNegative = true;
    for (const [name, m] of this.#models) this.#models.set(name, { ...m, refuseNegative: true });
    return this;
  }

  has(name: string): boolean {
    return this.#models.has(name);
  }

  /** The model called `name`; `forWhat` says who needs it, for the message when it is missing. */
  get(name: string, forWhat: string): HeldModel {
    this.#used.add(name);
    const m = this.#models.get(name);
    if (m === undefined) {
      throw new InputError(`no model ${name} for ${this.platform} (needed by ${forWhat}) in ${this.sources.join(', ')}; calibrate it with sim calibrate --platform ${this.platform} ${specOf(name)} ... --fit <dir>`);
    }
    return m;
  }

  names(): string[] {
    return [...this.#models.keys()];
  }

  /** The file the model called `name` came from (for provenance; not a use), or undefined. */
  sourceOf(name: string): string | undefined {
    return this.#models.get(name)?.source;
  }

  /** The names get() was asked for so far, in first-asked order (a study checks them against what it declares it uses). */
  used(): string[] {
    return [...this.#used];
  }
}

/**
 * A model's prediction (cycles) on `columns`; a relevant term the columns lack, a
 * prediction that is not finite, or (for a set that refuses them) a negative one is an
 * InputError.
 */
export function evaluate(model: FittedModel & { source?: string; refuseNegative?: true }, columns: Columns): number {
  let y = 0;
  for (let k = 0; k < model.terms.length; k++) {
    if (!model.relevant[k]) continue;
    const term = model.terms[k];
    if (term === '1') {
      y += model.coefficients[k];
      continue;
    }
    // Own columns only: a term named constructor or toString found Object's function and predicted NaN.
    const x = Object.hasOwn(columns, term) ? columns[term] : undefined;
    if (x === undefined) {
      throw new InputError(`model ${model.name}${model.source === undefined ? '' : ` in ${model.source}`} has a term "${term}" the library does not know (it gives ${Object.keys(columns).join(', ')})`);
    }
    y += model.coefficients[k] * x;
  }
  // Coefficients near the largest double overflowed to Infinity (shown as the variant
  // not covering the input, with a "predicted benefit NaN%"), or to NaN.
  if (!Number.isFinite(y) || (y < 0 && model.refuseNegative === true)) {
    const used = model.terms.filter((t, k) => model.relevant[k] && t !== '1').map((t) => `${t}=${columns[t]}`);
    const expected = Number.isFinite(y) ? NEGATIVE_TIME : 'expected a finite time (its coefficients are too large: refit it)';
    throw new InputError(`model ${model.name}${model.source === undefined ? '' : ` in ${model.source}`} predicts ${Number.isFinite(y) ? Math.round(y) : y} cycles${used.length === 0 ? '' : ` at ${used.join(' ')}`}; ${expected}`);
  }
  return y;
}
