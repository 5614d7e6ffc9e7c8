/**
 * Writes a run's log to a file as the run makes it, buffered so that logging every
 * global operation stays cheap; the file goes into place (output-file.ts) when the
 * run ends, however it ends: finished, failed, stopped at a limit or by a signal.
 */
import { formatLogEntry, type LogEntry } from '../runtime/printing.ts';
import { AtomicFile } from './output-file.ts';

const FLUSH_BYTES = 1 << 16;

export class LogFile {
  private readonly file: AtomicFile;
  private buffer: string[] = [];
  private bytes = 0;

  /** @throws InputError when `path` cannot be written */
  constructor(path: string) {
    this.file = new AtomicFile('--log', path);
  }

  readonly sink = (entry: LogEntry): void => {
    const line = `${formatLogEntry(entry)}\n`;
    this.buffer.push(line);
    this.bytes += line.length;
    if (this.bytes >= FLUSH_BYTES) this.flush();
  };

  /** Drops the file (the run never started). */
  abandon(): void {
    this.file.abandon();
  }

  /** Writes what is buffered and puts the file in place. */
  close(): void {
    this.flush();
    this.file.commit();
  }

  private flush(): void {
    if (this.buffer.length === 0) return;
    this.file.append(this.buffer.join(''));
    this.buffer = [];
    this.bytes = 0;
  }
}
