/**
 * What a platform object must hold beyond what the schema checks of a file: the
 * cross-key rules (checkConsistency, which parsePlatform applies to every file), and,
 * for an object a library caller edited ({ ...cm5, cpu: {} }), that it still has every
 * key of the file it came from, of the same kind, and no other: the edit ran to NaN
 * simulated cycles and "verified", or failed deep in the machine with a TypeError.
 * Without the schema library (zod), whose loading costs a run's start-up a tenth of a
 * second: the file's own text, which every platform carries, is the reference.
 */
import type { Platform, PlatformSpec } from './schema.ts';

/** Platforms as parsePlatform made them (or the build checked them): nothing to check again. */
const PARSED = new WeakSet<object>();

/** Records `p` as a platform parsed and checked from its text; returns it. */
export function markParsed<P extends Platform>(p: P): P {
  PARSED.add(p);
  return p;
}

/** Whether `p` is a platform as parsePlatform made it (not a copy a caller made). */
export function wasParsed(p: Platform): boolean {
  return PARSED.has(p);
}

/**
 * The sections the schema lets a platform leave out as null (schema.ts; a test keeps
 * the two alike): an edited copy may turn one off (CM-5 without timer interrupts).
 */
export const NULLABLE_SECTIONS: readonly string[] = ['messaging.dma', 'controlNetwork', 'timerInterrupt', 'timeSlice'];
const NULLABLE = new Set(NULLABLE_SECTIONS.map((k) => `platform.${k}`));

/** The fields a platform adds to its file's keys (parsePlatform), which are not the machine's. */
export const OWN_FIELDS: ReadonlySet<string> = new Set(['source', 'text', 'contentHash']);

/**
 * Why `p` is not a platform its own file's keys describe, as one line naming the key,
 * or null: a platform as parsed, or an edited copy with every key of its file, of the
 * same kind (number, string, true/false, a section or null), and no other, whose
 * values keep the cross-key rules.
 */
export function platformShapeProblem(p: Platform): string | null {
  if (wasParsed(p)) return null;
  if (typeof p.text !== 'string') return 'platform: expected a platform as loadPlatform or parsePlatform gives it (its text, the file it was read from, is missing)';
  let file: unknown;
  try {
    file = JSON.parse(p.text);
  } catch {
    return 'platform.text: not the JSON of a platform file; expected a platform as loadPlatform or parsePlatform gives it';
  }
  const problem = shapeProblem(file, p, 'platform', true);
  return problem ?? checkConsistency(p as PlatformSpec);
}

const kind = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'list' : typeof v);

/** The first key of `value` that differs from `reference` in kind, or is missing or extra. */
function shapeProblem(reference: unknown, value: unknown, path: string, top = false): string | null {
  const want = kind(reference);
  const got = kind(value);
  // A section the file leaves out (null: no DMA, no timer interrupts) may be given; its keys are the machine's to read.
  if (want === 'null') return got === 'null' || got === 'object' ? null : `${path} is ${got === 'undefined' ? 'missing' : `a ${got}`}; expected a section or null, as in the platform file`;
  if (want === 'object' && got === 'null' && NULLABLE.has(path)) return null;
  if (want !== got) return `${path} is ${got === 'undefined' ? 'missing' : got === 'null' ? 'null' : `a ${got}`}; expected a ${want === 'object' ? 'section' : want}, as in the platform file`;
  if (want === 'list') {
    const r = reference as unknown[];
    const v = value as unknown[];
    if (r.length === 0) return null;
    for (let i = 0; i < v.length; i++) {
      const found = shapeProblem(r[Math.min(i, r.length - 1)], v[i], `${path}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (want !== 'object') return null;
  const r = reference as Record<string, unknown>;
  const v = value as Record<string, unknown>;
  for (const key of Object.keys(r)) {
    const found = shapeProblem(r[key], v[key], `${path}.${key}`);
    if (found !== null) return found;
  }
  for (const key of Object.keys(v)) {
    if (!Object.hasOwn(r, key) && !(top && OWN_FIELDS.has(key))) return `${path}.${key}: unknown (the platform file has no such key)`;
  }
  return null;
}

/** Cross-key rules the per-key schema cannot express. Returns a message or null. */
export function checkConsistency(p: PlatformSpec): string | null {
  const m = p.messaging;
  if (m.sendInjectionCycles > m.sendOverheadCycles) {
    return `key "messaging.sendInjectionCycles": expected at most messaging.sendOverheadCycles (${m.sendOverheadCycles}), got ${m.sendInjectionCycles}`;
  }
  if (m.handlerArgWords > m.packetWords - 1) {
    return `key "messaging.handlerArgWords": expected at most messaging.packetWords - 1 (${m.packetWords - 1}), got ${m.handlerArgWords}`;
  }
  if (m.dma === null && m.handlerArgWords < m.packetWords - 1) {
    // A block transfer's last, partial packet is an active message of its port-and-offset word
    // and up to packetWords - 2 data words (Appendix A 7; src/runtime/block-send-op.ts): with
    // fewer argument words every block transfer failed at its end, blaming "argument words".
    return `key "messaging.handlerArgWords": expected messaging.packetWords - 1 (${m.packetWords - 1}) without DMA (a block transfer's last packet is an active message of up to that many words), got ${m.handlerArgWords}`;
  }
  const c = p.controlNetwork;
  if (c === null && m.handlerArgWords < 4) {
    // Combining trees send [header, offset, flags, data...] (src/runtime/tree-combine.ts).
    return `key "messaging.handlerArgWords": expected at least 4 on a platform without a control network (global operations use 4-word tree messages), got ${m.handlerArgWords}`;
  }
  if (c !== null) {
    const fixed = c.startCycles + c.queryCycles;
    for (const key of ['barrierCycles', 'combineIntCycles', 'broadcastCycles'] as const) {
      if (c[key] <= fixed) {
        return `key "controlNetwork.${key}": expected more than startCycles + queryCycles (${fixed}), got ${c[key]}`;
      }
    }
  }
  const t = p.timerInterrupt;
  if (t !== null && 2 * t.cycles > t.periodCycles) {
    // An interrupt longer than half its period leaves the program less time than the OS.
    return `key "timerInterrupt.cycles": expected at most half of timerInterrupt.periodCycles (${Math.floor(t.periodCycles / 2)}), got ${t.cycles}`;
  }
  const n = p.network;
  if (n.kind === 'fat-tree') {
    // The packet network moves a packet's head on after each hop's latency and delivers it
    // one node-link serialization after its head arrives; the analytic one serializes it once,
    // on the node link. A level slower than that link was then ignored: with [0.758, 0.01]
    // a packet across the root arrived 2000 cycles before its tail had crossed it.
    const levels = n.linkBytesPerCycleByLevel;
    const slower = levels.findIndex((b) => b < levels[0]);
    if (slower > 0) {
      return `key "network.linkBytesPerCycleByLevel.${slower}": expected at least the node link's network.linkBytesPerCycleByLevel.0 (${levels[0]}): packets serialize at the node link's rate, so a slower level above it cannot be simulated, got ${levels[slower]}`;
    }
  }
  if (p.defaultNodes > p.network.maxNodes) {
    return `key "defaultNodes": expected at most network.maxNodes (${p.network.maxNodes}), got ${p.defaultNodes}`;
  }
  return null;
}

