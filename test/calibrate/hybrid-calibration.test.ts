/**
 * The hybrid extra-lines model (thesis 8.1.3, eq. 54) from a tiny real calibration: the
 * samples measure what eq. 38 stands for (the exchange work an edge node of the square
 * layout does not do per iteration), the one column is the Strata BlockTransfer model's
 * prediction, and the fit gives alpha and beta.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { edgeExchange } from '../../src/calibrate/edge-exchange.ts';
import { ROOT, sim } from '../support/sim-cli.ts';

/** hybrid.spec's two lines over k = 2, 4, 8 points along the edge, on a 3 x 3 processor grid. */
const TINY = `{{ a 2 6 +=2 @ @ StencilRowComm(3*(((2+(a&1))<<(a>>1))>>1),12) @ @ factored:2*BlockTransfer(2*(((2+(a&1))<<(a>>1))>>1)) @ }}
{{ a 2 6 +=2 @ @ StencilColComm(12,3*(((2+(a&1))<<(a>>1))>>1)) @ @ factored:2*BlockTransfer(2*(((2+(a&1))<<(a>>1))>>1)) @ }}
`;

const paragonModels = JSON.parse(readFileSync(join(ROOT, 'platforms/models/paragon.json'), 'utf8'));
const bt = paragonModels.models.find((m: { name: string }) => m.name === 'BlockTransfer');
const blockTransfer = (words: number) => bt.coefficients[0] + bt.coefficients[1] * words;

describe('the hybrid model of eq. 54 from a tiny calibration', () => {
  it('samples the edge exchange against the BlockTransfer model and fits alpha + beta x factored', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-hybrid-'));
    writeFileSync(join(dir, 'tiny.spec'), TINY);
    const r = await sim(['calibrate', '--platform', 'paragon', join(dir, 'tiny.spec'), '--nodes', '9', '--vcount', '2', '-o', join(dir, 's.samples'), '--fit', join(dir, 'fit'), '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const samples = readFileSync(join(dir, 's.samples'), 'utf8');
    // The samples name the submodel file they evaluated, by its hash: a refit needs the same one.
    const sha = createHash('sha256').update(readFileSync(join(ROOT, 'platforms/models/paragon.json'))).digest('hex');
    expect(samples).toContain(`# submodels BlockTransfer from platforms/models/paragon.json sha256 ${sha}\n# model StencilRowComm factored\n`);
    const rows = samples.split('\n').filter((l) => l.startsWith('StencilRowComm ')).map((l) => l.split(' ').slice(1).map(Number));
    // The column is eq. 38 generalized: two row edges of k doubles (2k words) per iteration.
    expect(rows.map(([, f]) => f)).toEqual([2, 4, 8].map((k) => Number((2 * blockTransfer(2 * k)).toPrecision(12))));
    // The work an edge node is spared grows with the edge and costs more than the block
    // transfers alone (it gathers, scatters, and holds the fixed boundary line it never updates).
    const ys = rows.map(([y]) => y);
    expect(ys[0]).toBeGreaterThan(0);
    expect(ys[1]).toBeGreaterThan(ys[0]);
    expect(ys[2]).toBeGreaterThan(ys[1]);
    const fitted = JSON.parse(readFileSync(join(dir, 'fit', 'paragon.json'), 'utf8')).models;
    for (const name of ['StencilRowComm', 'StencilColComm']) {
      const m = fitted.find((x: { name: string }) => x.name === name);
      expect(m.terms).toEqual(['1', 'factored']);
      expect(m.relevant[1]).toBe(true);
      expect(m.coefficients[1]).toBeGreaterThan(1);
      expect(m.mreVerificationPercent).toBeLessThan(10);
    }
  });

  it('refuses a machine too small for an interior node (under 9 nodes), and Strata models fitted on another platform file, in one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-hybrid-bad-'));
    writeFileSync(join(dir, 'tiny.spec'), TINY);
    const eight = await sim(['calibrate', '--platform', 'paragon', join(dir, 'tiny.spec'), '--nodes', '8', '-o', join(dir, 'a.samples')]);
    expect(eight.code).toBe(2);
    expect(eight.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/model StencilRowComm on paragon with 8 nodes: StencilRowComm needs at least 9 nodes$/)]);
    // Nine nodes and more, but no interior: the square layout puts 10 nodes of the ATM 5 x 2.
    const ten = await sim(['calibrate', '--platform', 'atm', join(dir, 'tiny.spec'), '--nodes', '10', '-o', join(dir, 'a.samples')]);
    expect(ten.code).toBe(2);
    expect(ten.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/model StencilRowComm on atm with 10 nodes: .*the square layout's 5 x 2 processor grid has no interior node; expected at least 3 x 3 processors \(9, 12, 16, \.\.\. nodes\), at sample a=2$/)]);
    expect(existsSync(join(dir, 'a.samples'))).toBe(false);
    // An edited Paragon: the shipped Strata models describe the other one.
    const platform = JSON.parse(readFileSync(join(ROOT, 'platforms/paragon.json'), 'utf8'));
    platform.clockMHz *= 2;
    writeFileSync(join(dir, 'paragon.json'), JSON.stringify(platform));
    const edited = await sim(['calibrate', '--platform', join(dir, 'paragon.json'), join(dir, 'tiny.spec'), '--nodes', '9', '-o', join(dir, 'b.samples')]);
    expect(edited.code).toBe(2);
    expect(edited.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/BlockTransfer\(\.\.\.\) in a spec: the Strata models in platforms\/models\/paragon.json were fitted on platform paragon with content hash \w+, this platform file has \w+/)]);
    // It said to calibrate with --fit platforms/models, which would have written the edited Paragon's models over the shipped one's.
    expect(edited.stderr).toMatch(/; platforms\/models\/paragon\.json is for the file platforms\/paragon\.json: give this platform file a name of its own \(its "name"\) and calibrate its Strata models under it \(sim calibrate --platform \S+paragon\.json apps\/calibration\/strata\.spec -o <samples> --fit platforms\/models writes platforms\/models\/<its name>\.json\)\n$/);
    expect(() => readFileSync(join(dir, 'b.samples'))).toThrow();
  });
});

describe('edgeExchange', () => {
  it('takes the least-working node of each class, so the combining tree drops out', () => {
    // A 3 x 3 grid numbered row by row; node 4 is the interior, 1 and 7 the top and bottom, 3 and 5 left and right.
    const work = [9, 50, 9, 60, 100, 61, 9, 52, 9];
    expect(edgeExchange('rows', work, 3, 3)).toBe(50);
    expect(edgeExchange('cols', work, 3, 3)).toBe(40);
  });
});
