/**
 * A write that comes up short written on: fs.writeSync may write fewer bytes than it
 * is given (a disk that fills, a file size limit), saying only how many. Results
 * parts (parts.ts) and the commands' output files (src/cli/output-file.ts) use it.
 */
import { writeSync } from 'node:fs';

/**
 * Writes every byte of `data` to `fd` (at `position`, or where the file is), writing
 * on after a short write; a write that writes nothing is an error (EIO). A string is
 * written as it is (no copy of a 358 MB repro), and converted only if it comes up short.
 */
export function writeAll(fd: number, data: string | Uint8Array, position: number | null): void {
  let bytes: Uint8Array;
  let at = 0;
  if (typeof data === 'string') {
    at = writeSync(fd, data, position);
    if (at >= Buffer.byteLength(data)) return;
    bytes = Buffer.from(data);
  } else bytes = data;
  while (at < bytes.length) {
    const written = writeSync(fd, bytes, at, bytes.length - at, position === null ? null : position + at);
    if (written <= 0) throw Object.assign(new Error('a write wrote nothing'), { code: 'EIO' });
    at += written;
  }
}
