/** The README's promises: its first command and its example app work as written, its usage block names every command, and its table of a run's options every option. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, COMMANDS } from '../../src/cli/commands.ts';
import { ROOT, sim, withRootImports } from '../support/sim-cli.ts';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

describe('README', () => {
  it('starts with the install-and-run command and npm test', () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(README)![1].trim().split('\n');
    expect(firstBlock).toEqual(['npm install && npx sim --platform alewife apps/stencil', 'npm test']);
  });

  it("lists every command sim --help lists in its usage block (it lacked sim study)", () => {
    const usage = /## Running an app: `sim`\n\n```\n([\s\S]*?)```/.exec(README)![1];
    // The sweep subcommands share one line there: sim sweep merge|status|slurm|export ...
    const listed = (name: string) => {
      const [command, sub] = name.split(' ');
      return usage.split('\n').some((line) => {
        const words = line.split(/\s+/);
        return words[0] === 'sim' && words[1] === command && (sub === undefined || words[2].split('|').includes(sub));
      });
    };
    expect(COMMAND_NAMES.filter((name) => name !== 'run' && !listed(name))).toEqual([]);
  });

  it("its table of a run's options has a row for every option a run takes (it lacked --progress)", () => {
    const table = /A run's options:\n\n([\s\S]*?)\n\n/.exec(README)![1];
    const rows = table.split('\n').map((row) => /^\| `(?:-\w, )?--([\w-]+)/.exec(row)?.[1]);
    const options = Object.keys(COMMANDS.run.options).filter((name) => name !== 'help' && name !== 'version');
    expect(options.filter((name) => !rows.includes(name))).toEqual([]);
  });

  it('its first command runs the default stencil on Alewife and verifies it', async () => {
    const r = await sim(['--platform', 'alewife', 'apps/stencil']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^verified +yes: the 256 x 256 grid after 20 iterations equals the sequential red-black SOR bit for bit$/m);
  });

  it('shows an example app that runs and verifies on every platform', async () => {
    const code = /## Writing an app[\s\S]*?```ts\n([\s\S]*?)```/.exec(README)![1];
    const dir = mkdtempSync(join(tmpdir(), 'sim-readme-example-'));
    // The example imports ../../src/runtime/index.ts, as an app in apps/ would; this copy, in the OS temp dir, by absolute path.
    writeFileSync(join(dir, 'index.ts'), withRootImports(code));
    for (const platform of ['cm5', 'alewife', 'paragon', 'atm']) {
      const r = await sim(['--platform', platform, dir, '--nodes', '4', '--param', 'scale=3']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^verified +yes: node 0 got 18, expected 18$/m);
    }
  });
});
