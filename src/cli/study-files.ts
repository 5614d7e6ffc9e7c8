/**
 * The files `sim study` writes besides the sweeps: the rows as CSV (RFC 4180 quoting,
 * the study's columns in order) and the summary's header (what was run, from which
 * models, by which command), all free of wall-clock or host fields.
 */
import type { Row, Study, StudyOptions } from '../study/index.ts';

const quote = (s: string): string => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
const cell = (v: Row[string]): string => (v === null ? '' : String(v));

export function rowsCsv(columns: readonly string[], rows: readonly Row[]): string {
  return `${[columns.join(','), ...rows.map((r) => columns.map((c) => quote(cell(r[c] ?? null))).join(','))].join('\n')}\n`;
}

/** What the summary opens with. */
export function studyHeader(study: Study, options: StudyOptions, command: string, models: readonly { file: string; sha256: string }[], runs: number) {
  return {
    study: study.name,
    reproduces: study.reproduces,
    command,
    platforms: options.platforms.map((p) => p.name),
    nodes: options.nodes,
    trials: options.trials,
    maxGrid: study.defaults.maxGrid === null ? null : options.maxGrid,
    maxKeys: study.defaults.maxKeys === null ? null : options.maxKeys,
    seed: options.seed,
    models,
    runs,
  };
}
