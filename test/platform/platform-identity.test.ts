/**
 * What names a platform in what a run records (src/platform/platform-identity.ts): its
 * file's text and hash, or, for a copy a program edited, its own values written as a
 * platform file. An edited copy carried its file's hash: runs of two machines recorded
 * one platformHash, and models fitted on the file predicted for the edited machine.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parsePlatform } from '../../src/platform/load-platform.ts';
import { platformIdentity } from '../../src/platform/platform-identity.ts';
import { runApp, runConfig } from '../../src/runtime/index.ts';
import cshift from '../../apps/cshift/index.ts';
import { loadTestPlatform } from '../support/platforms.ts';

const cm5 = loadTestPlatform('cm5');
const slowFloats = { ...cm5, cpu: { ...cm5.cpu, floatAddCycles: cm5.cpu.floatAddCycles * 20 } };

/** The platformHash a run's summary records (cshift on 4 nodes). */
function runHash(platform: typeof cm5): string {
  return runApp(runConfig(platform, cshift, { nodes: 4 })).platformHash;
}

describe("a platform's identity", () => {
  it("is its file's text and hash, for the platform as read and for a copy left as it was", () => {
    expect(platformIdentity(cm5)).toEqual({ text: cm5.text, contentHash: cm5.contentHash, edited: false });
    expect(platformIdentity({ ...cm5 })).toEqual({ text: cm5.text, contentHash: cm5.contentHash, edited: false });
    // Keys given in another order are the same values.
    const { cpu, ...rest } = cm5;
    expect(platformIdentity({ cpu, ...rest }).contentHash).toBe(cm5.contentHash);
    expect(runHash({ ...cm5 })).toBe(cm5.contentHash);
  });

  it('is, for an edited copy, its values as a platform file, which reads back as the same machine and the same hash', () => {
    const own = platformIdentity(slowFloats);
    expect(own.edited).toBe(true);
    expect(own.contentHash).not.toBe(cm5.contentHash);
    expect(own.contentHash).toBe(createHash('sha256').update(own.text).digest('hex'));
    const reread = parsePlatform(own.text, 'edited.json');
    expect(reread.cpu.floatAddCycles).toBe(cm5.cpu.floatAddCycles * 20);
    expect(reread.contentHash).toBe(own.contentHash);
    // Its keys in the file's order: the file's text and the edited text differ in that one value.
    expect(Object.keys(JSON.parse(own.text))).toEqual(Object.keys(JSON.parse(cm5.text)));
    expect(runHash(slowFloats)).toBe(own.contentHash);
  });

  it('tells a section turned off from the file, and keeps it off when read back', () => {
    const quiet = { ...cm5, timerInterrupt: null };
    const own = platformIdentity(quiet);
    expect(own.edited).toBe(true);
    expect(parsePlatform(own.text, 'quiet.json').timerInterrupt).toBeNull();
  });

  // The same values given in another order were another text and another hash.
  it('is the same for the same values in any key order, where the file has no order for them', () => {
    const alewife = loadTestPlatform('alewife');
    const control = cm5.controlNetwork as Record<string, unknown>;
    const reversed = Object.fromEntries(Object.entries(control).reverse());
    const a = platformIdentity({ ...alewife, controlNetwork: control } as typeof alewife);
    const b = platformIdentity({ ...alewife, controlNetwork: reversed } as typeof alewife);
    expect(a.edited).toBe(true);
    expect(b.contentHash).toBe(a.contentHash);
  });
});
