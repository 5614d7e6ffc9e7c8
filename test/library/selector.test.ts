import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/kernel/errors.ts';
import { evaluate, ModelSet } from '../../src/library/model-set.ts';
import { loadModelSet } from '../../src/cli/model-files.ts';
import { modelCycles, select, selectContext, variantNamed, type LibraryModule, type Variant } from '../../src/library/module.ts';
import { chainCosts } from '../../src/calibrate/stencil-chain.ts';
import { chainSaving } from '../../src/library/extra-lines.ts';
import { SORT_CALIBRATED, SORT_MODULE } from '../../src/library/sort-module.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../support/sim-cli.ts';
import { givenExtraLines, STENCIL_MODULE, stencilColumns } from '../../src/library/stencil-module.ts';
import { parseParams } from '../../src/runtime/app.ts';
import sampleSort from '../../apps/sample-sort/index.ts';
import sortApp from '../../apps/sort/index.ts';
import stencilApp from '../../apps/stencil/index.ts';
import { resolveAuto } from '../../src/library/auto.ts';
import { loadTestPlatform } from '../support/platforms.ts';

/** A platform's stencil chain costs, for hand-made contexts (the CM-5's: its models and these tests' count no tree). */
const CHAIN = chainCosts(loadTestPlatform('cm5'));

function modelsOf(platform: string, models: Record<string, Record<string, number>>): ModelSet {
  const list = Object.entries(models).map(([name, terms]) => {
    const names = ['1', ...Object.keys(terms).filter((t) => t !== '1')];
    return { platform, name, terms: names, coefficients: names.map((t) => terms[t] ?? 0), halfWidths: names.map(() => 0), relevant: names.map(() => true), rSquared: 1, mreBuildingPercent: 0, mreVerificationPercent: 1, samples: 1, verificationSamples: 1 };
  });
  return new ModelSet(platform).addFile(JSON.stringify({ format: 'proteus-strata-models', version: 1, provenance: {}, models: list }), `${platform}.json`);
}

/** A stencil layout with the thesis's printed precondition (selection.md 2.2). */
function printed(name: string, model: string, problem: (w: number, h: number) => boolean): Variant {
  const v: Variant = {
    name,
    app: 'apps/stencil',
    fixed: {},
    model,
    tunables: [],
    problem: (x) => (problem(x.width, x.height) ? 'precondition' : null),
    predict: (x, _t, ctx) => modelCycles(v, ctx, stencilColumns(x.width, x.height, x.iters)),
  };
  return v;
}

const THESIS_STENCIL: LibraryModule = {
  name: 'thesis-stencil',
  description: 'Figs. 4-9, 4-10',
  apps: [],
  inputs: [
    { name: 'width', doc: '', min: 1, max: 1 << 16 },
    { name: 'height', doc: '', min: 1, max: 1 << 16 },
    { name: 'iters', doc: '', min: 1, max: 1 << 20 },
  ],
  variants: [printed('un', 'Uni', () => false), printed('sq', 'Square', (w, h) => w < 16 || h < 16), printed('st', 'Strips', (w) => w < 128)],
};

