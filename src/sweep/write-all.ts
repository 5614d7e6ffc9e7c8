/**
 * A write that comes up short written on: fs.writeSync may write fewer bytes than it
 * is given (a disk that fills, a file size limit), saying only how many. Results
 * parts (parts.ts) and the commands' output files (src/cli/output-file.ts) use it.
 */
import { writeSync } from 'node:fs';

/**
 * Writes every byte of `bytes` to `fd` (at `position`, or where the file is), writing
 * on after a short write; a write that writes nothing is an error (EIO).
 */
export function writeAll(fd: number, bytes: Uint8Array, position: number | null): void {
  for (let at = 0; at < bytes.length; ) {
    const written = writeSync(fd, bytes, at, bytes.length - at, position === null ? null : position + at);
    if (written <= 0) throw Object.assign(new Error('a write wrote nothing'), { code: 'EIO' });
    at += written;
  }
}

