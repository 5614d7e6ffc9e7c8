/**
 * Argument parsing for `sim sweep`, its subcommands (merge, status, slurm, export) and
 * `sim worker`: the options commands.ts declares, strict, every problem one InputError line.
 */
import { InputError } from '../kernel/errors.ts';
import { shownQueue } from '../sweep/queue-url.ts';
import { parseShard, WHOLE, type Shard } from '../sweep/shard.ts';
import { COMMANDS } from './commands.ts';
import { parseOptions } from './parse-options.ts';

/** `sim <name>`'s usage line as commands.ts declares it and `sim help <name>` prints it. */
export const usageOf = (name: string): string => `sim ${COMMANDS[name].usage[0]}`;

/**
 * Parses `argv` for `command` (`sim sweep merge`) with the options commands.ts declares
 * for it and exactly `positionals` positional arguments, named by its usage there (a
 * copy of it here had drifted: sim sweep's lacked --progress).
 */
export function parseCommand(command: string, argv: readonly string[], positionals: number) {
  const name = command.replace(/^sim /, '');
  const usage = usageOf(name);
  // An unknown option or a missing value names the command's help (sim help sweep merge).
  const parsed = parseOptions(name, argv);
  if (parsed.positionals.length !== positionals) {
    throw new InputError(`${command}: expected ${positionals === 1 ? 'one argument' : `${positionals} arguments`}, got ${parsed.positionals.length === 0 ? 'none' : parsed.positionals.join(' ')} (usage: ${usage})`);
  }
  return { values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals };
}

/** A required string option. */
export function required(command: string, option: string, value: string | boolean | undefined, what: string): string {
  if (typeof value !== 'string' || value === '') throw new InputError(`${command}: missing --${option} <${what}>`);
  return value;
}

export const shardOption = (value: string | boolean | undefined): Shard => (typeof value === 'string' ? parseShard(value) : WHOLE);

/**
 * `--queue redis://host[:port][/db]` (or rediss://), checked before ioredis sees it:
 * it threw a TypeError with its stack for a port past 65535.
 */
export function queueOption(value: string | boolean | undefined): string | undefined {
  if (value === undefined) return undefined;
  const expected = 'expected a Redis URL, redis://host[:port][/db] (e.g. redis://127.0.0.1:6379/0)';
  if (typeof value !== 'string' || !/^rediss?:\/\/[^\s/]*(:\d+)?(\/\d+)?$/.test(value)) throw new InputError(`--queue ${typeof value === 'string' ? shownQueue(value) : String(value)}: ${expected}`);
  const port = /:(\d+)(\/\d+)?$/.exec(value)?.[1];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) throw new InputError(`--queue ${shownQueue(value)}: port ${port}; expected a port from 1 to 65535`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InputError(`--queue ${shownQueue(value)}: ${expected}`);
  }
  if (url.hostname === '') throw new InputError(`--queue ${shownQueue(value)}: no host; ${expected}`);
  return value;
}

