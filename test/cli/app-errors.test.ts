import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_ROOT, ROOT, rootImport, sim } from '../support/sim-cli.ts';

const FIXTURE = join(ROOT, 'test/fixtures/app-errors/index.ts');

/** The line of the fixture that holds `text`, from 1. */
function lineOf(text: string): number {
  return readFileSync(FIXTURE, 'utf8').split('\n').findIndex((l) => l.includes(text)) + 1;
}

/**
 * Issue 23, cases 206-208: an exception in the app's own code is the app's failure
 * (exit 1, a repro), never "internal error (a bug in the simulator)", and names the
 * app's file and line.
 */
describe.concurrent("errors in the user's app carry its file and line", () => {
  it.each([
    ['setup', /^sim: run failed: app app-errors: setup threw Error: setup exploded$/, "explode('setup')"],
    ['check', /^sim: run failed: app app-errors: check threw Error: check exploded$/, "explode('check')"],
    ['globals', /^sim: run failed: app app-errors: globals threw Error: globals exploded$/, "explode('globals')"],
    ['main', /^sim: run failed: node 1 at cycle 0: TypeError: Cannot read properties of null \(reading 'field'\)$/, 'return missing.field'],
    ['handler', /^sim: run failed: node 0 at cycle \d+: RangeError: handler exploded$/, "throw new RangeError('handler exploded')"],
    ['verify', /^sim: run failed: app app-errors: verify threw Error: verify exploded$/, "explode('verify')"],
    // The runtime's refusals of an argument, and StrataFail, named no line of the app.
    ['bad-node', /^sim: run failed: node 0: message to node 4: expected a node number from 0 to 3$/, 'rt.sendLeftPollBoth(rt.partitionSize'],
    ['compute', /^sim: run failed: node 0: compute\(-5\): expected a non-negative integer number of cycles, at most 2\^53 - 1$/, 'rt.compute(-5)'],
    ['strata-fail', /^sim: run failed: node 2 at cycle \d+: StrataFail: node two gives up$/, "rt.strataFail('node two gives up')"],
  ])('an exception in %s', async (fail, first, at) => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-app-errors-'));
    const r = await sim(['--platform', 'cm5', '--nodes', '4', FIXTURE, '--param', `fail=${fail}`], dir);
    expect(r.code).toBe(1);
    const lines = r.stderr.split('\n');
    expect(lines[0]).toMatch(first);
    expect(r.stderr).not.toContain('internal error');
    // The app's frames, innermost first, with the fixture's own line numbers.
    const file = join(REAL_ROOT, 'test/fixtures/app-errors/index.ts').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    expect(r.stderr).toMatch(new RegExp(`^  at .*${file}:${lineOf(at)}:\\d+\\)?$`, 'm'));
    expect(r.stderr).toMatch(/^sim: replay this run with: sim replay sim-repro-app-errors-cm5-n4-s1\.json$/m);
  });

  it.each([
    // The kernel refused the generator as a delay: "outside any node: RangeError: event delay must be ... got [object Object]".
    ['yield', "main yielded rt.barrier(...)'s generator; runtime calls are made with yield* (yield* rt.barrier(), not yield rt.barrier()), and main yields nothing itself", 'yield rt.barrier()'],
    // Accepted: 42 cycles passed on no node's clock. No call made it: no line of the app is named.
    ['yield-number', 'main yielded number 42; runtime calls are made with yield* (yield* rt.barrier(), not yield rt.barrier()), and main yields nothing itself', null],
    // Named neither the call nor the line: "created a Strata operation without running it; write `yield* rt.<call>(...)`".
    ['forgot', 'the program created rt.combineInt(...) without running it; write `yield* rt.combineInt(...)` (a handler that sends or polls must be a generator function)', 'void rt.combineInt(1, 0)'],
  ])('a bare yield or a forgotten yield* in main (%s) names the node, the call and its line', async (fail, what, at) => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-app-errors-'));
    const r = await sim(['--platform', 'cm5', '--nodes', '4', FIXTURE, '--param', `fail=${fail}`], dir);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe(`sim: run failed: node ${fail === 'forgot' ? 1 : 0}: ${what}`);
    const file = join(REAL_ROOT, 'test/fixtures/app-errors/index.ts').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    if (at === null) expect(r.stderr).not.toMatch(/^ {2}at /m);
    else expect(r.stderr).toMatch(new RegExp(`^  at main \\(${file}:${lineOf(at)}:\\d+\\)$`, 'm'));
  });
});

