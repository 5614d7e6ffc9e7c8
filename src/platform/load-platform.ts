/**
 * Turns the text of a platform file into a validated Platform, or an InputError
 * whose one-line message names the file, the key and what was expected. Reading the
 * file is the caller's job (only the CLI touches the file system).
 */
import { createHash } from 'node:crypto';
import * as z from 'zod';
import { InputError, kindOf } from '../kernel/errors.ts';
import { findDuplicateKey } from './duplicate-keys.ts';
import { checkConsistency, markParsed } from './platform-shape.ts';
import { platformSchema, type Platform } from './schema.ts';

/**
 * Parses and validates platform JSON.
 * @param text the file's contents
 * @param source the file name to put in messages
 * @throws InputError on malformed JSON, a key given twice, unknown or missing keys, wrong types,
 *   out-of-range values, or inconsistent values
 */
export function parsePlatform(text: string, source: string): Platform {
  // Exported: parsePlatform(5) or a Buffer was a TypeError; without a name the messages began "undefined:".
  if (typeof source !== 'string') throw new InputError(`parsePlatform: expected the file's name (which messages name) as a string, got ${kindOf(source)}`);
  if (typeof text !== 'string') throw new InputError(`${String(source)}: expected the platform file's text as a string, got ${kindOf(text)}`);
  // JSON.parse's "Unexpected token" named an invisible character, at no position.
  if (text.startsWith('\ufeff')) throw new InputError(`${source}: starts with a byte-order mark (U+FEFF); expected JSON without one (save the file as UTF-8 without a BOM)`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new InputError(`${source}: not valid JSON (${describeJsonError(e, text)})`);
  }
  const twice = findDuplicateKey(text);
  if (twice !== null) {
    throw new InputError(`${source}: key "${twice.path}" is given twice (lines ${twice.firstLine} and ${twice.secondLine}); expected each key once`);
  }
  const result = platformSchema.safeParse(data);
  if (!result.success) {
    throw new InputError(`${source}: ${describeIssue(firstIssue(result.error.issues), data)}`);
  }
  const spec = result.data;
  const problem = checkConsistency(spec);
  if (problem !== null) throw new InputError(`${source}: ${problem}`);
  return markParsed({ ...spec, source, text, contentHash: createHash('sha256').update(text).digest('hex') });
}

