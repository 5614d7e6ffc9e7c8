/**
 * Block transfers (Appendix A 7): each node's table of 4096 ports, Xfer packets that
 * carry a port-and-offset word plus data words into a port's memory, the header and
 * tail handlers, and the sending loop with bandwidth matching (thesis 6.1.3): after
 * each injected packet, handle arrivals if any, else wait a delay that keeps the
 * injection rate just below the receiver's rate. On a platform with DMA (Alewife,
 * thesis 4.3) the same calls send long DMA packets instead: the processor launches
 * each and neither side touches the words.
 */
import { RunFailure } from '../kernel/errors.ts';
import type { Op } from '../machine/node.ts';
import { LEFT, RIGHT } from '../network/packet.ts';
import type { Runtime } from './runtime.ts';

export const STRATA_NUM_PORTS = 4096;
export const STRATA_MIN_XFER_OFFSET = -(1 << 19);
export const STRATA_MAX_XFER_OFFSET = (1 << 19) - 1;

/** Called on the receiver when a port's count reaches zero, with the port number. */
export type PortHandler<G = unknown> = (rt: Runtime<G>, port: number) => void | Op;

/** One entry of StrataPortTable (Appendix A 7). */
export class StrataPort {
  /** Memory the port writes into; offsets count from `baseIndex`. */
  base: Uint32Array | null = null;
  baseIndex = 0;
  /** Words still expected; goes negative when data arrives before the header. */
  count = 0;
  handler: PortHandler | null = null;
  user1 = 0;
  user2 = 0;
  user3 = 0;
  user4 = 0;
  user5 = 0;

  /** Points the port at `memory`, offset 0 being `memory[baseIndex]`. */
  setBase(memory: Uint32Array, baseIndex = 0): void {
    this.base = memory;
    this.baseIndex = baseIndex;
  }
}

/** How SendBlockXfer paces itself (thesis 6.1.3). */
export interface BlockTransferOptions {
  /** Wait after a packet when nothing has arrived (bandwidth matching). */
  bandwidthMatching: boolean;
  /** The wait, in cycles (the platform's two-way delay by default). */
  delayCycles: number;
  /** After a packet, handle one round of arrivals, or poll until both networks are empty. */
  poll: 'once' | 'empty';
}

/** Packs a port number (low 12 bits) and a signed word offset (high 20 bits). */
export function portAndOffsetCons(port: number, offset: number): number {
  checkPort(port);
  if (!Number.isInteger(offset) || offset < STRATA_MIN_XFER_OFFSET || offset > STRATA_MAX_XFER_OFFSET) {
    throw new RunFailure(`transfer offset ${offset}: expected an integer from ${STRATA_MIN_XFER_OFFSET} to ${STRATA_MAX_XFER_OFFSET}`);
  }
  return ((offset << 12) | port) >>> 0;
}

export function portAndOffsetPort(word: number): number {
  return word & 0xfff;
}

export function portAndOffsetOffset(word: number): number {
  return (word | 0) >> 12;
}

function checkPort(port: number): void {
  if (!Number.isInteger(port) || port < 0 || port >= STRATA_NUM_PORTS) {
    throw new RunFailure(`port ${port}: expected a port number from 0 to ${STRATA_NUM_PORTS - 1}`);
  }
}

/**
 * StrataXferHeaderHandler(port, size, handler word): adds `size` to the port's count,
 * sets its handler if it has none, and runs the handler if the count is now zero.
 */
export function* strataXferHeaderHandler(rt: Runtime, port: number, size: number, handlerWord: number): Op {
  const p = rt.port(port);
  p.count += size | 0;
  if (p.handler === null) p.handler = rt.handlerOf(handlerWord) as PortHandler | null;
  rt.computeOps({ loads: 2, stores: 2, intOps: 2, branches: 1 });
  if (p.count === 0) yield* completePort(rt, port, p);
}

/**
 * The receiver's side of Xfer packets and of the 1..n-word tail messages
 * (StrataXferPut1/2/3Handler): store the words at the port's base + offset, count
 * them down, and run the port's handler when the count reaches zero.
 */
export function* strataXferPutHandler(rt: Runtime, portAndOffset: number, ...words: number[]): Op {
  const portNum = portAndOffsetPort(portAndOffset);
  const p = rt.port(portNum);
  storeWords(rt, portNum, p, portAndOffsetOffset(portAndOffset), words);
  rt.computeOps({ stores: words.length, loads: 2, intOps: 2, branches: 1 });
  if (p.count === 0) yield* completePort(rt, portNum, p);
}

