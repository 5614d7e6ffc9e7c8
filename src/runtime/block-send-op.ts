/**
 * The per-packet loop of a block transfer (Appendix A 7, thesis 6.1.3) as a state
 * machine (step-op.ts): up to `count` of the transfer's next packets, each an Xfer or
 * DMA packet followed by pacing, or its tail message. The first try at the network
 * and the pacing polls are inline; a refused packet goes on through the rounds of the
 * send's steps, run in place (it extends SendRoundsOp: a SendOp made per refused packet
 * and run nested cost an object and a level of resume per step, for about one packet
 * in two of the 64-node transpose, W1). BlockSender.sendPackets makes one; every block
 * packet of every app runs through it, which is why it is not a generator.
 */
import { LEFT, RIGHT } from '../network/packet.ts';
import { blockTransferWords } from '../platform/packets.ts';
import type { MessagingCosts } from '../platform/schema.ts';
import type { Messaging } from './messaging.ts';
import type { PacketHandler } from './handler-table.ts';
import type { OpGuard } from './op-guard.ts';
import { strataDmaPutHandler, strataXferPutHandler } from './ports.ts';
import { SEND_STATES, SendRoundsOp } from './send-op.ts';
import { SEND_BOTH_RL_POLL_BOTH, SEND_BOTH_RL_POLL_RIGHT, xferSteps } from './send-steps.ts';
import { END, SUB } from './step-op.ts';

/** A block being sent, as the loop sees it (block-transfer.ts's Transfer). */
export interface BlockInTransit {
  readonly proc: number;
  readonly port: number;
  readonly offset: number;
  readonly buffer: ArrayLike<number>;
  readonly size: number;
  /** Words sent so far. */
  sent: number;
  /** Packets sent so far (alternates the first network tried). */
  packets: number;
}

/** What the loop needs of the node's BlockSender. */
export interface BlockSenderParts {
  readonly options: { readonly bandwidthMatching: boolean; readonly delayCycles: number; readonly poll: 'once' | 'empty' };
  readonly messaging: Messaging;
  readonly guard: OpGuard;
  readonly costs: MessagingCosts;
}

// States: where the next step goes on from (below SEND_STATES: the rounds of a refused packet's send).
const START = SEND_STATES; // make (and check) the transfer
const TOP = SEND_STATES + 1; // the next packet, if any
const TRY = SEND_STATES + 2; // synced, offer the packet
const SENT = SEND_STATES + 3; // the packet is out: count it, start pacing
const PACE = SEND_STATES + 4; // synced, poll for arrivals
const PACE_HANDLED = SEND_STATES + 5; // a generator handler a pacing poll started has ended
const PACED = SEND_STATES + 6; // arrivals handled, or the delay
const NEXT = SEND_STATES + 7; // on to the next packet

/**
 * No limit on packets or pacing arrivals: a count never reaches it (k and arrivals count
 * up from 0). Not Infinity: a field that holds a non-integer keeps it in a number object
 * of its own, a cache miss of its own on each read on a 4096-node machine.
 */
const NO_LIMIT = -1;

/**
 * What a block packet's send takes from the platform, the same for every node of a
 * machine: one record all of them share (blockPlan), not copies in each operation. Each
 * field of an operation's own is room in its object, which a 4096-node machine reads
 * from memory, line by line, at every step of every node.
 */
interface BlockPlan {
  readonly dma: MessagingCosts['dma'];
  /** Data words per packet (blockTransferWords). */
  readonly perPacket: number;
  /** The send overhead of a packet: the DMA launch, or the Xfer send's. */
  readonly overheadCycles: number;
  /** The receiver's handler of a packet. */
  readonly handler: PacketHandler;
}

const plans = new WeakMap<MessagingCosts, BlockPlan>();

/** The platform's BlockPlan, made at its first block (costs are read-only once loaded). */
function blockPlan(costs: MessagingCosts): BlockPlan {
  let plan = plans.get(costs);
  if (plan === undefined) {
    const dma = costs.dma;
    plan = {
      dma,
      perPacket: blockTransferWords(costs),
      overheadCycles: dma !== null ? dma.sendCycles : costs.xferSendOverheadCycles,
      handler: dma !== null ? strataDmaPutHandler : strataXferPutHandler,
    };
    plans.set(costs, plan);
  }
  return plan;
}

export class BlockSendOp extends SendRoundsOp {
  private t: BlockInTransit | null = null;
  private k = 0;
  /**
   * The packet being sent: its count of data words (its steps and injection cycles are the
   * rounds' fields). Its words are made with the packet, at the try, and not kept in a field
   * of this operation: storing the young array into an operation already promoted to the
   * old generation ran V8's write barrier (a call) once per packet.
   */
  private n = 0;
  /** Pacing after the packet: options as they were, arrivals handled, the most to handle (or NO_LIMIT). */
  private arrivals = 0;
  private max = 1;
  private options: BlockSenderParts['options'];
  private readonly plan: BlockPlan;
  private readonly s: BlockSenderParts;
  private readonly pollRightOnly: boolean;
  /** The most packets to send, or NO_LIMIT. */
  private readonly count: number;
  private readonly makeTransfer: BlockInTransit | (() => BlockInTransit);

