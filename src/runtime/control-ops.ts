/**
 * Global operations on the CM-5's control network (Appendix A 4): the processor
 * pays `startCycles` to start an operation and `queryCycles` per completion check;
 * the network finishes a fixed latency after the last node starts, whatever the data
 * networks carry. Waiting does not poll the data network (Strata's CompleteBarrier
 * spins on the control network only; use the split-phase calls to keep receiving).
 * Joining an episode and waiting for it, which every barrier of every node does, are
 * small state machines (step-op.ts) rather than nested generators: at 4096 nodes the
 * generators of two barriers were about 2 KB per node and barrier, all alive at once.
 */
import { BLOCK } from '../kernel/simulation.ts';
import type { Node, Op } from '../machine/node.ts';
import { WAKE_CONTROL } from '../machine/node.ts';
import type { CombineChannel, ReduceOp, SegmentType } from '../network/combine.ts';
import type { ControlNetwork } from '../network/control-network.ts';
import type { ControlNetworkParams } from '../platform/schema.ts';
import type { BroadcastEngine, CombineEngine } from './global-ops.ts';
import type { OpGuard } from './op-guard.ts';
import { END, StepOp } from './step-op.ts';

export class ControlOps implements CombineEngine, BroadcastEngine {
  private readonly node: Node;
  private readonly control: ControlNetwork;
  private readonly params: ControlNetworkParams;
  private readonly guard: OpGuard;

  constructor(node: Node, control: ControlNetwork, params: ControlNetworkParams, guard: OpGuard) {
    this.node = node;
    this.control = control;
    this.params = params;
    this.guard = guard;
  }

  start(channel: CombineChannel, op: ReduceOp, words: readonly number[], segment: SegmentType): Op {
    return new ControlJoin(this.guard, this.node, this.control, this.params.startCycles, channel, op, words, segment);
  }

  *query(channel: CombineChannel): Op<boolean> {
    return yield* this.check(() => this.control.isComplete(channel, this.node.id));
  }

  *complete(channel: CombineChannel, what: string): Op<readonly number[]> {
    yield* new ControlWait(this.guard, this.node, this.control, this.params.queryCycles, channel, what);
    return this.control.result(channel, this.node.id);
  }

  *broadcast(words: readonly number[], units = words.length): Op {
    yield* this.begin();
    this.control.startBroadcast(this.node.id, words, units);
    // BroadcastVector "returns when all words are sent; not all may have been received"
    // (Appendix A 4.4): the processor feeds the network its words one at a time, at the
    // network's rate (Table 1: 49 cycles a word), the first with the start. It returned
    // after the start alone, a 100-word vector sent in 10 cycles.
    if (units > 1) {
      this.node.charge((units - 1) * this.params.broadcastVectorCyclesPerWord);
      yield* this.node.sync();
    }
  }

  *queryBroadcast(): Op<boolean> {
    return yield* this.check(() => this.control.isBroadcastDelivered(this.node.id));
  }

  *receiveBroadcast(what: string): Op<readonly number[]> {
    yield* this.waitFor(() => this.control.hasBroadcast(this.node.id), what);
    return this.control.takeBroadcast(this.node.id);
  }

  *setAsyncOr(bit: boolean): Op {
    yield* this.begin();
    this.control.setAsyncOr(this.node.id, bit);
  }

  *asyncOr(): Op<boolean> {
    return yield* this.check(() => this.control.asyncOr);
  }

  private *begin(): Op {
    this.node.charge(this.params.startCycles);
    yield* this.node.sync();
  }

  private *check(isDone: () => boolean): Op<boolean> {
    const node = this.node;
    yield* node.sync();
    const done = isDone();
    node.charge(this.params.queryCycles);
    return done;
  }

  /** Spins on completion checks of `queryCycles` each until `isDone`. */
  private *waitFor(isDone: () => boolean, what: string): Op {
    const node = this.node;
    const q = this.params.queryCycles;
    for (;;) {
      yield* node.sync();
      if (isDone()) {
        node.charge(q);
        return;
      }
      node.chargeSpin(q);
      yield* node.idle(q, WAKE_CONTROL, what, isDone);
    }
  }
}

/** `start` as a state machine: begin (the start cost, then sync), then join the episode. */
class ControlJoin extends StepOp {
  private isCharged = false;
  private readonly node: Node;
  private readonly control: ControlNetwork;
  private readonly startCycles: number;
  private readonly channel: CombineChannel;
  private readonly op: ReduceOp;
  private readonly words: readonly number[];
  private readonly segment: SegmentType;

  constructor(guard: OpGuard, node: Node, control: ControlNetwork, startCycles: number, channel: CombineChannel, op: ReduceOp, words: readonly number[], segment: SegmentType) {
    super(guard);
    this.node = node;
    this.control = control;
    this.startCycles = startCycles;
    this.channel = channel;
    this.op = op;
    this.words = words;
    this.segment = segment;
  }

  protected step(): number {
    const node = this.node;
    if (!this.isCharged) {
      this.isCharged = true;
      node.charge(this.startCycles);
    }
    if (node.ahead > 0) return node.ahead;
    this.control.join(this.channel, node.id, this.op, this.words, this.segment);
    return END;
  }
}

// ControlWait's states.
const CHECK = 0; // waitFor's loop: sync, then check
const IDLE = 1; // idle: sync, check again, park
const UNPARK = 2; // woken

/**
 * `waitFor` (spin on completion checks of `queryCycles` each, idling between them) on
 * the completion of `channel`, as a state machine: the same checks, charges and
 * yields as waitFor's loop around node.idle.
 */
class ControlWait extends StepOp {
  private state = CHECK;
  private parkedAt = 0;
  private readonly node: Node;
  private readonly control: ControlNetwork;
  private readonly queryCycles: number;
  private readonly channel: CombineChannel;
  private readonly what: string;

  constructor(guard: OpGuard, node: Node, control: ControlNetwork, queryCycles: number, channel: CombineChannel, what: string) {
    super(guard);
    this.node = node;
    this.control = control;
    this.queryCycles = queryCycles;
    this.channel = channel;
    this.what = what;
  }

  protected step(): number {
    const node = this.node;
    for (;;) {
      switch (this.state) {
        case CHECK:
          if (node.ahead > 0) return node.ahead;
          if (this.control.isComplete(this.channel, node.id)) {
            node.charge(this.queryCycles);
            return END;
          }
          node.chargeSpin(this.queryCycles);
          this.state = IDLE;
          break;
        case IDLE:
          if (node.ahead > 0) return node.ahead;
          if (this.control.isComplete(this.channel, node.id)) {
            this.state = CHECK;
            break;
          }
          this.parkedAt = node.park(WAKE_CONTROL, this.what);
          this.state = UNPARK;
          return BLOCK;
        default:
          node.unpark(this.parkedAt, this.queryCycles, false);
          this.state = CHECK;
          break;
      }
    }
  }
}
