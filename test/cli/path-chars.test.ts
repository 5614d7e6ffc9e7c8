/**
 * `npm test` in a checkout whose path has a '#' or '?' in it: Vite cannot serve files
 * there (it found no test files, then "Failed to load url" for the global set-up; with
 * a '?' its config did not build), so scripts/vitest.mjs runs vitest from a link to the
 * checkout. Here a small checkout of the test set-up under such a folder runs one test
 * through the script.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/sim-cli.ts';

describe("npm test's vitest", () => {
  it.each(['C# projects', 'why?'])("runs the tests of a checkout under a folder named %s, through a link it removes after", { timeout: 60_000 }, (folder) => {
    const checkout = join(mkdtempSync(join(tmpdir(), 'sim-hash-')), folder, 'sim');
    mkdirSync(join(checkout, 'test', 'support'), { recursive: true });
    for (const f of ['scripts/vitest.mjs', 'vitest.config.ts', 'package.json', 'test/support/scratch-root.ts', 'test/support/linked-cwd.ts']) cpSync(join(ROOT, f), join(checkout, f));
    // A node_modules of its own, as a checkout has: vitest copied there (under the '#' or
    // '?'), its other packages linked. Linked whole, vitest ran from the main checkout's
    // real path, and the script's start of vitest from the checkout's own copy, where its
    // module evaluator's imports were cut at the '#', went untested (no test ran there).
    mkdirSync(join(checkout, 'node_modules'));
    for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
      if (entry === 'vitest') cpSync(join(ROOT, 'node_modules', entry), join(checkout, 'node_modules', entry), { recursive: true });
      else symlinkSync(join(ROOT, 'node_modules', entry), join(checkout, 'node_modules', entry));
    }
    // What the test sees of its own path and of the working directory: the link's.
    writeFileSync(
      join(checkout, 'test', 'where.test.ts'),
      "import { expect, it } from 'vitest';\nit('runs', () => {\n  expect(import.meta.dirname).toMatch(/sim-test-\\w+\\/checkout\\/test$/);\n  expect(process.cwd()).toMatch(/sim-test-\\w+\\/checkout$/);\n});\n",
    );
    const links = join(mkdtempSync(join(tmpdir(), 'sim-hash-tmp-')));
    const r = spawnSync(process.execPath, ['scripts/vitest.mjs', 'run'], { cwd: checkout, encoding: 'utf8', env: { ...process.env, TMPDIR: links, NO_COLOR: '1', CI: 'true' } });
    expect(r.stdout + r.stderr).toMatch(/Tests\s+1 passed \(1\)/);
    expect(r.status).toBe(0);
    expect(readdirSync(links)).toEqual([]);
  });
});
