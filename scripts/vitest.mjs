/**
 * Runs vitest for `npm test` (arguments as vitest's: `npm test -- test/cli`), also in a
 * checkout whose path has a '#' or '?' in it. Vite cannot serve files there (a module
 * URL ends at its '#' or '?': "No test files found", then "Failed to load url"; or its
 * config does not build), so there vitest runs
 * from a symbolic link to the checkout in the temporary folder, kept as the path
 * (SIM_TEST_LINKED: vitest.config.ts preserves symlinks; SIM_TEST_LINK: the working
 * directory reads as the link, test/support/linked-cwd.ts), and the link is removed after.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = realpathSync(join(dirname(fileURLToPath(import.meta.url)), '..'));
const args = process.argv.slice(2);
let status = 1;
/** What ends the path part of a URL, which Vite makes of file paths. */
const URL_BREAKS = /[#?]/;
if (!URL_BREAKS.test(root)) {
  status = spawnSync(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), ...args], { cwd: root, stdio: 'inherit' }).status ?? 1;
} else {
  const folder = mkdtempSync(join(realpathSync(tmpdir()), 'sim-test-'));
  if (URL_BREAKS.test(folder)) {
    process.stderr.write(`npm test: the checkout's path (${root}) and the temporary folder (${folder}) both have a '#' or '?', which Vite cannot serve; set TMPDIR to a folder without them\n`);
    rmSync(folder, { recursive: true, force: true });
    process.exit(2);
  }
  const link = join(folder, 'checkout');
  try {
    symlinkSync(root, link, 'dir');
    // Vitest itself from the link too, its links kept: started from the checkout's own
    // node_modules, its module evaluator imported files by their real paths, cut at the
    // '#' ("Cannot find module '/tmp/C'"), and no test ran.
    const linked = join(link, 'node_modules', 'vitest', 'vitest.mjs');
    const run = spawnSync(process.execPath, ['--preserve-symlinks', '--preserve-symlinks-main', linked, ...args, '--root', link], { cwd: link, stdio: 'inherit', env: { ...process.env, SIM_TEST_LINKED: '1', SIM_TEST_LINK: link } });
    status = run.status ?? 1;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
process.exit(status);
