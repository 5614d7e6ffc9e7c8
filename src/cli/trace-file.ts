/** A trace written to a file as the run goes (src/trace/writer.ts), and read back. */
import { readFileSync } from 'node:fs';
import { InputError } from '../kernel/errors.ts';
import { readTrace, type Trace } from '../trace/reader.ts';
import type { TraceOutput } from '../trace/writer.ts';
import { AtomicFile } from './output-file.ts';

/** A trace written as the run goes into a temporary file, renamed into place when it ends (output-file.ts). */
export class FileTraceOutput implements TraceOutput {
  private readonly file: AtomicFile;

  /** @throws InputError when `path` cannot be written */
  constructor(path: string, option: string) {
    this.file = new AtomicFile(option, path);
  }

  append(bytes: Uint8Array): void {
    this.file.append(bytes);
  }

  overwrite(position: number, bytes: Uint8Array): void {
    this.file.overwrite(position, bytes);
  }

  /** Puts the finished trace in place. */
  close(): void {
    this.file.commit();
  }

  /** Drops the file (the run never started). */
  abandon(): void {
    this.file.abandon();
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
