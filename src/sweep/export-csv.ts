/**
 * `sim sweep export --format csv`: flattens a results file into one CSV row per run —
 * index, key, status, inputs, parameters (`params.<name>`), the summary's numbers
 * (nested ones as `busyCycles.mean`, the app's metrics as `metrics.<name>`), the error,
 * and the hashes — with the columns in the order they first appear (RFC 4180 quoting).
 * The results are read twice, a window of lines at a time (results-file.ts): once for
 * the columns and to check every line, then for the rows, written in pieces; a sweep's
 * million runs make more than one string holds.
 */
import { InputError } from '../kernel/errors.ts';
import { WINDOW_BYTES } from './part-scan.ts';
import { openResults, resultLines } from './results-file.ts';

type Row = Map<string, string>;

const cell = (v: unknown): string => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

/** Summary fields the inputs already give, or that are not one value per run. */
const SUMMARY_SKIP = new Set(['platform', 'nodes', 'seed', 'network', 'app', 'params', 'lastLog']);

function flattenInto(row: Row, prefix: string, value: unknown): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flattenInto(row, prefix === '' ? k : `${prefix}.${k}`, v);
  } else row.set(prefix, cell(value));
}

/** One run's line as named cells. */
export function flattenLine(line: Record<string, unknown>): Row {
  const row: Row = new Map();
  const inputs = (line.inputs ?? {}) as Record<string, unknown>;
  row.set('i', cell(line.i));
  row.set('key', cell(line.key));
  row.set('status', cell(line.status));
  for (const k of ['platform', 'app', 'nodes', 'seed', 'network', 'perturb']) row.set(k, cell(inputs[k]));
  flattenInto(row, 'params', inputs.params ?? {});
  const summary = (line.summary ?? {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(summary)) if (!SUMMARY_SKIP.has(k)) flattenInto(row, k, v);
  const error = line.error as { kind?: string; message?: string } | null;
  row.set('error.kind', cell(error?.kind));
  row.set('error.message', cell(error?.message));
  for (const k of ['simulator', 'platformSha256', 'appSha256']) row.set(k, cell(inputs[k]));
  return row;
}

const quote = (s: string): string => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** About how many characters each piece of the CSV holds. */
const PIECE_CHARS = 1 << 20;

/**
 * The columns `rows` have, in the order they first appear, or `columns` when every one
 * of them is among those.
 * @throws InputError for a column no row has
 */
function csvColumns(rows: Iterable<Row>, columns: readonly string[] | undefined): readonly string[] {
  const all: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) for (const k of row.keys()) if (!seen.has(k)) (seen.add(k), all.push(k));
  const chosen = columns ?? all;
  const unknown = chosen.filter((c) => !seen.has(c));
  if (unknown.length > 0) throw new InputError(`--columns: no column ${unknown.join(', ')} (the results have: ${all.join(', ')})`);
  return chosen;
}

/** The CSV text in pieces of about PIECE_CHARS: the header row, then one row per line. */
function* csvPieces(columns: readonly string[], rows: Iterable<Row>): Generator<string> {
  let piece = `${columns.map(quote).join(',')}\n`;
  for (const row of rows) {
    piece += `${columns.map((c) => quote(row.get(c) ?? '')).join(',')}\n`;
    if (piece.length >= PIECE_CHARS) {
      yield piece;
      piece = '';
    }
  }
  if (piece !== '') yield piece;
}

/**
 * The CSV of the final results file `path`, in pieces; `columns` picks and orders the
 * columns (all by default). Every line is read and checked before this returns, so
 * writing the pieces finds no bad input half-way. `window` is the most bytes of the
 * file one string holds.
 * @throws InputError for a file that is not a final results file, or a column no line has
 */
export function resultsCsv(path: string, columns: readonly string[] | undefined, window = WINDOW_BYTES): Iterable<string> {
  const file = openResults(path, 'run sim sweep merge');
  function* rows(): Generator<Row> {
    for (const { line } of resultLines(file, window)) yield flattenLine(line);
  }
  return csvPieces(csvColumns(rows(), columns), rows());
}
