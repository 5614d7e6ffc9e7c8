/**
 * What a plain run loads before it starts: the modules the build's `sim` reaches by
 * static imports from its entry and the run command. Libraries that only some runs
 * need are imported when needed (the schema library for reading traces, repros and
 * model files; the selection library for `auto` parameters), because loading zod
 * alone took about a tenth of a second, a fifth of a small run's start-up.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sim } from '../support/sim-cli.ts';

const DIST = join(import.meta.dirname, '../../dist/src');

/** Every module and package reachable from `entries` by static (not dynamic) imports. */
function staticClosure(entries: string[]): { modules: Set<string>; packages: Set<string> } {
  const modules = new Set<string>();
  const packages = new Set<string>();
  const todo = [...entries];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (modules.has(file)) continue;
    modules.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^;'"]*?\s+from\s+)?['"]([^'"]+)['"]/gm)) {
      const spec = m[1];
      if (spec.startsWith('.')) todo.push(resolve(dirname(file), spec));
      else packages.add(spec);
    }
  }
  return { modules, packages };
}

describe('start-up', () => {
  it('a run loads neither the schema library nor the selection library until it needs them', () => {
    const { modules, packages } = staticClosure([join(DIST, 'cli/main.js'), join(DIST, 'cli/run-command.js')]);
    expect(modules.size).toBeGreaterThan(30); // the walk found the run's modules
    expect([...packages].filter((p) => p === 'zod' || p.startsWith('zod/'))).toEqual([]);
    expect([...modules].filter((m) => m.includes('/library/'))).toEqual([]);
    // Nor the progress bars (about 10 ms), which a run draws only on a terminal after 2 s,
    // nor every command's declarations and help with the argument parser (about 4 ms: a
    // run's --progress check brought them in through parse-options.js).
    expect([...packages].filter((p) => p === 'cli-progress')).toEqual([]);
    expect([...modules].filter((m) => /[/\\]cli[/\\](commands|parse-options)\.js$/.test(m))).toEqual([]);
  });

  it("a run's summary is written without ICU's locale data", async () => {
    // Making the first Intl.NumberFormat (or calling toLocaleString) loads it: about 12 ms,
    // 3% of the README's first command, which its summary's numbers alone paid.
    const watch = pathToFileURL(join(import.meta.dirname, '../fixtures/intl-watch.mjs')).href;
    const args = ['--platform', 'alewife', 'apps/stencil', '--param', 'width=16', '--param', 'height=16', '--param', 'iters=2'];
    const r = await sim(args, undefined, { NODE_OPTIONS: `--import=${JSON.stringify(watch)}` });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^events +[\d,]+ in [\d,]+ ms wall \([\d,]+ events\/s\)$/m);
    // The watch itself tells: a run made to say a number the old way is caught.
    const touch = pathToFileURL(join(import.meta.dirname, '../fixtures/intl-touch.mjs')).href;
    const told = await sim(args, undefined, { NODE_OPTIONS: `--import=${JSON.stringify(watch)} --import=${JSON.stringify(touch)}` });
    expect(told.stderr).toContain('intl-watch: Number.prototype.toLocaleString');
  });
});
