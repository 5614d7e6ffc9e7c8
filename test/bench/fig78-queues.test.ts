// The packets a run keeps in the network (bench/fig78-queues.ts), which `npm run bench
// chapter7` reports for Fig. 7-8's runs: the trace's per-destination counts, summed and
// averaged over the run. Checked by Little's law on a real traced run: the packets in
// the network, averaged over time, times the run's length and nodes, is the time every
// packet spent between its injection and the poll that took it.
import { describe, expect, it } from 'vitest';
import patternsApp from '../../apps/patterns/index.ts';
import { meanInFlightPerNode } from '../../bench/fig78-queues.ts';
import { runApp } from '../../src/runtime/run-app.ts';
import { runConfig } from '../../src/runtime/run-config.ts';
import { traceHeader } from '../../src/trace/format.ts';
import { readTrace } from '../../src/trace/reader.ts';
import { MemoryTraceOutput, TraceWriter } from '../../src/trace/writer.ts';
import { loadTestPlatform } from '../support/platforms.ts';

describe('packets in the network, averaged over a run', () => {
  it('sums the destinations and weighs each count by how long it held', () => {
    // Node 0: one packet over cycles 0-10; node 1: two over 5-15; a run of 20 cycles.
    const trace = { header: { nodes: 2 }, lastCycle: 20, inFlight: [{ cycles: [0, 10], counts: [1, 0] }, { cycles: [5, 15], counts: [2, 0] }] };
    expect(meanInFlightPerNode(trace)).toBe((1 * 10 + 2 * 10) / 20 / 2);
  });

  it("obeys Little's law on an 8-node CM-5 transpose polling once", () => {
    const config = runConfig(loadTestPlatform('cm5'), patternsApp, { params: ['pattern=transpose', 'blockBytes=1024', 'barriers=each', 'poll=once'], nodes: 8, seed: 1, network: 'packet' });
    const output = new MemoryTraceOutput();
    const header = traceHeader({ simulatorVersion: 'test', platform: config.platform, nodes: 8, network: 'packet', app: patternsApp, params: config.params, seed: 1, networkCounters: true, messages: true });
    const writer = new TraceWriter(header, output);
    const summary = runApp({ ...config, trace: writer });
    writer.finish(summary.fingerprint, summary.simulatedCycles);
    const trace = readTrace(output.bytes(), 'memory');
    expect(trace.messages.length).toBe(summary.packetsSent);
    const waited = trace.messages.reduce((sum, m) => sum + (m.received - m.sent), 0);
    // Within a tenth of a percent, not exactly: the counters change at the kernel's time,
    // a message's sent and received are its nodes' clocks, which run ahead of it by the
    // cycles a node charged before the event came up.
    expect(Math.abs(meanInFlightPerNode(trace) / (waited / trace.lastCycle / 8) - 1)).toBeLessThan(0.001);
    expect(meanInFlightPerNode(trace)).toBeGreaterThan(0.5);
  });
});
