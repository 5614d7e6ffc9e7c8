/**
 * The commands' own arguments (sim graph, export, replay, explore): a missing or extra
 * argument, or a value out of range, is one line on stderr naming it, exit 2, nothing
 * written. A mutation audit found these checks unpinned: dropping any of them still
 * passed, each command then failing later with another message, or running.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sim } from '../support/sim-cli.ts';

describe.concurrent("a command's arguments", () => {
  it.each([
    ['sim graph without -o', ['graph', 't.trace'], 'sim graph: missing -o <file.svg>: where to write the graph'],
    ['sim graph --kind that is no graph', ['graph', 't.trace', '-o', 'g.svg', '--kind', 'latency'], 'sim graph: --kind latency: expected states or congestion'],
    ['sim export without -o', ['export', '--format', 'perfetto', 't.trace'], 'sim export: missing -o <file.json>: where to write the export'],
    // "cannot read the trace (ENOENT)", "(EISDIR)": a code, not words.
    ['sim graph of a trace that is not there', ['graph', 'none.trace', '-o', 'g.svg'], 'sim: none.trace: no such file; expected a trace file (sim ... --trace <file> writes one)'],
    ['sim export of a folder', ['export', '--format', 'perfetto', '.', '-o', 'e.json'], 'sim: .: is a folder; expected a trace file'],
    ['sim replay of no file', ['replay'], 'sim replay: expected one repro file: sim replay <file> [--stop-at <cycle>|event:<n>]'],
    ['sim replay of two files', ['replay', 'a.json', 'b.json'], 'sim replay: expected one repro file: sim replay <file> [--stop-at <cycle>|event:<n>]'],
    // --runs 0 explored nothing and said "0 perturbed runs ..., 0 failed", exit 0.
    ['sim calibrate of a spec module exporting no specs', ['calibrate', '--platform', 'cm5', join(ROOT, 'test/fixtures/empty-specs.ts'), '-o', 's.samples'], `sim: ${join(ROOT, 'test/fixtures/empty-specs.ts')}: expected a default export that is a non-empty list of model specifications ({ name, loops, setup, task, cleanup, inputs, terms })`],
    ['sim calibrate without --platform', ['calibrate', 'x.spec', '-o', 's.samples'], 'sim calibrate: missing --platform <name|all>'],
    ['sim calibrate --workers past 64', ['calibrate', '--platform', 'cm5', 'x.spec', '-o', 's.samples', '--workers', '65'], 'sim: --workers 65: expected an integer from 1 to 64'],
    // Refused before the queue is reached (port 1 has no Redis).
    ['sim worker --lock 1', ['worker', '--queue', 'redis://127.0.0.1:1/0', '--lock', '1'], 'sim: --lock 1: expected an integer from 2 to 3600'],
    ['sim worker --workers 0', ['worker', '--queue', 'redis://127.0.0.1:1/0', '--workers', '0'], 'sim: --workers 0: expected an integer from 1 to 256'],
    ['sim worker --queue with no host', ['worker', '--queue', 'redis:///0'], 'sim: --queue redis:///0: no host; expected a Redis URL, redis://host[:port][/db] (e.g. redis://127.0.0.1:6379/0)'],
    ['sim worker --queue port 65536', ['worker', '--queue', 'redis://127.0.0.1:65536/0'], 'sim: --queue redis://127.0.0.1:65536/0: port 65536; expected a port from 1 to 65535'],
    ['sim sweep --out of an empty name', ['sweep', 's.json', '--out', ''], 'sim sweep: missing --out <results.jsonl>'],
    ['sim fit of no samples file', ['fit', '-o', 'm.json'], 'sim fit: expected one samples file: sim fit <samples> [--relative] -o <models.json>'],
    ['sim fit without -o', ['fit', 's.samples'], 'sim fit: missing -o <models.json>: where to write the models'],
    // Its module and residuals are named by replacing .json: m.txt named all three m.txt.
    ['sim fit -o not ending in .json', ['fit', 's.samples', '-o', 'm.txt'], 'sim fit: -o m.txt: expected a name ending in .json (the models; the .ts module and .residuals go beside it)'],
    ['sim explore on a machine size the network cannot build', ['explore', join(ROOT, 'apps/examples/race'), '--platform', 'cm5', '--nodes', '48', '--runs', '2'], 'sim: --nodes 48: expected a power of two for a fat-tree network (platform cm5)'],
    ['sim explore --runs 0', ['explore', join(ROOT, 'apps/examples/race'), '--platform', 'cm5', '--nodes', '4', '--runs', '0'], 'sim: --runs 0: expected an integer from 1 to 1000000'],
  ])('%s: one line, exit 2, nothing written', async (_what, args, line) => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-command-args-'));
    const r = await sim(args, dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`${line}\n`);
    expect(readdirSync(dir)).toEqual([]);
  });
});
