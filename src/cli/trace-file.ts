/** A trace written to a file as the run goes (src/trace/writer.ts), and read back. */
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { InputError } from '../kernel/errors.ts';
import { readTrace, type Trace } from '../trace/reader.ts';
import type { TraceOutput } from '../trace/writer.ts';

export class FileTraceOutput implements TraceOutput {
  private readonly fd: number;

  /** @throws InputError when `path` cannot be written */
  constructor(path: string, option: string) {
    try {
      this.fd = openSync(path, 'w');
    } catch (e) {
      throw new InputError(`${option} ${path}: cannot write the file (${(e as { code?: string }).code ?? String(e)}); expected a writable path`);
    }
  }

  append(bytes: Uint8Array): void {
    writeSync(this.fd, bytes);
  }

  overwrite(position: number, bytes: Uint8Array): void {
    writeSync(this.fd, bytes, 0, bytes.length, position);
  }

  close(): void {
    closeSync(this.fd);
  }
}

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
