/**
 * The samples file (thesis Fig. 3-7), as `sim calibrate` writes it and `sim fit` reads
 * it: a header (`# proteus-strata calibration samples, version 2`, the simulator, the
 * spec's hash, seed, sizes, vcount), then per unit `# platform`, `# model Name
 * columns...` structure lines, `Name cycles x...` building samples and `@Name ...`
 * verification samples, and last an end line, `# end: U units, S samples`, so a file
 * cut short is refused rather than fitted without its missing models. Shards write the
 * header only in the first and the end line only in the last, so they concatenate to
 * the whole file. A file without the header (written by hand) needs no end line (but a
 * `# platform <name>` line before its models, whose platform they are), and
 * version 1 files (before the end line) are read as they are. A model's units on
 * several machine sizes pool their samples. Problems are one InputError line naming
 * the file and line.
 */
import { InputError, kindOf } from '../kernel/errors.ts';
import { LINE_BREAKING, LINE_BREAKING_WORDS } from '../kernel/one-line.ts';
import { columnList } from './column-list.ts';
import type { Sample } from './fit.ts';

export const SAMPLES_VERSION = 2;
const HEADER = /^# proteus-strata calibration samples, version (\d+)$/;
/** A sample's number as written: decimal, with an optional fraction and exponent. */
const DECIMAL = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;
const END = /^# end: (\d+) units?, (\d+) samples?$/;

/** The first line of a samples file `sim calibrate` writes. */
export function samplesHeaderLine(): string {
  return `# proteus-strata calibration samples, version ${SAMPLES_VERSION}`;
}

/** The last line of a samples file: how many units and sample lines it holds. */
export function samplesEndLine(units: number, samples: number): string {
  return `# end: ${units} unit${units === 1 ? '' : 's'}, ${samples} sample${samples === 1 ? '' : 's'}`;
}

/**
 * Most columns (inputs and terms) a model may have. A fit removes irrelevant terms one at
 * a time, one least-squares solve of samples x columns each, so its time grows as the
 * fourth power of the columns: 100 took 6 s, 300 more than 5 minutes. The thesis's
 * models have a dozen (Fig. 6-6; the shipped StencilSquare 11).
 */
export const MAX_COLUMNS = 64;

/** Largest magnitude a sample value may have: cycle counts and terms are exact integers below 2^53. */
const MAX_VALUE = Number.MAX_SAFE_INTEGER;

export interface ModelSamples {
  platform: string;
  /** The platform file's content hash from the "# platform" line ('' if it gave none). */
  platformHash: string;
  /** The machine sizes its samples were taken on (the "# platform" lines' `nodes P`; empty if none says). */
  nodes: number[];
  name: string;
  columns: string[];
  building: Sample[];
  verification: Sample[];
}

/**
 * What a file whose first line starts with '{' is: a model specification (its `{{`: it
 * was called JSON), a sweep's results (their header names the sweep and its hash), or
 * some other JSON.
 */
function whatJsonIs(line: string): string {
  if (line.trimStart().startsWith('{{')) return 'it is a model specification (sim calibrate samples it; sim fit fits the samples that writes)';
  try {
    const header: unknown = JSON.parse(line);
    if (typeof header === 'object' && header !== null && 'sweepSha256' in header) return 'it holds the results of a sweep (sim sweep writes them; sim sweep export --format csv tabulates them)';
  } catch {
    // Not one JSON line: still JSON-looking text, said as such below.
  }
  return 'it is JSON';
}

