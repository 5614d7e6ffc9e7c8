/**
 * App-level calibration units (src/calibrate/app-tasks.ts, app-units.ts, edge-exchange.ts)
 * against the shipped samples: apps/calibration/apps.spec's own lines, cut down to a few points each,
 * calibrated again with the real CLI must give exactly the shipped lines at those points
 * (the CM-5's the median of three seeds, its nodes taking timer interrupts; Alewife's one
 * run, SampleSort's three anywhere). Nothing else pins the parameters a task gives its
 * app (a rect task's processor grid, width against height) or the seeds a sample takes.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sim } from '../support/sim-cli.ts';

/** apps.spec's lines, each loop cut to its first value or two (so a few samples a unit, some of them uneven grids). */
function fewPoints(): string {
  const spec = readFileSync(join(ROOT, 'apps/calibration/apps.spec'), 'utf8');
  return spec
    .split('\n')
    .filter((l) => l.startsWith('{{'))
    .map((l) =>
      l
        .replace(/^\{\{ a (\S+) 24 \+=3, b (\S+) 24 \+=3, t 1 4 \+=3 @/, '{{ a $1 $1+3 +=3, b $2 $2 +=3, t 1 4 +=3 @')
        .replace(/^\{\{ k 4 12 \+=4, d 2 12 \+=2, w 8 32 \+=24 @/, '{{ k 4 4 +=4, d 2 4 +=2, w 8 32 +=24 @')
        .replace(/^\{\{ k 4 12 \+=1, w 8 32 \+=6 @/, '{{ k 4 5 +=1, w 8 14 +=6 @'),
    )
    .join('\n');
}

/** The building sample lines of each model in a samples file. */
function unitLines(text: string): Map<string, string[]> {
  const units = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#') || line.startsWith('@')) continue;
    const model = line.slice(0, line.indexOf(' '));
    units.set(model, [...(units.get(model) ?? []), line]);
  }
  return units;
}

/** `spec` calibrated on `platform` at 16 nodes by the real CLI, without verification runs: its sample lines by model. */
async function calibrated(platform: string, spec: string): Promise<Map<string, string[]>> {
  const dir = mkdtempSync(join(tmpdir(), 'sim-app-samples-'));
  writeFileSync(join(dir, 'few.spec'), spec);
  const r = await sim(['calibrate', '--platform', platform, join(dir, 'few.spec'), '--nodes', '16', '--vcount', '0', '-o', join(dir, 'few.samples')]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return unitLines(readFileSync(join(dir, 'few.samples'), 'utf8'));
}

describe('an app calibration', () => {
  it.each(['cm5', 'alewife'])('on %s at 16 nodes gives the shipped samples of apps.spec at the points it samples again', { timeout: 180_000 }, async (platform) => {
    const fresh = await calibrated(platform, fewPoints());
    const shipped = unitLines(readFileSync(join(ROOT, `platforms/models/apps/n16/${platform}.samples`), 'utf8'));
    expect([...fresh.keys()]).toEqual([...shipped.keys()]);
    for (const [model, lines] of fresh) {
      // Four points a unit: a line whose loops apps.spec changed would be sampled whole.
      expect(lines.length, model).toBe(4);
      for (const line of lines) expect(shipped.get(model), `${platform} ${model}`).toContain(line);
    }
  });

  it.each(['paragon', 'cm5'])("on %s at 16 nodes gives the shipped hybrid samples (eq. 54's edge exchange, measured) at the points it samples again", { timeout: 120_000 }, async (platform) => {
    // Each sample is the second iteration's work alone (edge-exchange.ts): nothing else pinned which runs it subtracts.
    const fresh = await calibrated(platform, readFileSync(join(ROOT, 'apps/calibration/hybrid.spec'), 'utf8').replaceAll('{{ a 2 16 +=2 @', '{{ a 2 6 +=2 @'));
    const shipped = unitLines(readFileSync(join(ROOT, `platforms/models/hybrid/n16/${platform}.samples`), 'utf8'));
    expect([...fresh.keys()]).toEqual(['StencilRowComm', 'StencilColComm']);
    for (const [model, lines] of fresh) {
      expect(lines, model).toHaveLength(3);
      expect(shipped.get(model)!.slice(0, 3), `${platform} ${model}`).toEqual(lines);
    }
  });
});
