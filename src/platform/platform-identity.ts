/**
 * What names a platform in everything a run records: a summary's platformHash, a
 * trace's header, a samples file's "# platform" line, the models fitted from it (which
 * selection checks against the platform it predicts for), a repro's embedded file. For a
 * platform read from a file, that file's text and the text's SHA-256.
 *
 * A copy a library caller edited (`{ ...cm5, cpu: { ...cm5.cpu, loadCycles: 40 } }`,
 * which platform-shape.ts checks) carries its file's text and hash too, which name the
 * file's machine and not the edited one: models fitted on the file were taken to predict
 * the edited machine (a stencil predicted 14 times too fast), and runs of two machines
 * recorded one hash. An edited copy is named instead by its own values, written as a
 * platform file would be (the file's keys in the file's order, two-space indentation),
 * and that text's hash; a copy whose values are still the file's keeps the file's.
 */
import { createHash } from 'node:crypto';
import { OWN_FIELDS, wasParsed } from './platform-shape.ts';
import type { Platform } from './schema.ts';

export interface PlatformIdentity {
  /** The platform as a file's text: its file's, or its values written out. */
  readonly text: string;
  /** SHA-256 of `text`, hex. */
  readonly contentHash: string;
  /** Whether its values differ from its file's (the text is then its values'). */
  readonly edited: boolean;
}

/** `platform`'s identity (see above); the platform is one platformShapeProblem accepts. */
export function platformIdentity(platform: Platform): PlatformIdentity {
  const file = { text: platform.text, contentHash: platform.contentHash, edited: false };
  if (wasParsed(platform)) return file;
  const reference: unknown = JSON.parse(platform.text);
  const values = ordered(platform, reference, true);
  if (JSON.stringify(values) === JSON.stringify(reference)) return file;
  const text = `${JSON.stringify(values, null, 2)}\n`;
  return { text, contentHash: createHash('sha256').update(text).digest('hex'), edited: true };
}

/**
 * `value` with the keys of its objects in `reference`'s order, and the keys the file has
 * no order for (a section it has as null: alewife's controlNetwork given one) in code-unit
 * order after them: the same values given in another order were another text, another
 * hash. Functions and undefined are left out as JSON leaves them; at the top, the
 * platform's own fields.
 */
function ordered(value: unknown, reference: unknown, top = false): unknown {
  if (Array.isArray(value)) {
    const r = Array.isArray(reference) ? reference : [];
    return value.map((v, i) => ordered(v, r[Math.min(i, r.length - 1)]));
  }
  if (value === null || typeof value !== 'object') return value;
  const v = value as Record<string, unknown>;
  const r = reference !== null && typeof reference === 'object' && !Array.isArray(reference) ? (reference as Record<string, unknown>) : {};
  const keys = [...Object.keys(r).filter((k) => Object.hasOwn(v, k)), ...Object.keys(v).filter((k) => !Object.hasOwn(r, k)).sort()];
  const out: Record<string, unknown> = {};
  for (const k of keys) if (!(top && OWN_FIELDS.has(k))) out[k] = ordered(v[k], r[k]);
  return out;
}