describe('the selector', () => {
  it('draws the derived map of the printed CM-5 and ATM stencil models at iter 100 (selection.md 2.2)', () => {
    const cm5 = modelsOf('cm5', {
      Uni: { wh: 0.347, iter_wh: 3.47 },
      Strips: { '1': 0.02343, width: 0.247, height: 1.978, iter: 0.2343, iter_w: 2.47, iter_h: 19.78, iter_wh: -0.01034 },
      Square: { '1': 34.93, width: 0.3777, height: 0.1941, wh: -0.002268, iter: 349.3, iter_w: 3.753, iter_h: 1.941, iter_wh: 0.02131 },
    });
    const atm = modelsOf('atm', {
      Uni: { iter: 247.8, iter_w: -28.96, iter_h: -28.61, iter_wh: 3.932 },
      Strips: { '1': 27.71, width: 9.097, height: 84.28, wh: -0.2605, iter: 282.7, iter_w: -0.6255, iter_h: 15.86, iter_wh: 0.06819 },
      Square: { '1': 59.25, width: 31.44, height: 13.96, wh: -0.1491, iter: 589.4, iter_w: 15.08, iter_wh: 0.0621 },
    });
    const widths = [8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096];
    // The printed models count no packets or combine messages, so xferWords, combineWords, combineTree and the DMA costs are any.
    const row = (models: ModelSet, h: number) => widths.map((w) => select(THESIS_STENCIL, { width: w, height: h, iters: 100 }, { models, nodes: 64, clockMHz: 1, xferWords: 4, combineWords: 17, combineTree: true, dmaWordCycles: 0, dmaReceiveCycles: 0, ...CHAIN }).variant).join(' ');
    expect(row(cm5, 8)).toBe('un un un un st st st st st st');
    expect(row(cm5, 64)).toBe('un sq sq sq sq st st st st st');
    expect(row(cm5, 512)).toBe('un sq sq sq sq sq st st st st');
    expect(row(cm5, 4096)).toBe('un sq sq sq sq sq sq st st st');
    expect(row(atm, 16)).toBe('un un un sq st st st st st st');
    expect(row(atm, 128)).toBe('un sq sq sq st st st st st st');
    expect(row(atm, 1024)).toBe('un sq sq sq sq sq sq sq st st');
  });

  it('gives ties to the variant declared first, and reports an input no variant covers', () => {
    const models = modelsOf('p', { A: { '1': 5 }, B: { '1': 5 } });
    const a = printed('a', 'A', (w) => w > 100);
    const b = printed('b', 'B', (w) => w > 200);
    const mod = { ...THESIS_STENCIL, variants: [a, b] };
    const ctx = { models, nodes: 4, clockMHz: 2, xferWords: 4, combineWords: 17, combineTree: true, dmaWordCycles: 0, dmaReceiveCycles: 0, ...CHAIN };
    expect(select(mod, { width: 50, height: 9, iters: 1 }, ctx).variant).toBe('a');
    expect(select({ ...mod, variants: [b, a] }, { width: 50, height: 9, iters: 1 }, ctx).variant).toBe('b');
    const choice = select(mod, { width: 150, height: 9, iters: 1 }, ctx);
    expect(choice.variant).toBe('b');
    expect(choice.predictions[0].cycles).toBe(Infinity);
    expect(choice.micros).toBe(2.5);
    expect(() => select(mod, { width: 300, height: 9, iters: 1 }, ctx)).toThrow(/^module thesis-stencil: no variant covers width=300 height=9 iters=1 \(a: precondition; b: precondition\)$/);
    expect(() => select(mod, { width: 300, height: 9 }, ctx)).toThrow(InputError);
  });

  it('names unknown variants, missing models and unknown terms', () => {
    expect(() => variantNamed(THESIS_STENCIL, 'diagonal')).toThrow(/^module thesis-stencil: unknown variant diagonal \(expected one of un, sq, st\)$/);
    const models = modelsOf('p', { A: { '1': 5, depth: 2 } });
    expect(() => models.get('B', 'variant b')).toThrow(/^no model B for p \(needed by variant b\) in p\.json/);
    // Each names the spec that calibrates it: a missing BlockTransfer was sent to apps.spec, which has none.
    expect(() => models.get('BlockTransfer', 'the factored Communication')).toThrow(/; calibrate it with sim calibrate --platform p apps\/calibration\/strata\.spec \.\.\. --fit <dir>$/);
    expect(() => models.get('StencilSquare', 'variant square')).toThrow(/ apps\/calibration\/apps\.spec \.\.\. --fit <dir>$/);
    expect(() => models.get('StencilRowComm', 'the hybrid Communication')).toThrow(/ apps\/calibration\/hybrid\.spec \.\.\. --fit <dir>$/);
    expect(() => evaluate(models.get('A', 'x'), { width: 1 })).toThrow(/model A in p\.json has a term "depth" the library does not know/);
    expect(() => new ModelSet('p').addFile('{"format":"other"}', 'f.json')).toThrow(/^f\.json: not a models file as sim fit writes it/);
  });

  it('refuses a model whose lists do not give one entry per term, or that names a term twice', () => {
    const file = (edit: (m: Record<string, unknown[]>) => void): string => {
      const m = { platform: 'p', name: 'A', terms: ['1', 'w'], coefficients: [1, 2], halfWidths: [0, 0], relevant: [true, true], rSquared: 1, mreBuildingPercent: 0, mreVerificationPercent: 1, samples: 1, verificationSamples: 1 };
      edit(m as unknown as Record<string, unknown[]>);
      return JSON.stringify({ format: 'proteus-strata-models', version: 1, provenance: {}, models: [m] });
    };
    expect(() => new ModelSet('p').addFile(file(() => {}), 'p.json')).not.toThrow();
    // It said "model A has 2 terms but 2 coefficients", of a short relevant.
    expect(() => new ModelSet('p').addFile(file((m) => m.relevant.pop()), 'p.json')).toThrow(/^p\.json: model A has 2 terms but 1 relevant; expected one for each term$/);
    expect(() => new ModelSet('p').addFile(file((m) => m.halfWidths.push(0)), 'p.json')).toThrow(/^p\.json: model A has 2 terms but 3 halfWidths; expected one for each term$/);
    expect(() => new ModelSet('p').addFile(file((m) => m.coefficients.pop()), 'p.json')).toThrow(/^p\.json: model A has 2 terms but 1 coefficients; expected one for each term$/);
    expect(() => new ModelSet('p').addFile(file((m) => (m.terms[1] = '1')), 'p.json')).toThrow(/^p\.json: model A names the term 1 twice; expected each term once$/);
    // A key sim fit never writes (misspelt) was dropped in silence.
    expect(() => new ModelSet('p').addFile(file((m) => ((m as unknown as Record<string, unknown>).coefficents = [1])), 'p.json')).toThrow(/^p\.json: not a models file as sim fit writes it \(models\.0: Unrecognized key: "coefficents"\)$/);
  });
});

