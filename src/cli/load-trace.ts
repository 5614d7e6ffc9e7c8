/** Reads a trace file for the commands that draw or convert one (graph, export). */
import { readFileSync } from 'node:fs';
import { InputError, kindOf } from '../kernel/errors.ts';
import { MAGIC } from '../trace/format.ts';
import { checkReadOptions, readTrace, type ReadOptions, type Trace } from '../trace/reader.ts';
import { REPRO_FORMAT } from './repro-format.ts';

/** Reads and checks a trace file; any problem is one InputError line. */
export function loadTrace(path: string, options: ReadOptions = {}): Trace {
  // Exported: a number was read as a file descriptor (loadTrace(0) waited on stdin), null was "null: cannot read the trace (ERR_INVALID_ARG_TYPE)".
  if (typeof path !== 'string') throw new InputError(`loadTrace: expected a trace file's path as a string, got ${kindOf(path)}`);
  checkReadOptions(options, 'loadTrace');
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    // Said in words, as -o says them: "cannot read the trace (ENOENT)" named only a code.
    const code = (e as { code?: string }).code;
    if (code === 'ENOENT') throw new InputError(`${path}: no such file; expected a trace file (sim ... --trace <file> writes one)`);
    if (code === 'EISDIR') throw new InputError(`${path}: is a folder; expected a trace file`);
    throw new InputError(`${path}: cannot read the trace (${code ?? String(e)})`);
  }
  if (isRepro(bytes)) {
    throw new InputError(`${path}: a repro file (written by --record), not a trace: sim replay runs it again; sim graph and sim export read the file --trace writes`);
  }
  return readTrace(bytes, path, options);
}

/** Whether `bytes` start as a repro file does (JSON naming its format), not as a trace. */
function isRepro(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 200)).toString('utf8');
  return !head.startsWith(MAGIC) && /^\s*\{/.test(head) && head.includes(`"${REPRO_FORMAT}"`);
}
