/**
 * Reading a repro file back (`sim replay`): the file is checked by its schema
 * (repro-schema.ts) before anything trusts it. Apart from repro.ts, which writes
 * them, so that a run does not load the schema library (zod).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { InputError } from '../kernel/errors.ts';
import { MAGIC } from '../trace/format.ts';
import { describeSchemaError } from '../trace/header-schema.ts';
import { REPRO_FORMAT, REPRO_VERSION, VERIFICATION_FAILED } from './repro-format.ts';
import type { Repro } from './repro.ts';
import { reproSchema } from './repro-schema.ts';

/** Reads and checks a repro file; anything wrong is one InputError line. */
export function readRepro(path: string): Repro {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new InputError(`${path}: cannot read the repro file (${(e as { code?: string }).code ?? String(e)})`);
  }
  // JSON.parse's "Unexpected token" quoted an invisible character.
  if (text.startsWith('\ufeff')) throw new InputError(`${path}: starts with a byte-order mark (U+FEFF); expected the JSON --record writes, without one (save it as UTF-8 without a BOM)`);
  if (text.startsWith(MAGIC)) {
    throw new InputError(`${path}: a trace (written by --trace), not a repro file: sim replay runs the file --record writes; sim graph and sim export read traces`);
  }
  let r: Repro;
  try {
    r = JSON.parse(text) as Repro;
  } catch (e) {
    // JSON.parse quotes the text it stopped at, newlines and all: one line, and not too long.
    const why = (e instanceof Error ? e.message : String(e)).replace(/\s+/g, ' ').slice(0, 160);
    throw new InputError(`${path}: not a repro file: the JSON is malformed or truncated (${why})`);
  }
  const bad = (what: string): never => {
    throw new InputError(`${path}: ${what}`);
  };
  if (r === null || typeof r !== 'object' || r.format !== REPRO_FORMAT) bad(`not a repro file (expected "format": "${REPRO_FORMAT}")`);
  // "version 1; this simulator reads version 1" of a version given as the string "1".
  if (r.version !== REPRO_VERSION) bad(`repro format version ${typeof r.version === 'number' ? r.version : `${JSON.stringify(r.version) ?? 'missing'} (${r.version === undefined ? 'no number' : `a ${typeof r.version}`})`}; this simulator reads version ${REPRO_VERSION}`);
  const checked = reproSchema.safeParse(r);
  if (!checked.success) bad(`bad repro file: ${describeSchemaError(checked.error, r)}`);
  // As the command line refuses it: a repro with shift=1 and shift=2 replayed the last and "diverged".
  const keys = r.params.map((a) => a.slice(0, a.indexOf('=')));
  const twice = keys.find((k, i) => keys.indexOf(k) !== i);
  if (twice !== undefined) bad(`bad repro file: key "params": ${twice} is given twice; expected each parameter once`);
  // Only a run that failed before it ended has no fingerprint: one that ended (passed or
  // failed its verification) or was stopped part-way has one, and replay compares it.
  // Edited to '', a recording of partial digests was "reproduced" on its event count.
  const { fingerprint, failure } = r.outcome;
  if (fingerprint === '' && (failure === null || failure.startsWith(VERIFICATION_FAILED) || r.stop !== undefined)) {
    const run = r.stop !== undefined ? 'was stopped part-way' : failure === null ? 'passed' : 'failed its verification';
    bad(`bad repro file: key "outcome.fingerprint": empty for a run that ${run}; expected its fingerprint (hex digits), as only a run that failed before it ended has none`);
  }
  // Only a run that failed before it ended has no fingerprint: an edited one was shown as "reproduced ..., fingerprint abcd", unchecked.
  if (fingerprint !== '' && failure !== null && !failure.startsWith(VERIFICATION_FAILED) && r.stop === undefined) {
    bad(`bad repro file: key "outcome.fingerprint": ${fingerprint} for a run that failed before it ended, which has none; expected ""`);
  }
  // A run stops at its own event limit: a passed run of 21 events with a stop at 5 "diverged at event 6".
  if (r.stop?.maxEvents !== undefined && r.stop.maxEvents < r.outcome.events) {
    bad(`bad repro file: key "stop.maxEvents": ${r.stop.maxEvents}, fewer than the run's ${r.outcome.events} events (outcome.events); expected at least as many`);
  }
  // The platform's text is what runs; its hash what names it: an edited text replayed another machine without a word.
  if (createHash('sha256').update(r.platform.text).digest('hex') !== r.platform.contentHash) {
    bad('bad repro file: key "platform.contentHash": not the SHA-256 of platform.text (the recorded platform was edited); expected the hash --record writes');
  }
  if (r.eventDigests === null) {
    // Only a run stopped part-way and recorded without --record has none: a passed run without them "diverged" at its end.
    if (r.stop === undefined) bad('bad repro file: key "eventDigests": null for a run that was not stopped part-way; expected its event digests, as --record writes them');
    return r;
  }
  const digested = r.digestedEvents ?? r.outcome.events;
  if (digested > r.outcome.events) bad(`digestedEvents ${digested} is more than the run's ${r.outcome.events} events`);
  const bytes = Buffer.from(r.eventDigests, 'base64');
  const events = r.digestedEvents === undefined ? `${digested} events` : `the first ${digested} events`;
  // "truncated" of more bytes than the events asked for.
  if (bytes.length !== 2 * digested) bad(`${bytes.length < 2 * digested ? 'truncated' : 'bad repro file'}: ${bytes.length} bytes of event digests for ${events} (expected ${2 * digested}, two a digest)`);
  return r;
}

/** The recorded digests as numbers, or null if none were recorded. */
export function digestsOf(r: Repro): Uint16Array | null {
  if (r.eventDigests === null) return null;
  const bytes = Buffer.from(r.eventDigests, 'base64');
  const out = new Uint16Array(bytes.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = bytes[2 * i] | (bytes[2 * i + 1] << 8);
  return out;
}