  /** @param transfer the transfer, or makes it (checking its arguments) at the first step */
  constructor(s: BlockSenderParts, transfer: BlockInTransit | (() => BlockInTransit), pollRightOnly: boolean, count: number) {
    super(s.messaging);
    this.state = START;
    this.options = s.options;
    const plan = blockPlan(s.costs);
    this.plan = plan;
    this.s = s;
    this.pollRightOnly = pollRightOnly;
    this.count = count === Infinity ? NO_LIMIT : count;
    this.makeTransfer = transfer;
    this.overheadCycles = plan.overheadCycles;
  }

  protected step(): number {
    // The rounds' SendPath is the node's Messaging (the constructor's s.messaging), and
    // the node is read from it: no field of this object's own for either.
    const m = this.m as Messaging;
    const node = m.node;
    const plan = this.plan;
    const dma = plan.dma;
    for (;;) {
      if (this.state < SEND_STATES) {
        // A refused packet's send, until it is out.
        const v = this.sendStep();
        if (v !== END) return v;
        this.state = SENT;
      }
      switch (this.state) {
        case START:
          this.t = typeof this.makeTransfer === 'function' ? this.makeTransfer() : this.makeTransfer;
          this.state = TOP;
          break;
        case TOP: {
          const t = this.t!;
          const remaining = t.size - t.sent;
          if (this.k === this.count || remaining <= 0) return END;
          const at = t.sent;
          const perPacket = plan.perPacket;
          if (dma === null && remaining < perPacket) {
            const tail = packetWords(t, at, t.size - at, new Array<number>(t.size - at + 1));
            t.sent = t.size;
            t.packets++;
            const steps = this.pollRightOnly ? SEND_BOTH_RL_POLL_RIGHT : SEND_BOTH_RL_POLL_BOTH;
            this.sub = this.s.guard.nested(m.send(steps, t.proc, strataXferPutHandler, tail));
            this.state = NEXT;
            return SUB;
          }
          this.n = Math.min(remaining, perPacket);
          this.steps = xferSteps(t.packets % 2 === 0 ? LEFT : RIGHT, this.pollRightOnly);
          // The steps' first try, inline; the rest of the steps only if the network refuses.
          this.injection = m.startInjection(this.overheadCycles);
          this.state = TRY;
          break;
        }
        case TRY: {
          if (node.ahead > 0) return node.ahead;
          const t = this.t!;
          const overhead = this.overheadCycles;
          const handler = plan.handler;
          this.state = SENT;
          const packet = m.packet(t.proc, this.steps[0][0], handler, packetWords(t, t.sent, this.n, m.packets.wordsOf(this.n + 1)), true);
          if (!m.finishInjection(packet, this.injection, overhead)) {
            // Refused: the send's rounds go on from its second step, as a SendOp from step 1 would.
            this.packet = packet;
            this.newRound(1);
          }
          break;
        }
        case SENT: {
          const t = this.t!;
          t.sent += this.n;
          t.packets++;
          // The DMA engine's rate is matched statically: it handles arrivals and never
          // waits, and does not pace after its last packet.
          if (dma !== null && t.sent === t.size) {
            this.state = NEXT;
            break;
          }
          // Pacing (thesis 6.1.3): "if there are arrived packets, handle all of them [poll
          // until empty] (or one: poll once); otherwise, delay". Each check of the interface
          // status is part of a successful receive, and only the final check that finds
          // nothing costs a failed poll; the delay follows only with bandwidth matching on.
          this.options = this.s.options;
          this.max = this.options.poll === 'once' ? 1 : NO_LIMIT;
          this.arrivals = 0;
          this.state = PACE;
          break;
        }
        case PACE: {
          if (node.ahead > 0) return node.ahead;
          if (this.arrivals === this.max) {
            this.state = PACED;
            break;
          }
          const r = m.pollNow(m.pacingNet(this.pollRightOnly));
          if (r === false) {
            this.state = PACED;
            break;
          }
          if (r !== true) {
            this.sub = r;
            this.state = PACE_HANDLED;
            return SUB;
          }
          this.arrivals++;
          break;
        }
        case PACE_HANDLED:
          this.s.guard.handlerDepth--;
          this.arrivals++;
          this.state = PACE;
          break;
        case PACED:
          if (dma === null && this.arrivals === 0 && this.options.bandwidthMatching) node.chargeSpin(this.options.delayCycles);
          this.state = NEXT;
          break;
        case NEXT:
          this.k++;
          this.state = TOP;
          break;
      }
    }
  }
}

/**
 * The words of the packet carrying `n` of the transfer's words from `at`, into `words`
 * (n + 1 long: a spare array of the machine's, or a new one): the port-and-offset word,
 * then the data. The packet keeps them until the receiver handles it.
 */
function packetWords(t: BlockInTransit, at: number, n: number, words: number[]): number[] {
  // portAndOffsetCons without its checks: BlockSender.transfer checked the port and that
  // offset .. offset + size stays within the offsets a word can hold.
  words[0] = (((t.offset + at) << 12) | t.port) >>> 0;
  for (let j = 0; j < n; j++) words[j + 1] = t.buffer[at + j] >>> 0;
  return words;
}
