/**
 * `sim export --format perfetto <trace> -o <file.json>`: turns a trace file into
 * Chrome trace-event JSON for ui.perfetto.dev (src/trace/perfetto.ts does the
 * conversion; this file checks the arguments and writes the file).
 */
import { perfettoJson } from '../trace/perfetto.ts';
import type { Io } from './io.ts';
import { InputError } from '../kernel/errors.ts';
import { AtomicFile, checkOutputFile, checkSeparateFiles, isSpecialOutput, reportStream } from './output-file.ts';
import { parseExportArgs } from './run-args.ts';
import { loadTrace } from './load-trace.ts';

/**
 * Runs `sim export` with its arguments (after `export`); returns the exit status.
 * @throws InputError for bad arguments, an unreadable trace or an unwritable output
 */
export function exportCommand(argv: readonly string[], io: Io): number {
  const { trace, out, format } = parseExportArgs(argv);
  // The export is JSON: a file named otherwise was accepted (a device such as /dev/stdout is fine).
  if (!out.endsWith('.json') && !isSpecialOutput(out)) throw new InputError(`-o ${out}: expected a file name ending in .json (the export is trace-event JSON), or a device such as /dev/stdout`);
  checkSeparateFiles([['trace', trace], ['-o', out]]);
  checkOutputFile('-o', out);
  const loaded = loadTrace(trace);
  // In pieces: the whole text of a long run's export is more than one string holds
  // (it was "internal error: RangeError: Invalid string length").
  const file = new AtomicFile('-o', out);
  try {
    for (const piece of perfettoJson(loaded)) file.append(piece);
  } catch (e) {
    file.abandon();
    throw e;
  }
  file.commit();
  reportStream(io, out)(`sim export: wrote ${out} (${format}; open it in ui.perfetto.dev or chrome://tracing)`);
  return 0;
}