describe('an exception deep in the app', () => {
  it('names the four innermost of its frames, not all of them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-app-deep-'));
    writeFileSync(
      join(dir, 'deep.ts'),
      `import { defineApp } from ${rootImport('src/runtime/index.ts')};\n` +
        `function down(n: number): number {\n  if (n === 0) throw new Error('at the bottom');\n  return down(n - 1) + 1;\n}\n` +
        `export default defineApp({ name: 'deep', description: 'throws 8 calls deep', params: {}, *main(rt) { yield* rt.barrier(); return down(8); }, verify: () => ({ ok: true, detail: '' }) });\n`,
    );
    const r = await sim(['--platform', 'cm5', '--nodes', '4', 'deep.ts'], dir);
    expect(r.code).toBe(1);
    const lines = r.stderr.split('\n');
    expect(lines[0]).toMatch(/^sim: run failed: node \d at cycle \d+: Error: at the bottom$/);
    const frames = lines.filter((l) => l.startsWith('  at '));
    expect(frames).toHaveLength(4);
    expect(frames[0]).toMatch(/^ {2}at down \(.*deep\.ts:3:\d+\)$/);
    for (const f of frames.slice(1)) expect(f).toMatch(/^ {2}at down \(.*deep\.ts:4:\d+\)$/);
  });
});

describe("an app in TypeScript under a path with a '?'", () => {
  it('is refused in one line naming the path (tsx compiled it as JavaScript), and runs from a path without one', async () => {
    const app = `import { defineApp } from ${rootImport('src/runtime/index.ts')};
const rounds: number = 2;
export default defineApp({ name: 'tiny', description: 'two barriers', params: {}, *main(rt) { for (let r = 0; r < rounds; r++) yield* rt.barrier(); return rounds; }, verify: () => ({ ok: true, detail: 'two barriers' }) });
`;
    const dir = mkdtempSync(join(tmpdir(), 'sim-app-path-'));
    for (const folder of ['why?', 'plain']) {
      mkdirSync(join(dir, folder, 'tiny'), { recursive: true });
      writeFileSync(join(dir, folder, 'tiny', 'index.ts'), app);
    }
    const [asked, plain] = await Promise.all([sim(['--platform', 'cm5', '--nodes', '4', 'why?/tiny'], dir), sim(['--platform', 'cm5', '--nodes', '4', 'plain/tiny'], dir)]);
    // It was "cannot be compiled: why?/tiny/index.ts.js:2:13: Expected ";" but found ":"".
    expect(asked.stderr).toBe(`sim: app why?/tiny: cannot load TypeScript from a path with a '?' in it (${join(dir, 'why?/tiny/index.ts')}): the TypeScript loader (tsx) takes it for the start of a query; expected a path without one (move the folder), or the module compiled to .js\n`);
    expect(asked.code).toBe(2);
    expect(plain.stdout).toMatch(/^verified\s+yes: two barriers$/m);
  });
});

describe('an app written in JavaScript', () => {
  // From the build it was "cannot be loaded (TypeError: Unknown file extension ".ts" for
  // .../src/runtime/index.ts)"; from the sources (SIM_FROM_SOURCES=1) it ran.
  it('imports the runtime as a TypeScript app does, from the build and from the sources alike', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-js-app-'));
    writeFileSync(
      join(dir, 'tiny.mjs'),
      `import { defineApp } from ${rootImport('src/runtime/index.ts')};
export default defineApp({ name: 'tiny', description: 'two barriers', params: {}, *main(rt) { yield* rt.barrier(); yield* rt.barrier(); return rt.self; }, verify: () => ({ ok: true, detail: 'two barriers' }) });
`,
    );
    const args = ['--platform', 'cm5', '--nodes', '4', 'tiny.mjs'];
    const [built, sources] = await Promise.all([sim(args, dir), sim(args, dir, { SIM_FROM_SOURCES: '1' })]);
    for (const r of [built, sources]) {
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/^verified\s+yes: two barriers$/m);
    }
  });
});

