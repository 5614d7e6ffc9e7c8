/**
 * `sim sweep export --format csv`: flattens a results file into one CSV row per run —
 * index, key, status, inputs, parameters (`params.<name>`), the summary's numbers
 * (nested ones as `busyCycles.mean`, the app's metrics as `metrics.<name>`), the error,
 * and the hashes — with the columns in the order they first appear (RFC 4180 quoting).
 */
import { InputError } from '../kernel/errors.ts';

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

/**
 * The CSV text of result lines; `columns` picks and orders the columns (all by default).
 * @throws InputError for a column no line has
 */
export function toCsv(lines: readonly Record<string, unknown>[], columns: readonly string[] | undefined): string {
  const rows = lines.map(flattenLine);
  const all: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) for (const k of row.keys()) if (!seen.has(k)) (seen.add(k), all.push(k));
  const chosen = columns ?? all;
  const unknown = chosen.filter((c) => !seen.has(c));
  if (unknown.length > 0) throw new InputError(`--columns: no column ${unknown.join(', ')} (the results have: ${all.join(', ')})`);
  const out = [chosen.map(quote).join(',')];
  for (const row of rows) out.push(chosen.map((c) => quote(row.get(c) ?? '')).join(','));
  return `${out.join('\n')}\n`;
}
