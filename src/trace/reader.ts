/**
 * Reads a trace file back (traces/FORMAT.md). Anything malformed — wrong magic, a bad
 * header, a record cut short, a missing END — is an InputError naming the file and
 * what was wrong, in one line.
 */
import { getHeapStatistics } from 'node:v8';
import { InputError, kindOf } from '../kernel/errors.ts';
import { MAX_STATE } from '../runtime/states.ts';
import { traceHeaderSchema, describeSchemaError } from './header-schema.ts';
import { CUT_REASONS, FORMAT_VERSION, MAGIC, MAX_HEADER_BYTES, TAG_END, TAG_END_CUT, TAG_IN_FLIGHT, TAG_MESSAGE, TAG_STATE, type CutReason, type TraceHeader } from './format.ts';

/** One node's state changes: parallel arrays of cycles and states, in time order. */
export interface NodeStates {
  cycles: number[];
  states: number[];
}

/** Packets in flight to one node over time (IN_FLIGHT records), in time order. */
export interface NodeCounts {
  cycles: number[];
  counts: number[];
}

/** A message a node took out of the network (MESSAGE records). */
export interface MessageRecord {
  src: number;
  dst: number;
  /** Cycle it entered the network. */
  sent: number;
  /** Receiver's cycle when it polled it. */
  received: number;
}

export interface Trace {
  header: TraceHeader;
  /** In file order; empty unless the trace has messages. */
  messages: MessageRecord[];
  /** By node. */
  nodes: NodeStates[];
  /** By node; empty lists unless the trace has network counters. */
  inFlight: NodeCounts[];
  records: number;
  /** The last cycle of the run (from END). */
  lastCycle: number;
  /** Why the run was cut short (an END_CUT record), or null if it ran to its end. */
  cutShort: CutReason | null;
}

/** The largest IN_FLIGHT count a reader takes: the congestion graph holds them in 32-bit integers. */
const MAX_IN_FLIGHT = 2 ** 31 - 1;

/**
 * Refuses what is not a Trace as readTrace gives it, for the exported functions that
 * take one: renderSvg(null), renderHtml(null) and toPerfetto(null) were TypeErrors.
 */
export function checkTrace(trace: unknown, fn: string): asserts trace is Trace {
  const t = trace as Partial<Trace> | null;
  const header = t?.header as Partial<TraceHeader> | null | undefined;
  const ok = t !== null && typeof t === 'object' && header !== null && typeof header === 'object' && Array.isArray(header.states) && Array.isArray(t.nodes) && Array.isArray(t.inFlight) && Array.isArray(t.messages) && typeof t.lastCycle === 'number';
  if (!ok) throw new InputError(`${fn}: expected a trace (readTrace or loadTrace gives one), got ${kindOf(trace)}`);
}

/** What readTrace keeps. */
export interface ReadOptions {
  /** Keep the MESSAGE records (default true); sim graph draws none, and they are checked all the same. */
  messages?: boolean;
}

/** Refuses options that are not ReadOptions, naming the exported function `fn` (null was a TypeError; { messages: 'no' } kept them). */
export function checkReadOptions(options: unknown, fn: string): void {
  const o = options as Record<string, unknown> | null;
  if (o === null || typeof o !== 'object' || Array.isArray(o)) throw new InputError(`${fn}: expected options { messages? }, got ${kindOf(options)}`);
  for (const [key, value] of Object.entries(o)) {
    if (key !== 'messages') throw new InputError(`${fn}: option ${key}: unknown (expected messages)`);
    if (value !== undefined && typeof value !== 'boolean') throw new InputError(`${fn}: option messages: expected true or false, got ${kindOf(value)}`);
  }
}

/**
 * Heap bytes a record read back takes (measured: 99 a message as an object, 17 a
 * state or in-flight count in the number arrays).
 */
const MESSAGE_HEAP_BYTES = 104;
const COUNT_HEAP_BYTES = 18;

/** The heap a trace read back may take: half of V8's (the rest is the file's bytes and the drawing's). */
function traceHeapBudget(): number {
  return getHeapStatistics().heap_size_limit / 2;
}

/**
 * Reads a trace's bytes; anything malformed, or a trace whose records would take more
 * than half of Node's heap to hold, is an InputError.
 */
