/**
 * Runs an expanded sweep's missing runs with the executor the options name — local
 * (in this process or `--workers K` threads, one `--shard i/n` or all) or a BullMQ
 * queue of `sim worker` processes — and writes the final results file once nothing
 * is missing. `sim sweep` and `sim study` (each of whose rounds is a sweep) share it.
 */
import { InputError } from '../kernel/errors.ts';
import { runLocal, Recorder } from '../sweep/local.ts';
import { finalPieces, type Collected } from '../sweep/merge.ts';
import { writeFileAtomic } from './output-file.ts';
import { partPath } from '../sweep/part-names.ts';
import { checkResultsOwner } from '../sweep/parts.ts';
import type { SweepRun } from '../sweep/run-model.ts';
import { inShard, type Shard } from '../sweep/shard.ts';
import type { Io } from './io.ts';
import { checkoutInputs } from './sweep-inputs.ts';
import { counter, type ProgressStyle } from './progress.ts';
import { recordedFor, type ExpandedSweep } from './sweep-setup.ts';
import { SignalStop } from './signal-stop.ts';

export interface Executor {
  workers: number;
  shard: Shard;
  queue: string | undefined;
}

/** Refuses executor options that do not go together. */
export function checkExecutor(e: Executor, workersGiven: boolean, command: string): void {
  if (e.queue !== undefined && (e.shard.count > 1 || workersGiven)) {
    throw new InputError(`${command}: --queue runs the sweep on \`sim worker\` processes; --shard and --workers are for local runs`);
  }
}

export interface Executed {
  ran: number;
  refused: string[];
  /** The signal (SIGINT, SIGTERM) that stopped the sweep early, or null. */
  interrupted: 'SIGINT' | 'SIGTERM' | null;
  /** What the parts hold afterwards. */
  after: Collected;
  /** Runs of this shard (all for one shard) and how many were recorded before. */
  mine: number;
  recordedBefore: number;
  /** Whether the final results file was written (every run recorded, not a shard). */
  wrote: boolean;
  /** Runs of this shard still missing. */
  shardMissing: number;
}

/** What `shard` of `sweep` has to do: the runs its parts do not record yet, of the `mine` runs it owns. */
export function pendingRuns(sweep: ExpandedSweep, out: string, shard: Shard): { before: Collected; todo: SweepRun[]; mine: number } {
  // Here, so --dry-run refuses what the sweep would (it said "would run 4" for an --out of notes, exit 0).
  checkResultsOwner(out, sweep.header);
  const before = recordedFor(out, sweep);
  const todo = sweep.runs.filter((r) => inShard(r.i, shard) && before.byIndex[r.i] === undefined);
  const mine = shard.count === 1 ? sweep.runs.length : sweep.runs.filter((r) => inShard(r.i, shard)).length;
  return { before, todo, mine };
}

/** Runs what `sweep` still misses into `out`'s parts, and writes `out` when complete. */
export async function executeSweep(sweep: ExpandedSweep, out: string, e: Executor, io: Io, style: ProgressStyle, label: string): Promise<Executed> {
  const { shard, queue, workers } = e;
  const { before, todo, mine } = pendingRuns(sweep, out, shard);
  let outcome: { ran: number; refused: string[]; interrupted: 'SIGINT' | 'SIGTERM' | null };
  if (todo.length === 0) outcome = { ran: 0, refused: [], interrupted: null };
  else if (queue !== undefined) {
    const { coordinate } = await import('./sweep-queue-command.ts');
    outcome = await coordinate({ queue, out, sweep, todo, io, style, command: label });
  } else {
    const recorder = new Recorder(partPath(out, shard), sweep.header);
    const bar = counter(style, label, 'runs', mine, mine - todo.length);
    // Ctrl-C or SIGTERM stops the sweep cleanly: the runs under way are given up, the
    // part keeps what finished, and the command reports and exits 130 / 143.
    const stop = new SignalStop();
    let ran = 0;
    const refused: string[] = [];
    try {
      await runLocal({
        runs: todo,
        workers,
        resolver: checkoutInputs(),
        workerModule: { filename: new URL('./sweep-worker.mjs', import.meta.url).href, name: 'runSweepRun' },
        recorder,
        onDone: () => {
          ran++;
          bar.update(mine - todo.length + ran);
        },
        onUnrecorded: (why) => refused.push(why),
        stop: stop.signal,
      });
    } finally {
      stop.release();
      bar.stop();
      recorder.close();
    }
    outcome = { ran, refused, interrupted: stop.interrupted };
  }
  const after = todo.length === 0 ? before : recordedFor(out, sweep);
  const shardMissing = after.missing.filter((i) => inShard(i, shard)).length;
  const wrote = after.missing.length === 0 && shard.count === 1;
  if (wrote) writeFileAtomic('--out', out, finalPieces(after, out));
  return { ...outcome, after, mine, recordedBefore: mine - todo.length, wrote, shardMissing };
}
