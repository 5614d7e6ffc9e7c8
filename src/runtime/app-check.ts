/**
 * What makes a value an app definition the simulator can run: a name that can go into
 * file names, a one-line description, state names a trace can hold, main and verify functions, optional setup, check
 * and globals functions (none async), and parameter specs, each with a name --param can
 * set, a one-line doc, finite bounds and string values, whose defaults are of their
 * type and within their range. Pure;
 * used when an app is loaded from a file (the CLI's loadApp) and when one is handed to
 * runConfig or runApp directly (a defineApp object whose params were missing made a
 * TypeError deep in parseParams, and a NaN default ran as NaN).
 */
import { LINE_BREAKING } from '../kernel/one-line.ts';
import type { ParamSpec } from './app.ts';
import { FIRST_APP_STATE, MAX_STATE } from './states.ts';

const APP_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Why `value` is not a usable app definition, or null.
 * @param made what an app is expected to be, for the messages
 */
export function appProblem(value: unknown, made = 'a default export made with defineApp'): string | null {
  const expected = `expected ${made}({ name, description, params, main, verify })`;
  if (value === null || typeof value !== 'object') return `is not an app (${expected})`;
  const app = value as Record<string, unknown>;
  if (typeof app.name !== 'string' || app.name === '') return `is not an app: it has no name (${expected})`;
  // The name goes into file names (a failed run's sim-repro-<app>-<platform>-n<nodes>-s<seed>.json):
  // "../x" wrote its repro outside the working directory.
  if (!APP_NAME.test(app.name)) return `is named ${JSON.stringify(app.name.slice(0, 80))}; expected a name of letters, digits, '.', '_' and '-', starting with a letter or digit, at most 64 characters`;
  if (typeof app.main !== 'function') return `is not an app: it has no main generator (${expected})`;
  if (typeof app.verify !== 'function') return `is not an app: it has no verify function (${expected})`;
  for (const optional of ['setup', 'check', 'globals']) {
    if (app[optional] !== undefined && typeof app[optional] !== 'function') return `is not an app: its ${optional} is ${typeof app[optional]}; expected a function or none`;
  }
  // The run is synchronous, event by event: an async main's first step was a Promise, which
  // failed the run as "outside any node: RangeError: event delay must be ..."; an async
  // verify's Promise was "its ok is undefined".
  for (const fn of ['main', 'verify', 'setup', 'check', 'globals']) {
    const kind = asyncKind(app[fn]);
    if (kind !== null) return `its ${fn} is ${kind}; expected ${fn === 'main' ? 'a function* (a generator function: the nodes run it event by event, and its runtime calls are made with yield*)' : 'a plain function (the run is synchronous: it returns its result, not a Promise)'}`;
  }
  // Shown by sim params and sim apps: undefined was printed as "undefined", a newline broke the listing.
  if (typeof app.description !== 'string' || LINE_BREAKING.test(app.description)) return `has description ${shownValue(app.description)}; expected one line of text saying what it does`;
  const states = statesProblem(app.states);
  if (states !== null) return states;
  if (app.params === null || typeof app.params !== 'object') return `is not an app: it has no params object (${expected})`;
  for (const [key, spec] of Object.entries(app.params as Record<string, ParamSpec>)) {
    // --param splits at the first '=': a parameter "a=b" could never be set.
    if (key === '' || key.includes('=') || LINE_BREAKING.test(key)) return `has a parameter named ${JSON.stringify(key)}; expected a name without '=' on one line`;
    const p = paramProblem(spec);
    if (p !== null) return `parameter "${key}" ${p}`;
  }
  return null;
}

/**
 * Why an app's state names cannot head a trace, or null: they are numbered from 8 to
 * MAX_STATE (Strata's are 0-7) and named in one line of at most 200 characters, as the
 * trace reader takes them. Unchecked, the run wrote a trace that sim graph refused
 * ("bad header: key "states": expected every state id once": states: { 3: 'x' }).
 */
