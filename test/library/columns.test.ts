/** The library evaluates models on columns it computes itself; they must be the spec's (apps/calibration/apps.spec). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planUnit } from '../../src/calibrate/samples.ts';
import { parseSpecs } from '../../src/calibrate/spec.ts';
import { radixColumns, sampleColumns } from '../../src/library/sort-module.ts';
import { rectColumns, stencilColumns } from '../../src/library/stencil-module.ts';
import { loadTestPlatform } from '../support/platforms.ts';
import { ROOT } from '../support/sim-cli.ts';

const SPECS = parseSpecs(readFileSync(join(ROOT, 'apps/calibration/apps.spec'), 'utf8'), 'apps.spec');

/** The library's columns for a sample, from the spec's own input values. */
function libraryColumns(name: string, v: Record<string, number>, nodes: number): Record<string, number> {
  if (name === 'StencilRect') return rectColumns(v.bw * v.px, v.bh * (nodes / v.px), v.iter, v.px, nodes);
  if (name.startsWith('Stencil')) return stencilColumns(v.width, v.height, v.iter);
  if (name === 'RadixSort') return radixColumns(v.keys, v.bpd, v.width, nodes);
  return sampleColumns(v.keys, v.width, nodes);
}

describe('the library computes every model column as apps.spec does', () => {
  for (const nodes of [16, 32, 64]) {
    it(`at ${nodes} nodes`, () => {
      for (const spec of SPECS) {
        const names = [...spec.inputs.map((i) => i.id), ...spec.terms.map((t) => t.id)];
        for (const s of planUnit({ platform: loadTestPlatform('paragon'), spec, source: 'apps.spec', nodes, seed: 1, vcount: 10 })) {
          const values = Object.fromEntries(names.map((n, k) => [n, s.columns[k]]));
          const mine = libraryColumns(spec.name, values, nodes);
          for (const n of names) expect(mine[n], `${spec.name} ${n} at ${JSON.stringify(values)}`).toBeCloseTo(values[n], 6);
        }
      }
    });
  }
});
