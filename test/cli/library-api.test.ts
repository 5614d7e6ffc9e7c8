/**
 * The library for programs (src/cli/library-api.ts): a choice from the shipped models,
 * run as sim select --run runs it, and requests checked as the command line checks
 * them (nodes '16' was told the 16-node models were "fitted on 16 nodes only, and this
 * is 16"; null inputs were TypeErrors); the exported readers refuse what is not their
 * input, a missing file name too.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/sim-cli.ts';
import { chooseImplementation, loadSelection, runImplementation, type ImplementationRequest } from '../../src/cli/library-api.ts';
import { loadApp, loadPlatform } from '../../src/cli/load-inputs.ts';
import { fitSamples } from '../../src/calibrate/models.ts';
import { readSamples } from '../../src/calibrate/samples-file.ts';
import { parsePlatform } from '../../src/platform/load-platform.ts';
import { readTrace } from '../../src/trace/reader.ts';
import { InputError } from '../../src/kernel/errors.ts';

const stencil = { platform: 'cm5', module: 'stencil', inputs: { width: 64, height: 64, iters: 2 }, nodes: 16 };

describe('chooseImplementation and runImplementation', () => {
  it('choose from the shipped models and run the choice, verified, in the same process twice alike', async () => {
    const choice = await chooseImplementation(stencil);
    expect(choice.predictions.map((p) => p.variant)).toEqual(['square', 'vstrips', 'hstrips', 'rect', 'uni']);
    expect(choice.predictions.find((p) => p.variant === choice.variant)!.cycles).toBe(Math.min(...choice.predictions.map((p) => p.cycles)));
    const [a, b] = [await runImplementation(stencil), await runImplementation(stencil)];
    expect(a.choice.variant).toBe(choice.variant);
    expect(a.summary.verified).toBe(true);
    expect(a.summary.params).toMatchObject({ width: 64, height: 64, iters: 2 });
    expect(b.summary.fingerprint).toBe(a.summary.fingerprint);
  });

  it.each([
    // It read "nodes 16: expected a positive integer", as if 16 were refused.
    ['nodes as a string', { ...stencil, nodes: '16' }, /^nodes "16" \(a string\): expected a positive integer$/],
    ['nodes of 0', { ...stencil, nodes: 0 }, /^nodes 0: expected a positive integer$/],
    ['no inputs', { ...stencil, inputs: null }, /^inputs: expected an object of the module's inputs, got null$/],
    ['no module', { ...stencil, module: null }, /^module: expected a module name \(stencil, sort\) or an app folder of one, got null$/],
    ['a misspelt field', { ...stencil, node: 16 }, /^request field node: unknown \(expected platform, module, inputs, nodes, /],
    ['models that are no path', { ...stencil, models: 5 }, /^models: expected a directory path, got 5$/],
  ])('refuse %s with an InputError naming the field', async (_what, request, message) => {
    for (const call of [chooseImplementation, runImplementation]) {
      const error = await call(request as unknown as ImplementationRequest).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      expect((error as Error).message).toMatch(message);
    }
  });

  it('refuse a machine size the platform cannot build, as sim select does (a 3-node CM-5 was told to calibrate models for 3 nodes)', async () => {
    for (const [platform, nodes, why] of [['cm5', 3, 'a power of two for a fat-tree network'], ['alewife', 5, 'a near-square mesh size'], ['atm', 2000, 'at most 1024 nodes for this switch network']] as const) {
      const request = { ...stencil, platform, nodes };
      for (const call of [() => chooseImplementation(request), () => runImplementation(request), () => loadSelection({ platform, module: 'sort', nodes })]) {
        const error = await call().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(InputError);
        expect((error as Error).message).toMatch(new RegExp(`^nodes ${nodes}: expected ${why}.*\\(platform ${platform}\\)$`));
      }
    }
  });

  // Models whose choice takes a negative time: sim select refuses them, and
  // chooseImplementation returned the choice (cycles -1994576), which runImplementation ran.
  it('refuse a choice predicted to take a negative time, as sim select does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-library-negative-'));
    const shipped = JSON.parse(readFileSync(join(ROOT, 'platforms/models/apps/n64/cm5.json'), 'utf8'));
    writeFileSync(join(dir, 'cm5.json'), JSON.stringify({ ...shipped, models: shipped.models.map((m: { coefficients: number[] }) => ({ ...m, coefficients: m.coefficients.map((c, k) => (k === 0 ? -1e7 : c)) })) }));
    const request = { platform: 'cm5', module: 'stencil', inputs: { width: 64, height: 64, iters: 2 }, nodes: 64, models: dir };
    for (const call of [() => chooseImplementation(request), () => runImplementation(request)]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputError);
      expect((error as Error).message).toMatch(/^module stencil: variant square is predicted -\d+ cycles for width=64 height=64 iters=2 by the models in .*; expected a time of 0 or more/);
    }
  });

  // An edited copy carried its file's hash: a CM-5 with floating point 20 times slower was
  // predicted from the file's models, as fast as the CM-5 (14 times too fast on a stencil).
  it('refuse the models of a platform file for a copy a program edited, and take them for a copy left as it was', async () => {
    const cm5 = await loadPlatform('cm5');
    const slow = { ...cm5, cpu: { ...cm5.cpu, floatAddCycles: cm5.cpu.floatAddCycles * 20 } };
    const error = await chooseImplementation({ ...stencil, platform: slow }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(/^platforms\/models\/apps\/n16\/cm5\.json was fitted on platform cm5 with content hash [0-9a-f]{64}, this platform \(platforms\/cm5\.json as a program edited it\) has [0-9a-f]{64}; /);
    const [file, copy] = [await chooseImplementation(stencil), await chooseImplementation({ ...stencil, platform: { ...cm5 } })];
    expect(copy).toEqual(file);
  });

  // s.context.nodes = 64 chose for 64 nodes from the 16-node models, with nothing said (square for rect).
  it("loadSelection's context is frozen to its platform and size", async () => {
    const s = await loadSelection({ platform: 'cm5', module: 'stencil', nodes: 16 });
    expect(() => {
      (s.context as { nodes: number }).nodes = 64;
    }).toThrow(TypeError);
    expect(s.context.nodes).toBe(16);
    expect(Object.isFrozen(s)).toBe(true);
  });

  it('take a seed only to run: chooseImplementation took one and ignored it', async () => {
    expect((await runImplementation({ ...stencil, seed: 7 })).summary.seed).toBe(7);
    const error = await chooseImplementation({ ...stencil, seed: 7 } as ImplementationRequest).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toBe('request field seed: unknown (expected platform, module, inputs, nodes, models, communication, hybridModels)');
  });
});

describe('the exported readers and loaders', () => {
  const refused = async (call: () => unknown, message: RegExp) => {
    const error = await Promise.resolve().then(call).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(message);
  };

  it('refuse what is not their input with an InputError (each was a TypeError)', async () => {
    await refused(() => readTrace(null as never, 't.trace'), /^t\.trace: expected the trace's bytes \(a Uint8Array or Buffer\), got null$/);
    await refused(() => parsePlatform(5 as never, 'p.json'), /^p\.json: expected the platform file's text as a string, got number$/);
    await refused(() => readSamples(Buffer.from('x') as never, 's.samples'), /^s\.samples: expected the samples file's text as a string, got object$/);
    await refused(() => loadPlatform(null as never), /^platform: expected a name or a path to a platform file, got null$/);
    await refused(() => loadApp({} as never), /^app: expected a path to an app folder or module, got object$/);
  });

  it('refuse a missing file name, which their messages began with as "undefined:", and fitSamples a relative that is no boolean (blamed on fitModel)', async () => {
    const samples = '# platform cm5 h nodes 4\n# model M n\nM 12 1\nM 14 2\nM 16 3\nM 20 5\n';
    expect(fitSamples(samples, 'm.samples', false).models[0].coefficients.map((c) => Math.round(c))).toEqual([10, 2]);
    await refused(() => parsePlatform('{}', undefined as never), /^parsePlatform: expected the file's name \(which messages name\) as a string, got undefined$/);
    await refused(() => readSamples(samples, undefined as never), /^readSamples: expected the file's name \(which messages name\) as a string, got undefined$/);
    await refused(() => fitSamples(samples, null as never, false), /^fitSamples: expected the file's name \(which messages name\) as a string, got null$/);
    await refused(() => readTrace(new Uint8Array(), undefined as never), /^readTrace: expected the file's name \(which messages name\) as a string, got undefined$/);
    await refused(() => fitSamples(samples, 'm.samples', 'yes' as never), /^fitSamples: expected relative to be true or false, got string$/);
    await refused(() => fitSamples('', 'empty.samples', 'yes' as never), /^fitSamples: expected relative to be true or false, got string$/);
  });
});

