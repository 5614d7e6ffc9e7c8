/**
 * `sim fit <samples> [--relative] -o <models.json>` (thesis 3.6): fits every model of a
 * samples file, checks it against its verification samples, and writes the models
 * as JSON (terms, coefficients, half-widths, MREs, provenance), a TypeScript module
 * with one evaluation function per model (the analogue of the thesis's generated C
 * and perl, 3.6.4), and a residuals file beside them; prints a readable report and
 * warns when a model's verification MRE exceeds 10%.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fig66Report } from '../calibrate/fig-6-6.ts';
import { fitSamples, modelsJson, modelsModule, summaryLine, verificationWarning, type FittedModel, type Provenance } from '../calibrate/models.ts';
import { InputError } from '../kernel/errors.ts';
import { escapeLineBreaking } from '../kernel/one-line.ts';
import { checkOutputFile, checkSeparateFiles, writeFileAtomic } from './output-file.ts';
import { parseOptions } from './parse-options.ts';
import { simulatorVersion } from './project.ts';
import type { Io } from './io.ts';

/** Fits a samples file's text and says where the models came from. */
export function fitWithProvenance(text: string, source: string, relative: boolean): { models: FittedModel[]; residuals: string[]; provenance: Provenance } {
  const { models, residuals, platformHashes, machineSizes } = fitSamples(text, source, relative);
  const provenance = {
    samples: source,
    samplesSha256: createHash('sha256').update(text).digest('hex'),
    relativeError: relative,
    simulatorVersion: simulatorVersion(),
    platformHashes,
    machineSizes,
  };
  return { models, residuals, provenance };
}

/**
 * Prints each model's line, its warning if it misses its verification samples, and the
 * Fig. 6-6 report (fig66Report); with `json`, only the warnings (the caller prints the object).
 */
export function printModels(models: readonly FittedModel[], report: readonly string[], io: Io, command: string, json = false): void {
  for (const m of models) {
    if (!json) io.out(summaryLine(m));
    const warning = verificationWarning(m);
    if (warning !== null) io.err(`${command}: ${warning}`);
  }
  if (report.length > 0 && !json) io.out(['', ...report].join('\n'));
}

/** A fitted model for --json: its fields and its formula as the text shows it. */
export function modelJson(m: FittedModel): FittedModel & { summary: string } {
  return { ...m, summary: summaryLine(m) };
}

export function fitCommand(argv: readonly string[], io: Io): number {
  const parsed = parseOptions('fit', argv);
  if (parsed.positionals.length !== 1) throw new InputError('sim fit: expected one samples file: sim fit <samples> [--relative] -o <models.json>');
  const out = typeof parsed.values.out === 'string' ? parsed.values.out : undefined;
  if (out === undefined) throw new InputError('sim fit: missing -o <models.json>: where to write the models');
  if (!out.endsWith('.json')) throw new InputError(`sim fit: -o ${out}: expected a name ending in .json (the models; the .ts module and .residuals go beside it)`);
  const source = parsed.positionals[0];
  const wrote = [out, out.replace(/\.json$/, '.ts'), out.replace(/\.json$/, '.residuals')];
  // The module and residuals beside -o are outputs too: fit q.residuals -o q.json wrote over its samples.
  checkSeparateFiles([['samples', source], ['-o', wrote[0]], ['-o (its module)', wrote[1]], ['-o (its residuals)', wrote[2]]]);
  // All three before any is written: a folder named m.ts left m.json written and exit 2.
  checkOutputFile('-o', out);
  checkOutputFile('-o (its module)', wrote[1]);
  checkOutputFile('-o (its residuals)', wrote[2]);
  // The samples file as messages and the provenance name it, on one line: a name with a newline split every message in two.
  const shown = escapeLineBreaking(source);
  let text: string;
  try {
    text = readFileSync(source, 'utf8');
  } catch (e) {
    throw new InputError(`${shown}: cannot read the samples (${(e as { code?: string }).code ?? String(e)})`);
  }
  const relative = parsed.values.relative === true;
  const { models, residuals, provenance } = fitWithProvenance(text, shown, relative);
  writeFileAtomic('-o', wrote[0], modelsJson(models, provenance));
  writeFileAtomic('-o', wrote[1], modelsModule(models, provenance));
  writeFileAtomic('-o', wrote[2], ['# platform model measured predicted residual', ...residuals, ''].join('\n'));
  const json = parsed.values.json === true;
  printModels(models, fig66Report(models), io, 'sim fit', json);
  if (json) io.out(JSON.stringify({ wrote, models: models.map(modelJson) }));
  else io.out(`sim fit: wrote ${wrote[0]}, ${wrote[1]} and ${wrote[2]}`);
  return 0;
}
