/**
 * Result parts, the only source of truth of a sweep: `<out>.part-<i>-of-<n>` (a shard,
 * or 1-of-1 for a whole local sweep) and `<out>.part-queue` (a queue coordinator),
 * each a header line and result lines in completion order. Before appending, a part
 * is cut back to its last newline, so a line torn by a crash never glues onto the
 * next. Readers collect the recorded keys of all parts; a key recorded twice must
 * have byte-identical lines (a free determinism check across processes and machines).
 */
import { closeSync, existsSync, ftruncateSync, openSync, readdirSync, readFileSync, readSync, fstatSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { InputError, SimError } from '../kernel/errors.ts';
import { escapeLineBreaking } from '../kernel/one-line.ts';
import { scanPart } from './part-scan.ts';
import { writeAll } from './write-all.ts';
import { lineText, parseHeader, type RecordedLine, type ResultsHeader } from './result-line.ts';
import { PART_NAME, timingPath } from './part-names.ts';
import { MAX_SHARDS } from './shard.ts';

/** The parts of `out` that exist, sorted by name, with the shard count each names (null for the queue's). */
export function listParts(out: string): { path: string; shards: number | null }[] {
  const dir = dirname(out);
  const base = basename(out);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.startsWith(base) && PART_NAME.test(f.slice(base.length)))
    .sort()
    .map((f) => {
      const m = PART_NAME.exec(f.slice(base.length));
      if (m?.[2] === undefined) return { path: join(dir, f), shards: null };
      // A name --shard cannot give: part-0-of-0 made merge --missing print "--array=NaN".
      const [index, count] = [Number(m[1]), Number(m[2])];
      if (!(index >= 1 && index <= count && count <= MAX_SHARDS)) {
        throw new InputError(`${join(dir, f)}: a results part named for shard ${m[1]} of ${m[2]}; expected part-<i>-of-<n> with 1 <= i <= n <= ${MAX_SHARDS}, as --shard i/n names them (rename or remove it)`);
      }
      return { path: join(dir, f), shards: count };
    });
}

/**
 * The Node versions the timing sidecars of `out`'s parts name. V8's Math.exp, log and
 * pow are only approximated by the spec, so very different Node majors could in
 * principle change a float; merge warns when they differ (and its duplicate check
 * would catch a difference).
 */
export function nodeVersions(out: string): string[] {
  const versions = new Set<string>();
  for (const { path } of listParts(out)) {
    const timing = timingPath(path);
    if (!existsSync(timing)) continue;
    // A version as Node writes one: a sidecar's "node" with an escape and a newline reached the warning as they were.
    for (const m of readFileSync(timing, 'utf8').matchAll(/"node":"([\w.+-]+)"/g)) versions.add(m[1]);
  }
  return [...versions].sort();
}

/** Two different lines for one key: the runs were not deterministic across the processes that recorded them. */
export class KeyConflict extends SimError {
  override name = 'KeyConflict';
}

/** What all parts of a sweep hold. */
export interface Recorded {
  /** Recorded lines by key (the first seen). */
  byKey: Map<string, RecordedLine>;
  /** The header the parts carry, or null when there is no part yet. */
  header: ResultsHeader | null;
}

/**
 * Reads every part of `out`. Complete lines only: a torn tail (no newline yet, maybe a
 * shard still writing) is ignored. `expected`, when given, is the header of the sweep
 * being run, and every part must carry it.
 * @throws InputError for a malformed part or one from another sweep; KeyConflict for
 *   a key recorded with two different lines
 */
export function readParts(out: string, expected: ResultsHeader | null = null): Recorded {
  const byKey = new Map<string, RecordedLine>();
  let header = expected;
  for (const { path } of listParts(out)) {
    scanPart(readPieces(path), path, (text) => {
      const own = parseHeader(text, `${path}:1`);
      if (header === null) header = own;
      else if (lineText(own) !== lineText(header)) {
        throw new InputError(`${path}: belongs to sweep "${own.sweep}" (sha256 ${own.sweepSha256.slice(0, 12)}, simulator ${own.simulator}, ${own.runs} runs), not "${header.sweep}" (sha256 ${header.sweepSha256.slice(0, 12)}, simulator ${header.simulator}, ${header.runs} runs); use another --out, or remove its parts and results file to start it over`);
      }
      return header.runs;
    }, (line) => {
      const seen = byKey.get(line.key);
      if (seen === undefined) byKey.set(line.key, line);
      // The lines as recorded, but any character that would steer the terminal written as an escape (a line read fast is not parsed).
      else if (seen.text !== line.text) throw new KeyConflict(`run ${line.key} was recorded twice with different results (not deterministic across the processes that ran it):\n  ${escapeLineBreaking(seen.text)}\n  ${escapeLineBreaking(line.text)}`);
    });
  }
  return { byKey, header };
}

/** The most bytes read into one buffer; readFileSync refuses a file over 2 GiB. */
const PIECE_BYTES = 1 << 30;