export function readSamples(text: string, source: string): ModelSamples[] {
  // Exported (and through fitSamples): a Buffer was a TypeError; without a name the messages began "undefined:".
  if (typeof source !== 'string') throw new InputError(`readSamples: expected the file's name (which messages name) as a string, got ${kindOf(source)}`);
  if (typeof text !== 'string') throw new InputError(`${String(source)}: expected the samples file's text as a string, got ${kindOf(text)}`);
  const models: ModelSamples[] = [];
  const byKey = new Map<string, ModelSamples>();
  let platform = '';
  let platformHash = '';
  let platformNodes: number | null = null;
  const hashes = new Map<string, { hash: string; line: number }>();
  const lines = text.split('\n');
  const firstLine = lines.findIndex((l) => l.trim() !== '');
  if (firstLine >= 0 && lines[firstLine].trimStart().startsWith('{')) throw new InputError(`${source}: not a samples file: ${whatJsonIs(lines[firstLine])}; expected the text sim calibrate writes ("${samplesHeaderLine()}" ...)`);
  // The header wherever it stands: a note written above it turned off the version and truncation checks.
  const headerAt = lines.findIndex((l) => HEADER.test(l.trim()));
  const version = headerAt < 0 ? null : HEADER.exec(lines[headerAt].trim());
  if (version !== null && (Number(version[1]) > SAMPLES_VERSION || Number(version[1]) < 1)) {
    throw new InputError(`${source}: samples file version ${version[1]}; this simulator reads versions 1 to ${SAMPLES_VERSION}`);
  }
  const needsEnd = version !== null && Number(version[1]) >= 2;
  // Checked first, so a file cut mid-line is called truncated rather than malformed.
  const lastLine = lines.findLastIndex((l) => l.trim() !== '');
  if (needsEnd && !END.test(lines[lastLine].trim())) {
    const endAt = lines.findIndex((l) => END.test(l.trim()));
    if (endAt >= 0) throw new InputError(`${source}:${endAt + 2}: more after the end line (line ${endAt + 1}); expected the end line last`);
    throw new InputError(`${source}: truncated: it ends at line ${lastLine + 1} without the end line ("# end: U units, S samples") sim calibrate writes last; the file was cut short (or is one shard: concatenate them all)`);
  }
  let units = 0;
  /** The line each unit (platform, model and machine size) began on. */
  const unitLines = new Map<string, number>();
  let sampleLines = 0;
  let end: { units: number; samples: number; line: number } | null = null;
  lines.forEach((raw, i) => {
    const line = raw.trim();
    const at = `${source}:${i + 1}`;
    if (line === '') return;
    if (end !== null) throw new InputError(`${at}: more after the end line (line ${end.line}); expected the end line last`);
    const endMatch = END.exec(line);
    if (endMatch !== null) {
      end = { units: Number(endMatch[1]), samples: Number(endMatch[2]), line: i + 1 };
      return;
    }
    if (line.startsWith('#')) {
      const words = line.slice(1).trim().split(/\s+/);
      // Names sim fit prints: a model named Foo<ESC>[31m turned the terminal red.
      const steering = (words[0] === 'platform' || words[0] === 'model') && words.slice(1).find((w) => LINE_BREAKING.test(w));
      if (steering) throw new InputError(`${at}: the name ${JSON.stringify(steering)} has ${LINE_BREAKING_WORDS}; expected names without them`);
      if (words[0] === 'platform') {
        if (words.length < 2) throw new InputError(`${at}: "# platform" needs a platform name`);
        platform = words[1];
        // "# platform cm5 nodes 64", written by hand without the hash, took "nodes" for the
        // hash (a models file sim select refused) and lost the size.
        const nodesAt = words[2] === 'nodes' ? 2 : 3;
        platformHash = nodesAt === 2 ? '' : (words[2] ?? '');
        if (words[nodesAt] === 'nodes' && !/^[1-9]\d*$/.test(words[nodesAt + 1] ?? '')) {
          throw new InputError(`${at}: "nodes ${words[nodesAt + 1] ?? ''}" is not a machine size; expected "# platform <name> [<content hash>] [nodes <P>]" with P a whole number of nodes from 1`);
        }
        // Two platform files of one name (a calibration of an edited cm5.json appended to the
        // shipped one's) were pooled into one fit, and its provenance named one of them.
        const first = hashes.get(platform);
        if (first !== undefined && platformHash !== '' && first.hash !== '' && first.hash !== platformHash) {
          throw new InputError(`${at}: platform ${platform} with content hash ${platformHash}, but line ${first.line} gives ${first.hash}; expected the samples of one platform file per platform name (samples of two machines would be fitted as one)`);
        }
        if (first === undefined || first.hash === '') hashes.set(platform, { hash: platformHash, line: i + 1 });
        platformNodes = words[nodesAt] === 'nodes' ? Number(words[nodesAt + 1]) : null;
      } else if (words[0] === 'model') {
        if (words.length < 2) throw new InputError(`${at}: "# model" needs a model name`);
        // Without one the models were fitted for a platform named '' that no selection finds.
        if (platform === '') throw new InputError(`${at}: model ${words[1]} comes before any "# platform <name>" line; expected one naming the platform its samples were taken on (sim calibrate writes "# platform <name> <hash> nodes <P>" before each model)`);
        units++;
        const key = `${platform}/${words[1]}`;
        // A unit given twice (one platform, size and model: a block pasted again, or two
        // "# model" lines under one platform) had its samples fitted twice, and its
        // half-widths shrank as if there were twice the data; sim calibrate refuses --nodes 16,16 for this.
        const unit = `${key}/${platformNodes ?? ''}`;
        const firstLine = unitLines.get(unit);
        if (firstLine !== undefined) {
          throw new InputError(`${at}: model ${words[1]} on ${platform}${platformNodes === null ? '' : ` at ${platformNodes} nodes`} again (first at line ${firstLine}); expected each unit once (its samples would be fitted twice)`);
        }
        unitLines.set(unit, i + 1);
        const columns = words.slice(2);
        // A fitted model's term "1" is its constant: a column so named was fitted as a variable,
        // then evaluated as the constant by sim select, its values ignored.
        if (columns.includes('1')) throw new InputError(`${at}: model ${words[1]} has a column named 1, the name of every model's constant; expected another name`);
        if (columns.length > MAX_COLUMNS) throw new InputError(`${at}: model ${words[1]} has ${columns.length} columns; expected at most ${MAX_COLUMNS} (a fit removes irrelevant terms one at a time, so its time grows as the fourth power of the columns: 300 take more than 5 minutes)`);
        const seen = byKey.get(key);
        // The same model on another machine size adds to its samples; its columns must agree.
        if (seen !== undefined) {
          if (seen.columns.join(' ') !== columns.join(' ')) {
            throw new InputError(`${at}: model ${words[1]} on ${platform} has columns ${columnList(columns, ' ')} here but ${columnList(seen.columns, ' ')} before`);
          }
          if (platformNodes !== null && !seen.nodes.includes(platformNodes)) seen.nodes.push(platformNodes);
          return;
        }
        const m: ModelSamples = { platform, platformHash, nodes: platformNodes === null ? [] : [platformNodes], name: words[1], columns, building: [], verification: [] };
        byKey.set(key, m);
        models.push(m);
      }
      return;
    }
    const fields = line.split(/\s+/);
    const verify = fields[0].startsWith('@');
    const name = verify ? fields[0].slice(1) : fields[0];
    const m = byKey.get(`${platform}/${name}`);
    if (m === undefined) throw new InputError(`${at}: samples for model ${name} without its structure line ("# model ${name} ...")`);
    if (fields.length !== m.columns.length + 2) {
      throw new InputError(`${at}: ${name} has ${m.columns.length} columns (${columnList(m.columns, ' ') || 'none'}) but this line has ${Math.max(0, fields.length - 2)} values after the time`);
    }
    const numbers = fields.slice(1).map(Number);
    // Decimal numbers, as sim calibrate writes them: Number() also took 0x46 and 0b101.
    if (numbers.some((n) => !Number.isFinite(n)) || fields.slice(1).some((f) => !DECIMAL.test(f))) throw new InputError(`${at}: expected decimal numbers after ${fields[0]}, got "${fields.slice(1).join(' ')}"`);
    if (numbers.some((n) => Math.abs(n) > MAX_VALUE)) throw new InputError(`${at}: expected values of magnitude at most 2^53 - 1 (exact cycle counts and terms), got "${fields.slice(1).join(' ')}"`);
    if (numbers[0] < 0) throw new InputError(`${at}: ${fields[0]} takes ${numbers[0]} cycles; expected a cycle count of 0 or more`);
    sampleLines++;
    (verify ? m.verification : m.building).push({ y: numbers[0], x: numbers.slice(1) });
  });
  const ended = end as { units: number; samples: number } | null;
  if (ended !== null && (ended.units !== units || ended.samples !== sampleLines)) {
    throw new InputError(`${source}: corrupt: the end line counts ${ended.units} units and ${ended.samples} samples, the file holds ${units} and ${sampleLines}`);
  }
  if (models.length === 0) throw new InputError(`${source}: no models (expected "# model Name columns..." lines as sim calibrate writes)`);
  for (const m of models) {
    if (m.building.length === 0) throw new InputError(`${source}: model ${m.name} on ${m.platform} has no building samples`);
  }
  return models;
}
