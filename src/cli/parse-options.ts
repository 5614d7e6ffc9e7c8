/**
 * Parses a command's arguments with the options commands.ts declares for it
 * (node:util parseArgs, strict): an unknown option, a missing value, or an option
 * that belongs to another command is one InputError line naming it.
 */
import { parseArgs } from 'node:util';
import { InputError } from '../kernel/errors.ts';
import { COMMANDS, parseArgsOptions, type OptionDecl } from './commands.ts';

export type OptionValues = Record<string, string | boolean | string[] | undefined>;

/** How messages about `command`'s arguments start: nothing for a run, `sim graph: ` for graph. */
export function messagePrefix(command: string): string {
  return command === 'run' ? '' : `sim ${command}: `;
}

/**
 * The entries of a comma-separated option value, each one checked not empty: `--nodes 4,`
 * was "--nodes : expected an integer" (calibrate) or named no entry (study).
 * @param expected what the value should be, for the message (e.g. "machine sizes separated by commas (e.g. 16,32,64)")
 */
export function commaEntries(option: string, text: string, expected: string): string[] {
  const entries = text.split(',');
  const empty = entries.findIndex((e) => e.trim() === '');
  if (empty >= 0) {
    const where = entries.length === 1 ? 'is empty' : empty === 0 ? 'starts with a comma' : empty === entries.length - 1 ? 'ends with a comma' : `has two commas in a row (entry ${empty + 1} is empty)`;
    throw new InputError(`${option} ${text}: ${where}; expected ${expected}`);
  }
  return entries;
}

/**
 * `--seed -1` as `--seed=-1`: parseArgs takes a value that starts with a dash for an
 * option of its own, which would report "--seed: takes no value" instead of checking
 * the value. Only a dash followed by a digit is joined (a negative number).
 */
export function joinNegativeValues(argv: readonly string[], options: Readonly<Record<string, { type: string; short?: string }>>): string[] {
  const takesValue = new Set<string>();
  for (const [name, o] of Object.entries(options)) {
    if (o.type !== 'string') continue;
    takesValue.add(`--${name}`);
    if (o.short !== undefined) takesValue.add(`-${o.short}`);
  }
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (takesValue.has(argv[i]) && i + 1 < argv.length && /^-\d/.test(argv[i + 1])) {
      out.push(argv[i].startsWith('--') ? `${argv[i]}=${argv[i + 1]}` : `${argv[i]}${argv[i + 1]}`);
      i++;
    } else out.push(argv[i]);
  }
  return out;
}

/** One line for what parseArgs refused. */
export function describeParseError(e: unknown, command: string): string {
  const err = e as { code?: string; message?: string };
  const message = err.message ?? String(e);
  const help = command === 'run' ? 'sim --help' : `sim help ${command}`;
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const m = /'([^']+)'/.exec(message);
      return `unknown option ${m?.[1] ?? ''} (see ${help})`.replace('  ', ' ');
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      if (/argument missing/.test(message)) return `${/(--[\w-]+)/.exec(message)?.[1] ?? 'an option'}: expected a value`;
      // The option as written (-n, not the --nodes=-XYZ its advice names).
      const option = /Option '([^']+)'/.exec(message)?.[1] ?? 'an option';
      // `--trace --json`: the word after an option that takes a value is another option.
      if (/argument is ambiguous/.test(message)) return `${option}: expected a value, but the next word is an option (a value that starts with a dash is written ${option.startsWith('--') ? `${option}=-VALUE` : `${option}-VALUE`})`;
      return `${option}: takes no value`;
    }
    default:
      return message.split('\n')[0];
  }
}

/**
 * An option of one value given twice with different values: parseArgs keeps the last
 * and drops the other without a word (`sim sweep s.json --out a.jsonl --out b.jsonl` wrote
 * b.jsonl; `--seed 1 ... --seed 2` ran seed 2). The same value again changes nothing.
 */
function refuseRepeated(command: string, declared: Readonly<Record<string, OptionDecl>>, tokens: readonly { kind: string; name?: string; value?: string }[]): void {
  const first = new Map<string, string>();
  for (const t of tokens) {
    if (t.kind !== 'option' || t.name === undefined || t.value === undefined) continue;
    const decl = declared[t.name];
    if (decl === undefined) continue;
    if (decl.multiple === true) {
      // --param k=v is repeatable, one parameter each: a key again dropped its first value (--param rounds=1 --param rounds=2 ran 2).
      const eq = t.value.indexOf('=');
      if (t.name !== 'param' || eq <= 0) continue;
      const key = `param ${t.value.slice(0, eq)}`;
      const before = first.get(key);
      if (before === undefined) first.set(key, t.value);
      else if (before !== t.value) throw new InputError(`${messagePrefix(command)}--param ${t.value.slice(0, eq)} given twice (${quoted(before)}, then ${quoted(t.value)}); expected each parameter once`);
      continue;
    }
    const before = first.get(t.name);
    if (before === undefined) first.set(t.name, t.value);
    else if (before !== t.value) throw new InputError(`${messagePrefix(command)}--${t.name} given twice (${quoted(before)}, then ${quoted(t.value)}); expected it once`);
  }
}

/** A value as a message shows it: as it is, or quoted when empty or with blanks at its ends. */
const quoted = (v: string): string => (v === '' || v.trim() !== v ? JSON.stringify(v) : v);

/**
 * Parses `argv` for `command` (a key of COMMANDS) with the options declared for it.
 * @throws InputError for an unknown option, a missing value, or a refused option
 */
export function parseOptions(command: string, argv: readonly string[]): { values: OptionValues; positionals: string[] } {
  const declared: Readonly<Record<string, OptionDecl>> = COMMANDS[command].options;
  const options = parseArgsOptions(declared);
  let parsed;
  try {
    parsed = parseArgs({ args: joinNegativeValues(argv, options), options, allowPositionals: true, strict: true, tokens: true });
  } catch (e) {
    throw new InputError(`${messagePrefix(command)}${describeParseError(e, command)}`);
  }
  refuseRepeated(command, declared, parsed.tokens);
  const values = parsed.values as OptionValues;
  for (const [name, o] of Object.entries(declared)) {
    if (o.refused !== undefined && values[name] !== undefined) throw new InputError(`${messagePrefix(command)}--${name}: ${o.refused}`);
  }
  return { values, positionals: parsed.positionals };
}

/** An integer option from `min` to `max`. */
/** The most worker threads a sweep, study or worker takes (--workers), and so the most CPUs a Slurm task of a sweep may use. */
export const MAX_WORKERS = 256;

export function intOption(option: string, value: string | boolean | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new InputError(`--${option} ${String(value)}: expected an integer from ${min} to ${max}`);
  return n;
}
