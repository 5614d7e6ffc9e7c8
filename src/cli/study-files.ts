/**
 * The files `sim study` writes besides the sweeps (studyFiles): the rows as JSONL and
 * CSV (RFC 4180 quoting, the study's columns in order), the summary with its header
 * (what was run, from which models, by which command) as JSON and text (which opens
 * with the study's own account of what it runs and reports), and the figure, all free
 * of wall-clock or host fields.
 */
import { canonicalJson, sha256 } from '../sweep/canonical.ts';
import { wrap } from './help.ts';
import type { Row, Study, StudyOptions } from '../study/index.ts';

const quote = (s: string): string => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
const cell = (v: Row[string]): string => (v === null ? '' : String(v));

export function rowsCsv(columns: readonly string[], rows: readonly Row[]): string {
  return `${[columns.join(','), ...rows.map((r) => columns.map((c) => quote(cell(r[c] ?? null))).join(','))].join('\n')}\n`;
}

/** A model a study depends on, by the file it came from and the hash of its entry there. */
export interface ModelHash {
  file: string;
  platform: string;
  model: string;
  sha256: string;
}

/**
 * The hash of the model called `name` (of `platform`) in a models file's text: sha256 of
 * its entry as canonical JSON, so that recalibrating another model in the same file
 * leaves it alone.
 */
export function modelHash(fileText: string, name: string, platform: string): string {
  const hash = modelHashes(fileText).get(`${platform}/${name}`);
  if (hash === undefined) throw new Error(`no model ${name} of ${platform} in the models file`);
  return hash;
}

/** modelHash of every model in a models file's text, by `platform/name`. */
export function modelHashes(fileText: string): Map<string, string> {
  const models = (JSON.parse(fileText) as { models: { name: string; platform: string }[] }).models;
  return new Map(models.map((m) => [`${m.platform}/${m.name}`, sha256(canonicalJson(m))]));
}

/** What the summary opens with. */
export function studyHeader(study: Study, options: StudyOptions, command: string, models: readonly ModelHash[], runs: number) {
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

/** What a complete study's files depend on besides its rows. */
export interface StudyInputs {
  study: Study;
  options: StudyOptions;
  /** The command that reproduces the results. */
  command: string;
  /** The models its results depend on (Study.usesModel). */
  models: readonly ModelHash[];
}

/**
 * The files a complete study writes, by name, and its summary: the raw rows (JSONL,
 * CSV), the summary (JSON, text) and the figure, computed from the rows alone (and the
 * count of distinct runs measured), so the same rows always give the same bytes.
 */
export function studyFiles(args: StudyInputs, rows: readonly Row[], runs: number): { files: Record<string, string>; summary: Record<string, unknown> } {
  const { study, options } = args;
  const summary = { ...studyHeader(study, options, args.command, args.models, runs), ...study.summarize(rows, options) };
  const files = {
    [`${study.name}.jsonl`]: rows.map((r: Row) => `${canonicalJson(r)}\n`).join(''),
    [`${study.name}.csv`]: rowsCsv(study.columns, rows),
    [`${study.name}.summary.json`]: `${JSON.stringify(summary, null, 1)}\n`,
    [`${study.name}.summary.txt`]: `${args.command}\n${wrap(study.about, 0)}\n\n${study.text(summary)}`,
    [`${study.name}.svg`]: study.figure(rows, summary, options),
  };
  return { files, summary };
}
