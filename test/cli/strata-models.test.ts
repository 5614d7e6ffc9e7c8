import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIG_6_6 } from '../../src/calibrate/fig-6-6.ts';
import type { FittedModel } from '../../src/calibrate/models.ts';
import { sim } from '../support/sim-cli.ts';

const ROOT = join(import.meta.dirname, '../..');
const PLATFORMS = ['cm5', 'alewife', 'paragon', 'atm'];

interface ModelsFile {
  provenance: { platformHashes: Record<string, string>; relativeError: boolean };
  models: FittedModel[];
}

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as ModelsFile;
const kept = (m: FittedModel) => m.terms.filter((_, k) => m.relevant[k]);

describe('the Strata model suite (apps/calibration/strata.spec) and platforms/models', () => {
  it('sim calibrate --platform all --fit reproduces the shipped models, whose Fig. 6-6 models verify within 5% with the thesis structure', { timeout: 300_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-models-'));
    const r = await sim(['calibrate', '--platform', 'all', 'apps/calibration/strata.spec', '-o', join(dir, 'strata.samples'), '--nodes', '16,32,64', '--workers', '2', '--fit', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Thesis Fig. 6-6 beside this calibration');
    expect(readFileSync(join(dir, 'fig-6-6.txt'), 'utf8')).toBe(readFileSync(join(ROOT, 'platforms/models/fig-6-6.txt'), 'utf8'));
    for (const platform of PLATFORMS) {
      const fresh = read(join(dir, `${platform}.json`));
      const shipped = read(join(ROOT, 'platforms/models', `${platform}.json`));
      // The shipped models were fitted on today's platform file, and refitting gives them again.
      expect(shipped.provenance.platformHashes).toEqual(fresh.provenance.platformHashes);
      expect(shipped.models).toEqual(fresh.models);
      expect(shipped.models.length).toBeGreaterThanOrEqual(20);
      for (const t of FIG_6_6[platform]) {
        const m = shipped.models.find((x) => x.name === t.name);
        expect(m, `${platform} ${t.name}`).toBeDefined();
        expect(m!.mreVerificationPercent, `${platform} ${t.name}`).toBeLessThan(5);
      }
      const combine = shipped.models.find((x) => x.name === 'CombineVector')!;
      const logTerms = kept(combine).filter((t) => /logP/i.test(t));
      // The CM-5 pipelines vector combines on its control network; the others combine up trees (thesis 6.3).
      if (platform === 'cm5') expect(logTerms).toEqual([]);
      else expect(logTerms.length).toBeGreaterThan(0);
    }
  });
});
