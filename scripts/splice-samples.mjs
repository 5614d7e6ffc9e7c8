#!/usr/bin/env node
/**
 * Recalibrating some models of a spec without rerunning the rest:
 *
 *   node scripts/splice-samples.mjs <spec> <samples> <partial-samples>...
 *
 * A calibration unit's samples depend only on its platform, machine size, seed,
 * verification count and its own spec line (src/calibrate/samples.ts seeds each unit
 * by platform and model name), so the units of a `sim calibrate` run over a spec that
 * holds only the changed lines are exactly the units a run over the whole spec would
 * write. This puts them into <samples> in place of the old units of the same model,
 * drops units whose model the spec no longer has, orders the units as the spec does,
 * and rewrites the header's spec line to <spec> (named as sim calibrate names it) and its sha256. The result is in the
 * current format (version 2: it ends with `# end: U units, S samples`), whatever the
 * versions of its inputs. It refuses partial files whose header (simulator, seed,
 * nodes, vcount) differs from <samples>', a version 2 file without its end line or
 * whose end line miscounts (cut short), and a partial unit of a platform line (platform
 * file, platform or size) <samples> has none of or of a model the spec lacks, and fails
 * if a model of the spec has no unit. Refit afterwards with `sim fit --relative`.
 */
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

function fail(message) {
  process.stderr.write(`splice-samples: ${message}\n`);
  process.exit(2);
}

/** A file's text; one it cannot read is one line and exit 2 (it was a stack trace). */
function read(path, what) {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    return fail(`${path}: cannot read the ${what} (${e.code ?? e.message})`);
  }
}