describe('a given tunable', () => {
  it('that does not fit the grid makes its variant unable to take the input, with the reason, as an unfitting input does', () => {
    const platform = loadTestPlatform('cm5');
    const ctx = selectContext(platform, 16, loadModelSet(platform, 16));
    // aspect 4 on 16 processors is 8 x 2: a 3-column grid has no column for 5 of them.
    const choice = select(STENCIL_MODULE, { width: 3, height: 16, iters: 2 }, ctx, { aspect: 4 });
    const rect = choice.predictions.find((p) => p.variant === 'rect')!;
    expect(rect.cycles).toBe(Infinity);
    expect(rect.problem).toMatch(/^layout rect puts 8 processors across 3 columns/);
    expect(choice.variant).toBe('uni');
    // Tuned instead, rect takes the grid on 2 x 8 processors.
    expect(select(STENCIL_MODULE, { width: 3, height: 16, iters: 2 }, ctx).predictions.find((p) => p.variant === 'rect')!.params.aspect).toBe(0.25);
  });
});

describe('the stencil module', () => {
  it('refuses a grid no layout\'s app takes, as the app says it: a 65536 x 65536 grid was printed as the choice, and only its run was refused', () => {
    const platform = loadTestPlatform('cm5');
    const ctx = selectContext(platform, 16, loadModelSet(platform, 16));
    const refusal = 'module stencil: a 65536 x 65536 grid has 4294967296 points; the simulator holds 32 bytes of host memory per point, so expected width x height at most 67108864 (2^26, 2 GiB)';
    expect(() => select(STENCIL_MODULE, { width: 65536, height: 65536, iters: 1 }, ctx)).toThrow(refusal);
    expect(() => select(STENCIL_MODULE, { width: 65536, height: 65536, iters: 1 }, ctx)).toThrow(InputError);
    // 65536 x 1024 is the most the host holds: chosen.
    expect(select(STENCIL_MODULE, { width: 65536, height: 1024, iters: 1 }, ctx).variant).toBeTruthy();
  });
});

