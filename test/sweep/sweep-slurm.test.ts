/**
 * `sim sweep slurm` on a real Slurm (Debian's slurmctld and slurmd with munged, all on
 * 127.0.0.1 in a temporary directory, started here and stopped by PID): the generated
 * array script, submitted with one task cancelled, leaves exactly that shard's runs
 * missing; `merge --missing` names it; resubmitting the script runs only those runs,
 * and the merged file is byte-identical to a local run.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, sim } from '../support/sim-cli.ts';
import { findBinary, freePort, missingServers, start, stop, waitFor, type Started } from '../support/servers.ts';

const SMALL = 'test/fixtures/sweeps/small.json';
const missing = missingServers(['munged', 'slurmctld', 'slurmd', 'sbatch', 'squeue', 'scancel', 'sinfo'], 'sim sweep slurm tests');

describe.skipIf(missing.length > 0)('sim sweep slurm (a real Slurm array)', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const daemons: Started[] = [];
  const slurm = (command: string, ...args: string[]) => execFileSync(findBinary(command) as string, args, { env, cwd: ROOT, encoding: 'utf8' });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sim-slurm-'));
    for (const d of ['munge', 'state', 'spool', 'run']) mkdirSync(join(dir, d));
    const key = join(dir, 'munge', 'munge.key');
    writeFileSync(key, randomBytes(1024));
    chmodSync(key, 0o600);
    const socket = join(dir, 'munge', 'munge.sock');
    // --force: this test runs munged as whoever runs the tests (root in CI), with its own key and socket.
    const munge = ['--foreground', '--force', `--key-file=${key}`, `--socket=${socket}`, `--pid-file=${join(dir, 'munge', 'pid')}`, `--seed-file=${join(dir, 'munge', 'seed')}`, `--log-file=${join(dir, 'munge', 'log')}`];
    daemons.push(start(findBinary('munged') as string, munge));
    await waitFor('munged to listen', () => existsSync(socket), 10_000);
    const host = hostname().split('.')[0];
    const user = execFileSync('id', ['-un'], { encoding: 'utf8' }).trim();
    const conf = join(dir, 'slurm.conf');
    // slurm.conf splits a value at blanks outside double quotes (TMPDIR=/tmp/a b/ gave
    // "Parse error in file ... line 6" and no node came up).
    const q = (path: string) => `"${path}"`;
    writeFileSync(
      conf,
      [
        'ClusterName=simsweep',
        `SlurmctldHost=${host}(127.0.0.1)`,
        `SlurmctldPort=${await freePort()}`,
        `SlurmdPort=${await freePort()}`,
        'AuthType=auth/munge',
        `AuthInfo=${q(`socket=${socket}`)}`,
        'CredType=cred/munge',
        `StateSaveLocation=${q(join(dir, 'state'))}`,
        `SlurmdSpoolDir=${q(join(dir, 'spool'))}`,
        `SlurmctldPidFile=${q(join(dir, 'slurmctld.pid'))}`,
        `SlurmdPidFile=${q(join(dir, 'slurmd.pid'))}`,
        `SlurmctldLogFile=${q(join(dir, 'slurmctld.log'))}`,
        `SlurmdLogFile=${q(join(dir, 'slurmd.log'))}`,
        `SlurmUser=${user}`,
        `SlurmdUser=${user}`,
        'ProctrackType=proctrack/linuxproc',
        'TaskPlugin=task/none',
        'SchedulerType=sched/backfill',
        'SelectType=select/cons_tres',
        'SelectTypeParameters=CR_CPU',
        'ReturnToService=2',
        'MpiDefault=none',
        'JobCompType=jobcomp/none',
        'JobAcctGatherType=jobacct_gather/none',
        'AccountingStorageType=accounting_storage/none',
        `NodeName=${host} NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN`,
        `PartitionName=sweep Nodes=${host} Default=YES MaxTime=INFINITE State=UP`,
        '',
      ].join('\n'),
    );
    env = { ...process.env, SLURM_CONF: conf };
    daemons.push(start(findBinary('slurmctld') as string, ['-D', '-i'], { env }));
    daemons.push(start(findBinary('slurmd') as string, ['-D', '-N', host], { env }));
    await waitFor('the Slurm node to be idle', () => {
      try {
        return slurm('sinfo', '-h', '-o', '%T').trim() === 'idle';
      } catch {
        return false;
      }
    }, 30_000);
  }, 90_000);

  afterAll(async () => {
    for (const d of daemons.reverse()) await stop(d);
  }, 30_000);

  const done = (job: string) => () => slurm('squeue', '-h', '-j', job).trim() === '';
  /** Makes the array script with `args` in `cwd`, saves it in `folder` as sweep.sbatch, submits task 1 alone (from the checkout) and waits for it: its job id. */
  const firstTaskOf = async (args: string[], cwd: string, folder: string): Promise<string> => {
    const generated = await sim(args, cwd);
    expect(generated.code).toBe(0);
    const script = join(folder, 'sweep.sbatch');
    writeFileSync(script, generated.stdout);
    const job = slurm('sbatch', '--parsable', '--array=1', script).trim().split(';')[0];
    await waitFor('the task to finish', done(job), 60_000);
    return job;
  };
  const timingLines = (out: string, shard: number) => readFileSync(`${out}.part-${shard}-of-4.timing.jsonl`, 'utf8').trimEnd().split('\n').length;

  it('runs the generated array script, redoes only the cancelled task on resubmission, and merges to the local bytes', { timeout: 180_000 }, async () => {
    const local = await sim(['sweep', SMALL, '--out', join(dir, 'local.jsonl'), '--workers', '2']);
    expect(local.code).toBe(0);
    const out = join(dir, 'run', 'results.jsonl');
    const generated = await sim(['sweep', 'slurm', SMALL, '--out', out, '--tasks', '4', '--cpus', '1', '--max-running', '2', '--time', '10']);
    expect(generated.code).toBe(0);
    const script = join(dir, 'run', 'sweep.sbatch');
    writeFileSync(script, generated.stdout);
    expect(generated.stdout).toContain('#SBATCH --array=1-4%2\n');
    expect(generated.stdout).toContain('--shard "${SLURM_ARRAY_TASK_ID}/4" --workers "${SLURM_CPUS_PER_TASK:-1}" --progress 60\n');

    // Task 4 waits behind the %2 limit; cancel it before it starts.
    const first = slurm('sbatch', '--parsable', script).trim().split(';')[0];
    slurm('scancel', `${first}_4`);
    await waitFor('the first array to finish', done(first), 120_000);
    const gaps = await sim(['sweep', 'merge', out, '--missing']);
    expect(gaps.code).toBe(1);
    expect(gaps.stdout).toContain('missing runs: 3,7,11,15,19,23\nshards of 4 with gaps: --array=4\n');
    const ranBefore = [1, 2, 3].map((s) => timingLines(out, s));

    const second = slurm('sbatch', '--parsable', script).trim().split(';')[0];
    await waitFor('the resubmitted array to finish', done(second), 120_000);
    // Tasks 1-3 found their shards complete and ran nothing; task 4 ran its six runs.
    expect([1, 2, 3].map((s) => timingLines(out, s))).toEqual(ranBefore);
    expect(timingLines(out, 4)).toBe(1 + 6);
    const merged = await sim(['sweep', 'merge', out]);
    expect(merged.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(dir, 'local.jsonl'), 'utf8'));
  });

  it('runs no more than --max-running tasks at once, though the node has room for more', { timeout: 180_000 }, async () => {
    // The node has 2 CPUs and each task asks for 1: without the %1 of --max-running 1, two ran at once.
    const folder = join(dir, 'max-running');
    mkdirSync(folder);
    const out = join(folder, 'r.jsonl');
    const generated = await sim(['sweep', 'slurm', SMALL, '--out', out, '--tasks', '3', '--cpus', '1', '--max-running', '1']);
    expect(generated.code).toBe(0);
    expect(generated.stdout).toContain('#SBATCH --array=1-3%1\n');
    writeFileSync(join(folder, 'sweep.sbatch'), generated.stdout);
    const job = slurm('sbatch', '--parsable', join(folder, 'sweep.sbatch')).trim().split(';')[0];
    let mostRunning = 0;
    const reasons = new Set<string>();
    await waitFor('the array to finish', () => {
      const rows = slurm('squeue', '-h', '-j', job, '-o', '%T %r').trim().split('\n').filter((l) => l !== '');
      mostRunning = Math.max(mostRunning, rows.filter((l) => l.startsWith('RUNNING')).length);
      for (const l of rows) if (l.startsWith('PENDING')) reasons.add(l.split(' ')[1]);
      return rows.length === 0;
    }, 150_000);
    expect(mostRunning).toBe(1);
    expect(reasons).toContain('JobArrayTaskLimit');
    expect((await sim(['sweep', 'merge', out])).code).toBe(0);
  });

  it('takes a script whose --out is in a folder named with blanks, quotes and %', { timeout: 120_000 }, async () => {
    // sbatch refused it ("Invalid directive found in batch script: dir"): the #SBATCH
    // --output line held the path as it was, and a % in it would start a pattern.
    // A % before a letter is a pattern to sbatch (%a: the task's index) unless doubled.
    const folder = join(dir, `out dir 'q' "d" 100%a`);
    mkdirSync(folder);
    const out = join(folder, 'r.jsonl');
    const job = await firstTaskOf(['sweep', 'slurm', SMALL, '--out', out, '--tasks', '24'], ROOT, folder);
    expect(readdirSync(folder).sort()).toEqual(['r.jsonl.part-1-of-24', 'r.jsonl.part-1-of-24.timing.jsonl', `r.jsonl.slurm-${job}_1.out`, 'sweep.sbatch']);
  });

  it('puts the log of a script made with a relative --out beside the results, wherever sbatch is run', { timeout: 120_000 }, async () => {
    // #SBATCH --output held the relative name, which sbatch reads from where it is run (here
    // the checkout), not from the directory the script cds to, where the results go.
    const folder = join(dir, 'relative');
    mkdirSync(folder);
    const job = await firstTaskOf(['sweep', 'slurm', join(ROOT, SMALL), '--out', 'r.jsonl', '--tasks', '24'], folder, folder);
    expect(readdirSync(folder).sort()).toEqual(['r.jsonl.part-1-of-24', 'r.jsonl.part-1-of-24.timing.jsonl', `r.jsonl.slurm-${job}_1.out`, 'sweep.sbatch']);
    expect(existsSync(join(ROOT, `r.jsonl.slurm-${job}_1.out`))).toBe(false);
  });
});
