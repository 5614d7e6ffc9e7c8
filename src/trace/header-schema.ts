/**
 * The trace header's schema (traces/FORMAT.md). A trace is a file from outside: its
 * header is data, checked here field by field before anything is allocated from it
 * or drawn with it — a node count bounded by the largest machine a platform may
 * describe, states with bounded names, distinct ids and colours that are plain
 * `#rrggbb` values (they go into SVG attributes and HTML styles), a clock in a
 * platform's range (zod refuses NaN and Infinity). Anything else is one line naming the key, what it holds and what was expected.
 */
import * as z from 'zod';
import { LINE_BREAKING, LINE_BREAKING_WORDS } from '../kernel/one-line.ts';
import { valueAt } from '../platform/load-platform.ts';
import { CLOCK_MHZ } from '../platform/schema.ts';

/** The largest machine a platform file may describe (`maxNodes` in src/platform/schema.ts). */
export const MAX_TRACE_NODES = 4096;
/** More states than any app defines; bounds the graph's per-column tallies. */
export const MAX_TRACE_STATES = 1024;
/** Longest state name drawn in a legend. */
const MAX_NAME_CHARS = 200;

/** A colour exactly as the writer gives them: `#` and six hex digits. */
export const COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

const stateSchema = z.strictObject({
  id: z.int().min(0).max(2 ** 31 - 1),
  // As an app's states are named (app-check.ts): one line, not empty.
  name: z
    .string()
    .min(1)
    .max(MAX_NAME_CHARS)
    .refine((name) => !LINE_BREAKING.test(name), { message: `expected one line, without ${LINE_BREAKING_WORDS}` }),
  color: z.string().regex(COLOR_PATTERN, { message: 'expected a colour written #rrggbb' }),
});

const paramValue = z.union([z.string().max(10_000), z.number(), z.boolean()]);

// Loose: a later writer's extra fields pass through to whoever knows them.
export const traceHeaderSchema = z.looseObject({
  format: z.literal('proteus-strata-trace'),
  version: z.number(),
  simulatorVersion: z.string(),
  platform: z.string().max(1000),
  platformHash: z.string().regex(/^[0-9a-f]{64}$/, { message: "expected the 64 hex digits of the platform file's SHA-256" }),
  nodes: z.int().min(1).max(MAX_TRACE_NODES),
  // The platform's clock, in a platform's range: 1e-300 drew axis labels of 300 digits.
  clockMHz: z.number().min(CLOCK_MHZ.min).max(CLOCK_MHZ.max),
  network: z.enum(['packet', 'analytic']),
  app: z.string().max(1000),
  params: z.record(z.string(), paramValue),
  seed: z.int().min(0),
  states: z
    .array(stateSchema)
    .max(MAX_TRACE_STATES)
    .refine((states) => new Set(states.map((s) => s.id)).size === states.length, { message: 'expected every state id once' }),
  fingerprint: z.string().regex(/^[0-9a-f]+$/, { message: 'expected hex digits' }),
  networkCounters: z.boolean(),
  messages: z.boolean(),
});

/** A value shown in a message, cut short if long. */
function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** One line for the first problem zod found in `data`: the key, what it was, and what was expected. */
export function describeSchemaError(error: z.ZodError, data: unknown): string {
  const issue = error.issues[0];
  const key = issue.path.map(String).join('.');
  const where = key === '' ? 'the top level' : `key "${key}"`;
  const value = valueAt(data, issue.path);
  // A key not given: "missing", where zod says "expected number, received undefined" (and it added ", got nothing").
  if (issue.code === 'invalid_type' && value === undefined) return `${where}: missing (expected ${issue.expected})`;
  // Unknown keys (a state's; the header's own pass, for a later writer's): name them and what belongs there.
  if (issue.code === 'unrecognized_keys') return `${where}: unknown key${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}; expected only the keys traces/FORMAT.md gives it`;
  const got = `, got ${show(value)}`;
  // zod's own messages start "Invalid input: expected ..." or "Too big: expected ..."; keep what follows the colon.
  const message = issue.message.replace(/^[A-Z][a-z ]+: /, '');
  return `${where}: ${message}${got}`;
}
