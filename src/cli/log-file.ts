/**
 * Writes a run's log to a file as the run makes it (so a hung or failed run leaves
 * its log behind), buffered so that logging every global operation stays cheap.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { InputError } from '../kernel/errors.ts';
import { formatLogEntry, type LogEntry } from '../runtime/printing.ts';

const FLUSH_BYTES = 1 << 16;

export class LogFile {
  private readonly fd: number;
  private buffer: string[] = [];
  private bytes = 0;

  /** @throws InputError when `path` cannot be written */
  constructor(path: string) {
    try {
      this.fd = openSync(path, 'w');
    } catch (e) {
      const code = (e as { code?: string }).code ?? String(e);
      throw new InputError(`--log ${path}: cannot write the file (${code}); expected a writable path`);
    }
  }

  readonly sink = (entry: LogEntry): void => {
    const line = `${formatLogEntry(entry)}\n`;
    this.buffer.push(line);
    this.bytes += line.length;
    if (this.bytes >= FLUSH_BYTES) this.flush();
  };

  close(): void {
    this.flush();
    closeSync(this.fd);
  }

  private flush(): void {
    if (this.buffer.length === 0) return;
    writeSync(this.fd, this.buffer.join(''));
    this.buffer = [];
    this.bytes = 0;
  }
}
