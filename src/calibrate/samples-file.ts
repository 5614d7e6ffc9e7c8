/**
 * Reading a samples file back (the format `sim calibrate` writes, thesis Fig. 3-7):
 * `# platform`, then `# model Name columns...` structure lines, then `Name cycles x...`
 * building samples and `@Name ...` verification samples. A model's units on several
 * machine sizes pool their samples. Problems are one InputError
 * line naming the file and line.
 */
import { InputError } from '../kernel/errors.ts';
import type { Sample } from './fit.ts';

export interface ModelSamples {
  platform: string;
  /** The platform file's content hash from the "# platform" line ('' if it gave none). */
  platformHash: string;
  name: string;
  columns: string[];
  building: Sample[];
  verification: Sample[];
}

export function readSamples(text: string, source: string): ModelSamples[] {
  const models: ModelSamples[] = [];
  const byKey = new Map<string, ModelSamples>();
  let platform = '';
  let platformHash = '';
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    const at = `${source}:${i + 1}`;
    if (line === '') return;
    if (line.startsWith('#')) {
      const words = line.slice(1).trim().split(/\s+/);
      if (words[0] === 'platform') {
        if (words.length < 2) throw new InputError(`${at}: "# platform" needs a platform name`);
        platform = words[1];
        platformHash = words[2] ?? '';
      } else if (words[0] === 'model') {
        if (words.length < 2) throw new InputError(`${at}: "# model" needs a model name`);
        const key = `${platform}/${words[1]}`;
        const columns = words.slice(2);
        const seen = byKey.get(key);
        // The same model on another machine size adds to its samples; its columns must agree.
        if (seen !== undefined) {
          if (seen.columns.join(' ') !== columns.join(' ')) {
            throw new InputError(`${at}: model ${words[1]} on ${platform} has columns ${columns.join(' ')} here but ${seen.columns.join(' ')} before`);
          }
          return;
        }
        const m: ModelSamples = { platform, platformHash, name: words[1], columns, building: [], verification: [] };
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
      throw new InputError(`${at}: ${name} has ${m.columns.length} columns (${m.columns.join(' ') || 'none'}) but this line has ${Math.max(0, fields.length - 2)} values after the time`);
    }
    const numbers = fields.slice(1).map(Number);
    if (numbers.some((n) => !Number.isFinite(n))) throw new InputError(`${at}: expected numbers after ${fields[0]}, got "${fields.slice(1).join(' ')}"`);
    (verify ? m.verification : m.building).push({ y: numbers[0], x: numbers.slice(1) });
  });
  if (models.length === 0) throw new InputError(`${source}: no models (expected "# model Name columns..." lines as sim calibrate writes)`);
  for (const m of models) {
    if (m.building.length === 0) throw new InputError(`${source}: model ${m.name} on ${m.platform} has no building samples`);
  }
  return models;
}