function describeJsonError(e: unknown, text: string): string {
  // V8's "Unexpected token 'x', ..."text"... is not valid JSON" gives no position but
  // quotes the text around the token, newlines and all: a platform with a stray
  // character printed two lines. Said on one, the quote's whitespace as single spaces.
  const message = (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ');
  const at = /position (\d+)/.exec(message);
  if (at === null) return message;
  const pos = Number(at[1]);
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const column = pos - before.lastIndexOf('\n');
  return `${message.replace(/ in JSON at position \d+.*$/, '')} at line ${line} column ${column}`;
}

type Issue = z.core.$ZodIssue;

/**
 * The issue to report: the first, unless it is zod's own safe-integer bound on an
 * integer and the key has a bound of its own (defaultNodes 1e300 said "expected a
 * number <= 9007199254740991", not <= 4096).
 */
function firstIssue(issues: readonly Issue[]): Issue {
  const first = issues[0];
  if ((first.code !== 'too_big' && first.code !== 'too_small') || first.origin !== 'int') return first;
  const key = first.path.join('.');
  return issues.find((i) => i !== first && i.code === first.code && i.path.join('.') === key) ?? first;
}

/** One line for a schema violation: which key, what was expected, what was found. */
function describeIssue(issue: Issue, data: unknown): string {
  const key = issue.path.join('.');
  const value = valueAt(data, issue.path);
  const got = `got ${show(value)}`;
  if (key === '' && issue.code === 'invalid_type') return `expected a JSON object at the top level, ${got}`;
  switch (issue.code) {
    case 'unrecognized_keys': {
      const where = key === '' ? '' : `${key}.`;
      const allowed = allowedKeys(issue.path, data);
      const names = issue.keys.map((k) => `"${where}${k}"`).join(', ');
      return `unknown key ${names}${allowed.length > 0 ? ` (expected one of: ${allowed.join(', ')})` : ''}`;
    }
    case 'invalid_type': {
      const node = schemaAt(issue.path, data);
      let expected = article(node instanceof z.ZodNumber && node.isInt === true ? 'int' : issue.expected);
      if (schemaAt(issue.path, data, false) instanceof z.ZodNullable) expected += ' or null';
      if (value === undefined) return `missing key "${key}" (expected ${expected})`;
      return `key "${key}": expected ${expected}, ${got}`;
    }
    case 'too_small':
    case 'too_big': {
      const op = issue.code === 'too_small' ? (issue.inclusive ? '>=' : '>') : issue.inclusive ? '<=' : '<';
      const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
      if (issue.origin === 'array') return `key "${key}": expected a list with length ${op} ${bound}, ${got}`;
      if (issue.origin === 'string') return `key "${key}": expected a string with length ${op} ${bound}, ${got}`;
      return `key "${key}": expected a number ${op} ${bound}, ${got}`;
    }
    case 'invalid_value':
      return `key "${key}": expected one of ${issue.values.map((v) => show(v)).join(', ')}, ${got}`;
    case 'invalid_format':
      // Each pattern in the schema says what it expects.
      return `key "${key}": ${issue.message}, ${got}`;
    case 'invalid_union': {
      const options = 'options' in issue && Array.isArray(issue.options) ? issue.options : [];
      if (options.length > 0) return `key "${key}": expected one of ${options.map((o) => show(o)).join(', ')}, ${got}`;
      return `key "${key}": ${issue.message}, ${got}`;
    }
    default:
      return `key "${key}": ${issue.message}`;
  }
}

function article(type: string): string {
  if (type === 'int') return 'an integer';
  if (type === 'object') return 'an object';
  if (type === 'array') return 'a list';
  return `a ${type}`;
}

function show(v: unknown): string {
  if (v === undefined) return 'nothing';
  // JSON.parse reads 1e400 as Infinity, which JSON.stringify writes as null.
  if (typeof v === 'number' && !Number.isFinite(v)) return `${v < 0 ? '-' : ''}a number too large for a double (read as ${v})`;
  const s = JSON.stringify(v);
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
}

/** The value at `path` in parsed JSON, or undefined (also used for trace and repro headers). */
export function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let v = data;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

/** The schema node describing `path`, following the data through the network union. */
function schemaAt(path: readonly PropertyKey[], data: unknown, unwrapLast = true): z.ZodType | undefined {
  let s: z.ZodType | undefined = platformSchema;
  let v: unknown = data;
  for (const k of path) {
    s = unwrap(s, v);
    if (s instanceof z.ZodObject) s = (s.shape as Record<string, z.ZodType>)[String(k)];
    else if (s instanceof z.ZodArray) s = s.element as z.ZodType;
    else return undefined;
    v = valueAt(v, [k]);
  }
  return unwrapLast ? unwrap(s, v) : s;
}

function unwrap(s: z.ZodType | undefined, value: unknown): z.ZodType | undefined {
  if (s instanceof z.ZodNullable) return s.unwrap() as z.ZodType;
  if (s instanceof z.ZodDiscriminatedUnion) {
    const kind = valueAt(value, ['kind']);
    return (s.options as z.ZodType[]).find(
      (o) => o instanceof z.ZodObject && (o.shape as Record<string, z.ZodType>).kind instanceof z.ZodLiteral &&
        ((o.shape as Record<string, z.ZodLiteral>).kind.value === kind),
    );
  }
  return s;
}

function allowedKeys(path: readonly PropertyKey[], data: unknown): string[] {
  const s = schemaAt(path, data);
  return s instanceof z.ZodObject ? Object.keys(s.shape) : [];
}
