/**
 * Sweep executor overheads (issue 19): expanding a 100,000-run sweep (in this process
 * and as `sim sweep --dry-run`, start-up included), and resuming a 100,000-run sweep
 * with 99,000 lines recorded — the wall time from starting `sim sweep` to the first new
 * line in its part (reading and checking the recorded lines, then running), beside
 * `sim --version`'s start-up in the same run. Targets: expansion under 2 s, resume under 3 s.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkoutInputs } from '../src/cli/sweep-inputs.ts';
import { runOne } from '../src/sweep/run-one.ts';
import { expandSweep } from '../src/sweep/expand.ts';
import { lineText, type ResultLine } from '../src/sweep/result-line.ts';
import { RESULT_FORMAT } from '../src/sweep/run-model.ts';
import { sha256 } from '../src/sweep/canonical.ts';
import { checkSweep } from '../src/sweep/sweep-file.ts';
import { printRows } from './harness.ts';

const ROOT = join(import.meta.dirname, '..');
const RUNS = 100_000;
const RECORDED = 99_000;

export async function sweepBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-sweep-'));
  const spec = { name: 'bench-100k', runs: [{ app: 'apps/cshift', platform: ['cm5', 'paragon'], nodes: 4, params: { messages: [1, 2, 4, 8, 16] }, seeds: { from: 1, count: RUNS / 10 } }] };
  const file = join(dir, 'sweep.json');
  const text = JSON.stringify(spec, null, 2);
  writeFileSync(file, text);

  const t0 = performance.now();
  const runs = await expandSweep(checkSweep(spec, file), file, checkoutInputs());
  const expandMs = performance.now() - t0;
  const dry = timeProcess(['sweep', file, '--out', join(dir, 'dry.jsonl'), '--dry-run']);
  const startup = timeProcess(['--version']);

  // 99,000 recorded lines: each run's real inputs and key with the summary of a real run.
  const sample = JSON.parse((await runOne(runs[0], checkoutInputs())).line) as ResultLine;
  const header = lineText({ sweep: spec.name, sweepSha256: sha256(text), simulator: runs[0].inputs.simulator, runs: RUNS, format: RESULT_FORMAT });
  const out = join(dir, 'results.jsonl');
  const part = `${out}.part-1-of-1`;
  const body = runs.slice(0, RECORDED).map((r) => lineText({ ...sample, i: r.i, key: r.key, inputs: r.inputs }));
  writeFileSync(part, `${header}\n${body.join('\n')}\n`);
  const partMB = statSync(part).size / 2 ** 20;
  const resumeMs = await timeToFirstNewLine(['sweep', file, '--out', out], part);
  const ok = readFileSync(part, 'utf8').split('\n').length - 2 > RECORDED;

  printRows(`Sweep executor overheads (${RUNS.toLocaleString('en-US')} runs of cshift on 4 nodes)`, [
    ['expand 100,000 runs (in process)', `${(expandMs / 1000).toFixed(2)} s  (target < 2 s)`],
    ['sim --version (process start-up alone)', `${(startup / 1000).toFixed(2)} s`],
    ['sim sweep --dry-run (process, start-up included)', `${(dry / 1000).toFixed(2)} s`],
    [`resume with ${RECORDED.toLocaleString('en-US')} lines recorded (${partMB.toFixed(0)} MB)`, `${(resumeMs / 1000).toFixed(2)} s to the first new line, start-up included; ${((resumeMs - startup) / 1000).toFixed(2)} s beyond start-up  (target < 3 s)${ok ? '' : '  NO NEW LINE'}`],
  ]);
}

function timeProcess(args: string[]): number {
  const start = performance.now();
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/sim.mjs'), ...args], { cwd: ROOT, stdio: 'ignore' }).status;
  if (r !== 0) throw new Error(`sim ${args.join(' ')} exited with ${r}`);
  return performance.now() - start;
}

/** Starts `sim args` and resolves with the ms until `file` grows; then stops it (by its PID). */
function timeToFirstNewLine(args: string[], file: string): Promise<number> {
  const size = statSync(file).size;
  const start = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'bin/sim.mjs'), ...args], { cwd: ROOT, stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (statSync(file).size > size) {
        const ms = performance.now() - start;
        clearInterval(timer);
        child.kill('SIGTERM');
        resolve(ms);
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`sim ${args.join(' ')} exited with ${child.exitCode} before recording a run`));
      }
    }, 5);
  });
}
