/**
 * A platform object a library caller edited is checked against the file it came from
 * (src/platform/platform-shape.ts): { ...cm5, cpu: {} } ran to NaN simulated cycles and
 * "verified", { ...cm5, messaging: {} } was a TypeError deep in the machine, and a
 * network kind the simulator has no topology for was "16 nodes: undefined".
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { InputError } from '../../src/kernel/errors.ts';
import { NULLABLE_SECTIONS } from '../../src/platform/platform-shape.ts';
import { platformSchema, type Platform } from '../../src/platform/schema.ts';
import { runApp, runConfig } from '../../src/runtime/index.ts';
import cshift from '../../apps/cshift/index.ts';
import { loadTestPlatform } from '../support/platforms.ts';

const cm5 = loadTestPlatform('cm5');

/** What runConfig says of `platform` (with cshift on 16 nodes), or null when it takes it. */
function refusal(platform: unknown): string | null {
  try {
    runConfig(platform as Platform, cshift, { nodes: 16 });
    return null;
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    return e.message;
  }
}

/** The keys of the schema whose value may be null, as paths. */
function nullableKeys(schema: z.ZodType, path: string[] = []): string[] {
  if (schema instanceof z.ZodNullable) return [path.join('.'), ...nullableKeys(schema.unwrap() as z.ZodType, path).filter((k) => k !== path.join('.'))];
  if (schema instanceof z.ZodObject) return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([k, s]) => nullableKeys(s, [...path, k]));
  return [];
}

describe('an edited platform object', () => {
  it('is refused, naming the key, when it lacks a key of its file, has one of another kind, or one the file has not', () => {
    expect(refusal({ ...cm5, cpu: {} })).toMatch(/^platform\.cpu\.\w+ is missing; expected a number, as in the platform file$/);
    expect(refusal({ ...cm5, messaging: {} })).toMatch(/^platform\.messaging\.\w+ is missing; expected a \w+, as in the platform file$/);
    expect(refusal({ ...cm5, network: { ...cm5.network, hopLatencyCycles: undefined } })).toBe('platform.network.hopLatencyCycles is missing; expected a number, as in the platform file');
    expect(refusal({ ...cm5, clockMHz: '33' })).toBe('platform.clockMHz is a string; expected a number, as in the platform file');
    expect(refusal({ ...cm5, messaging: null })).toBe('platform.messaging is null; expected a section, as in the platform file');
    expect(refusal({ ...cm5, cpu: { ...cm5.cpu, bogus: 1 } })).toBe('platform.cpu.bogus: unknown (the platform file has no such key)');
    expect(refusal({ ...cm5, text: undefined })).toMatch(/^platform: expected a platform as loadPlatform or parsePlatform gives it \(its text/);
  });

  it("is refused when it breaks a rule across keys the file's check applies", () => {
    const m = cm5.messaging;
    expect(refusal({ ...cm5, messaging: { ...m, sendInjectionCycles: m.sendOverheadCycles + 1 } })).toBe(`key "messaging.sendInjectionCycles": expected at most messaging.sendOverheadCycles (${m.sendOverheadCycles}), got ${m.sendOverheadCycles + 1}`);
  });

  it('is refused with a network kind the simulator has no topology for', () => {
    expect(() => runApp(runConfig({ ...cm5, network: { ...cm5.network, kind: 'torus' } } as never, cshift, { nodes: 16 }))).toThrow(/network\.kind "torus": expected fat-tree, mesh or switch/);
  });

  it('runs as edited when it keeps its keys: other values, or a section the schema lets be null turned off', () => {
    expect(refusal({ ...cm5, timerInterrupt: null, timeSlice: null })).toBeNull();
    expect(refusal({ ...cm5, messaging: { ...cm5.messaging, sendOverheadCycles: cm5.messaging.sendOverheadCycles + 10 } })).toBeNull();
    expect(runApp(runConfig({ ...cm5, timerInterrupt: null }, cshift, { nodes: 16 })).verified).toBe(true);
  });

  it('may leave out as null exactly the sections the schema lets be null', () => {
    expect(nullableKeys(platformSchema as unknown as z.ZodType).sort()).toEqual([...NULLABLE_SECTIONS].sort());
  });
});
