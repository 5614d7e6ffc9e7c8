/** Reads a trace file for the commands that draw or convert one (graph, export). */
import { readFileSync } from 'node:fs';
import { InputError } from '../kernel/errors.ts';
import { readTrace, type Trace } from '../trace/reader.ts';

/** Reads and checks a trace file; any problem is one InputError line. */
export function loadTrace(path: string): Trace {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new InputError(`${path}: cannot read the trace (${(e as { code?: string }).code ?? String(e)})`);
  }
  return readTrace(bytes, path);
}
