/**
 * Reading a final results file, as sim sweep merge writes it (a header, then one line
 * per run in sweep order), for sim sweep export and a study's rounds. Read in pieces
 * and scanned a window of whole lines at a time (part-scan.ts), whatever its size: a
 * sweep may make a million runs, over a gigabyte, and the file read as one string
 * stopped with "cannot read the results (ERR_STRING_TOO_LONG)" past 512 MB. Each line
 * is parsed once, in full.
 */
import { InputError } from '../kernel/errors.ts';
import { headerOf, scanLines, WINDOW_BYTES } from './part-scan.ts';
import { readPieces } from './parts.ts';
import { parseHeader, parseResult, type ResultsHeader } from './result-line.ts';

/** A results file's bytes, checked whole: complete, with its header and one line per run. */
export interface ResultsFile {
  path: string;
  header: ResultsHeader;
  /** The run count its lines are read against. */
  runs: number;
  pieces: readonly Buffer[];
  /** What to do about a file that is not as written, for messages ("run sim sweep merge"). */
  remedy: string;
}

/** A result line, parsed: its index (line i + 2 of the file) and the line's object. */
export interface ResultEntry {
  i: number;
  where: string;
  line: Record<string, unknown>;
}

/**
 * Reads `path` and checks its shape: it ends with a newline, its first line is a results
 * header, and it has a line for each of `runs` runs (by default the count the header
 * gives). `remedy` ends the messages about a file that is not as written.
 * @throws InputError naming what is wrong
 */
export function openResults(path: string, remedy: string, runs?: number): ResultsFile {
  const pieces = readPieces(path, 'the results');
  const last = pieces.at(-1);
  if (last === undefined || last[last.length - 1] !== 10) throw new InputError(`${path}: the last line is incomplete (not a final results file; ${remedy})`);
  const header = parseHeader(headerOf(pieces)!, `${path}:1`);
  const count = runs ?? header.runs;
  let lines = -1;
  for (const bytes of pieces) for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) lines++;
  if (lines !== count) throw new InputError(`${path}: ${lines} result lines for ${count} runs (not a final results file; ${remedy})`);
  return { path, header, runs: count, pieces, remedy };
}

/**
 * Each result line of `file` in order, parsed in full and checked, no string holding
 * more than `window` bytes of it.
 * @throws InputError for a line that is not a result line or not at its run's place
 */
export function* resultLines(file: ResultsFile, window = WINDOW_BYTES): Generator<ResultEntry> {
  let k = 0;
  for (const scanned of scanLines(file.pieces, file.path, file.runs, window)) {
    const where = `${file.path}:${k + 2}`;
    const { recorded, line } = parseResult(scanned.text, where, file.runs);
    if (recorded.i !== k) throw new InputError(`${where}: run ${recorded.i} where run ${k} belongs (not in sweep order); ${file.remedy}`);
    yield { i: k++, where, line };
  }
}
