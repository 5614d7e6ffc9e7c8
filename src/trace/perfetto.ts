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

/** The export as an object (sim export writes it in pieces: perfettoJson). */
export function toPerfetto(trace: Trace): { traceEvents: TraceEvent[]; displayTimeUnit: 'ns'; otherData: Record<string, string | number> } {
  checkTrace(trace, 'toPerfetto');
  return { traceEvents: [...perfettoEvents(trace)], displayTimeUnit: 'ns', otherData: otherData(trace) };
}

/** Characters of JSON text perfettoJson gathers before it gives them out. */
const PIECE_CHARS = 1 << 20;

/**
 * JSON.stringify(toPerfetto(trace)), the same characters, given out in pieces of about
 * a megabyte: the whole text of a long run's trace is more than a JavaScript string
 * holds (2^29 characters; a 10 MB trace of a 4-second run with --trace-messages
 * exports to about 560 MB), and its events as objects took gigabytes.
 */
export function* perfettoJson(trace: Trace): Generator<string> {
  checkTrace(trace, 'perfettoJson');
  let piece = '{"traceEvents":[';
  let first = true;
  for (const event of perfettoEvents(trace)) {
    piece += (first ? '' : ',') + JSON.stringify(event);
    first = false;
    if (piece.length >= PIECE_CHARS) {
      yield piece;
      piece = '';
    }
  }
  yield `${piece}],"displayTimeUnit":"ns","otherData":${JSON.stringify(otherData(trace))}}`;
}

function otherData(trace: Trace): Record<string, string | number> {
  const h = trace.header;
  return { platform: h.platform, app: h.app, seed: h.seed, nodes: h.nodes, clockMHz: h.clockMHz, fingerprint: h.fingerprint };
}

/** The trace's events in the export's order: each node's track, then the messages. */
function* perfettoEvents(trace: Trace): Generator<TraceEvent> {
  const h = trace.header;
  const us = (cycles: number) => cycles / h.clockMHz;
  const names = new Map(h.states.map((s) => [s.id, s.name]));
  yield { name: 'process_name', ph: 'M', pid: 0, tid: 0, args: { name: graphTitle(trace) } };
  for (let id = 0; id < trace.nodes.length; id++) {
    const node = trace.nodes[id];
    yield { name: 'thread_name', ph: 'M', pid: 0, tid: id, args: { name: `node ${id}` } };
    yield { name: 'thread_sort_index', ph: 'M', pid: 0, tid: id, args: { sort_index: id } };
    let at = 0;
    let state = 0;
    for (let i = 0; i <= node.cycles.length; i++) {
      const to = i < node.cycles.length ? node.cycles[i] : Math.max(at, trace.lastCycle);
      if (state !== 0 && to > at) {
        yield { name: names.get(state) ?? `state ${state}`, cat: 'state', ph: 'X', pid: 0, tid: id, ts: us(at), dur: us(to - at), args: { state, cycle: at } };
      }
      if (i < node.cycles.length) {
        at = node.cycles[i];
        state = node.states[i];
      }
    }
  }
  // Messages as flows from the sender's track to the receiver's, each end on a short slice.
  const tick = 0.001;
  for (let id = 0; id < trace.messages.length; id++) {
    const m = trace.messages[id];
    yield { name: 'send', cat: 'message', ph: 'X', pid: 0, tid: m.src, ts: us(m.sent), dur: tick, args: { to: m.dst } };
    yield { name: 'message', cat: 'message', ph: 's', id, pid: 0, tid: m.src, ts: us(m.sent) };
    yield { name: 'receive', cat: 'message', ph: 'X', pid: 0, tid: m.dst, ts: us(m.received), dur: tick, args: { from: m.src } };
    yield { name: 'message', cat: 'message', ph: 'f', bp: 'e', id, pid: 0, tid: m.dst, ts: us(m.received) };
  }
}
