/**
 * A run with its state-graph trace, for programs: what `sim --trace` writes to a file,
 * made in memory (traces/FORMAT.md), which readTrace reads back and renderSvg,
 * renderHtml and toPerfetto draw. The package's entry exported the readers, and a
 * RunConfig takes a TraceSink, but no writer: a program could read only traces the CLI
 * had made. The bytes are those `sim --trace` writes for the same run.
 */
import { InputError, RunFailure, RunLimitError } from '../kernel/errors.ts';
import { AppRun, checkConfig, type RunConfig, type RunSummary } from '../runtime/run-app.ts';
import { platformIdentity } from '../platform/platform-identity.ts';
import { checkTraceHeader } from '../trace/header-check.ts';
import { traceHeader, type CutReason } from '../trace/format.ts';
import { MemoryTraceOutput, TraceWriter } from '../trace/writer.ts';
import { simulatorVersion } from './project.ts';

export interface TraceOptions {
  /** Each node's packets in flight in the packet network (`sim --trace-network`). */
  network?: boolean;
  /** Every message's send and receipt (`sim --trace-messages`). */
  messages?: boolean;
}

export interface TracedRun {
  /** The run's summary, or null if it failed. */
  summary: RunSummary | null;
  /** Why it failed (a deadlock, the app's exception, a limit), or null. */
  failure: RunFailure | null;
  /** The trace: to where the run ended, or, if it failed, where it stopped (cut short at a limit). */
  trace: Uint8Array;
}

const OPTION_NAMES = ['network', 'messages'];

/**
 * Runs `config` as `sim --trace` does and returns its summary, or its failure, with the
 * trace's bytes either way (a failed run's trace shows where it stopped, as the CLI's does).
 * @throws InputError for a configuration runApp refuses, an option that is not a
 *   boolean, or network counters asked of the analytic network, which has none
 */
export function runTraced(config: RunConfig, options: TraceOptions = {}): TracedRun {
  if (options === null || typeof options !== 'object') throw new InputError(`runTraced: expected options { network?, messages? }, got ${options === null ? 'null' : typeof options}`);
  for (const [key, value] of Object.entries(options)) {
    if (!OPTION_NAMES.includes(key)) throw new InputError(`runTraced option ${key}: unknown (expected ${OPTION_NAMES.join(', ')})`);
    if (value !== undefined && typeof value !== 'boolean') throw new InputError(`runTraced option ${key}: expected true or false, got ${typeof value}`);
  }
  // Before the header is made of it (runApp(null) was a TypeError from deep inside).
  checkConfig(config);
  const network = options.network === true;
  // As sim refuses --trace-network with --network analytic: that network has no buffers to count.
  if (network && config.network === 'analytic') throw new InputError('runTraced option network: the analytic network has no packets in flight to count; expected the packet network');
  const { platform, app, params, nodes, seed } = config;
  // A copy a program edited is named by its values, as its run's summary names it (platform-identity.ts).
  const named = { name: platform.name, clockMHz: platform.clockMHz, contentHash: platformIdentity(platform).contentHash };
  const header = traceHeader({ simulatorVersion: simulatorVersion(), platform: named, nodes, network: config.network, app, params, seed, networkCounters: network, messages: options.messages === true });
  checkTraceHeader(header);
  const output = new MemoryTraceOutput();
  const writer = new TraceWriter(header, output);
  const traced = new AppRun({ ...config, trace: writer });
  let summary: RunSummary | null = null;
  let failure: RunFailure | null = null;
  let cut: CutReason | null = null;
  let stoppedAt = 0;
  try {
    traced.advance(Infinity);
    summary = traced.summary();
  } catch (e) {
    if (!(e instanceof RunFailure)) throw e;
    failure = e;
    if (e instanceof RunLimitError) {
      cut = 'limit';
      stoppedAt = e.cycle;
    } else stoppedAt = e.stoppedAtCycle ?? 0;
  }
  writer.finish(summary?.fingerprint ?? '', summary?.simulatedCycles ?? stoppedAt, cut);
  return { summary, failure, trace: output.bytes() };
}
