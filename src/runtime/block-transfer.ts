/**
 * The sending side of block transfers (Appendix A 7): a block goes out as Xfer
 * packets of a port-and-offset word plus data words, alternating networks, then a
 * tail active message for the rest, with bandwidth matching (thesis 6.1.3): after
 * each packet, handle arrivals if any, else wait a delay that keeps the injection
 * rate just below the receiver's. On a platform with DMA (Alewife, thesis 4.3) the
 * same calls send long DMA packets instead. Also the single-packet Xfer sends
 * (Appendix A 7.1). Asynchronous transfers (async-transfer.ts) send through this too.
 */
import { RunFailure } from '../kernel/errors.ts';
import type { Node, Op } from '../machine/node.ts';
import type { MessagingCosts } from '../platform/schema.ts';
import type { Messaging } from './messaging.ts';
import type { OpGuard } from './op-guard.ts';
import { BlockSendOp, type BlockSenderParts } from './block-send-op.ts';
import { portAndOffsetCons, STRATA_MAX_XFER_OFFSET, strataXferPutHandler } from './ports.ts';
import { SendOp, type SendPath } from './send-op.ts';
import type { SendSteps } from './send-steps.ts';
import { firstNonWord, notAWord, shownArgument } from './words.ts';

/** How SendBlockXfer paces itself (thesis 6.1.3); set as a whole (rt.blockTransferOptions = ...), read-only once set. */
export interface BlockTransferOptions {
  /** Wait after a packet when nothing has arrived (bandwidth matching). */
  readonly bandwidthMatching: boolean;
  /** The wait, in cycles (the platform's two-way delay by default). */
  readonly delayCycles: number;
  /** After a packet, handle one round of arrivals, or poll until both networks are empty. */
  readonly poll: 'once' | 'empty';
}

/**
 * Options records by value, frozen, so that nodes setting the same options share one:
 * a block sender reads its options after every packet, and a record of each node's own
 * is a cache miss per packet on a 4096-node machine. Bounded: past that many distinct
 * records each is its own (still frozen), which changes nothing but memory.
 */
const sharedOptions = new Map<string, BlockTransferOptions>();
const MAX_SHARED_OPTIONS = 1024;

function frozenOptions(bandwidthMatching: boolean, delayCycles: number, poll: 'once' | 'empty'): BlockTransferOptions {
  const key = `${bandwidthMatching} ${delayCycles} ${poll}`;
  const known = sharedOptions.get(key);
  if (known !== undefined) return known;
  const made = Object.freeze({ bandwidthMatching, delayCycles, poll });
  if (sharedOptions.size < MAX_SHARED_OPTIONS) sharedOptions.set(key, made);
  return made;
}

/** Called on the sender when an asynchronous transfer has sent its last word. */
export type AnyAbxCompletion = (rt: never, id: number, buffer: ArrayLike<number>) => void;

/** A block being sent: where it goes and how much is left. */
export class Transfer {
  readonly id: number;
  readonly proc: number;
  readonly port: number;
  readonly offset: number;
  readonly buffer: ArrayLike<number>;
  readonly size: number;
  readonly complete: AnyAbxCompletion | null;
  /** Words sent so far. */
  sent = 0;
  /** Packets sent so far (alternates the first network tried). */
  packets = 0;

  constructor(id: number, proc: number, port: number, offset: number, buffer: ArrayLike<number>, size: number, complete: AnyAbxCompletion | null) {
    this.id = id;
    this.proc = proc;
    this.port = port;
    this.offset = offset;
    this.buffer = buffer;
    this.size = size;
    this.complete = complete;
  }

  get remaining(): number {
    return this.size - this.sent;
  }
}

export class BlockSender implements BlockSenderParts {
  options: BlockTransferOptions;
  readonly node: Node;
  readonly messaging: Messaging;
  readonly guard: OpGuard;
  readonly costs: MessagingCosts;
  private nextId = 1;

  constructor(node: Node, messaging: Messaging, guard: OpGuard, costs: MessagingCosts) {
    this.node = node;
    this.messaging = messaging;
    this.guard = guard;
    this.costs = costs;
    this.options = frozenOptions(true, costs.bandwidthMatchDelayCycles, 'empty'); // Strata's released default (6.1.3)
  }

