/**
 * Runs one simulation in a worker thread. The worker loads the platform and the
 * app itself and posts back the run summary, so a run in a worker starts from the
 * same inputs as a run in the main thread and must produce the same fingerprint.
 */
import { parentPort, Worker, workerData } from 'node:worker_threads';
import type { NetworkMode } from '../machine/machine.ts';
import type { OutputSink, OutputStream } from '../runtime/printing.ts';
import { runApp, type RunSummary } from '../runtime/run-app.ts';
import { loadRun } from './run-setup.ts';

/** What a worker needs to run: the same strings a user gives `sim`. */
export interface WorkerRunRequest {
  platform: string;
  app: string;
  params: string[];
  nodes?: number;
  seed: number;
  network: NetworkMode;
}

/** workerData.entry of a worker that serves a run. */
const ENTRY = 'run-worker';

type WorkerReply = { ok: true; summary: RunSummary } | { ok: false; name: string; message: string };
type WorkerMessage = WorkerReply | { output: OutputStream; text: string };

/**
 * Runs `request` in a new worker thread and resolves with its summary; the
 * program's Qprintf output reaches `onOutput` in order, before the summary.
 */
export function runInWorker(request: WorkerRunRequest, onOutput: OutputSink = () => {}): Promise<RunSummary> {
  return new Promise((resolvePromise, reject) => {
    const worker = new Worker(new URL('./worker-bootstrap.mjs', import.meta.url), {
      workerData: { module: import.meta.url, entry: ENTRY, request },
    });
    let replied = false;
    worker.on('message', (message: WorkerMessage) => {
      if ('output' in message) {
        onOutput(message.output, message.text);
        return;
      }
      replied = true;
      void worker.terminate();
      if (message.ok) resolvePromise(message.summary);
      else reject(Object.assign(new Error(message.message), { name: message.name }));
    });
    worker.once('error', reject);
    // A worker that ended without a reply left the promise pending for ever.
    worker.once('exit', (code) => {
      if (!replied) reject(new Error(`the run's worker thread ended (exit code ${code}) without a result`));
    });
  });
}

async function serve(request: WorkerRunRequest, output: OutputSink): Promise<WorkerReply> {
  try {
    const summary = runApp(
      await loadRun({ platform: request.platform, app: request.app, params: request.params, nodes: request.nodes, seed: request.seed, network: request.network, output }),
    );
    return { ok: true, summary };
  } catch (e) {
    return { ok: false, name: e instanceof Error ? e.name : 'Error', message: e instanceof Error ? e.message : String(e) };
  }
}

// Marked by name, not by this module's URL: a module loaded through a link to the checkout
// (vitest's, scripts/vitest.mjs) has the link's URL in the thread that started the worker
// and the real one in the worker, which then never served the run.
const data = workerData as { entry?: string; request?: WorkerRunRequest } | null;
if (parentPort !== null && data?.entry === ENTRY && data.request !== undefined) {
  const port = parentPort;
  const output: OutputSink = (stream, text) => port.postMessage({ output: stream, text } satisfies WorkerMessage);
  void serve(data.request, output).then((reply) => port.postMessage(reply));
}
