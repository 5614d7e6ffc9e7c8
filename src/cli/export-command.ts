/**
 * `sim export --format perfetto <trace> -o <file.json>`: turns a trace file into
 * Chrome trace-event JSON for ui.perfetto.dev (src/trace/perfetto.ts does the
 * conversion; this file checks the arguments and writes the file).
 */
import { perfettoJson } from '../trace/perfetto.ts';
import type { Io } from './io.ts';
import { InputError } from '../kernel/errors.ts';
import { RunStopped, stopPoint } from '../runtime/stoppable-run.ts';
import { signalExitCode } from './run-driver.ts';
import { SignalStop } from './signal-stop.ts';
import { AtomicFile, checkOutputFile, checkSeparateFiles, isSpecialOutput, reportStream } from './output-file.ts';
import { parseExportArgs } from './run-args.ts';
import { loadTrace } from './load-trace.ts';

/**
 * Runs `sim export` with its arguments (after `export`); returns the exit status.
 * @throws InputError for bad arguments, an unreadable trace or an unwritable output
 */
export async function exportCommand(argv: readonly string[], io: Io): Promise<number> {
  const { trace, out, format } = parseExportArgs(argv);
  // The export is JSON: a file named otherwise was accepted (a device such as /dev/stdout is fine).
  if (!out.endsWith('.json') && !isSpecialOutput(out)) throw new InputError(`-o ${out}: expected a file name ending in .json (the export is trace-event JSON), or a device such as /dev/stdout`);
  checkSeparateFiles([['trace', trace], ['-o', out]]);
  checkOutputFile('-o', out);
  const loaded = loadTrace(trace);
  // In pieces: the whole text of a long run's export is more than one string holds
  // (it was "internal error: RangeError: Invalid string length").
  const file = new AtomicFile('-o', out);
  // Ctrl-C or SIGTERM stops it between pieces (of about a megabyte) with its temporary
  // file removed: the loop held the thread, so the signal's default killed it and left up
  // to 100 MB of it behind.
  const stop = new SignalStop();
  try {
    for (const piece of perfettoJson(loaded)) {
      file.append(piece);
      await stopPoint(stop.signal);
    }
  } catch (e) {
    file.abandon();
    if (!(e instanceof RunStopped) || stop.interrupted === null) throw e;
    io.err(`sim export: stopped by ${stop.interrupted}; ${isSpecialOutput(out) ? `what went to ${out} is cut short` : `${out} was not written`}`);
    return signalExitCode(stop.interrupted);
  } finally {
    stop.release();
  }
  file.commit();
  reportStream(io, out)(`sim export: wrote ${out} (${format}; open it in ui.perfetto.dev or chrome://tracing)`);
  return 0;
}
