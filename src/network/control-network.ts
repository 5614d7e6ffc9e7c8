/**
 * The CM-5 control network: barriers and integer combines that complete in fixed,
 * traffic-independent time (Appendix A, Table 1), separate from the data networks.
 * Each operation kind is a channel; an episode of a channel completes a fixed latency
 * after the last node joins it. The processor-side costs (start, query) are charged
 * by the runtime; this file owns only the hardware's timing and arithmetic.
 */
import { RunFailure } from '../kernel/errors.ts';
import type { Simulation } from '../kernel/simulation.ts';
import type { ControlNetworkParams } from '../platform/schema.ts';
import { COMBINE_OP_NAMES, combineAll, type CombineOp } from './combine.ts';

export const BARRIER_CHANNEL = 0;
export const COMBINE_CHANNEL = 1;
const CHANNEL_NAMES = ['barrier', 'combine'];

/** Called for every node when an episode it joined completes. */
export type CompletionListener = (node: number) => void;

class Channel {
  /** Episode each node last joined (-1: none yet). */
  readonly joined: Int32Array;
  /** Result each node received from the last completed episode it joined. */
  readonly results: number[];
  /** Episodes completed so far. */
  completed = 0;
  collecting = 0;
  joinedCount = 0;
  op: CombineOp | -1 = -1;
  readonly values: number[];

  constructor(nodes: number) {
    this.joined = new Int32Array(nodes).fill(-1);
    this.results = new Array<number>(nodes).fill(0);
    this.values = new Array<number>(nodes).fill(0);
  }
}

export class ControlNetwork {
  private readonly sim: Simulation;
  private readonly params: ControlNetworkParams;
  private readonly channels: Channel[];
  private readonly onComplete: CompletionListener;
  private readonly doneKind: number;

  constructor(sim: Simulation, params: ControlNetworkParams, nodes: number, onComplete: CompletionListener) {
    this.sim = sim;
    this.params = params;
    this.onComplete = onComplete;
    this.channels = [new Channel(nodes), new Channel(nodes)];
    this.doneKind = sim.defineEventKind('control-done', (channel) => this.complete(channel));
  }

  /** Hardware latency from the last join to completion, so that a simultaneous start returns after `total`. */
  private latency(totalCycles: number): number {
    return totalCycles - this.params.startCycles - this.params.queryCycles;
  }

  /** Node joins the current barrier episode at the current cycle. */
  joinBarrier(node: number): void {
    this.join(BARRIER_CHANNEL, node, -1, 0, this.latency(this.params.barrierCycles));
  }

  /** Node contributes `value` to the current combine episode with operation `op`. */
  joinCombine(node: number, value: number, op: CombineOp): void {
    this.join(COMBINE_CHANNEL, node, op, value, this.latency(this.params.combineIntCycles));
  }

  /** True once the last episode `node` joined on `channel` has completed. */
  isComplete(channel: number, node: number): boolean {
    const c = this.channels[channel];
    return c.joined[node] < c.completed;
  }

  /** Whether `node` has joined an episode of `channel` that has not completed. */
  isPending(channel: number, node: number): boolean {
    const c = this.channels[channel];
    return c.joined[node] >= c.completed;
  }

  /** The node's result from the last completed combine it joined. */
  combineResult(node: number): number {
    return this.channels[COMBINE_CHANNEL].results[node];
  }

  private join(channel: number, node: number, op: CombineOp | -1, value: number, latencyCycles: number): void {
    const c = this.channels[channel];
    if (c.joined[node] >= c.completed) {
      throw new RunFailure(`node ${node}: started a ${CHANNEL_NAMES[channel]} before its previous one completed`);
    }
    if (c.joinedCount === 0) c.op = op;
    else if (c.op !== op) {
      throw new RunFailure(
        `node ${node}: joined a ${CHANNEL_NAMES[channel]} with ${opName(op)} while another node used ${opName(c.op)}`,
      );
    }
    c.joined[node] = c.collecting;
    c.values[node] = value;
    c.joinedCount++;
    if (c.joinedCount === c.joined.length) {
      c.joinedCount = 0;
      c.collecting++;
      this.sim.schedule(latencyCycles, this.doneKind, channel);
    }
  }

  private complete(channel: number): void {
    const c = this.channels[channel];
    if (c.op !== -1) {
      const out = combineAll(c.op, c.values);
      for (let i = 0; i < out.length; i++) c.results[i] = out[i];
    }
    c.completed++;
    for (let i = 0; i < c.joined.length; i++) this.onComplete(i);
  }
}

function opName(op: CombineOp | -1): string {
  return op === -1 ? 'no operation' : COMBINE_OP_NAMES[op];
}
