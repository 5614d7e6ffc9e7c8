import { mkdtempSync, readdirSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.ts';
import { commandHelp, helpText, wrap } from '../../src/cli/help.ts';
import { parseOptions } from '../../src/cli/parse-options.ts';
import { InputError } from '../../src/kernel/errors.ts';
import { STUDIES } from '../../src/study/index.ts';
import { ROOT, sim } from '../support/sim-cli.ts';

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'sim-commands-'));
}

describe('the options are declared once (src/cli/commands.ts), and the help is written from them', () => {
  it.each(Object.keys(COMMANDS))('%s: its help shows its usage and every option it accepts; an undeclared option is refused', (name) => {
    const help = commandHelp(name);
    expect(help.startsWith(`sim ${name}: ${COMMANDS[name].summary}\n`)).toBe(true);
    for (const u of COMMANDS[name].usage) expect(help).toContain(`sim ${u}`);
    for (const [option, o] of Object.entries(COMMANDS[name].options)) {
      if (o.refused === undefined) expect(help).toMatch(new RegExp(`--${option}\\b`));
    }
    expect(() => parseOptions(name, ['--no-such-option'])).toThrow(InputError);
    expect(helpText(['cm5'])).toContain(`sim ${COMMANDS[name].usage[0]}`);
    // An option the command refuses (explore's --perturb) has no line of its own.
    for (const [option, o] of Object.entries(COMMANDS[name].options)) {
      if (o.refused !== undefined) expect(help).not.toMatch(new RegExp(`^ +(-\\w, )?--${option}\\b`, 'm'));
    }
  });

  it('wraps option help at 80 columns, indented, filling each line', () => {
    const text = wrap(Array.from({ length: 60 }, (_, i) => `w${i}`).join(' '), 26);
    const lines = text.split('\n');
    for (const line of lines) {
      expect(line.length).toBeLessThanOrEqual(80);
      expect(line.startsWith(' '.repeat(26))).toBe(true);
    }
    for (const line of lines.slice(0, -1)) expect(line.length).toBeGreaterThan(75);
  });

  it("sim study's --max-grid and --max-keys give the default of every study that takes them (--max-grid said 4096 alone; extra-rows' is 400)", () => {
    const help = commandHelp('study');
    // The option's own lines (the usage names it first), wrapping undone.
    const line = (option: string) => help.slice(help.indexOf(`--${option} <N>`)).split(/\n\s+(?=-)/)[0].replace(/\s+/g, ' ');
    for (const study of STUDIES) {
      const { takes, maxGrid, maxKeys } = study.defaults;
      if (takes.includes('max-grid')) expect(line('max-grid'), study.name).toMatch(new RegExp(`default ${maxGrid}\\b|${study.name} ${maxGrid}\\b`));
      if (takes.includes('max-keys')) expect(line('max-keys'), study.name).toMatch(new RegExp(`default ${maxKeys}\\b|${study.name} ${maxKeys}\\b`));
    }
  });
});

