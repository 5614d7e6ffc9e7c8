/**
 * The text of `sim --help` and of `sim help <command>` / `sim <command> --help`,
 * written from the declarations in commands.ts, so that every option a parser takes
 * is in the help and nothing else is.
 */
import { DEFAULT_MAX_CYCLES, DEFAULT_MAX_EVENTS } from './run-args.ts';
import { COMMANDS, type OptionDecl } from './commands.ts';

const WIDTH = 80;

/** `text` wrapped to WIDTH columns, every line indented by `indent` (the first by `first`). */
export function wrap(text: string, indent: number, first = indent): string {
  const lines: string[] = [];
  let line = ' '.repeat(first);
  let empty = true;
  for (const word of text.split(/\s+/)) {
    if (!empty && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = ' '.repeat(indent);
      empty = true;
    }
    line += (empty ? '' : ' ') + word;
    empty = false;
  }
  lines.push(line);
  return lines.join('\n');
}

function optionLines(options: Readonly<Record<string, OptionDecl>>): string {
  const out: string[] = [];
  for (const [name, o] of Object.entries(options)) {
    if (o.refused !== undefined) continue;
    const head = `  ${o.short === undefined ? '    ' : `-${o.short}, `}--${name}${o.arg === undefined ? '' : ` ${o.arg}`}`;
    if (head.length <= 24) out.push(head.padEnd(26) + wrap(o.help, 26).slice(26));
    else out.push(`${head}\n${wrap(o.help, 26)}`);
  }
  return out.join('\n');
}

/** `sim --help`: every command's usage, a run's options, and what each command does. */
export function helpText(platforms: readonly string[]): string {
  const run = COMMANDS.run;
  const options = { ...run.options, platform: { ...run.options.platform, help: `machine to simulate: ${platforms.join(', ')} (platforms/<p>.json), or a path to a platform .json file` } };
  const usage = Object.values(COMMANDS).flatMap((c) => c.usage.map((u) => `  sim ${u}`));
  const about = Object.entries(COMMANDS)
    .filter(([name]) => name !== 'run' && name !== 'help')
    .map(([name, c]) => wrap(`sim ${name}: ${c.about}`, 0));
  return `sim: a deterministic discrete-event multiprocessor simulator (a modern PROTEUS with Strata)

Usage:
${usage.join('\n')}
  sim --help | --version

${wrap(run.about, 0)}

Arguments:
  <app-folder|app-file>   an app: a folder with index.ts, or a .ts/.js module whose
                          default export is defineApp({...}) (e.g. apps/ping-pong);
                          a relative path not found here names the simulator's own
                          (sim apps), so apps/<name> runs from any directory

Options of a run (defaults: --max-cycles ${DEFAULT_MAX_CYCLES.toExponential().replace('+', '')}, --max-events ${DEFAULT_MAX_EVENTS.toExponential().replace('+', '')}):
${optionLines(options)}

${about.join('\n\n')}

sim help <command> (or sim <command> --help) gives one command's options.

Exit status: 0 when the app verified its result, 1 when verification or the
simulated program failed (including deadlock and --max-cycles/--max-events),
2 for bad input, 130 / 143 when SIGINT / SIGTERM stopped the run.
`;
}

/** `sim help <command>`: its one-line summary, usage, what it does, and its options. */
export function commandHelp(name: string): string {
  const c = COMMANDS[name];
  const options = optionLines(c.options);
  return `sim ${name}: ${c.summary}\n\nUsage:\n${c.usage.map((u) => `  sim ${u}`).join('\n')}\n\n${wrap(c.about, 0)}\n${options === '' ? '' : `\nOptions:\n${options}\n`}`;
}