function statesProblem(states: unknown): string | null {
  if (states === undefined) return null;
  const expected = `expected { <number from ${FIRST_APP_STATE} to ${MAX_STATE}>: '<name>' } or none`;
  if (states === null || typeof states !== 'object' || Array.isArray(states)) return `has states ${shownValue(states)}; ${expected}`;
  for (const [id, name] of Object.entries(states)) {
    const n = Number(id);
    if (!Number.isInteger(n) || n < FIRST_APP_STATE || n > MAX_STATE) return `has state ${JSON.stringify(id)}; ${expected} (Strata's states are 0-7)`;
    if (typeof name !== 'string' || name === '' || name.length > 200 || LINE_BREAKING.test(name)) return `has state ${id} named ${shownValue(name)}; expected a name of one line, at most 200 characters`;
  }
  return null;
}

/** A value as a message shows it: a string quoted (cut at 40 characters), anything else by its kind. */
function shownValue(x: unknown): string {
  if (typeof x === 'string') return JSON.stringify(x.length > 40 ? `${x.slice(0, 40)}...` : x);
  return x === null ? 'null' : Array.isArray(x) ? 'a list' : typeof x === 'number' ? String(x) : typeof x;
}

/** 'an async function' or 'an async function*' for one, else null. */
function asyncKind(fn: unknown): string | null {
  const tag = Object.prototype.toString.call(fn);
  return tag === '[object AsyncFunction]' ? 'an async function' : tag === '[object AsyncGeneratorFunction]' ? 'an async function*' : null;
}

function paramProblem(spec: ParamSpec): string | null {
  if (spec === null || typeof spec !== 'object') return 'is not a parameter spec';
  const problem = valueProblem(spec);
  if (problem !== null) return problem;
  // Shown by sim params: a missing doc was printed as "undefined".
  if (typeof spec.doc !== 'string' || LINE_BREAKING.test(spec.doc)) return `has doc ${shownValue(spec.doc)}; expected one line of text saying what it means`;
  return null;
}

/** What is wrong with a spec's type, default, range or values, or null. */
function valueProblem(spec: ParamSpec): string | null {
  switch (spec.type) {
    case 'int':
    case 'float': {
      // A NaN min passed every value (v < NaN is false), a min of '3' compared as text.
      for (const bound of ['min', 'max'] as const) {
        const b: unknown = spec[bound];
        if (b !== undefined && !(typeof b === 'number' && Number.isFinite(b))) return `has ${bound} ${shownValue(b)}; expected a finite number or none`;
      }
      if (spec.min !== undefined && spec.max !== undefined && spec.min > spec.max) return `has min ${spec.min} above its max ${spec.max}`;
      const ok = spec.type === 'int' ? Number.isSafeInteger(spec.default) : Number.isFinite(spec.default);
      // 1e21 is an integer, but not one a parameter holds exactly: it was told "expected an integer".
      if (!ok && spec.type === 'int' && Number.isInteger(spec.default)) return `has default ${String(spec.default)}, past the largest integer a parameter holds exactly (2^53 - 1); expected an integer`;
      if (!ok) return `has default ${String(spec.default)}, expected ${spec.type === 'int' ? 'an integer' : 'a number'}`;
      if ((spec.min !== undefined && spec.default < spec.min) || (spec.max !== undefined && spec.default > spec.max)) {
        return `has default ${spec.default} outside its own range`;
      }
      return null;
    }
    case 'bool':
      return typeof spec.default === 'boolean' ? null : 'has a non-boolean default';
    case 'enum': {
      // Values of 1 and 2 were listed, but --param k=1 is the string "1": "expected one of 1, 2".
      const values: unknown = spec.values;
      if (!Array.isArray(values) || values.length === 0 || values.some((v) => typeof v !== 'string' || v === '' || LINE_BREAKING.test(v))) {
        return `has values ${Array.isArray(values) ? JSON.stringify(values).slice(0, 80) : shownValue(values)}; expected a list of one or more names (non-empty strings on one line)`;
      }
      return values.includes(spec.default) ? null : 'has a default that is not one of its values';
    }
    default:
      return `has unknown type "${String((spec as { type?: unknown }).type)}" (expected int, float, bool or enum)`;
  }
}
