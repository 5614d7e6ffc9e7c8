/**
 * Sweep files: what a sweep runs, as JSON checked by zod or as a .ts/.js module whose
 * default export is the same object (as spec files allow). Each entry names an app and
 * lists platforms, node counts, parameter values, seeds, networks and perturbation
 * seeds; src/sweep/expand.ts turns them into runs in document order.
 *
 * ```json
 * { "name": "fig-7-6",
 *   "runs": [ { "app": "apps/patterns", "platform": ["cm5"], "nodes": [64],
 *               "params": { "pattern": ["transpose"], "barriers": ["none", "each"] },
 *               "seeds": { "from": 1, "count": 6 }, "network": ["packet"] } ] }
 * ```
 */
import { readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { z } from 'zod';
import { describeThrown, InputError } from '../kernel/errors.ts';
import { LINE_BREAKING_WORDS, ONE_LINE } from '../kernel/one-line.ts';
import { MAX_SEED } from '../kernel/random-stream.ts';
import { findDuplicateKey } from '../platform/duplicate-keys.ts';
import { valueAt } from '../platform/load-platform.ts';
import { NETWORK_MODES } from '../machine/machine.ts';
import { sha256 } from './canonical.ts';

const oneOrMany = <T extends z.ZodType>(item: T) => z.union([item, z.array(item).min(1)]);
const seed = z.number().int().min(0).max(MAX_SEED);
/** Seeds: one, a list, or `{ from, count }` whose last seed is still a seed (it was accepted past MAX_SEED, and those runs failed). */
const seedRange = z
  .strictObject({ from: seed, count: z.number().int().min(1).max(1_000_000) })
  .refine((r) => r.from + r.count - 1 <= MAX_SEED, { error: `the range's last seed (from + count - 1) is past ${MAX_SEED}` });
const seeds = z.union([oneOrMany(seed), seedRange], { error: `expected a seed (an integer from 0 to ${MAX_SEED}), a list of them, or { "from", "count" }` });
// Text that reaches a message: an app or platform with a newline split its refusal over two lines.
const oneLine = z.string().min(1).regex(ONE_LINE, { error: `expected one line of text, without ${LINE_BREAKING_WORDS}` });
// Its own message: the first form's ("expected string") misleads for 1e400, which JSON reads as Infinity.
const paramValue = z.union([oneLine, z.literal(''), z.number(), z.boolean()], { error: 'expected a string, a finite number, true or false' });

const entrySchema = z.strictObject({
  /** An app folder or module, as `sim` takes it. */
  app: oneLine,
  /** Platform names or platform file paths. */
  platform: oneOrMany(oneLine),
  /** Node counts; the platform's default when absent. */
  nodes: oneOrMany(z.number().int().min(1)).optional(),
  /** Each parameter's value or list of values (parsed as `--param k=v` is). */
  params: z.record(oneLine, oneOrMany(paramValue)).optional(),
  /** Run seeds: one, a list, or `{ from, count }`; seed 1 when absent. */
  seeds: seeds.optional(),
  /** Data networks; `packet` when absent. */
  network: oneOrMany(z.enum(NETWORK_MODES as [string, ...string[]])).optional(),
  /** Schedule-perturbation seeds (`sim --perturb`), in the forms `seeds` takes; none when absent. */
  perturb: seeds.optional(),
});

const sweepSchema = z.strictObject({
  // It heads the results and every progress line: a newline in it broke both.
  name: z.string().min(1).max(200).regex(ONE_LINE, { error: `expected a name without ${LINE_BREAKING_WORDS}` }),
  runs: z.array(entrySchema).min(1),
});

export type SweepEntry = z.infer<typeof entrySchema>;
export type SweepSpec = z.infer<typeof sweepSchema>;

/** A checked sweep with the hash of its file's text (the results header names it). */
export interface LoadedSweep {
  file: string;
  spec: SweepSpec;
  sha256: string;
}

/** Checks a sweep object; the first problem is one InputError line naming where it is. */
export function checkSweep(value: unknown, file: string): SweepSpec {
  // A record drops a key named __proto__ (zod's guard against prototype pollution): a
  // parameter so named was left out of the runs silently, where any other unknown one is refused.
  const runs = (value as { runs?: unknown } | null)?.runs;
  if (Array.isArray(runs)) {
    runs.forEach((run: unknown, k) => {
      const params = (run as { params?: unknown } | null)?.params;
      if (params !== null && typeof params === 'object' && Object.keys(params).includes('__proto__')) {
        throw new InputError(`${file}: not a sweep file at runs[${k}].params: a parameter named __proto__; expected the app's parameter names`);
      }
    });
  }
  const parsed = sweepSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  let issue: z.core.$ZodIssue = parsed.error.issues[0];
  // A union (one value or a list) says only "Invalid input": name what its first form
  // expected, unless the union says what it expects itself (paramValue).
  while (issue.code === 'invalid_union' && issue.message === 'Invalid input' && issue.errors.length > 0 && issue.errors[0].length > 0) {
    const inner: z.core.$ZodIssue = issue.errors[0][0];
    issue = { ...inner, path: [...issue.path, ...inner.path] } as z.core.$ZodIssue;
  }
  // A record's key says only "Invalid key in record": say what the key expected.
  if (issue.code === 'invalid_key' && issue.issues.length > 0) issue = { ...issue.issues[0], path: issue.path } as z.core.$ZodIssue;
  // A key that is no plain name is quoted (a parameter named with a newline split the line).
  const step = (p: PropertyKey) => (typeof p === 'number' ? `[${p}]` : /^[A-Za-z_$][\w$-]*$/.test(String(p)) ? `.${String(p)}` : `[${JSON.stringify(String(p))}]`);
  const where = issue.path.length === 0 ? '' : ` at ${issue.path.map(step).join('').replace(/^\./, '')}`;
  // A key not given: "missing", where zod says "Invalid input: expected string, received undefined".
  const message = issue.code === 'invalid_type' && valueAt(value, issue.path) === undefined ? `missing (expected ${issue.expected})` : issue.message;
  throw new InputError(`${file}: not a sweep file${where}: ${message}; a sweep file is { name, runs: [{ app, platform, nodes?, params?, seeds?, network?, perturb? }] }`);
}

/**
 * Reads a sweep file: JSON, or a .ts/.mts/.js/.mjs module whose default export is the
 * sweep, imported with `importModule` (the CLI's, which can load TypeScript from the
 * JavaScript build too).
 */
export async function loadSweep(file: string, importModule: (path: string) => Promise<unknown>): Promise<LoadedSweep> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new InputError(`${file}: cannot read the sweep file (${(e as { code?: string }).code ?? String(e)})`);
  }
  let value: unknown;
  if (['.ts', '.mts', '.js', '.mjs'].includes(extname(file))) {
    try {
      value = ((await importModule(resolve(file))) as { default?: unknown }).default;
    } catch (e) {
      throw new InputError(`${file}: cannot load the sweep module (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`);
    }
    // A Promise was checked as the sweep ("not a sweep file at name: missing").
    if (typeof (value as { then?: unknown } | null)?.then === 'function') throw new InputError(`${file}: its default export is a Promise; expected the sweep object itself (export default { name, runs }, not an async function's result)`);
    try {
      return { file, spec: checkSweep(value, file), sha256: sha256(text) };
    } catch (e) {
      // A getter of the module's object that throws was the simulator's internal error, with a stack.
      if (e instanceof InputError) throw e;
      throw new InputError(`${file}: cannot load the sweep module (reading its default export threw ${describeThrown(e)})`);
    }
  } else {
    // Named, as a platform file's is: JSON.parse's message showed the invisible character.
    if (text.startsWith('\ufeff')) throw new InputError(`${file}: starts with a byte-order mark (U+FEFF); expected JSON without one (save the file as UTF-8 without a BOM)`);
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new InputError(`${file}: not valid JSON (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`);
    }
    // JSON.parse keeps a key's last value: "seeds": [1, 2] then "seeds": 3 ran seed 3 alone, silently.
    const twice = findDuplicateKey(text);
    if (twice !== null) throw new InputError(`${file}: key "${twice.path}" is given twice (lines ${twice.firstLine} and ${twice.secondLine}); expected each key once`);
  }
  return { file, spec: checkSweep(value, file), sha256: sha256(text) };
}