/**
 * The receiver's side of a DMA packet: the interface stores the words (the processor
 * pays only the platform's per-packet DMA receive cost), then counts down as for
 * Xfer packets.
 */
export function* strataDmaPutHandler(rt: Runtime, portAndOffset: number, ...words: number[]): Op {
  const portNum = portAndOffsetPort(portAndOffset);
  const p = rt.port(portNum);
  storeWords(rt, portNum, p, portAndOffsetOffset(portAndOffset), words);
  rt.compute(rt.costs.dma?.receiveCycles ?? 0);
  if (p.count === 0) yield* completePort(rt, portNum, p);
}

/** Stores block data at the port's base + offset and counts it down. */
function storeWords(rt: Runtime, portNum: number, p: StrataPort, offset: number, words: readonly number[]): void {
  const memory = p.base;
  const at = p.baseIndex + offset;
  if (memory === null) throw new RunFailure(`node ${rt.self}: block data arrived at port ${portNum}, which has no base`);
  if (at < 0 || at + words.length > memory.length) {
    throw new RunFailure(`node ${rt.self}: block data for port ${portNum} falls outside its memory (words ${at}..${at + words.length - 1} of ${memory.length})`);
  }
  for (let i = 0; i < words.length; i++) memory[at + i] = words[i];
  p.count -= words.length;
}

function* completePort(rt: Runtime, portNum: number, p: StrataPort): Op {
  const h = p.handler;
  if (h === null) return;
  const r = h(rt, portNum);
  if (r !== undefined) yield* r;
}

/** Called on the sender when an asynchronous transfer has sent its last word. */
export type AbxCompletion<G = unknown> = (rt: Runtime<G>, id: number, buffer: ArrayLike<number>) => void;

/** A block being sent: where it goes and how much is left. */
class Transfer {
  readonly id: number;
  readonly proc: number;
  readonly port: number;
  readonly offset: number;
  readonly buffer: ArrayLike<number>;
  readonly size: number;
  readonly complete: AbxCompletion | null;
  /** Words sent so far. */
  sent = 0;
  /** Packets sent so far (alternates the first network tried). */
  packets = 0;