describe('the sort module', () => {
  it('chooses no variant its app refuses: sample sort\'s room of 2 n/p keys holds at most 262,143 keys per node, and the host 2^26 keys', () => {
    const platform = loadTestPlatform('cm5');
    const ctx = selectContext(platform, 16, loadModelSet(platform, 16));
    // Sample sort is predicted the faster at 300,000 keys per node, yet its app refuses them: it was the choice, and the run was refused.
    const choice = select(SORT_MODULE, { keys: 300_000, keyBits: 32 }, ctx);
    const sample = choice.predictions.find((p) => p.variant === 'sample')!;
    expect(sample.problem).toBe('memory 2 x keys 300000 = 600000 keys of room per node; block transfers address at most 524287 words, so expected at most that');
    expect(sample.problem).toBe(sampleSort.check!(parseParams(sampleSort, ['keys=300000']) as never, { nodes: 16 } as never));
    expect(choice.variant).toBe('radix');
    // At 262,143 it fits and is the choice.
    expect(select(SORT_MODULE, { keys: 262_143, keyBits: 32 }, ctx).variant).toBe('sample');
    // On 1024 nodes neither app takes 70,000 keys per node: one line, as the apps say it.
    const big = { ...ctx, nodes: 1024 };
    expect(() => select(SORT_MODULE, { keys: 70_000, keyBits: 32 }, big)).toThrow(InputError);
    expect(() => select(SORT_MODULE, { keys: 70_000, keyBits: 32 }, big)).toThrow(/^module sort: 1024 nodes x 70000 keys = 71680000 keys; the simulator holds 28 to 41 bytes of host memory per key, so expected nodes x keys at most 67108864 \(2\^26, 2 to 3 GB\)$/);
  });

  // 65,536 keys a node on a 16-node Paragon: sample sort predicted 8.2 M cycles, measured
  // 17.4 M, and chosen over radix sort (14.1 M) with nothing said of the models' 16-4096.
  it('says where a prediction extrapolates past the keys its model was sampled on', () => {
    const platform = loadTestPlatform('paragon');
    const ctx = selectContext(platform, 16, loadModelSet(platform, 16));
    const past = select(SORT_MODULE, { keys: 65_536, keyBits: 8 }, ctx);
    for (const p of past.predictions) {
      expect(p.notes).toContain('keys 65536: outside the 16-4096 the shipped calibration sampled its model on (apps/calibration/apps.spec): the prediction extrapolates');
    }
    const within = select(SORT_MODULE, { keys: 4096, keyBits: 8 }, ctx);
    for (const p of within.predictions) expect(p.notes.filter((n) => n.includes('extrapolates'))).toEqual([]);
  });

  it("names as its calibrated range the keys the shipped samples hold, on every platform and size", () => {
    const seen = new Set<number>();
    for (const size of ['n16', 'n32', 'n64']) {
      for (const platform of ['alewife', 'atm', 'cm5', 'paragon']) {
        const text = readFileSync(join(ROOT, 'platforms/models/apps', size, `${platform}.samples`), 'utf8');
        // "RadixSort cycles keys ...", "@SampleSort cycles keys ...": keys is each line's first term.
        for (const m of text.matchAll(/^@?(?:RadixSort|SampleSort) \d+ (\d+) /gm)) seen.add(Number(m[1]));
      }
    }
    expect(Math.min(...seen)).toBe(SORT_CALIBRATED.keys.min);
    expect(Math.max(...seen)).toBe(SORT_CALIBRATED.keys.max);
  });
});

describe('auto values of apps/sort', () => {
  const platform = loadTestPlatform('cm5');
  const ctx = selectContext(platform, 16, loadModelSet(platform, 16));
  const values = (given: string[], autos: string[]) => ({ ...parseParams(sortApp, given), ...Object.fromEntries(autos.map((k) => [k, 'auto'])) });
  const run = (given: string[], autos: string[]) => resolveAuto('apps/sort', values(given, autos), ctx, new Set(given.map((a) => a.split('=')[0])))!;

  it('take sample sort\'s room from the run\'s memory: memory=1.5 with 300,000 keys per node runs, and was refused for the default memory\'s room', () => {
    const r = run(['algorithm=sample', 'memory=1.5', 'keys=300000', 'keyBits=8'], ['digitBits']);
    expect(r.resolution.variant).toBe('sample');
    expect(sortApp.check!(parseParams(sortApp, Object.entries(r.values).map(([k, v]) => `${k}=${v}`)) as never, { nodes: 16 } as never)).toBeNull();
  });

  it('choose no sample sort whose room the run\'s memory makes too large: memory=4 with 200,000 keys per node', () => {
    const r = run(['memory=4', 'keys=200000', 'keyBits=32'], ['algorithm']);
    // With the default memory's room (400,000 keys) sample sort is predicted the faster; with memory 4's (800,000) it cannot run.
    expect(select(SORT_MODULE, { keys: 200_000, keyBits: 32 }, ctx).variant).toBe('sample');
    expect(r.resolution.variant).toBe('radix');
  });

  it('choose no sample sort of dist=few keys with memory under 2, which the app refuses (every pass would overflow): radix sort runs them', () => {
    expect(select(SORT_MODULE, { keys: 3000, keyBits: 32 }, ctx).variant).toBe('sample');
    const r = run(['dist=few', 'memory=1.5', 'keys=3000'], ['algorithm']);
    expect(r.resolution.variant).toBe('radix');
  });
});