/** A samples file: its header lines and its units (one per platform and model), in order. */
function parse(path) {
  const all = read(path, 'samples').trimEnd().split('\n');
  // A version 2 file ends with its end line, which counts its units and samples: a file cut short
  // was spliced into a whole one whose new end line sim fit then took (it refuses the file alone).
  const version = all.map((l) => /^# proteus-strata calibration samples, version (\d+)$/.exec(l)).find((m) => m !== null);
  if (version !== undefined && Number(version[1]) >= 2) {
    const end = /^# end: (\d+) units?, (\d+) samples?$/.exec(all[all.length - 1]);
    const units = all.filter((l) => l.startsWith('# model ')).length;
    const samples = all.filter((l) => l !== '' && !l.startsWith('#')).length;
    if (end === null) fail(`${path}: truncated: it does not end with the end line ("# end: U units, S samples") sim calibrate writes last; the file was cut short (or is one shard: concatenate them all)`);
    if (Number(end[1]) !== units || Number(end[2]) !== samples) fail(`${path}: corrupt: the end line counts ${end[1]} units and ${end[2]} samples, the file holds ${units} and ${samples}`);
  }
  // The end line is written again for the whole result.
  const lines = all.filter((l) => !l.startsWith('# end: '));
  const first = lines.findIndex((l) => l.startsWith('# platform '));
  if (first < 0) fail(`${path}: no units (expected a "# platform" line)`);
  const header = lines.slice(0, first);
  const units = [];
  for (const line of lines.slice(first)) {
    if (line.startsWith('# platform ')) units.push({ lines: [line] });
    else units[units.length - 1].lines.push(line);
  }
  for (const u of units) {
    // After its "# platform" line and, for a spec calling Strata models, its "# submodels" line
    // (every samples file of apps/calibration/hybrid.spec was refused as "a unit without its # model line").
    const m = /^# model (\w+)/.exec(u.lines.find((l) => !l.startsWith('# platform ') && !l.startsWith('# submodels ')) ?? '');
    if (m === null) fail(`${path}: a unit without its "# model" line after ${u.lines[0]}`);
    u.key = `${u.lines[0]} ${m[1]}`;
    u.model = m[1];
  }
  return { header, units };
}

const [specPath, samplesPath, ...partials] = process.argv.slice(2);
if (specPath === undefined || samplesPath === undefined || partials.length === 0) fail('usage: node scripts/splice-samples.mjs <spec> <samples> <partial-samples>...');
/**
 * The models of a spec file in order, each named by its task, read as sim calibrate reads
 * the file (src/calibrate/spec.ts parseSpecs): a spec indented, or after another on its
 * line, was missed, and its units dropped from the result without a word.
 */
function specModels(text, file) {
  const names = [];
  let i = 0;
  while (i < text.length) {
    if (/\s/.test(text[i])) i++;
    else if (text[i] === '#') while (i < text.length && text[i] !== '\n') i++;
    else {
      if (!text.startsWith('{{', i)) fail(`${file}: expected "{{" to start a model specification at offset ${i}, as sim calibrate reads it`);
      const end = text.indexOf('}}', i + 2);
      if (end < 0) fail(`${file}: a specification at offset ${i} has no closing "}}"`);
      const task = /^\s*([A-Za-z_]\w*)\(/.exec(text.slice(i + 2, end).split('@')[2] ?? '');
      if (task === null) fail(`${file}: the specification at offset ${i} names no task; expected {{ loops @ setup @ Task(...) @ cleanup @ inputs @ terms }}`);
      names.push(task[1]);
      i = end + 2;
    }
  }
  return names;
}

const specText = read(specPath, 'spec');
const order = specModels(specText, specPath);
const target = parse(samplesPath);
const VERSION = /^# proteus-strata calibration samples, version \d+$/;
const same = (h) => h.filter((l) => !l.startsWith('# spec ') && !VERSION.test(l));
const units = new Map(target.units.map((u) => [u.key, u]));
const platforms = [...new Set(target.units.map((u) => u.lines[0]))];
for (const p of partials) {
  const part = parse(p);
  if (JSON.stringify(same(part.header)) !== JSON.stringify(same(target.header))) fail(`${p}: its header differs from ${samplesPath}'s (simulator, seed, nodes or vcount)`);
  // Every unit of a partial file goes in: one of another platform line (the platform file edited since,
  // so its hash differs; or another platform or size) or of a model the spec lacks was left out, the
  // samples written unchanged, and the splice reported done.
  for (const u of part.units) {
    if (!platforms.includes(u.lines[0])) fail(`${p}: its unit of ${u.model} was sampled on "${u.lines[0].slice(2)}", which ${samplesPath} has no units of (another platform file, platform or machine size); expected units of ${samplesPath}'s platforms`);
    if (!order.includes(u.model)) fail(`${p}: its unit of ${u.model} is of no model of ${specPath}; expected models of the spec`);
    units.set(u.key, u);
  }
}
const out = [];
for (const platform of platforms) {
  for (const model of order) {
    const u = units.get(`${platform} ${model}`);
    if (u === undefined) fail(`no unit for ${model} (${platform.slice(2)}) in ${samplesPath} or the partial files`);
    // One by one: a unit can have more lines than a call takes arguments.
    for (const line of u.lines) out.push(line);
  }
}
const sha = createHash('sha256').update(specText).digest('hex');
/** The header is one line, as sim calibrate writes it (escapeLineBreaking, src/kernel/one-line.ts). */
const BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const oneLine = (text) => text.replace(BREAKING, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The spec as sim calibrate's header names it (src/cli/project.ts, recordedPath): from the
 * project's root inside it, however it was named, else absolute with links followed.
 */
function recordedPath(file) {
  const real = (p) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  const rel = relative(real(fileURLToPath(new URL('..', import.meta.url))), real(file));
  const inside = rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
  return inside ? rel.split(sep).join('/') : real(file);
}
const header = target.header.map((l) => (l.startsWith('# spec ') ? `# spec ${oneLine(recordedPath(specPath))} sha256 ${sha}` : VERSION.test(l) ? '# proteus-strata calibration samples, version 2' : l));
const unitCount = platforms.length * order.length;
const sampleCount = out.filter((l) => !l.startsWith('#')).length;
const end = `# end: ${unitCount} unit${unitCount === 1 ? '' : 's'}, ${sampleCount} sample${sampleCount === 1 ? '' : 's'}`;
// Whole or not at all: written beside it and renamed over it.
const temporary = `${samplesPath}.splice-${process.pid}`;
try {
  writeFileSync(temporary, `${[...header, ...out, end].join('\n')}\n`);
  renameSync(temporary, samplesPath);
} catch (e) {
  rmSync(temporary, { force: true });
  fail(`${samplesPath}: cannot write the samples (${e.code ?? e.message}); it is left as it was`);
}
process.stdout.write(`splice-samples: ${samplesPath}: ${out.length} lines in ${platforms.length * order.length} units, spec ${specPath} ${sha.slice(0, 12)}\n`);
