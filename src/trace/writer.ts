/**
 * Streams a trace file while the simulation runs: the header first (its fingerprint
 * patched in place when the run ends), then records in bounded chunks, so memory
 * stays flat on long runs. Where the bytes go is a TraceOutput: a file in the CLI, an
 * array in tests. Records come in event order, so the same run gives the same bytes.
 */
import { InputError } from '../kernel/errors.ts';
import type { TraceSink } from '../machine/machine.ts';
import { CUT_REASONS, FINGERPRINT_DIGITS, MAGIC, MAX_HEADER_BYTES, TAG_END, TAG_END_CUT, TAG_IN_FLIGHT, TAG_MESSAGE, TAG_STATE, writeVarint, type CutReason, type TraceHeader } from './format.ts';

/** Where trace bytes go: appended in order, with one overwrite of the header's fingerprint. */
export interface TraceOutput {
  append(bytes: Uint8Array): void;
  overwrite(position: number, bytes: Uint8Array): void;
}

const CHUNK_BYTES = 1 << 16;

/** The header line as a trace holds it (its fingerprint a placeholder until the run ends). */
export function headerJson(header: Omit<TraceHeader, 'fingerprint'>): string {
  return JSON.stringify({ ...header, fingerprint: '0'.repeat(FINGERPRINT_DIGITS) });
}

/**
 * Refuses a header longer than a reader takes (an app parameter's value of a megabyte):
 * the run wrote a trace that sim graph then refused. header-check.ts checks the rest of
 * what a reader checks, before the trace's file is made.
 * @throws InputError naming the header's size and the limit
 */
export function checkHeaderSize(json: string): void {
  const bytes = new TextEncoder().encode(json).length;
  if (bytes > MAX_HEADER_BYTES) {
    throw new InputError(`--trace: the trace's header would take ${bytes} bytes (the app's parameters and state names), more than the ${MAX_HEADER_BYTES} a trace's header may (traces/FORMAT.md); expected shorter parameter values`);
  }
}

export class TraceWriter implements TraceSink {
  private readonly output: TraceOutput;
  private readonly fingerprintAt: number;
  private pending: number[] = [];
  private readonly lastCycle: Float64Array;
  private records = 0;
  private finalCycle = 0;
  private lastNetworkCycle = 0;
  /** Present only when the header asks for network counters (TraceSink's optional method). */
  readonly inFlight?: (node: number, cycle: number, count: number) => void;
  /** Present only when the header asks for messages. */
  readonly message?: (src: number, dst: number, sent: number, received: number) => void;
  private readonly lastMessage: Float64Array;

  constructor(header: Omit<TraceHeader, 'fingerprint'>, output: TraceOutput) {
    this.output = output;
    const json = headerJson(header);
    checkHeaderSize(json);
    const placeholder = '0'.repeat(FINGERPRINT_DIGITS);
    const text = `${MAGIC}${json}\n`;
    const bytes = new TextEncoder().encode(text);
    // The placeholder is ASCII, so its character offset in the (ASCII) prefix is its byte offset.
    this.fingerprintAt = new TextEncoder().encode(text.slice(0, text.lastIndexOf(placeholder))).length;
    output.append(bytes);
    this.lastCycle = new Float64Array(header.nodes);
    if (header.networkCounters) this.inFlight = (node, cycle, count) => this.recordInFlight(node, cycle, count);
    this.lastMessage = new Float64Array(header.nodes);
    if (header.messages) this.message = (src, dst, sent, received) => this.recordMessage(src, dst, sent, received);
  }

  private recordMessage(src: number, dst: number, sent: number, received: number): void {
    const p = this.pending;
    p.push(TAG_MESSAGE);
    writeVarint(p, dst);
    writeVarint(p, received - this.lastMessage[dst]);
    writeVarint(p, src);
    writeVarint(p, Math.max(0, received - sent));
    this.lastMessage[dst] = received;
    if (received > this.finalCycle) this.finalCycle = received;
    this.records++;
    if (p.length >= CHUNK_BYTES) this.flush();
  }

  private recordInFlight(node: number, cycle: number, count: number): void {
    const p = this.pending;
    p.push(TAG_IN_FLIGHT);
    writeVarint(p, node);
    writeVarint(p, cycle - this.lastNetworkCycle);
    writeVarint(p, count);
    this.lastNetworkCycle = cycle;
    if (cycle > this.finalCycle) this.finalCycle = cycle;
    this.records++;
    if (p.length >= CHUNK_BYTES) this.flush();
  }

  state(node: number, cycle: number, state: number): void {
    const p = this.pending;
    p.push(TAG_STATE);
    writeVarint(p, node);
    writeVarint(p, cycle - this.lastCycle[node]);
    writeVarint(p, state);
    this.lastCycle[node] = cycle;
    if (cycle > this.finalCycle) this.finalCycle = cycle;
    this.records++;
    if (p.length >= CHUNK_BYTES) this.flush();
  }

  /**
   * Ends the trace: the END record (END_CUT with its reason when the run was cut
   * short by a signal or a limit), then the fingerprint into the header.
   */
  finish(fingerprint: string, lastCycle: number, cut: CutReason | null = null): void {
    this.pending.push(cut === null ? TAG_END : TAG_END_CUT);
    writeVarint(this.pending, this.records);
    writeVarint(this.pending, Math.max(lastCycle, this.finalCycle));
    if (cut !== null) writeVarint(this.pending, CUT_REASONS.indexOf(cut) + 1);
    this.flush();
    this.output.overwrite(this.fingerprintAt, new TextEncoder().encode(fingerprint.padStart(FINGERPRINT_DIGITS, '0')));
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    this.output.append(Uint8Array.from(this.pending));
    this.pending = [];
  }
}

/** A TraceOutput in memory (tests, workers). */
export class MemoryTraceOutput implements TraceOutput {
  private readonly chunks: Uint8Array[] = [];
  private patches: [number, Uint8Array][] = [];

  append(bytes: Uint8Array): void {
    this.chunks.push(bytes);
  }

  overwrite(position: number, bytes: Uint8Array): void {
    this.patches.push([position, bytes]);
  }

  bytes(): Uint8Array {
    const total = this.chunks.reduce((n, c) => n + c.length, 0);
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    for (const [position, b] of this.patches) out.set(b, position);
    return out;
  }
}