describe('a module the app imports', () => {
  // tsx loaded ./helper.ts as CommonJS: the line came, then an uncaught rejection with
  // tsx's compiled source as its stack killed the process (exit 1).
  it('that throws while loading is one line naming its file and line, exit 2, from the build and the sources', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-app-helper-'));
    mkdirSync(join(dir, 'mine'));
    writeFileSync(
      join(dir, 'mine', 'index.ts'),
      `import { defineApp } from ${rootImport('src/runtime/index.ts')};
import { rounds } from './helper.ts';
export default defineApp({ name: 'mine', description: 'barriers', params: {}, *main(rt) { for (let r = 0; r < rounds; r++) yield* rt.barrier(); return rounds; }, verify: () => ({ ok: true, detail: 'barriers' }) });
`,
    );
    writeFileSync(join(dir, 'mine', 'helper.ts'), "export const rounds: number = 2;\nthrow new Error('helper refuses');\n");
    const args = ['--platform', 'cm5', '--nodes', '4', 'mine'];
    const [built, sources] = await Promise.all([sim(args, dir), sim(args, dir, { SIM_FROM_SOURCES: '1' })]);
    for (const r of [built, sources]) {
      expect(r.stderr).toBe('sim: app mine: cannot be loaded (Error: helper refuses, at <anonymous> (mine/helper.ts:2:7))\n');
      expect(r.code).toBe(2);
    }
  });
});

describe('a shipped app', () => {
  // From the build it named the compiled JavaScript: dist/apps/examples/race/index.js:24:16.
  it('names its TypeScript source and line from the build and the sources', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-app-shipped-'));
    const source = join(ROOT, 'apps/examples/race/index.ts');
    const line = readFileSync(source, 'utf8').split('\n').findIndex((l) => l.includes('rt.assert(rt.globals.arrivals[0] === 1')) + 1;
    const args = ['--platform', 'cm5', '--nodes', '4', 'apps/examples/race', '--perturb', '2'];
    const [built, sources] = await Promise.all([sim(args, dir), sim(args, dir, { SIM_FROM_SOURCES: '1' })]);
    const file = join(REAL_ROOT, 'apps/examples/race/index.ts').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    for (const r of [built, sources]) {
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^  at main \\(${file}:${line}:\\d+\\)$`, 'm'));
      expect(r.stderr).not.toContain('dist');
    }
  });
});

describe('what an app throws that cannot be made text, or a verify whose getter throws', () => {
  // Each was "internal error (a bug in the simulator)" with the simulator's stack, and no repro.
  it.each([
    ['main throws a frozen object without a prototype', 'throw Object.freeze(Object.create(null));', 'ok: true, detail: "ran"', /^sim: run failed: node 0 at cycle \d+: a value that cannot be shown as text \(object\)$/],
    ['main throws an object whose toString throws', "throw { toString() { throw new Error('no text'); } };", 'ok: true, detail: "ran"', /^sim: run failed: node 0 at cycle \d+: a value that cannot be shown as text \(object\)$/],
    ['verify returns a detail whose getter throws', 'return 0;', "ok: true, get detail() { throw new Error('getter'); }", /^sim: run failed: app odd: verify threw Error: getter$/],
  ])('%s: a failed run, exit 1, with a repro', async (_what, body, verified, first) => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-app-odd-'));
    writeFileSync(
      join(dir, 'odd.ts'),
      `import { defineApp } from ${rootImport('src/runtime/index.ts')};
export default defineApp({ name: 'odd', description: 'throws oddly', params: {}, *main(rt) { yield* rt.barrier(); if (rt.self === 0) { ${body} } return 0; }, verify: () => ({ ${verified} }) });
`,
    );
    const r = await sim(['--platform', 'cm5', '--nodes', '4', 'odd.ts'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toMatch(first);
    expect(r.stderr).not.toContain('internal error');
    expect(r.stderr).toMatch(/^sim: replay this run with: sim replay sim-repro-odd-cm5-n4-s1\.json$/m);
  });
});
