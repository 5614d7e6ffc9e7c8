/**
 * A trace written to a file as the run goes (src/trace/writer.ts). Reading one back is
 * load-trace.ts, apart so that a run does not load the reader's schema (zod).
 */
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