  constructor(id: number, proc: number, port: number, offset: number, buffer: ArrayLike<number>, size: number, complete: AbxCompletion | null) {
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

/**
 * One node's ports, transfer settings and queue of asynchronous transfers
 * (Appendix A 8). Queued transfers are serviced round-robin in a pseudo-random
 * order fixed when each is queued (thesis 7.4.1), from a stream derived from the run
 * seed and the node, so nodes interleave differently but reproducibly.
 */
export class BlockTransfers {
  options: BlockTransferOptions;
  private readonly ports = new Map<number, StrataPort>();
  private readonly pending: Transfer[] = [];
  private nextId = 1;
  private readonly order: { int(n: number): number };

  constructor(options: BlockTransferOptions, order: { int(n: number): number }) {
    this.options = options;
    this.order = order;
  }

  port(n: number): StrataPort {
    checkPort(n);
    let p = this.ports.get(n);
    if (p === undefined) {
      p = new StrataPort();
      this.ports.set(n, p);
    }
    return p;
  }

  /** Checks a transfer's arguments (Appendix A 7 ranges) and describes it. */
  private transfer(rt: Runtime, proc: number, port: number, offset: number, buffer: ArrayLike<number>, size: number, complete: AbxCompletion | null): Transfer {
    if (!Number.isInteger(size) || size < 0 || size > buffer.length) {
      throw new RunFailure(`node ${rt.self}: block of ${size} words: expected 0 to ${buffer.length} (the buffer's length)`);
    }
    portAndOffsetCons(port, offset);
    if (offset + size > STRATA_MAX_XFER_OFFSET) {
      throw new RunFailure(`node ${rt.self}: offset ${offset} + size ${size} exceeds STRATA_MAX_XFER_OFFSET (${STRATA_MAX_XFER_OFFSET})`);
    }
    return new Transfer(this.nextId++, proc, port, offset, buffer, size, complete);
  }

  /**
   * Sends a whole block now: Xfer packets of the platform's packet width less the
   * port-and-offset word (4 data words on the CM-5), alternating networks, then a
   * tail active message for the rest. `pollRightOnly` is SendBlockXferPollRight.
   */
  *send(rt: Runtime, proc: number, port: number, offset: number, buffer: ArrayLike<number>, size: number, pollRightOnly: boolean): Op {
    const t = this.transfer(rt, proc, port, offset, buffer, size, null);
    while (t.remaining > 0) yield* this.sendNextPacket(rt, t, pollRightOnly);
  }

  /** AsyncBlockXfer: queues a transfer at a pseudo-random place in the service order; returns its id. */
  queue(rt: Runtime, proc: number, port: number, offset: number, buffer: ArrayLike<number>, size: number, complete: AbxCompletion | null): number {
    const t = this.transfer(rt, proc, port, offset, buffer, size, complete);
    this.pending.splice(this.order.int(this.pending.length + 1), 0, t);
    return t.id;
  }

  /** ServiceAllTransfers: `rounds` rounds of two packets per pending transfer; -1 until all are sent. */
  *serviceAll(rt: Runtime, rounds: number): Op {
    for (let r = 0; (rounds < 0 || r < rounds) && this.pending.length > 0; r++) {
      for (const t of [...this.pending]) {
        for (let k = 0; k < 2 && t.remaining > 0; k++) yield* this.sendNextPacket(rt, t, false);
        if (t.remaining === 0) this.finish(rt, t);
      }
    }
  }

  /** CompleteTransfer: sends the rest of one transfer now. */
  *completeOne(rt: Runtime, id: number): Op {
    const t = this.find(rt, id);
    while (t.remaining > 0) yield* this.sendNextPacket(rt, t, false);
    if (this.pending.includes(t)) this.finish(rt, t);
  }

  /** The queued transfer with this id (GetABX... accessors). */
  find(rt: Runtime, id: number): Transfer {
    const t = this.pending.find((x) => x.id === id);
    if (t === undefined) throw new RunFailure(`node ${rt.self}: no pending asynchronous transfer ${id}`);
    return t;
  }

  private finish(rt: Runtime, t: Transfer): void {
    this.pending.splice(this.pending.indexOf(t), 1);
    t.complete?.(rt, t.id, t.buffer);
  }

  /** Sends the transfer's next Xfer or DMA packet (or its tail message), then paces. */
  private *sendNextPacket(rt: Runtime, t: Transfer, pollRightOnly: boolean): Op {
    const at = t.sent;
    const dma = rt.costs.dma;
    if (dma !== null) {
      const n = Math.min(t.remaining, dma.dataWordsPerPacket);
      const words = [portAndOffsetCons(t.port, t.offset + at)];
      for (let j = at; j < at + n; j++) words.push(t.buffer[j] >>> 0);
      const net = t.packets % 2 === 0 ? LEFT : RIGHT;
      yield* rt.messaging.sendXferPacket(t.proc, net, words, pollRightOnly, strataDmaPutHandler, dma.sendCycles);
      t.sent += n;
      t.packets++;
      // The DMA engine's rate is matched statically: handle arrivals, never wait.
      if (t.remaining > 0) yield* this.pace(rt, pollRightOnly, false);
      return;
    }
    const perPacket = rt.costs.packetWords - 1;
    if (t.remaining >= perPacket) {
      // A new array per packet: the packet keeps it until the receiver handles it.
      const words = [portAndOffsetCons(t.port, t.offset + at)];
      for (let j = at; j < at + perPacket; j++) words.push(t.buffer[j] >>> 0);
      yield* rt.messaging.sendXferPacket(t.proc, t.packets % 2 === 0 ? LEFT : RIGHT, words, pollRightOnly);
      t.sent += perPacket;
      t.packets++;
      yield* this.pace(rt, pollRightOnly, this.options.bandwidthMatching);
      return;
    }
    const tail = [portAndOffsetCons(t.port, t.offset + at)];
    for (let j = at; j < t.size; j++) tail.push(t.buffer[j] >>> 0);
    t.sent = t.size;
    t.packets++;
    if (pollRightOnly) yield* rt.sendBothRLPollRight(t.proc, strataXferPutHandler, ...tail);
    else yield* rt.sendBothRLPollBoth(t.proc, strataXferPutHandler, ...tail);
  }

  /**
   * After each packet (thesis 6.1.3): "if there are arrived packets, handle all of them
   * [poll until empty] (or one: poll once); otherwise, delay". Finding nothing costs one
   * failed poll; the delay follows only with bandwidth matching on.
   */
  private *pace(rt: Runtime, pollRightOnly: boolean, delay: boolean): Op {
    const o = this.options;
    const handled = yield* rt.messaging.handleWaiting(pollRightOnly ? 'right' : 'both', o.poll === 'once' ? 1 : Infinity);
    if (handled === 0 && delay) rt.node.chargeSpin(o.delayCycles);
  }
}
