/**
 * Fitted models (thesis 3.6): every model of a samples file fitted and checked against
 * its verification samples, and the texts sim writes for them — the models as JSON,
 * a TypeScript module with one evaluation function per model (the analogue of the
 * thesis's generated C and perl, 3.6.4) and the residuals. Pure: the CLI writes files.
 */
import { InputError, kindOf } from '../kernel/errors.ts';
import { escapeLineBreaking } from '../kernel/one-line.ts';
import { checkFittable, fitChecked } from './fit-checks.ts';
import { mrePercent, predict } from './fit.ts';
import { readSamples } from './samples-file.ts';

export interface FittedModel {
  platform: string;
  name: string;
  terms: string[];
  coefficients: number[];
  halfWidths: number[];
  relevant: boolean[];
  rSquared: number;
  mreBuildingPercent: number;
  mreVerificationPercent: number | null;
  samples: number;
  verificationSamples: number;
}

/** Where a set of models came from. */
export interface Provenance {
  samples: string;
  samplesSha256: string;
  relativeError: boolean;
  simulatorVersion: string;
  /** Content hash of each platform file the samples were taken on. */
  platformHashes: Record<string, string>;
  /** The machine sizes each platform's samples were taken on (absent in files fitted before it was recorded). */
  machineSizes?: Record<string, number[]>;
}

export interface FittedSamples {
  models: FittedModel[];
  /** Lines of "platform model measured predicted residual", one per building sample. */
  residuals: string[];
  platformHashes: Record<string, string>;
  /** Each platform's machine sizes, ascending (see Provenance). */
  machineSizes: Record<string, number[]>;
}

const round = (x: number) => Number(x.toPrecision(6));

/** "110.1 + 47.5*length" from the relevant terms. */
export function formula(m: FittedModel): string {
  // Exported: formula(null) was a TypeError.
  const fields = m as Partial<FittedModel> | null;
  if (fields === null || typeof fields !== 'object') throw new InputError(`formula: expected a fitted model { terms, coefficients, relevant } (fitSamples gives them), got ${kindOf(m)}`);
  const { terms, coefficients, relevant } = fields;
  if (!Array.isArray(terms) || !Array.isArray(coefficients) || !Array.isArray(relevant) || coefficients.length !== terms.length || relevant.length !== terms.length) {
    throw new InputError(`formula: model ${String(fields.name)}: expected lists terms, coefficients and relevant of one length (fitSamples gives them), got ${kindOf(terms)}, ${kindOf(coefficients)} and ${kindOf(relevant)}`);
  }
  // A NaN or Infinity coefficient was written into the formula ("NaN + 1*x").
  const bad = coefficients.findIndex((c) => !Number.isFinite(c));
  if (bad >= 0) throw new InputError(`formula: model ${String(fields.name)}: coefficient ${bad} is ${String(coefficients[bad])}; expected finite numbers (fitSamples gives them)`);
  const parts = m.terms.flatMap((t, k) => (m.relevant[k] ? [t === '1' ? `${round(m.coefficients[k])}` : `${round(m.coefficients[k])}*${t}`] : []));
  return parts.length === 0 ? '0' : parts.join(' + ').replaceAll('+ -', '- ');
}

/** Fits every model of a samples file's text; bad samples are InputErrors naming `source`. */
export function fitSamples(text: string, source: string, relative: boolean): FittedSamples {
  // Exported: without a name the messages began "undefined:"; relative 'x' was blamed on fitModel, and passed where the text held no model.
  if (typeof source !== 'string') throw new InputError(`fitSamples: expected the file's name (which messages name) as a string, got ${kindOf(source)}`);
  if (typeof relative !== 'boolean') throw new InputError(`fitSamples: expected relative to be true or false, got ${kindOf(relative)}`);
  const models: FittedModel[] = [];
  const residuals: string[] = [];
  // Maps, not objects: a platform named constructor found Object's own function there ("sizes.includes is not a function").
  const platformHashes = new Map<string, string>();
  const machineSizes = new Map<string, number[]>();
  for (const m of readSamples(text, source)) {
    checkFittable(m, relative, source);
    const fit = fitChecked(m, relative, source);
    const verification = m.verification.length === 0 ? null : mrePercent(m.verification.map((s) => s.y), m.verification.map((s) => predict(fit.coefficients, s.x)));
    platformHashes.set(m.platform, m.platformHash);
    const sizes = machineSizes.get(m.platform) ?? [];
    machineSizes.set(m.platform, sizes);
    for (const n of m.nodes) if (!sizes.includes(n)) sizes.push(n);
    models.push({
      platform: m.platform,
      name: m.name,
      terms: fit.terms,
      coefficients: fit.coefficients,
      halfWidths: fit.halfWidths,
      relevant: fit.relevant,
      // An absolute-error constant model explains none of the variance: 0, not a rounding error
      // below it. (Under relative error R^2 is truly below 0 for one: see fitModel.)
      rSquared: Math.abs(fit.rSquared) < 1e-9 ? 0 : fit.rSquared,
      mreBuildingPercent: fit.mrePercent,
      mreVerificationPercent: verification,
      samples: m.building.length,
      verificationSamples: m.verification.length,
    });
    m.building.forEach((s, i) => residuals.push(`${m.platform} ${m.name} ${s.y} ${round(s.y - fit.residuals[i])} ${round(fit.residuals[i])}`));
  }
  for (const sizes of machineSizes.values()) sizes.sort((a, b) => a - b);
  return { models, residuals, platformHashes: Object.fromEntries(platformHashes), machineSizes: Object.fromEntries(machineSizes) };
}

