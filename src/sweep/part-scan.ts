/**
 * Reads a results part fast: a resume reads every recorded line before it runs
 * anything (99,000 lines of 1 KB or more), so the lines are found in the file's bytes
 * and only their index, key and status are read; a line's text is decoded when asked
 * for. This leans on the canonical form: a line's top-level keys come in the order
 * error, i, inputs, key, status, summary; the error is null or {kind, message}; no
 * string holds an unescaped quote; and `inputs` ends with `"simulator":…}`. So `,"i":`
 * and `},"key":"run-` first occur at the top level. A line that does not look like
 * that is parsed in full, which names what is wrong; the final file is written only
 * from lines parsed in full (merge.ts).
 */
import { InputError } from '../kernel/errors.ts';
import { parseRecorded, type RecordedLine, type RunStatus } from './result-line.ts';

const OPEN = '{"error":';
const I = ',"i":';
const KEY = '},"key":"run-';
const STATUSES: [string, RunStatus][] = (['verified', 'unverified', 'failed'] as const).map((s) => [`","status":"${s}","summary":`, s]);
const HEX = /^[0-9a-f]{64}$/;
const NEWLINE = 10;

/** A line whose text stays in the part's bytes until asked for. */
class ScannedLine implements RecordedLine {
  readonly i: number;
  readonly key: string;
  readonly status: RunStatus;
  private readonly bytes: Buffer;
  private readonly start: number;
  private readonly end: number;

  constructor(i: number, key: string, status: RunStatus, bytes: Buffer, start: number, end: number) {
    this.i = i;
    this.key = key;
    this.status = status;
    this.bytes = bytes;
    this.start = start;
    this.end = end;
  }

  get text(): string {
    return this.bytes.toString('utf8', this.start, this.end);
  }
}

/**
 * The index, key and status of the line at [start, end) of `latin1` (the part's bytes
 * from `base` on as one byte per character, so offsets are byte offsets from `base`),
 * or null if it does not look canonical.
 */
function scanLine(latin1: string, bytes: Buffer, base: number, start: number, end: number, runs: number): RecordedLine | null {
  if (end - start < 100 || !latin1.startsWith(OPEN, start) || latin1.charCodeAt(end - 1) !== 0x7d) return null;
  const at = latin1.indexOf(I, start);
  if (at < 0 || at >= end) return null;
  let i = 0;
  let p = at + I.length;
  const digits = p;
  for (let c = latin1.charCodeAt(p); c >= 0x30 && c <= 0x39 && p < end; c = latin1.charCodeAt(++p)) i = i * 10 + (c - 0x30);
  if (p === digits || p - digits > 15 || i >= runs) return null;
  const k = latin1.indexOf(KEY, p);
  if (k < 0 || k >= end) return null;
  const hexStart = k + KEY.length;
  const hex = latin1.slice(hexStart, hexStart + 64);
  if (!HEX.test(hex)) return null;
  const after = hexStart + 64;
  for (const [pattern, status] of STATUSES) {
    if (after + pattern.length <= end && latin1.startsWith(pattern, after)) return new ScannedLine(i, `run-${hex}`, status, bytes, base + start, base + end);
  }
  return null;
}

/**
 * The most bytes decoded into one string at a time: a string holds at most 2^29 - 24
 * characters, and a part of a million runs is more (sim sweep merge of a 600 MB part
 * stopped with "internal error: Cannot create a string longer than 0x1fffffe8
 * characters").
 */
export const WINDOW_BYTES = 1 << 28;

/** A line longer than a window: no result line is (its summary is a few kilobytes). */
function tooLong(path: string, n: number, bytes: number): never {
  throw new InputError(`${path}:${n}: a line of more than ${bytes} bytes; expected result lines (one JSON object of a run per line)`);
}

/** The header's text (a part's or results file's first line), or null when `pieces` hold no whole line. */
export function headerOf(pieces: readonly Buffer[]): string | null {
  const first = pieces[0];
  const headerEnd = first === undefined ? -1 : first.indexOf(NEWLINE);
  return headerEnd < 0 ? null : first.toString('utf8', 0, headerEnd);
}

/**
 * Every complete line after the header (a torn tail without its newline is left out),
 * with `runs` the run count the header gives. `pieces` are the file's bytes in order,
 * each but the last ending with a newline (readPieces gives them); each is scanned a
 * window of whole lines at a time, so no string holds more than `window` bytes.
 * @throws InputError (from parseRecorded) for a line that is not a result line
 */
export function* scanLines(pieces: readonly Buffer[], path: string, runs: number, window = WINDOW_BYTES): Generator<RecordedLine> {
  let n = 2;
  for (let p = 0; p < pieces.length; p++) {
    const bytes = pieces[p];
    const last = bytes.lastIndexOf(NEWLINE);
    for (let from = p === 0 ? bytes.indexOf(NEWLINE) + 1 : 0; from <= last; ) {
      // A window of whole lines: up to the last newline within `window` bytes of `from`.
      const to = from + window - 1 >= last ? last : bytes.lastIndexOf(NEWLINE, from + window - 1);
      if (to < from) tooLong(path, n, window);
      const latin1 = bytes.toString('latin1', from, to + 1);
      for (let start = 0; start < latin1.length; n++) {
        const end = latin1.indexOf('\n', start);
        yield scanLine(latin1, bytes, from, start, end, runs) ?? parseRecorded(bytes.toString('utf8', from + start, from + end), `${path}:${n}`, runs);
        start = end + 1;
      }
      from = to + 1;
    }
  }
}

/**
 * Calls `onLine` for every complete line after the header (scanLines) and returns the
 * header's text, or null for an empty part; `runs` gives the run count of a header.
 * @throws InputError (from parseRecorded) for a line that is not a result line
 */
export function scanPart(pieces: readonly Buffer[], path: string, runs: (header: string) => number, onLine: (line: RecordedLine) => void, window = WINDOW_BYTES): string | null {
  const header = headerOf(pieces);
  if (header === null) return null;
  for (const line of scanLines(pieces, path, runs(header), window)) onLine(line);
  return header;
}