export function readTrace(bytes: Uint8Array, source: string, options: ReadOptions = {}): Trace {
  // Exported: without a name the messages began "undefined:".
  if (typeof source !== 'string') throw new InputError(`readTrace: expected the file's name (which messages name) as a string, got ${kindOf(source)}`);
  checkReadOptions(options, 'readTrace');
  const keepMessages = options.messages ?? true;
  // Exported: readTrace(null) was a TypeError.
  if (!(bytes instanceof Uint8Array)) throw new InputError(`${String(source)}: expected the trace's bytes (a Uint8Array or Buffer), got ${kindOf(bytes)}`);
  const bad = (what: string): never => {
    throw new InputError(`${source}: ${what}`);
  };
  const magic = new TextEncoder().encode(MAGIC);
  if (bytes.length < magic.length || magic.some((b, i) => bytes[i] !== b)) bad(`not a trace file (expected it to start with ${JSON.stringify(MAGIC.trim())})`);
  let end = magic.length;
  while (end < bytes.length && bytes[end] !== 0x0a && end - magic.length < MAX_HEADER_BYTES) end++;
  if (end >= bytes.length || bytes[end] !== 0x0a) bad('the header line is cut short or longer than 1 MB');
  let text: string;
  try {
    // Fatal: bytes that are not UTF-8 became U+FFFD in a name, and the file was taken.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(magic.length, end));
  } catch {
    return bad('the header is not valid UTF-8; expected one line of UTF-8 JSON');
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return bad(`the header is not valid JSON (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`);
  }
  const kind = (data as { format?: unknown } | null)?.format;
  if (kind !== 'proteus-strata-trace') bad('the header does not describe a proteus-strata trace');
  // Shown as JSON: "1" (a string) read "trace format version 1; this simulator reads version 1".
  const version = (data as { version?: unknown }).version;
  if (version === undefined) bad(`bad header: key "version": missing (expected ${FORMAT_VERSION})`);
  if (typeof version !== 'number') bad(`bad header: key "version": expected the number ${FORMAT_VERSION}, got ${JSON.stringify(version)}`);
  if (version !== FORMAT_VERSION) bad(`trace format version ${version}; this simulator reads version ${FORMAT_VERSION}`);
  // Checked before anything is allocated from it (the node count sizes every table below).
  const checked = traceHeaderSchema.safeParse(data);
  if (!checked.success) bad(`bad header: ${describeSchemaError(checked.error, data)}`);
  const header = data as TraceHeader;
  // Every node is in state 0 before its first record, and the graph names it: a header
  // listing no states read well and then crashed sim graph ("reading 'replace'").
  if (!header.states.some((st) => st.id === 0)) bad('bad header: key "states": no state of id 0; expected one (every node is in state 0 before its first record)');

  // What the records may hold: a state setState can set, a cycle a double holds
  // exactly (a delta of 2^60 was taken as it came).
  const cycleOk = (cycle: number, what: string): void => {
    if (cycle > Number.MAX_SAFE_INTEGER) bad(`corrupt: ${what} at cycle ${cycle}, past 2^53`);
  };
  const nodes: NodeStates[] = Array.from({ length: header.nodes }, () => ({ cycles: [], states: [] }));
  const last = new Float64Array(header.nodes);
  const inFlight: NodeCounts[] = Array.from({ length: header.nodes }, () => ({ cycles: [], counts: [] }));
  let networkCycle = 0;
  const messages: MessageRecord[] = [];
  const lastMessage = new Float64Array(header.nodes);
  let at = end + 1;
  const varint = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (at >= bytes.length) bad(`truncated: a record is cut short at byte ${at}`);
      const b = bytes[at++];
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 0x80;
      if (scale > 2 ** 56) bad(`corrupt: a number at byte ${at} is too long`);
    }
  };
  let records = 0;
  /** The latest cycle a record reaches, which END's may not be before (FORMAT.md). */
  let latest = 0;
  // A long run's trace held as objects and arrays outgrew the heap: sim graph of 50
  // million messages (350 MB) ended in Node's "FATAL ERROR: ... JavaScript heap out of
  // memory" after 31 s and 5 GB. Refused instead, once what is kept passes the budget.
  const budget = traceHeapBudget();
  let heapBytes = 0;
  const tooBig = (): never => {
    const mb = (n: number) => Math.round(n / 2 ** 20);
    return bad(
      `too large to read: by its record ${records + 1} (byte ${at} of ${bytes.length}) what is read takes ${mb(budget)} MB of memory, half of Node's heap (${mb(2 * budget)} MB); expected a smaller trace, or give Node more with NODE_OPTIONS=--max-old-space-size=<MB>`,
    );
  };
  for (;;) {
    if (at >= bytes.length) bad(`truncated: no END record after ${records} records`);
    const tag = bytes[at++];
    if (tag === TAG_END || tag === TAG_END_CUT) {
      const count = varint();
      const lastCycle = varint();
      const reason = tag === TAG_END_CUT ? varint() : 0;
      if (count !== records) bad(`corrupt: END counts ${count} records, the file holds ${records}`);
      // The run's last cycle is a cycle like any other (2^55 was taken, and the graph's axis drawn to it).
      cycleOk(lastCycle, 'the END record');
      // Records past END's cycle were taken, then left out of every drawing.
      if (lastCycle < latest) bad(`corrupt: END gives the run's last cycle as ${lastCycle}, before cycle ${latest}, which a record before it reaches`);
      if (tag === TAG_END_CUT && (reason < 1 || reason > CUT_REASONS.length)) bad(`corrupt: END gives an unknown reason ${reason} for cutting the run short`);
      if (at !== bytes.length) bad(`corrupt: ${bytes.length - at} bytes after the END record`);
      return { header, nodes, inFlight, messages, records, lastCycle, cutShort: tag === TAG_END_CUT ? CUT_REASONS[reason - 1] : null };
    }
    // Records the header says the run did not write: the header is not this trace's (a
    // reader that trusts it, as sim graph --kind congestion does, drew or said nothing).
    if ((tag === TAG_IN_FLIGHT && !header.networkCounters) || (tag === TAG_MESSAGE && !header.messages)) {
      const [record, key, option] = tag === TAG_IN_FLIGHT ? ['an IN_FLIGHT', 'networkCounters', '--trace-network'] : ['a MESSAGE', 'messages', '--trace-messages'];
      bad(`corrupt: ${record} record at byte ${at - 1}, but the header's "${key}" is false (the run was not traced with ${option}); expected no such record, or "${key}": true`);
    }
    if (tag === TAG_IN_FLIGHT) {
      const node = varint();
      networkCycle += varint();
      const count = varint();
      if (node >= header.nodes) bad(`corrupt: a record for node ${node} of ${header.nodes}`);
      cycleOk(networkCycle, 'a network record');
      // 2^40 was taken, and the HTML congestion graph's 32-bit counts wrapped it to 0.
      if (count > MAX_IN_FLIGHT) bad(`corrupt: ${count} packets in flight to node ${node}; expected at most ${MAX_IN_FLIGHT}`);
      latest = Math.max(latest, networkCycle);
      if ((heapBytes += COUNT_HEAP_BYTES) > budget) tooBig();
      inFlight[node].cycles.push(networkCycle);
      inFlight[node].counts.push(count);
      records++;
      continue;
    }
    if (tag === TAG_MESSAGE) {
      const dst = varint();
      const dt = varint();
      const src = varint();
      const latency = varint();
      if (dst >= header.nodes || src >= header.nodes) bad(`corrupt: a message between nodes ${src} and ${dst} of ${header.nodes}`);
      lastMessage[dst] += dt;
      cycleOk(lastMessage[dst], 'a message');
      if (latency > lastMessage[dst]) bad(`corrupt: a message received at cycle ${lastMessage[dst]} after ${latency} cycles in the network, sent before cycle 0`);
      latest = Math.max(latest, lastMessage[dst]);
      if (keepMessages) {
        if ((heapBytes += MESSAGE_HEAP_BYTES) > budget) tooBig();
        messages.push({ src, dst, sent: lastMessage[dst] - latency, received: lastMessage[dst] });
      }
      records++;
      continue;
    }
    if (tag !== TAG_STATE) bad(`corrupt: unknown record tag ${tag} at byte ${at - 1}`);
    const node = varint();
    const dt = varint();
    const state = varint();
    if (node >= header.nodes) bad(`corrupt: a record for node ${node} of ${header.nodes}`);
    if (state > MAX_STATE) bad(`corrupt: node ${node} enters state ${state}; states are 0 to ${MAX_STATE}`);
    last[node] += dt;
    cycleOk(last[node], `node ${node}'s state record`);
    latest = Math.max(latest, last[node]);
    if ((heapBytes += COUNT_HEAP_BYTES) > budget) tooBig();
    nodes[node].cycles.push(last[node]);
    nodes[node].states.push(state);
    records++;
  }
}