describe('auto values of apps/stencil', () => {
  const platform = loadTestPlatform('cm5');
  const ctx = selectContext(platform, 64, loadModelSet(platform, 64));
  const run = (given: string[]) => resolveAuto('apps/stencil', { ...parseParams(stencilApp, given), layout: 'auto' }, ctx, new Set(given.map((a) => a.split('=')[0])))!;

  it("call a tunable the run left at the app's default by that name, and one it set given: layout=auto alone weighs rect at aspect 4 untuned", () => {
    const plain = run(['width=400', 'height=100']);
    expect(plain.resolution.variant).toBe('rect');
    expect(plain.resolution.notes).toContain("aspect 4: the app's default, not tuned (aspect=auto tunes it)");
    const set = run(['width=400', 'height=100', 'aspect=4']);
    expect(set.resolution.notes).toContain('aspect 4: given');
    expect(set.resolution.predictedCycles).toBe(plain.resolution.predictedCycles);
  });

  // The app gives every layout's edge processors the extra lines a run sets (apps/stencil/grid.ts), and only the
  // square's prediction counted them: vstrips was weighed without the columns it then ran with, or could not take.
  const accepts = (r: ReturnType<typeof run>) => stencilApp.check!(parseParams(stencilApp, Object.entries(r.values).map(([k, v]) => `${k}=${v}`)) as never, { nodes: 64 } as never);
  const vstrips = variantNamed(STENCIL_MODULE, 'vstrips');
  const x = { width: 150, height: 8, iters: 4 };

  it('weigh vstrips at the extra columns the run gives it: its model less what its critical chain says they save', () => {
    const r = run(['width=150', 'height=8', 'iters=4', 'extraCols=20']);
    expect(r.resolution.variant).toBe('vstrips');
    expect(r.values).toMatchObject({ layout: 'vstrips', extraCols: 20 });
    // 64 strips of 150 columns, the edge ones 20 more: a longer chain than the even split's (the run: 22,010 cycles against 12,224).
    const saving = chainSaving(150, 8, 64, 1, 0, 20, ctx);
    expect(saving).toBeLessThan(0);
    expect(r.resolution.predictedCycles).toBe(vstrips.predict(x, {}, ctx) - 4 * saving);
  });

  it('choose no layout that cannot take the extra lines the run gives it, columns or rows', () => {
    // 64 strips cannot take 50 extra columns on each edge of 150, nor 64 bands 50 extra rows of 150: they were chosen, and the run refused.
    for (const given of [['width=150', 'height=8', 'extraCols=50'], ['width=8', 'height=150', 'extraRows=50']]) {
      const r = run([...given, 'iters=4']);
      expect(r.resolution.variant).toBe('square');
      expect(accepts(r)).toBeNull();
    }
    // And a square that cannot take them is passed over as well: 40 extra rows of 64 on 8 processor rows. Vstrips runs them (their one band has no edge).
    const r = run(['width=64', 'height=64', 'iters=2', 'extraRows=40']);
    expect(r.resolution.variant).toBe('vstrips');
    expect(r.values).toMatchObject({ layout: 'vstrips', extraRows: 40 });
    expect(accepts(r)).toBeNull();
    // The notes said nothing of the rows given to a layout with no edge rows.
    expect(r.resolution.notes).toEqual(['extraRows 40: given, but vstrips has one processor row: no edge rows to take them']);
  });

  it('say which given extra lines the chosen layout was weighed with, whichever it is', () => {
    // Rect takes both: 400 x 100 with 3 extra columns, at the default aspect 4 (16 x 4 processors).
    const r = run(['width=400', 'height=100', 'iters=2', 'extraRows=1', 'extraCols=3']);
    expect(r.resolution.variant).toBe('rect');
    expect(r.resolution.notes).toEqual(["aspect 4: the app's default, not tuned (aspect=auto tunes it)", 'extraRows 1: given', 'extraCols 3: given']);
    // And the square's are its pinned tunables' notes, once.
    const sq = run(['width=200', 'height=200', 'iters=2', 'extraCols=2']);
    expect(sq.resolution.variant).toBe('square');
    expect(sq.resolution.notes).toEqual(["extraRows 0: the app's default, not tuned (extraRows=auto tunes it)", 'extraCols 2: given']);
  });

  it('tune rect with aspect=auto among the factorizations that take the given extra lines, less what they save', () => {
    // 64 x 16 with 30 extra columns: rect's best without them, 16 x 4 processors, cannot take them (it was tuned, then passed over); 4 x 16 can.
    const x = { width: 64, height: 16, iters: 4 };
    const rect = variantNamed(STENCIL_MODULE, 'rect');
    expect(select({ ...STENCIL_MODULE, variants: [rect] }, x, ctx).params.aspect).toBe(4);
    const given = select({ ...STENCIL_MODULE, variants: [givenExtraLines(rect, 0, 30)] }, x, ctx, {}, ['aspect']);
    expect(given.params.aspect).toBe(0.25);
    expect(given.cycles).toBe(rect.predict(x, { aspect: 0.25 }, ctx) - 4 * chainSaving(64, 16, 4, 16, 0, 30, ctx));
    // None takes 40: the plain best is tuned, and refused with the app's reason.
    const none = select({ ...STENCIL_MODULE, variants: [givenExtraLines(rect, 0, 40), variantNamed(STENCIL_MODULE, 'uni')] }, x, ctx, {}, ['aspect']);
    expect(none.predictions[0].notes[0]).toMatch(/\(none takes extraRows=0 extraCols=40\)$/);
    expect(none.predictions[0].problem).toBe('layout rect puts 16 processors across 64 columns with 40 extra on each edge; expected at least one column each');
  });
});

