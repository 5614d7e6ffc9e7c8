/**
 * Trace overhead (issue 6): the default stencil (256 x 256, 20 iterations, 64-node
 * Alewife) untraced and with every state change recorded into memory. The two modes
 * alternate for four rounds of three runs; the first round warms the JIT up and the
 * figure is the median of the others' medians. Recording must cost at most 25% extra.
 */
import stencil from '../apps/stencil/index.ts';
import { loadRun } from '../src/cli/run-setup.ts';
import { runApp } from '../src/runtime/run-app.ts';
import { traceHeader } from '../src/trace/format.ts';
import { MemoryTraceOutput, TraceWriter } from '../src/trace/writer.ts';
import { readTrace } from '../src/trace/reader.ts';
import { fmt, median, printRows, timeTask } from './harness.ts';

export async function traceBench(): Promise<void> {
  const config = await loadRun({ platform: 'alewife', app: stencil, nodes: 64, seed: 1, network: 'packet' });
  const { platform, params } = config;
  let bytes: Uint8Array = new Uint8Array(0);
  const runTraced = () => {
    const output = new MemoryTraceOutput();
    const writer = new TraceWriter(
      traceHeader({ simulatorVersion: 'bench', platform, nodes: 64, network: 'packet', app: stencil, params, seed: 1, networkCounters: false }),
      output,
    );
    const s = runApp({ ...config, trace: writer });
    writer.finish(s.fingerprint, s.simulatedCycles);
    bytes = output.bytes();
  };
  const plainMs: number[] = [];
  const tracedMs: number[] = [];
  for (let round = 0; round < 4; round++) {
    const plain = await timeTask('stencil', () => void runApp(config), 3);
    const traced = await timeTask('stencil traced', runTraced, 3);
    if (round > 0) {
      plainMs.push(plain.medianMs);
      tracedMs.push(traced.medianMs);
    }
  }
  const [plain, traced] = [median(plainMs), median(tracedMs)];
  const records = readTrace(bytes, 'bench').records;
  printRows('Trace overhead: default stencil on a 64-node Alewife (median of 3 rounds of 3 runs, after a warm-up round)', [
    ['untraced', `${plain.toFixed(1)} ms`],
    ['recording states', `${traced.toFixed(1)} ms (${((traced / plain - 1) * 100).toFixed(1)}% extra; target at most 25%)`],
    ['trace size', `${fmt.format(bytes.length)} bytes for ${fmt.format(records)} state changes (${(bytes.length / records).toFixed(2)} bytes each, header included)`],
  ]);
}