/** The models file: format, version, provenance and models, as JSON. */
export function modelsJson(models: readonly FittedModel[], provenance: Provenance): string {
  return `${JSON.stringify({ format: 'proteus-strata-models', version: 1, provenance, models }, null, 2)}\n`;
}

/** Words a TypeScript module cannot take as a parameter or function name (strict mode, as modules are). */
const RESERVED = new Set(
  'arguments await break case catch class const continue debugger default delete do else enum eval export extends false finally for function if implements import in instanceof interface let new null package private protected public return static super switch this throw true try typeof var void while with yield'.split(' '),
);

/** A name as an identifier: other characters become _, and a reserved word or a leading digit gets a _ in front. */
function identifier(s: string): string {
  const id = s.replace(/\W/g, '_');
  return RESERVED.has(id) || /^\d/.test(id) ? `_${id}` : id;
}

/**
 * Identifiers for `names`, each distinct: a name that came out as an earlier one's gets
 * _2, _3, ... (columns a a, or models X-Y and X_Y, made parameters or functions twice).
 */
function distinctIdentifiers(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((n) => {
    let id = identifier(n);
    for (let k = 2; taken.has(id); k++) id = `${identifier(n)}_${k}`;
    taken.add(id);
    return id;
  });
}

/**
 * Text from a samples file (model, platform and column names, its path) as it stands in
 * a comment of the module: a name such as Evil*\/console.log(1);/* ended the doc comment
 * and put its code into the module, run by whatever imported it.
 */
const commentText = (s: string): string => escapeLineBreaking(s).replaceAll('*/', '*\\/');

/** A TypeScript module with one function per model: its columns in, predicted cycles out. */
export function modelsModule(models: readonly FittedModel[], provenance: Provenance): string {
  // Names the module can take: terms new and interface, or models X-Y and X_Y, wrote a module tsc refused.
  const functions = distinctIdentifiers(models.map((m) => `${m.platform}_${m.name}`));
  return [
    `// Generated by sim from ${commentText(provenance.samples)} (${provenance.samplesSha256.slice(0, 12)}); do not edit.`,
    `// One function per model: the model's columns in, predicted cycles out (thesis 3.6.4).`,
    '',
    ...models.map((m, i) => {
      const args = distinctIdentifiers(m.terms.slice(1));
      const body = m.terms.map((_, k) => (k === 0 ? `${m.coefficients[0]}` : `${m.coefficients[k]} * ${args[k - 1]}`)).join(' + ');
      return `/** ${commentText(`${m.name} on ${m.platform}: ${formula(m)}`)} (verification MRE ${m.mreVerificationPercent?.toFixed(2) ?? 'n/a'}%) */\nexport function ${functions[i]}(${args.map((a) => `${a}: number`).join(', ')}): number {\n  return ${body};\n}\n`;
    }),
  ].join('\n');
}

/** A fixed-point figure that never reads "-0.0000". */
const fixed = (x: number, digits: number) => x.toFixed(digits).replace(/^-(0\.?0*)$/, '$1');

/** One line per model, as sim prints them. */
export function summaryLine(m: FittedModel): string {
  const v = m.mreVerificationPercent;
  return `${m.platform} ${m.name}: ${formula(m)}  R^2 ${fixed(m.rSquared, 4)}, MRE ${m.mreBuildingPercent.toFixed(2)}% building, ${v === null ? 'no verification samples' : `${v.toFixed(2)}% verification`}`;
}

/** The warning for a model that misses its verification samples by more than 10% (3.6.3), or null. */
export function verificationWarning(m: FittedModel): string | null {
  const v = m.mreVerificationPercent;
  return v !== null && v > 10 ? `warning: ${m.platform} ${m.name} misses its verification samples by ${v.toFixed(1)}% (more than 10%)` : null;
}
