/**
 * Chrome trace-event JSON (the format chrome://tracing and ui.perfetto.dev open):
 * one track per node, its states as complete ("X") slices named after the state,
 * timestamps in microseconds, and, when the trace recorded them, messages as flow
 * arrows from sender to receiver. Idle time is left empty, as in the state graph.
 */
import { graphTitle } from './state-graph.ts';
import { checkTrace, type Trace } from './reader.ts';

interface TraceEvent {
  name: string;
  ph: 'X' | 'M' | 's' | 'f';
  id?: number;
  bp?: 'e';
  pid: number;
  tid: number;
  ts?: number;
  dur?: number;
  cat?: string;
  args?: Record<string, string | number>;
}

export function toPerfetto(trace: Trace): { traceEvents: TraceEvent[]; displayTimeUnit: 'ns'; otherData: Record<string, string | number> } {
  checkTrace(trace, 'toPerfetto');
  const h = trace.header;
  const us = (cycles: number) => cycles / h.clockMHz;
  const names = new Map(h.states.map((s) => [s.id, s.name]));
  const events: TraceEvent[] = [{ name: 'process_name', ph: 'M', pid: 0, tid: 0, args: { name: graphTitle(trace) } }];
  trace.nodes.forEach((node, id) => {
    events.push({ name: 'thread_name', ph: 'M', pid: 0, tid: id, args: { name: `node ${id}` } });
    events.push({ name: 'thread_sort_index', ph: 'M', pid: 0, tid: id, args: { sort_index: id } });
    let at = 0;
    let state = 0;
    const slice = (to: number) => {
      if (state !== 0 && to > at) {
        events.push({ name: names.get(state) ?? `state ${state}`, cat: 'state', ph: 'X', pid: 0, tid: id, ts: us(at), dur: us(to - at), args: { state, cycle: at } });
      }
    };
    for (let i = 0; i < node.cycles.length; i++) {
      slice(node.cycles[i]);
      at = node.cycles[i];
      state = node.states[i];
    }
    slice(Math.max(at, trace.lastCycle));
  });
  // Messages as flows from the sender's track to the receiver's, each end on a short slice.
  const tick = 0.001;
  trace.messages.forEach((m, id) => {
    events.push({ name: 'send', cat: 'message', ph: 'X', pid: 0, tid: m.src, ts: us(m.sent), dur: tick, args: { to: m.dst } });
    events.push({ name: 'message', cat: 'message', ph: 's', id, pid: 0, tid: m.src, ts: us(m.sent) });
    events.push({ name: 'receive', cat: 'message', ph: 'X', pid: 0, tid: m.dst, ts: us(m.received), dur: tick, args: { from: m.src } });
    events.push({ name: 'message', cat: 'message', ph: 'f', bp: 'e', id, pid: 0, tid: m.dst, ts: us(m.received) });
  });
  return {
    traceEvents: events,
    displayTimeUnit: 'ns',
    otherData: { platform: h.platform, app: h.app, seed: h.seed, nodes: h.nodes, clockMHz: h.clockMHz, fingerprint: h.fingerprint },
  };
}
