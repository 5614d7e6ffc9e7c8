/**
 * PollBothUntil's body (Appendix A 6.2) as a state machine (step-op.ts): PollBoth
 * rounds until one finds nothing, then, unless the condition holds, idling until a
 * packet waits, checking the condition before each drain. The same polls, charges and
 * yields as the generators it replaced (Messaging's pollUntil, and its drainBoth and
 * pollBothRound around node.idle), without their generator objects: every node that
 * waits for its data, and every node after StrataExit, waits here, and on a 4096-node
 * machine those generators were megabytes alive at once.
 *
 * Without a condition it is PollBothTilEmpty: one drain, which returns the messages
 * it handled. The sorts call that after every key they send (about 256,000 times in a
 * 64-node radix sort of 1000 keys a node), where a generator per call and per round
 * were the allocations; one class for both keeps the number of StepOp kinds whose
 * steps every node runs as it was.
 */
import { BLOCK } from '../kernel/simulation.ts';
import { WAKE_DATA, type Node, type Op } from '../machine/node.ts';
import { LEFT, RIGHT } from '../network/packet.ts';
import type { OpGuard } from './op-guard.ts';
import { END, StepOp, SUB } from './step-op.ts';

/** What the loop needs of the node's messaging (messaging.ts). */
export interface PollPath {
  readonly node: Node;
  readonly guard: OpGuard;
  /** Cycles of one PollBoth round that finds nothing (both interfaces sampled at once). */
  readonly emptyRoundCycles: number;
  pollNow(net: number): Op | boolean;
  hasWaitingPacket(): boolean;
}

// States: where the next step goes on from.
const TOP = 0; // check the condition, then drain
const ROUND = 1; // a PollBoth round: synced, poll the left, then (if it found nothing) the right
const LEFT_HANDLED = 2; // a generator handler the left poll started has ended
const SECOND = 3; // the left found a message: synced, poll the right
const RIGHT_ONLY_HANDLED = 4; // a handler of the right poll (left empty) has ended: the round handled 1
const SECOND_HANDLED = 5; // a handler of the second poll has ended: the round handled 2
const IDLE = 6; // the drain handled nothing: synced, park unless a packet waits
const UNPARK = 7; // woken

export class PollUntilOp extends StepOp {
  private readonly m: PollPath;
  /** Null: PollBothTilEmpty (one drain, no idling). */
  private readonly condition: (() => boolean) | null;
  private readonly waitingIn: string;
  /**
   * The condition is asked before every poll, not only before each drain: StrataExit's
   * loop, which handles no message once every node has reached StrataExit (a handler it
   * ran then, or had run a drain before, and the next one cut off). An app's
   * pollBothUntil asks before each drain (PollBothTilEmpty), as it always did.
   */
  private readonly everyPoll: boolean;
  private state = TOP;
  /** Messages the current drain has handled. */
  private handled = 0;
  private parkedAt = 0;

  constructor(m: PollPath, isDone: (() => boolean) | null, waitingIn: string, everyPoll = false) {
    super(m.guard);
    this.m = m;
    this.condition = isDone;
    this.waitingIn = waitingIn;
    this.everyPoll = everyPoll;
  }

  /** PollBothTilEmpty: PollBoth rounds until one finds nothing; returns the messages handled. */
  static drain(m: PollPath): Op<number> {
    // The drain's StepOp returns its count (returned()); StepOp is typed as the void Op.
    return new PollUntilOp(m, null, 'pollBothTilEmpty') as unknown as Op<number>;
  }

  /** Inside a generator handler one of its polls started (its state until the handler ends). */
  get isInHandler(): boolean {
    return this.state === LEFT_HANDLED || this.state === RIGHT_ONLY_HANDLED || this.state === SECOND_HANDLED;
  }

  protected override returned(): unknown {
    return this.condition === null ? this.handled : undefined;
  }

  protected step(): number {
    const m = this.m;
    const node = m.node;
    for (;;) {
      switch (this.state) {
        case TOP:
          if (this.condition !== null && this.condition()) return END;
          this.handled = 0;
          this.state = ROUND;
          break;
        case ROUND: {
          if (node.ahead > 0) return node.ahead;
          if (this.everyPoll && this.condition!()) return END;
          const left = m.pollNow(LEFT);
          if (left === false) {
            const right = m.pollNow(RIGHT);
            if (right === false) {
              // The round found nothing: the drain is over (and with it PollBothTilEmpty).
              if (this.condition === null) return END;
              this.state = this.handled === 0 ? IDLE : TOP;
              break;
            }
            if (right !== true) {
              this.sub = right;
              this.state = RIGHT_ONLY_HANDLED;
              return SUB;
            }
            this.handled += 1;
            break;
          }
          if (left !== true) {
            this.sub = left;
            this.state = LEFT_HANDLED;
            return SUB;
          }
          this.state = SECOND;
          break;
        }
        case LEFT_HANDLED:
          m.guard.handlerDepth--;
          this.state = SECOND;
          break;
        case SECOND: {
          if (node.ahead > 0) return node.ahead;
          if (this.everyPoll && this.condition!()) return END;
          const right = m.pollNow(RIGHT);
          if (right === false) {
            this.handled += 1;
            this.state = ROUND;
            break;
          }
          if (right !== true) {
            this.sub = right;
            this.state = SECOND_HANDLED;
            return SUB;
          }
          this.handled += 2;
          this.state = ROUND;
          break;
        }
        case RIGHT_ONLY_HANDLED:
          m.guard.handlerDepth--;
          this.handled += 1;
          this.state = ROUND;
          break;
        case SECOND_HANDLED:
          m.guard.handlerDepth--;
          this.handled += 2;
          this.state = ROUND;
          break;
        case IDLE:
          if (node.ahead > 0) return node.ahead;
          if (m.hasWaitingPacket()) {
            this.state = TOP;
            break;
          }
          this.parkedAt = node.park(WAKE_DATA, this.waitingIn);
          this.state = UNPARK;
          return BLOCK;
        default:
          node.unpark(this.parkedAt, m.emptyRoundCycles, false);
          this.state = TOP;
          break;
      }
    }
  }
}