  /** Sets the pacing options, checking each. */
  setOptions(options: BlockTransferOptions): void {
    const self = this.node.id;
    if (options === null || typeof options !== 'object') throw new RunFailure(`node ${self}: block-transfer options: expected { bandwidthMatching, delayCycles, poll }, got ${shownArgument(options)}`);
    const { bandwidthMatching, delayCycles, poll } = options;
    if (!Number.isInteger(delayCycles) || delayCycles < 0) {
      throw new RunFailure(`node ${self}: bandwidth-matching delay ${shownArgument(delayCycles)}: expected a non-negative integer`);
    }
    if (typeof bandwidthMatching !== 'boolean') throw new RunFailure(`node ${self}: block-transfer option bandwidthMatching ${shownArgument(bandwidthMatching)}: expected true or false`);
    if (poll !== 'once' && poll !== 'empty') throw new RunFailure(`node ${self}: block-transfer option poll ${shownArgument(poll)}: expected 'once' or 'empty'`);
    this.options = frozenOptions(bandwidthMatching, delayCycles, poll);
  }

  /** Checks a transfer's arguments (Appendix A 7 ranges) and describes it. */
  transfer(proc: number, port: number, offset: number, buffer: ArrayLike<number>, size: number, complete: AnyAbxCompletion | null): Transfer {
    if (!Number.isInteger(size) || size < 0 || size > buffer.length) {
      throw new RunFailure(`node ${this.node.id}: block of ${size} words: expected 0 to ${buffer.length} (the buffer's length)`);
    }
    portAndOffsetCons(port, offset);
    if (offset + size > STRATA_MAX_XFER_OFFSET) {
      throw new RunFailure(`node ${this.node.id}: offset ${offset} + size ${size} exceeds STRATA_MAX_XFER_OFFSET (${STRATA_MAX_XFER_OFFSET})`);
    }
    return new Transfer(this.nextId++, proc, port, offset, buffer, size, complete);
  }

  /**
   * SendBlockXferPollBoth / PollRight: sends a whole block now, Xfer packets of the
   * platform's packet width less the port-and-offset word (4 data words on the CM-5).
   */
  send(proc: number, port: number, offset: number, buffer: ArrayLike<number>, size: number, pollRightOnly: boolean): Op {
    // The checks run at the operation's first step, as in a generator of its own.
    const checked = (): Transfer => {
      this.messaging.checkMessage(proc, strataXferPutHandler, []);
      return this.transfer(proc, port, offset, buffer, size, null);
    };
    return this.sendPackets(checked, pollRightOnly, Infinity);
  }

  /**
   * SendXfer... (Appendix A 7.1): one Xfer packet of up to packetWords - 1 data words
   * for the port and offset packed in `portAndOffset`, sent with `steps`. A SendOp
   * whose first step makes the Xfer checks (XferSendOp), not a generator around one:
   * an app sending key by key (radix sort, 4.5.1) makes one per key.
   */
  xfer(steps: SendSteps, proc: number, portAndOffset: number, data: readonly number[]): Op {
    const words = new Array<number>(data.length + 1);
    words[0] = portAndOffset;
    for (let i = 0; i < data.length; i++) words[i + 1] = data[i];
    return new XferSendOp(this.messaging, steps, proc, words);
  }

  /**
   * Sends up to `count` of the transfer's next packets, each an Xfer or DMA packet
   * followed by pacing, or its tail message (a state machine: block-send-op.ts).
   * `transfer` is the transfer, or makes it (checking its arguments) at the first step.
   */
  sendPackets(transfer: Transfer | (() => Transfer), pollRightOnly: boolean, count: number): Op {
    return new BlockSendOp(this, transfer, pollRightOnly, count);
  }
}

/** An Xfer packet's send (BlockSender.xfer): its first step checks the packet, then sends it as any SendOp. */
class XferSendOp extends SendOp {
  /** @param words the port-and-offset word, then the data words */
  constructor(m: SendPath, steps: SendSteps, proc: number, words: readonly number[]) {
    super(m, steps, proc, strataXferPutHandler, words, 4 * words.length, m.costs.xferSendOverheadCycles, false, 0);
  }

  protected override checkFirst(): void {
    const m = this.m;
    const dataWords = this.args.length - 1;
    const max = m.costs.packetWords - 1;
    if (dataWords < 1 || dataWords > max) {
      throw new RunFailure(`node ${m.node.id}: an Xfer packet of ${dataWords} data words: expected 1 to ${max}`);
    }
    m.checkMessage(this.dest, strataXferPutHandler, []);
    const bad = firstNonWord(this.args);
    if (bad >= 0) throw notAWord(`node ${m.node.id}: Xfer word`, this.args[bad]);
  }
}