/**
 * A part's bytes in pieces of at most PIECE_BYTES, each but the last ending with a
 * newline: a part of a million runs can pass 2 GiB, which readFileSync refused
 * ("internal error: RangeError [ERR_FS_FILE_TOO_LARGE]"). `what` names the file in a
 * message.
 * @throws InputError when the part cannot be read, or holds a line longer than a piece
 */
export function readPieces(path: string, what = 'the results part', most = PIECE_BYTES): Buffer[] {
  const cannotRead = (e: unknown) => new InputError(`${path}: cannot read ${what} (${(e as { code?: string }).code ?? String(e)})`);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw cannotRead(e);
  }
  try {
    const size = fstatSync(fd).size;
    const pieces: Buffer[] = [];
    for (let at = 0; at < size; ) {
      const chunk = Buffer.allocUnsafe(Math.min(most, size - at));
      let filled = 0;
      while (filled < chunk.length) {
        const n = readSync(fd, chunk, filled, chunk.length - filled, at + filled);
        if (n === 0) break;
        filled += n;
      }
      const read = chunk.subarray(0, filled);
      const end = at + filled >= size || filled < chunk.length ? filled : read.lastIndexOf(10) + 1;
      if (end === 0) throw new InputError(`${path}: a line of more than ${most} bytes at byte ${at}; expected result lines (one JSON object of a run per line)`);
      pieces.push(read.subarray(0, end));
      if (filled < chunk.length) break;
      at += end;
    }
    return pieces;
  } catch (e) {
    // A folder opens, and its read fails: EISDIR.
    throw typeof (e as { code?: unknown }).code === 'string' ? cannotRead(e) : e;
  } finally {
    closeSync(fd);
  }
}

/**
 * Checks that the final results file `out`, if there is one, is this sweep's: the
 * sweep writes it when complete, over whatever it held (once a first sweep's parts were
 * removed, a second sweep with the same --out wrote its results over the first's).
 * @param shown how messages name `out` (the option that gave it, and it)
 * @throws InputError when `out` holds another sweep's results or is no results file
 */
export function checkResultsOwner(out: string, expected: ResultsHeader, shown = `--out ${out}`): void {
  if (!existsSync(out)) return;
  let own: ResultsHeader;
  try {
    own = resultsHeaderOf(out);
  } catch {
    throw new InputError(`${shown}: exists and is not a sweep's results file; expected a new name or a results file of this sweep`);
  }
  if (lineText(own) !== lineText(expected)) {
    const theirs = `sha256 ${own.sweepSha256.slice(0, 12)}, simulator ${own.simulator}, ${own.runs} runs`;
    // Of one name, it said: holds the results of sweep "s" (...), not "s".
    const whose =
      own.sweep === expected.sweep
        ? `another version of sweep "${own.sweep}" (${theirs}; this one: sha256 ${expected.sweepSha256.slice(0, 12)}, simulator ${expected.simulator}, ${expected.runs} runs)`
        : `sweep "${own.sweep}" (${theirs}), not "${expected.sweep}"`;
    throw new InputError(`${shown}: holds the results of ${whose}; use another --out or remove it`);
  }
}

/**
 * The header of the results file `path` (its first line; the file may be large).
 * @throws InputError when it is not a results header
 */
export function resultsHeaderOf(path: string): ResultsHeader {
  const fd = openSync(path, 'r');
  try {
    const head = Buffer.alloc(64 * 1024);
    return parseHeader(head.subarray(0, readSync(fd, head, 0, head.length, 0)).toString('utf8').split('\n')[0], `${path}:1`);
  } finally {
    closeSync(fd);
  }
}

/** Appends lines to one part, cutting a torn tail first and writing the header into a new part. */
export class PartWriter {
  private readonly fd: number;
  readonly path: string;

  constructor(path: string, header: ResultsHeader) {
    this.path = path;
    try {
      this.fd = openSync(path, 'a+');
    } catch (e) {
      throw new InputError(`${path}: cannot open the results part (${(e as { code?: string }).code ?? String(e)})`);
    }
    cutTornTail(this.fd);
    if (fstatSync(this.fd).size === 0) this.append(lineText(header));
  }

  /**
   * Appends one line (its text without the newline), in one write unless that comes
   * up short. A disk that fills is one line naming the part: it was "internal error:
   * EFBIG: file too large, write" with a stack trace. (A line cut short is dropped on
   * the next start.)
   */
  append(text: string): void {
    try {
      writeAll(this.fd, `${text}\n`, null);
    } catch (e) {
      throw new InputError(`${this.path}: cannot write the results part (${(e as { code?: string }).code ?? String(e)})`);
    }
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** Truncates an open file to just after its last newline (to empty if it has none). */
function cutTornTail(fd: number): void {
  const size = fstatSync(fd).size;
  const chunk = Buffer.alloc(64 * 1024);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunk.length);
    const n = readSync(fd, chunk, 0, end - start, start);
    const at = chunk.subarray(0, n).lastIndexOf(10);
    if (at >= 0) {
      if (start + at + 1 < size) ftruncateSync(fd, start + at + 1);
      return;
    }
    end = start;
  }
  if (size > 0) ftruncateSync(fd, 0);
}
