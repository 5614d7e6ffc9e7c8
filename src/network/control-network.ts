/**
 * The CM-5 control network: global ORs (barriers), integer and vector combines, and
 * broadcasts that complete in fixed, traffic-independent time (Appendix A, Table 1),
 * separate from the data networks. Each synchronous operation kind is a channel; an
 * episode of a channel completes a fixed latency after the last node joins it
 * (vectors are pipelined: each further word adds a fixed number of cycles, thesis
 * 6.3 — which is why the CM-5's CombineVector model has no log P term). The
 * processor-side costs (start, query) are charged by the runtime; this file owns only
 * the hardware's timing and arithmetic.
 */
import { RunFailure } from '../kernel/errors.ts';
import type { Simulation } from '../kernel/simulation.ts';
import type { ControlNetworkParams } from '../platform/schema.ts';
import { CHANNEL_NAMES, COMBINE_OP_NAMES, combineVectors, GLOBAL_OR_CHANNEL, type ReduceOp } from './combine.ts';


/** Called for every node when something it may wait for completes. */
export type CompletionListener = (node: number) => void;

/** What a node has joined with outside an episode. */
const NO_WORDS: readonly number[] = [];

class Channel {
  /** Episode each node last joined (-1: none yet). */
  readonly joined: Int32Array;
  /** Result vector each node received from the last completed episode it joined (NO_WORDS before one). */
  readonly results: (readonly number[])[];
  /** Episodes completed so far. */
  completed = 0;
  collecting = 0;
  joinedCount = 0;
  op: ReduceOp = 0;
  length = 0;
  /** The vector each node joined the episode being collected with. */
  readonly values: (readonly number[])[];
  readonly segments: Uint8Array;

  constructor(nodes: number) {
    this.joined = new Int32Array(nodes).fill(-1);
    this.results = new Array<readonly number[]>(nodes).fill(NO_WORDS);
    this.values = new Array<readonly number[]>(nodes).fill(NO_WORDS);
    this.segments = new Uint8Array(nodes);
  }
}

/** One broadcast in flight or delivered. */
interface Broadcast {
  from: number;
  words: readonly number[];
  delivered: boolean;
  /** The cycle it reaches every node. */
  at: number;
}

export class ControlNetwork {
  private readonly sim: Simulation;
  private readonly params: ControlNetworkParams;
  private readonly channels: Channel[];
  private readonly onComplete: CompletionListener;
  private readonly doneKind: number;
  /** Broadcasts in flight by number; each node's inbox holds the delivered ones it has not received. */
  private readonly inFlight = new Map<number, Broadcast>();
  private broadcastsStarted = 0;
  /** Each node's inbox, made at its first broadcast (null until then: most runs broadcast nothing). */
  private readonly inboxes: ((readonly number[])[] | null)[];
  private readonly lastBroadcast: (Broadcast | null)[];
  private readonly deliverKind: number;
  /** Asynchronous global OR: each node's bit as the network sees it, and how many are set. */
  private readonly asyncBits: Uint8Array;
  private asyncSetCount: number;
  private readonly asyncKind: number;

  constructor(sim: Simulation, params: ControlNetworkParams, nodes: number, onComplete: CompletionListener) {
    this.sim = sim;
    this.params = params;
    this.onComplete = onComplete;
    this.channels = [new Channel(nodes), new Channel(nodes), new Channel(nodes)];
    this.doneKind = sim.defineEventKind('control-done', (channel) => this.complete(channel));
    this.inboxes = new Array<(readonly number[])[] | null>(nodes).fill(null);
    this.lastBroadcast = new Array<Broadcast | null>(nodes).fill(null);
    this.deliverKind = sim.defineEventKind('control-broadcast', (index) => this.deliver(index));
    // Appendix A 4.2: during StrataInit every node's asynchronous-global-OR bit is set.
    this.asyncBits = new Uint8Array(nodes).fill(1);
    this.asyncSetCount = nodes;
    this.asyncKind = sim.defineEventKind('control-async-or', (payload) => this.applyAsyncBit(payload >> 1, payload & 1));
  }

  /** Hardware latency from the last join to completion, so that a simultaneous start returns after `total`. */
  private latency(totalCycles: number): number {
    return totalCycles - this.params.startCycles - this.params.queryCycles;
  }