describe('advice nobody asked for', () => {
  it('is left out without withAdvice, and nothing else changes: the same choices and predictions, the square untuned', () => {
    const platform = loadTestPlatform('paragon');
    const ctx = selectContext(platform, 64, loadModelSet(platform, 64));
    for (const [width, height] of [[200, 200], [91, 98], [1000, 37], [37, 1000], [4000, 3000]]) {
      const x = { width, height, iters: 4 };
      const full = select(STENCIL_MODULE, x, ctx);
      const bare = select(STENCIL_MODULE, x, ctx, {}, [], false);
      expect(bare.variant).toBe(full.variant);
      expect(bare.predictions.map((p) => p.cycles)).toEqual(full.predictions.map((p) => p.cycles));
      const square = (c: typeof full) => c.predictions.find((p) => p.variant === 'square')!;
      expect(square(full).notes.some((n) => n.startsWith('extraRows '))).toBe(true);
      expect(square(bare).notes).toEqual([]);
      // Asked for, the advice is tuned and applied either way.
      expect(select(STENCIL_MODULE, x, ctx, {}, ['extraRows', 'extraCols'], false).predictions).toEqual(select(STENCIL_MODULE, x, ctx, {}, ['extraRows', 'extraCols']).predictions);
    }
  });
});

describe('the stencil module on a model that counts packets', () => {
  it('passes the platform\'s packet size to the columns: the prediction steps where an edge needs one more packet', () => {
    const models = modelsOf('p', { StencilVstrips: { iter_colPackets: 100 } });
    const vstrips = variantNamed(STENCIL_MODULE, 'vstrips');
    const at = (height: number, xferWords: number) => vstrips.predict({ width: 640, height, iters: 2 }, {}, { models, nodes: 64, clockMHz: 1, xferWords, combineWords: 17, combineTree: true, dmaWordCycles: 0, dmaReceiveCycles: 0, ...CHAIN });
    // 20 data words a packet: a 10-line column edge (20 words) is one packet, 11 lines two.
    expect([at(10, 20), at(11, 20), at(20, 20), at(21, 20)]).toEqual([200, 400, 400, 600]);
    // 64 words a packet (DMA): 32 lines in one.
    expect([at(32, 64), at(33, 64)]).toEqual([200, 400]);
  });
});
