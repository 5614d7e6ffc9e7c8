/**
 * The stencil models on blocks of a few lines, where selection errs most (Alewife, 64
 * nodes; platforms/models/apps/README.md): every block of 1-6 columns and 8, 12, 16, 24,
 * 31, 32, 48 or 64 rows a node, on three processor grids whose column edges queue where
 * they are one DMA packet (iter_colQueue): rect 16 x 4, vertical strips (64 x 1) and
 * rect 32 x 2. Each grid runs once (4 iterations, seed 1) through `sim sweep --workers
 * 2`; for each processor grid it prints the shipped model's mean error and its range,
 * overall and where the queue column is not 0. To see another model set's errors on the
 * same runs, put its JSON in platforms/models/apps/n64/alewife.json first (e.g. `git
 * checkout <ref> -- platforms/models/apps/n64/alewife.json`).
 *
 *   npm run bench small-blocks
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPlatform } from '../src/cli/load-inputs.ts';
import { loadModelSet } from '../src/cli/model-files.ts';
import { evaluate } from '../src/library/model-set.ts';
import { rectModel, stencilColumns, stencilFactsOf } from '../src/library/stencil-module.ts';
import { printRows } from './harness.ts';
import { metric, runSweep } from './sweep-results.ts';

const NODES = 64;
const ITERS = 4;
const COLUMNS = [1, 2, 3, 4, 5, 6];
const ROWS = [8, 12, 16, 24, 31, 32, 48, 64];
/** Processor grids: the app's layout and aspect, and its px x py. */
const GRIDS = [
  { layout: 'rect', aspect: 4, px: 16, py: 4 },
  { layout: 'vstrips', aspect: 1, px: 64, py: 1 },
  { layout: 'rect', aspect: 16, px: 32, py: 2 },
] as const;

const pct = (x: number) => `${(x * 100).toFixed(2)}%`;

export async function smallBlocksBench(): Promise<void> {
  const platform = await loadPlatform('alewife');
  const models = loadModelSet(platform, NODES);
  const facts = stencilFactsOf(platform);
  const cases = GRIDS.flatMap((g) => COLUMNS.flatMap((c) => ROWS.map((r) => ({ ...g, width: g.px * c, height: g.py * r }))));
  const runs = cases.map((k) => ({ app: 'apps/stencil', platform: 'alewife', nodes: NODES, seeds: 1, params: { layout: k.layout, aspect: k.aspect, width: k.width, height: k.height, iters: ITERS } }));
  const sweep = join(mkdtempSync(join(tmpdir(), 'bench-small-blocks-')), 'small-blocks.json');
  writeFileSync(sweep, JSON.stringify({ name: 'bench-small-blocks', runs }));
  const lines = runSweep(sweep, 2);

  const rows: [string, string][] = [];
  for (const g of GRIDS) {
    const name = g.layout === 'vstrips' ? 'StencilVstrips' : rectModel(g.px, g.py)!;
    const model = models.get(name, 'bench small-blocks');
    const errors = cases
      .filter((k) => k.px === g.px)
      .map((k) => {
        const columns = stencilColumns(k.width, k.height, ITERS, k.px, k.py, facts);
        const cycles = metric(lines, { platform: 'alewife', params: { layout: k.layout, aspect: k.aspect, width: k.width, height: k.height } }, 'cycles');
        return { error: evaluate(model, columns) / cycles - 1, queued: columns.iter_colQueue > 0 };
      });
    const describe = (e: readonly { error: number }[]) => {
      const values = e.map((x) => x.error);
      return `mean error ${pct(values.reduce((a, b) => a + Math.abs(b), 0) / values.length)}, ${pct(Math.min(...values))} to ${pct(Math.max(...values))} over ${values.length} grids`;
    };
    const queued = errors.filter((e) => e.queued);
    rows.push([`${name} (${g.px} x ${g.py})`, `${describe(errors)}; where the column edges queue: ${describe(queued)}`]);
  }
  printRows(`Stencil models on blocks of ${COLUMNS.join(', ')} columns and ${ROWS.join(', ')} rows a node, Alewife, ${NODES} nodes, ${ITERS} iterations (error = predicted / measured - 1)`, rows);
}
