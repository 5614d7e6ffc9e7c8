/**
 * Merging parts into the final results file's text: the header, then every run's line
 * in sweep order whatever order the parts hold them in, made only when no run is
 * missing (the commands write it atomically, output-file.ts). Also what is still
 * missing, by index and by the shards that own the gaps (`--array=` for Slurm).
 */
import { InputError } from '../kernel/errors.ts';
import { listParts, readParts, readPieces, type Recorded } from './parts.ts';
import { parseRecorded, lineText, type RecordedLine, type ResultsHeader } from './result-line.ts';
import type { SweepRun } from './run-model.ts';
import { shardOf } from './shard.ts';

/** The recorded lines in sweep order (holes where a run is missing) and the missing indexes. */
export interface Collected {
  header: ResultsHeader;
  byIndex: (RecordedLine | undefined)[];
  missing: number[];
}

/**
 * Orders what the parts recorded by index. With `runs` (the expanded sweep) every
 * line must carry its run's key at its index.
 * @throws InputError when there are no parts or two lines claim one index
 */
export function collect(out: string, recorded: Recorded, runs: readonly SweepRun[] | null = null): Collected {
  const { header } = recorded;
  if (header === null) throw new InputError(`${out}: no results yet (no ${out}.part-* files)`);
  const byIndex = new Array<RecordedLine | undefined>(header.runs);
  for (const line of recorded.byKey.values()) {
    const other = byIndex[line.i];
    if (other !== undefined) throw new InputError(`${whereRecorded(out, line.key)}: run ${line.i} is recorded under two keys (${other.key} and ${line.key}); the parts mix different sweeps`);
    if (runs !== null && runs[line.i].key !== line.key) throw new InputError(`${whereRecorded(out, line.key)}: the line for run ${line.i} has key ${line.key}, but the sweep's run ${line.i} is ${runs[line.i].key}`);
    byIndex[line.i] = line;
  }
  const missing: number[] = [];
  for (let i = 0; i < header.runs; i++) if (byIndex[i] === undefined) missing.push(i);
  return { header, byIndex, missing };
}

/**
 * The part and line that record `key`, for an error (its messages named `out`, which may
 * not exist yet). Searched in the part's bytes: a part of more than 2^29 bytes, decoded
 * as one string, stopped the error itself with "internal error: Cannot create a string".
 */
function whereRecorded(out: string, key: string): string {
  const needle = Buffer.from(`"key":"${key}"`);
  const newlines = (bytes: Buffer, end: number): number => {
    let n = 0;
    for (let at = bytes.indexOf(10); at >= 0 && at < end; at = bytes.indexOf(10, at + 1)) n++;
    return n;
  };
  for (const { path } of listParts(out)) {
    let line = 1;
    for (const bytes of readPieces(path)) {
      const at = bytes.indexOf(needle);
      if (at >= 0) return `${path}:${line + newlines(bytes, at)}`;
      line += newlines(bytes, bytes.length);
    }
  }
  return out;
}

/** Reads the parts of `out` and collects them (see collect). */
export function collectParts(out: string, expected: ResultsHeader | null = null, runs: readonly SweepRun[] | null = null): Collected {
  return collect(out, readParts(out, expected), runs);
}

/** About how many characters each piece of the final file holds. */
const PIECE_CHARS = 1 << 20;

/**
 * The final file's text in pieces of about a megabyte: the header and every line in
 * sweep order, each checked in full (parts are read by their index, key and status
 * only). In pieces because a sweep of a million runs gives more than one string holds
 * (2^29 characters): its merge stopped with "internal error: Cannot create a string
 * longer than 0x1fffffe8 characters".
 * @throws InputError for a recorded line that is not a whole result line
 */
export function* finalPieces(c: Collected, out: string): Generator<string> {
  if (c.missing.length > 0) throw new Error(`finalPieces: ${c.missing.length} runs missing`);
  let piece = `${lineText(c.header)}\n`;
  for (const line of c.byIndex as RecordedLine[]) {
    const full = parseRecorded(line.text, `${out}: the recorded line of run ${line.i}`, c.header.runs);
    // A line scanned fast (part-scan.ts) is placed by the first "i", key and status in its
    // text; with one given twice ("i":1 ... "i":0) merge wrote a file out of sweep order
    // that sim sweep export then refused ("run 0 where run 1 belongs").
    if (full.i !== line.i || full.key !== line.key || full.status !== line.status) {
      const said = (l: RecordedLine) => `run ${l.i} (${l.key.slice(0, 16)}..., ${l.status})`;
      throw new InputError(`${whereRecorded(out, line.key)}: the line reads as ${said(line)} by its first fields but as ${said(full)} in full; expected a result line as sim sweep writes it, each key once`);
    }
    piece += `${full.text}\n`;
    if (piece.length >= PIECE_CHARS) {
      yield piece;
      piece = '';
    }
  }
  if (piece !== '') yield piece;
}

/** The shards (1-based, of `count`) that own at least one missing run. */
export function shardsWithGaps(missing: readonly number[], count: number): number[] {
  return [...new Set(missing.map((i) => shardOf(i, count)))].sort((a, b) => a - b);
}

/** Indexes as compact ranges: `0-3,7,9-10`. */
export function ranges(indexes: readonly number[]): string {
  const out: string[] = [];
  for (let k = 0; k < indexes.length; ) {
    let j = k;
    while (j + 1 < indexes.length && indexes[j + 1] === indexes[j] + 1) j++;
    out.push(j === k ? `${indexes[k]}` : `${indexes[k]}-${indexes[j]}`);
    k = j + 1;
  }
  return out.join(',');
}