describe.concurrent('the CLI surface (issue 23, item 7)', () => {
  it('sim help <command> and sim <command> --help print the same help; sim help of an unknown command is one line', async () => {
    const [a, b, c] = await Promise.all([sim(['help', 'graph']), sim(['graph', '--help']), sim(['help', 'nope'])]);
    expect(a.code).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).toMatch(/^sim graph: draw a trace's state graph .*\n\nUsage:\n {2}sim graph <trace> -o/);
    expect(c.code).toBe(2);
    expect(c.stderr).toMatch(/^sim help: unknown command nope \(expected one of: run, graph, /);
  });

  it('sim run --help and sim help --help are those commands\' help too', async () => {
    // run --help printed the whole help; help --help said "unknown command --help", exit 2.
    const [run, helpRun, helpHelp, helpOfHelp] = await Promise.all([sim(['run', '--help']), sim(['help', 'run']), sim(['help', '--help']), sim(['help', 'help'])]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(helpRun.stdout);
    expect(run.stdout).toMatch(/^sim run: /);
    expect(helpHelp.code).toBe(0);
    expect(helpHelp.stdout).toBe(helpOfHelp.stdout);
    expect(helpHelp.stdout).toMatch(/^sim help: /);
  });

  it('sim apps lists every app folder; sim params lists an app\'s parameters, both also as JSON', async () => {
    const [apps, appsJson, params, paramsJson] = await Promise.all([sim(['apps']), sim(['apps', '--json']), sim(['params', 'apps/stencil']), sim(['params', 'apps/stencil', '--json'])]);
    const folders = readdirSync(join(ROOT, 'apps')).filter((f) => existsSync(join(ROOT, 'apps', f, 'index.ts')));
    for (const f of folders) expect(apps.stdout).toMatch(new RegExp(`^apps/${f} +\\S`, 'm'));
    expect(JSON.parse(appsJson.stdout).map((a: { folder: string }) => a.folder)).toEqual(expect.arrayContaining(folders.map((f) => `apps/${f}`)));
    expect(params.stdout).toMatch(/^ {2}width +int, default 256, from 3 to 65536: grid columns$/m);
    expect(params.stdout).toMatch(/^ {2}layout +one of square\|vstrips\|hstrips\|uni\|rect, default square: /m);
    expect(JSON.parse(paramsJson.stdout).params.iters).toMatchObject({ type: 'int', default: 20 });
    // In name order, by code unit, whatever the host's locale.
    const listed = JSON.parse(appsJson.stdout).map((a: { folder: string }) => a.folder) as string[];
    expect(listed).toEqual([...listed].sort());
  });

  it('sim params shows a bound of one side and an app without parameters; sim apps and sim params refuse the wrong number of arguments', async () => {
    const [cshift, none, appsExtra, paramsNone] = await Promise.all([sim(['params', 'apps/cshift']), sim(['params', 'test/fixtures/deadlock-app']), sim(['apps', 'apps/stencil']), sim(['params'])]);
    expect(cshift.stdout).toMatch(/^ {2}shift +int, default 1, at least 0: /m);
    expect(none.stdout).toBe('deadlock: node 0 never enters the barrier\n  (no parameters)\n');
    expect(appsExtra.code).toBe(2);
    expect(appsExtra.stderr).toBe('sim apps: unexpected argument "apps/stencil" (sim params <app> lists an app\'s parameters)\n');
    expect(paramsNone.code).toBe(2);
    expect(paramsNone.stderr).toBe('sim params: expected one app: sim params <app-folder|app-file>\n');
  });

  it('refuses conflicting options: --trace-network with the analytic network (case 8), writing nothing', async () => {
    const dir = scratch();
    const r = await sim(['--platform', 'cm5', '--nodes', '16', join(ROOT, 'apps/cshift'), '--network', 'analytic', '--trace', 't.trace', '--trace-network'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('sim: --trace-network: counts the packets in the packet network; --network analytic has none (leave out one of the two)\n');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('explore gives JSON with --json and refuses the files of one run (case 214)', async () => {
    const json = await sim(['explore', 'apps/cshift', '--runs', '2', '--platform', 'cm5', '--nodes', '16', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ app: 'cshift', platform: 'cm5', nodes: 16, seed: 1, runs: 2, tried: 2, repros: 10, failed: [] });
    for (const option of [['--trace', 't'], ['--log', 'l'], ['--record', 'r'], ['--loglast']]) {
      const r = await sim(['explore', 'apps/cshift', '--runs', '2', '--platform', 'cm5', '--nodes', '16', ...option]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^sim explore: ${option[0]}: `));
    }
  });

  it("a sweep command or sim worker given the wrong arguments quotes the usage sim help prints (sim sweep's lacked --progress)", async () => {
    const cases: [string, string[]][] = [
      ['sweep', []],
      ['sweep merge', []],
      ['sweep status', []],
      ['sweep slurm', []],
      ['sweep export', []],
      ['worker', ['extra']],
    ];
    const results = await Promise.all(cases.map(([name, rest]) => sim([...name.split(' '), ...rest])));
    results.forEach((r, k) => {
      const name = cases[k][0];
      expect(r.code, name).toBe(2);
      expect(r.stderr, name).toBe(`sim ${name}: expected ${name === 'worker' ? '0 arguments' : 'one argument'}, got ${name === 'worker' ? 'extra' : 'none'} (usage: sim ${COMMANDS[name].usage[0]})\n`);
    });
  });

  it('sim run is a run; an unknown first word is an unknown command, not a missing --platform; one node is "1 node"', async () => {
    const [run, unknown] = await Promise.all([sim(['run', '--platform', 'cm5', '--nodes', '1', 'apps/cshift']), sim(['frobnicate', 'apps/cshift'])]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^run +cshift on cm5 \(Thinking Machines CM-5\), 1 node \(/m);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^sim: unknown command frobnicate \(expected one of: run, graph, /);
  });

  it('--json from replay, graph, fit and calibrate', async () => {
    const dir = scratch();
    expect((await sim(['--platform', 'cm5', '--nodes', '4', join(ROOT, 'apps/cshift'), '--record', 'r.json', '--trace', 't.trace'], dir)).code).toBe(0);
    const replay = JSON.parse((await sim(['replay', 'r.json', '--json'], dir)).stdout);
    expect(replay).toMatchObject({ reproduced: true, eventByEvent: true, divergence: null, failure: null });
    const graph = JSON.parse((await sim(['graph', 't.trace', '-o', 'g.svg', '--json'], dir)).stdout);
    expect(graph).toMatchObject({ wrote: 'g.svg', format: 'svg', kind: 'states', nodes: 4, cutShort: null });
    writeFileSync(join(dir, 's.spec'), '{{ i 1 8 ++ @ @ ClearMemory(length) @ @ length:100*i @ }}\n');
    const calibrate = await sim(['calibrate', '--platform', 'cm5', '--nodes', '4', 's.spec', '-o', 's.samples', '--vcount', '3', '--json'], dir);
    expect(calibrate.code).toBe(0);
    expect(JSON.parse(calibrate.stdout)).toMatchObject({ wrote: 's.samples', models: 1, units: 1, platforms: ['cm5'], fit: null });
    const fit = await sim(['fit', 's.samples', '-o', 'm.json', '--json'], dir);
    expect(fit.code).toBe(0);
    const fitted = JSON.parse(fit.stdout);
    expect(fitted.wrote).toEqual(['m.json', 'm.ts', 'm.residuals']);
    expect(fitted.models[0]).toMatchObject({ platform: 'cm5', name: 'ClearMemory' });
  });
});