  /**
   * Node joins the current episode of `channel` with its vector `words` (one word for
   * the global OR and CombineInt) and its segment boundary.
   */
  join(channel: number, node: number, op: ReduceOp, words: readonly number[], segment: number): void {
    const c = this.channels[channel];
    if (c.joined[node] >= c.completed) {
      throw new RunFailure(`node ${node}: started a ${CHANNEL_NAMES[channel]} before its previous one completed`);
    }
    if (c.joinedCount === 0) {
      c.op = op;
      c.length = words.length;
    } else if (c.op !== op) {
      throw new RunFailure(
        `node ${node}: joined a ${CHANNEL_NAMES[channel]} with ${COMBINE_OP_NAMES[op]} while another node used ${COMBINE_OP_NAMES[c.op]}`,
      );
    } else if (c.length !== words.length) {
      throw new RunFailure(
        `node ${node}: joined a ${CHANNEL_NAMES[channel]} of ${words.length} elements while another node used ${c.length}`,
      );
    }
    c.joined[node] = c.collecting;
    c.values[node] = words;
    c.segments[node] = segment;
    c.joinedCount++;
    if (c.joinedCount === c.joined.length) {
      c.joinedCount = 0;
      c.collecting++;
      this.sim.schedule(this.episodeLatency(channel, c.length), this.doneKind, channel);
    }
  }

  private episodeLatency(channel: number, length: number): number {
    const p = this.params;
    if (channel === GLOBAL_OR_CHANNEL) return this.latency(p.barrierCycles);
    const extraWords = Math.max(0, length - 1);
    return this.latency(p.combineIntCycles) + extraWords * p.combineVectorCyclesPerWord;
  }

  /** True once the last episode `node` joined on `channel` has completed. */
  isComplete(channel: number, node: number): boolean {
    const c = this.channels[channel];
    return c.joined[node] < c.completed;
  }

  /** The node's result vector from the last completed episode of `channel` it joined. */
  result(channel: number, node: number): readonly number[] {
    return this.channels[channel].results[node];
  }

  private complete(channel: number): void {
    const c = this.channels[channel];
    const n = c.joined.length;
    const results = combineVectors(c.op, c.values, c.length, c.segments);
    // The joined vectors are not needed past here: let them go before the next episode (a
    // 1,048,576-word CombineVector holds 4 MB or more a node).
    for (let i = 0; i < n; i++) (c.results[i] = results[i]), (c.values[i] = NO_WORDS);
    c.completed++;
    for (let i = 0; i < n; i++) this.onComplete(i);
  }

  // ---- broadcasts (Appendix A 4.4) --------------------------------------------------

  /**
   * `node` broadcasts `words`; every other node's inbox gets them a fixed latency
   * later, but not before the broadcasts the same node started ahead of it: its words
   * enter the network in order. A vector takes 49 cycles a word longer than a word
   * (Table 1), and a word a node sent just after its 10-word vector was delivered
   * first. Broadcasts of different nodes keep their own latencies (a shorter one
   * started later may arrive first). `units`: how many words' time it takes, one for a
   * double (Table 1: BroadcastDouble 90 cycles, as Broadcast; BroadcastVector 49 a word).
   */
  startBroadcast(node: number, words: readonly number[], units = words.length): void {
    const p = this.params;
    const latency = this.latency(p.broadcastCycles) + Math.max(0, units - 1) * p.broadcastVectorCyclesPerWord;
    const at = Math.max(this.sim.now + latency, this.lastBroadcast[node]?.at ?? 0);
    const b: Broadcast = { from: node, words, delivered: false, at };
    this.lastBroadcast[node] = b;
    this.inFlight.set(this.broadcastsStarted, b);
    this.sim.schedule(at - this.sim.now, this.deliverKind, this.broadcastsStarted++);
  }

  private deliver(id: number): void {
    const b = this.inFlight.get(id)!;
    this.inFlight.delete(id);
    b.delivered = true;
    for (let i = 0; i < this.inboxes.length; i++) {
      if (i !== b.from) (this.inboxes[i] ??= []).push(b.words);
    }
    for (let i = 0; i < this.inboxes.length; i++) this.onComplete(i);
  }

  /** Whether the last broadcast `node` started has reached every node. */
  isBroadcastDelivered(node: number): boolean {
    return this.lastBroadcast[node]?.delivered ?? true;
  }

  /** Whether a broadcast is waiting in `node`'s inbox. */
  hasBroadcast(node: number): boolean {
    return (this.inboxes[node]?.length ?? 0) > 0;
  }

  /** Takes the oldest delivered broadcast from `node`'s inbox. */
  takeBroadcast(node: number): readonly number[] {
    const words = this.inboxes[node]?.shift();
    if (words === undefined) throw new RunFailure(`node ${node}: no broadcast to receive`);
    return words;
  }

  // ---- asynchronous global OR (Appendix A 4.2) ---------------------------------------

  /** Sets `node`'s contribution; the network sees it after the global-OR latency. */
  setAsyncOr(node: number, bit: boolean): void {
    this.sim.schedule(this.latency(this.params.barrierCycles), this.asyncKind, (node << 1) | (bit ? 1 : 0));
  }

  /** The OR of every node's bit as the network currently sees it. */
  get asyncOr(): boolean {
    return this.asyncSetCount > 0;
  }

  private applyAsyncBit(node: number, bit: number): void {
    this.asyncSetCount += bit - this.asyncBits[node];
    this.asyncBits[node] = bit;
  }
}
