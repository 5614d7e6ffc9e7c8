/**
 * What makes a value an app definition the simulator can run: a name that can go into
 * file names, main and verify functions, optional setup, check and globals functions,
 * and parameter specs whose defaults are of their type and within their range. Pure;
 * used when an app is loaded from a file (the CLI's loadApp) and when one is handed to
 * runConfig or runApp directly (a defineApp object whose params were missing made a
 * TypeError deep in parseParams, and a NaN default ran as NaN).
 */
import type { ParamSpec } from './app.ts';

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
  if (app.params === null || typeof app.params !== 'object') return `is not an app: it has no params object (${expected})`;
  for (const [key, spec] of Object.entries(app.params as Record<string, ParamSpec>)) {
    const p = paramProblem(spec);
    if (p !== null) return `parameter "${key}" ${p}`;
  }
  return null;
}

/** 'an async function' or 'an async function*' for one, else null. */
function asyncKind(fn: unknown): string | null {
  const tag = Object.prototype.toString.call(fn);
  return tag === '[object AsyncFunction]' ? 'an async function' : tag === '[object AsyncGeneratorFunction]' ? 'an async function*' : null;
}

function paramProblem(spec: ParamSpec): string | null {
  if (spec === null || typeof spec !== 'object') return 'is not a parameter spec';
  switch (spec.type) {
    case 'int':
    case 'float': {
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
    case 'enum':
      return Array.isArray(spec.values) && spec.values.includes(spec.default) ? null : 'has a default that is not one of its values';
    default:
      return `has unknown type "${String((spec as { type?: unknown }).type)}" (expected int, float, bool or enum)`;
  }
}
