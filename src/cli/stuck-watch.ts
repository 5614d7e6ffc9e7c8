/**
 * Says so on stderr when a run has stopped moving: the one case Ctrl-C cannot stop.
 * A run takes SIGINT and SIGTERM between chunks of events (run-driver.ts), and
 * Node's signal handlers run on the thread that runs the simulation, so an app's
 * code in a loop that never yields holds the process until SIGQUIT (Ctrl-\) or
 * SIGKILL. A second thread waits on a shared beat counter that the run advances
 * every few events; when it has not moved for a while, the thread writes one line
 * with fs.writeSync (process.stderr's writes would wait for the stuck thread).
 */
import { Worker } from 'node:worker_threads';

/** How long without a beat before the line (well above the longest a few events take: 1,024 of the costliest, a 1,048,576-word CombineVector, take about 9 s). */
export const STUCK_AFTER_MS = 30_000;

// The watching thread, as CommonJS source (a file would be one more module to find in dist/ and src/).
const WATCHER = `
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const shared = new Int32Array(workerData.shared);
let seen = Atomics.load(shared, 0);
let told = false;
// Index 1 turns 1 when the watch stops; until then wake every afterMs to look at the beat (index 0).
while (Atomics.wait(shared, 1, 0, workerData.afterMs) === 'timed-out') {
  const now = Atomics.load(shared, 0);
  if (now !== seen) {
    seen = now;
    told = false;
  } else if (!told) {
    told = true;
    try {
      writeSync(workerData.fd, workerData.line);
    } catch {
      // Nowhere to say it (stderr closed): nothing else to do.
    }
  }
}
`;

export class StuckWatch {
  private readonly shared = new Int32Array(new SharedArrayBuffer(8));
  private readonly worker: Worker;

  /** Starts watching; `fd` is where the line goes (stderr, or a file in tests). */
  constructor(afterMs = STUCK_AFTER_MS, fd = 2) {
    const line = `sim: the run has not moved for ${afterMs / 1000} s. If the app's code is in a loop that never yields, Ctrl-C cannot stop it (a run takes signals between events): Ctrl-\\ (SIGQUIT) or kill -9 ${process.pid} will\n`;
    this.worker = new Worker(WATCHER, { eval: true, workerData: { shared: this.shared.buffer, afterMs, fd, line } });
    // The thread never keeps the process alive, and an exit mid-watch is the normal end of a process.
    this.worker.unref();
  }

  /** The run moved on. */
  beat(): void {
    Atomics.add(this.shared, 0, 1);
  }

  /** Ends the watching thread. */
  stop(): void {
    Atomics.store(this.shared, 1, 1);
    Atomics.notify(this.shared, 1);
  }
}
