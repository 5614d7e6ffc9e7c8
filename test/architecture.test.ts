/**
 * The architecture of the README's How it works stays standing: no import cycles in src/
 * (type-only imports too), layers that import only downwards, apps/ and src/calibrate
 * reaching Strata only through src/runtime/index.ts, and no src/ file over 500 lines
 * (STYLE.md 11). The import rules live in .dependency-cruiser.cjs and are checked by
 * dependency-cruiser; each failure names the files and imports at fault.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type IConfiguration, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import { assert, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONFIG = createRequire(import.meta.url)('../.dependency-cruiser.cjs') as IConfiguration;
const MAX_LINES = 500;

/** Layer names, bottom up, as the config's `layer-<name>` rules give them. */
const LAYER_NAMES = (CONFIG.forbidden ?? []).flatMap((rule) => (rule.name?.startsWith('layer-') ? [rule.name.slice('layer-'.length)] : []));

async function cruiseWithRules(folders: string[]): Promise<ICruiseResult> {
  const { output } = await cruise(folders, {
    ...CONFIG.options,
    baseDir: ROOT,
    // The files as the checkout names them, also when it is read through a link
    // (scripts/vitest.mjs's, for a path with a '#'): resolved, they fell outside baseDir.
    preserveSymlinks: true,
    validate: true,
    ruleSet: { forbidden: CONFIG.forbidden ?? [] },
    outputType: 'json',
  });
  // The json reporter hands back the text; other output types hand back the object.
  return typeof output === 'string' ? (JSON.parse(output) as ICruiseResult) : output;
}

/** Project-relative paths (with `/`) of the files under `folder`, recursively. */
function filesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

function lineCount(text: string): number {
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') || text === '' ? newlines : newlines + 1;
}

/** Fails with `title` and one problem per line, so the report reads without a diff. */
function expectNone(title: string, problems: string[]): void {
  if (problems.length > 0) assert.fail(`${title}:\n  ${problems.join('\n  ')}`);
}

function violationsOf(result: ICruiseResult, matches: (ruleName: string) => boolean): IViolation[] {
  return result.summary.violations.filter((violation) => matches(violation.rule.name));
}

/**
 * Groups the cycles dependency-cruiser reports (one per import on a cycle) into sets
 * of files that import each other, listing each set's files and then its cycles.
 */
function describeCycles(violations: IViolation[]): string[] {
  const paths = violations.map((violation) => [violation.from, ...(violation.cycle ?? []).map((step) => step.name)]);
  const groups: { files: Set<string>; paths: string[][] }[] = [];
  for (const path of paths) {
    const touching = groups.filter((group) => path.some((file) => group.files.has(file)));
    const merged = { files: new Set(path), paths: [path] };
    for (const group of touching) {
      group.files.forEach((file) => merged.files.add(file));
      merged.paths.push(...group.paths);
      groups.splice(groups.indexOf(group), 1);
    }
    groups.push(merged);
  }
  return groups
    .map((group) => [
      `${group.files.size} files import each other: ${[...group.files].sort().join(', ')}`,
      ...[...new Set(group.paths.map((path) => `    ${path.join(' → ')}`))].sort(),
    ])
    .sort((a, b) => a[0].localeCompare(b[0]))
    .flat();
}

function describeEdges(violations: IViolation[]): string[] {
  return violations
    .map((violation) => `${violation.from} → ${violation.to}  (${violation.rule.name}: ${ruleComment(violation.rule.name)})`)
    .sort();
}

function ruleComment(name: string): string {
  return CONFIG.forbidden?.find((rule) => rule.name === name)?.comment ?? '';
}

describe('architecture (README, How it works)', () => {
  let result: ICruiseResult;

  beforeAll(async () => {
    result = await cruiseWithRules(['src', 'apps']);
  }, 30_000);

  it('the dependency tool parses every file of src/ and apps/ and sees type-only imports', async () => {
    const cruised = new Set(result.modules.map((module) => module.source));
    const sources = [...filesUnder('src'), ...filesUnder('apps')].filter((file) => /[.](ts|mts|js|mjs)$/.test(file));
    expectNone('files dependency-cruiser did not read (is a parser for them installed?)', sources.filter((file) => !cruised.has(file)));

    // A cycle of type imports only, in three syntaxes: a parser that drops any of them breaks it.
    const fixture = await cruiseWithRules(['test/fixtures/type-cycle']);
    const edges = fixture.modules.flatMap((module) => module.dependencies.map((dependency) => [module.source, dependency.resolved, dependency.circular]));
    expect(edges, 'the type-only cycle of test/fixtures/type-cycle as dependency-cruiser sees it').toEqual([
      ['test/fixtures/type-cycle/type-cycle-a.ts', 'test/fixtures/type-cycle/type-cycle-b.ts', true],
      ['test/fixtures/type-cycle/type-cycle-b.ts', 'test/fixtures/type-cycle/type-cycle-c.ts', true],
      ['test/fixtures/type-cycle/type-cycle-c.ts', 'test/fixtures/type-cycle/type-cycle-a.ts', true],
    ]);
  });

  it('has no import cycles in src/, type-only imports included', () => {
    expectNone('import cycles in src/', describeCycles(violationsOf(result, (name) => name === 'no-cycles')));
  });

  it('layers import only the layers below them', () => {
    const topLevel = readdirSync(join(ROOT, 'src'), { withFileTypes: true });
    expectNone(
      `src/ entries outside the layers (${LAYER_NAMES.join(', ')}): place them in LAYERS in .dependency-cruiser.cjs`,
      topLevel.filter((entry) => !entry.isDirectory() || !LAYER_NAMES.includes(entry.name)).map((entry) => `src/${entry.name}`),
    );
    expectNone('imports that go up (or sideways) a layer', describeEdges(violationsOf(result, (name) => name.startsWith('layer-'))));
  });

  it('apps/ import from src/ only src/runtime/index.ts', () => {
    expectNone('apps/ imports past the runtime API', describeEdges(violationsOf(result, (name) => name === 'apps-see-only-the-runtime-api')));
  });

  it('src/calibrate imports from src/runtime/ only src/runtime/index.ts', () => {
    expectNone('src/calibrate imports past the runtime API', describeEdges(violationsOf(result, (name) => name === 'calibrate-sees-only-the-runtime-api')));
  });

  it('src/library imports from src/runtime/ only src/runtime/index.ts', () => {
    expectNone('src/library imports past the runtime API', describeEdges(violationsOf(result, (name) => name === 'library-sees-only-the-runtime-api')));
  });

  it('checks every rule in the config', () => {
    const known = ['no-cycles', 'apps-see-only-the-runtime-api', 'calibrate-sees-only-the-runtime-api', 'library-sees-only-the-runtime-api', ...LAYER_NAMES.map((layer) => `layer-${layer}`)];
    expect((CONFIG.forbidden ?? []).map((rule) => rule.name).filter((name) => !known.includes(name ?? ''))).toEqual([]);
  });
});

describe('file size (STYLE.md 11)', () => {
  it(`no file in src/ is over ${MAX_LINES} lines`, () => {
    const tooLong = filesUnder('src')
      .map((file) => ({ file, lines: lineCount(readFileSync(join(ROOT, file), 'utf8')) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expectNone(`files in src/ over ${MAX_LINES} lines (split them)`, tooLong);
  });
});
