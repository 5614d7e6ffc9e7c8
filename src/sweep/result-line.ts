/**
 * The results file (JSONL): a header line naming the sweep (name and sha256 of its
 * file), the simulator version, the run count and the format, then one line per run:
 * `i`, `key`, `inputs`, `status` (verified | unverified | failed), the run summary
 * and the error, if any. Every line is canonical JSON and holds no wall-clock field
 * (timing goes to a sidecar), so the same run always gives the same bytes.
 */
import { InputError } from '../kernel/errors.ts';
import { LINE_BREAKING_WORDS, ONE_LINE } from '../kernel/one-line.ts';
import type { RunSummary } from '../runtime/run-app.ts';
import { canonicalJson } from './canonical.ts';
import { MAX_SWEEP_RUNS, RESULT_FORMAT, type RunInputs } from './run-model.ts';

export type RunStatus = 'verified' | 'unverified' | 'failed';

/** Why a run failed: bad input found only when it ran, or a failed simulation (deadlock, app error), or a simulator bug. */
export interface RunError {
  kind: 'input' | 'run' | 'internal';
  message: string;
}

export interface ResultLine {
  i: number;
  key: string;
  inputs: RunInputs;
  status: RunStatus;
  summary: RunSummary | null;
  error: RunError | null;
}

export interface ResultsHeader {
  sweep: string;
  sweepSha256: string;
  simulator: string;
  runs: number;
  format: number;
}

/** A header or result line as its canonical text, without the newline. */
export const lineText = (line: ResultLine | ResultsHeader): string => canonicalJson(line);

/** What a reader needs of a recorded line without trusting the rest. */
export interface RecordedLine {
  i: number;
  key: string;
  status: RunStatus;
  /** The line as recorded, without its newline. */
  readonly text: string;
}

function parseObject(text: string, where: string): Record<string, unknown> {
  // JSON reads a line of a part saved with CRLF endings, and its CR went into the results:
  // other bytes than the sweep's, and a false "recorded twice with different results".
  if (text.endsWith('\r')) throw new InputError(`${where}: ends with a carriage return (a CRLF line ending); expected the LF lines sim writes (convert the file back, e.g. with dos2unix)`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InputError(`${where}: not a JSON line (a results file holds one JSON object per line)`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new InputError(`${where}: expected a JSON object`);
  return value as Record<string, unknown>;
}

/** Reads a header line. @throws InputError naming what is wrong */
export function parseHeader(text: string, where: string): ResultsHeader {
  const h = parseObject(text, where);
  if (typeof h.sweep !== 'string' || typeof h.sweepSha256 !== 'string' || typeof h.simulator !== 'string' || !Number.isSafeInteger(h.runs) || typeof h.format !== 'number') {
    throw new InputError(`${where}: not a results header (expected {"format","runs","simulator","sweep","sweepSha256"})`);
  }
  if (h.format !== RESULT_FORMAT) throw new InputError(`${where}: results format ${h.format}, this simulator reads format ${RESULT_FORMAT}`);
  // Named in messages (a part of another sweep is refused by them): a name with a
  // newline and an escape split the refusal over three lines and coloured the terminal.
  for (const key of ['sweep', 'simulator', 'sweepSha256'] as const) {
    if (!ONE_LINE.test(h[key] as string)) throw new InputError(`${where}: the header's "${key}" is ${JSON.stringify(h[key]).slice(0, 60)}; expected one line of text, without ${LINE_BREAKING_WORDS}`);
  }
  // Every reader sizes a table by it: "runs":1e15 was "internal error: RangeError:
  // Invalid array length", and 4e9 a V8 fatal error, in sim sweep merge.
  const runs = h.runs as number;
  if (runs < 1 || runs > MAX_SWEEP_RUNS) throw new InputError(`${where}: the header gives ${runs} runs; expected 1 to ${MAX_SWEEP_RUNS}, the most a sweep makes`);
  return h as unknown as ResultsHeader;
}

/**
 * Parses a result line in full, once, and checks its fields: what a reader needs of it
 * and the whole line's object.
 * @throws InputError naming what is wrong
 */
export function parseResult(text: string, where: string, runs: number): { recorded: RecordedLine; line: Record<string, unknown> } {
  const l = parseObject(text, where);
  const { i, key, status } = l;
  if (typeof i !== 'number' || !Number.isSafeInteger(i) || i < 0 || i >= runs) throw new InputError(`${where}: expected "i", a run index from 0 to ${runs - 1}`);
  if (typeof key !== 'string' || !/^run-[0-9a-f]{64}$/.test(key)) throw new InputError(`${where}: expected "key", run- and 64 hex digits`);
  if (status !== 'verified' && status !== 'unverified' && status !== 'failed') throw new InputError(`${where}: expected "status" verified, unverified or failed`);
  if (!('inputs' in l) || !('summary' in l) || !('error' in l)) throw new InputError(`${where}: expected "inputs", "summary" and "error"`);
  return { recorded: { i, key, status, text }, line: l };
}

/** Parses a result line in full and checks its fields. @throws InputError naming what is wrong */
export const parseRecorded = (text: string, where: string, runs: number): RecordedLine => parseResult(text, where, runs).recorded;
