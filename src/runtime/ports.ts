/**
 * The receiving side of block transfers (Appendix A 7): each node's table of 4096
 * ports, the port-and-offset word that addresses them, and the handlers that store
 * arriving block data (Xfer packets, the 1..n-word tail messages, DMA packets and the
 * header message) and run a port's handler when its count reaches zero.
 */
import { RunFailure } from '../kernel/errors.ts';
import type { Node, Op } from '../machine/node.ts';
import type { CpuCosts, MessagingCosts } from '../platform/schema.ts';
import { engineHandler, withArrayForm, type HandlerTable } from './handler-table.ts';
import type { LocalWork } from './local-work.ts';
import { GuardedHandler, type OpGuard } from './op-guard.ts';
import { shownArgument } from './words.ts';

export const STRATA_NUM_PORTS = 4096;
export const STRATA_MIN_XFER_OFFSET = -(1 << 19);
export const STRATA_MAX_XFER_OFFSET = (1 << 19) - 1;

/** A port's handler as the port table holds it: called on the receiver with its Runtime and the port number. */
export type AnyPortHandler = (rt: never, port: number) => void | Op;

/** One entry of StrataPortTable (Appendix A 7). */
export class StrataPort {
  /** Memory the port writes into; offsets count from `baseIndex`. */
  base: Uint32Array | null = null;
  baseIndex = 0;
  /** Words still expected; goes negative when data arrives before the header. */
  count = 0;
  handler: AnyPortHandler | null = null;
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

/** Packs a port number (low 12 bits) and a signed word offset (high 20 bits). */
export function portAndOffsetCons(port: number, offset: number): number {
  checkPort(port);
  if (!Number.isInteger(offset) || offset < STRATA_MIN_XFER_OFFSET || offset > STRATA_MAX_XFER_OFFSET) {
    throw new RunFailure(`transfer offset ${shownArgument(offset)}: expected an integer from ${STRATA_MIN_XFER_OFFSET} to ${STRATA_MAX_XFER_OFFSET}`);
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
    throw new RunFailure(`port ${shownArgument(port)}: expected a port number from 0 to ${STRATA_NUM_PORTS - 1}`);
  }
}

/** One node's StrataPortTable and what its block-data handlers need. */
export class PortTable {
  // The fields a packet's put reads come first, so that they share the object's first
  // cache lines (every line of a node's that a packet reads is a miss of its own on a
  // 4096-node machine).
  /** The entry used last, and its number: block data comes packet after packet to one port. */
  private lastPort: StrataPort | null = null;
  private lastPortNum = -1;
  /**
   * The node and the platform's CPU table, held here as well as by the local work: a
   * put charges its cycles to the node itself (as LocalWork.compute does), rather than
   * reading them through the LocalWork object, one more line per packet.
   */
  private readonly node: Node;
  private readonly cpu: CpuCosts;
  private readonly dma: MessagingCosts['dma'];
  private readonly work: LocalWork;
  /**
   * Entries by port number, made on first use. A Map, not an array: an app that gives
   * each sender its own port (port = sender) would leave a holey array of up to 4096
   * slots per node, in V8's slow dictionary form past about 1024.
   */
  private readonly ports = new Map<number, StrataPort>();
  private readonly self: number;
  private readonly handlers: HandlerTable;
  /** The node's guard, which port handlers answer to as other handlers do. */
  private readonly guard: OpGuard;
  /** What port handlers receive: the node's Runtime (set once it exists). */
  private appTarget: unknown = null;

  constructor(node: Node, handlers: HandlerTable, work: LocalWork, dma: MessagingCosts['dma'], guard: OpGuard) {
    this.node = node;
    this.cpu = work.cpu;
    this.dma = dma;
    this.work = work;
    this.self = node.id;
    this.guard = guard;
    this.handlers = handlers;
  }

  /**
   * The ports still counting (a count not 0), by number: words still expected (a block
   * not all arrived, or a header that announced more), or, below 0, words that arrived
   * before a header that has not. A deadlock's report names them.
   */
  unfinished(): { port: number; count: number }[] {
    const open: { port: number; count: number }[] = [];
    for (const [port, p] of this.ports) if (p.count !== 0) open.push({ port, count: p.count });
    return open.sort((a, b) => a.port - b.port);
  }

  setAppTarget(app: unknown): void {
    this.appTarget = app;
  }

  /** Entry `n` of the table (0..4095). */
  port(n: number): StrataPort {
    if (n === this.lastPortNum) return this.lastPort as StrataPort;
    checkPort(n);
    let p = this.ports.get(n);
    if (p === undefined) {
      p = new StrataPort();
      this.ports.set(n, p);
    }
    this.lastPort = p;
    this.lastPortNum = n;
    return p;
  }

  /** StrataXferHeaderHandler's work: adds `size` to the count and sets the handler if none; true if the count is now zero. */
  header(port: number, size: number, handlerWord: number): boolean {
    const p = this.port(port);
    p.count += size | 0;
    if (p.handler === null) p.handler = this.handlers.handlerOf(handlerWord) as AnyPortHandler | null;
    this.work.computeOps({ loads: 2, stores: 2, intOps: 2, branches: 1 });
    return p.count === 0;
  }

  /**
   * Stores Xfer data (or, with `isDma`, a DMA packet's data), `words` from index
   * `first` on, at the port and counts it down; returns the port's number if its count
   * is now zero, else -1.
   */
  put(portAndOffset: number, words: readonly number[], first: number, isDma: boolean): number {
    const n = words.length - first;
    const portNum = portAndOffsetPort(portAndOffset);
    const p = this.port(portNum);
    const memory = p.base;
    const at = p.baseIndex + portAndOffsetOffset(portAndOffset);
    if (memory === null) throw new RunFailure(`node ${this.self}: block data arrived at port ${portNum}, which has no base`);
    if (at < 0 || at + n > memory.length) {
      throw new RunFailure(`node ${this.self}: block data for port ${portNum} falls outside its memory (words ${at}..${at + n - 1} of ${memory.length})`);
    }
    for (let i = 0; i < n; i++) memory[at + i] = words[first + i];
    p.count -= n;
    // A DMA interface stores the words itself: the processor pays only its per-packet cost.
    // LocalWork.compute's charge and limit check (the cycles are whole: the platform's
    // schema makes the DMA cost an integer, and putCycles rounds).
    const node = this.node;
    node.charge(isDma ? (this.dma?.receiveCycles ?? 0) : putCycles(this.cpu, n));
    if (node.isPastCycleLimit) this.work.computedPastLimit();
    return p.count === 0 ? portNum : -1;
  }

  /** The put handlers' work: stores `words` from `first` on; the port handler's run if the port is now complete. */
  putWords(portAndOffset: number, words: readonly number[], first: number, isDma: boolean): Op | undefined {
    const done = this.put(portAndOffset, words, first, isDma);
    return done >= 0 ? this.complete(done) : undefined;
  }

  /**
   * Runs port `portNum`'s handler, if it has one (its count has reached zero), as
   * messaging runs an app's handler: a value it returns, an operation it creates and
   * does not run, or a bare yield of its own is named. A port handler written
   * `(rt) => rt.globals.done++` failed as "TypeError: number 0 is not iterable", a
   * handler of 5 as "h is not a function", and `yield 5` passed five cycles unnoticed.
   */
  *complete(portNum: number): Op {
    const h: unknown = this.port(portNum).handler;
    if (h === null || h === undefined) return;
    if (typeof h !== 'function') throw new RunFailure(`node ${this.self}: port ${portNum}'s handler is ${shownArgument(h)}; expected a function, or null for none`);
    const handler = h as (rt: unknown, port: number) => unknown;
    const g = this.guard.handlerResult(handler, handler(this.appTarget, portNum), portNum);
    if (g !== null) yield* new GuardedHandler(this.guard, handler.name, g, `port ${portNum}'s handler`);
  }
}

/**
 * The block-data handlers are engine handlers: their first argument is the receiving
 * node's engines (typed `unknown` so that apps can send them like their own handlers).
 */
/**
 * What storing n Xfer words costs the processor: n stores, 2 loads, 2 integer ops and
 * a branch, as opCycles sums them (the same additions in the same order, so the same
 * cycles). Read from the platform's table, which all nodes share, rather than copied
 * to each node's: a copy of a fractional cost (the CM-5's 1.5-cycle branch) is a
 * number object per node, a cache miss per packet on a 4096-node machine. Exported for
 * bench/pacing-paper.ts, which charges a received packet as the simulator does.
 */
export function putCycles(cpu: CpuCosts, n: number): number {
  return Math.round(2 * cpu.intOpCycles + 2 * cpu.loadCycles + n * cpu.storeCycles + cpu.branchCycles);
}

function portsOf(engines: unknown): PortTable {
  return (engines as { readonly ports: PortTable }).ports;
}

/**
 * StrataXferHeaderHandler(port, size, handler word): adds `size` to the port's count,
 * sets its handler if it has none, and runs the handler if the count is now zero.
 */
export const strataXferHeaderHandler = engineHandler(function* strataXferHeaderHandler(e: unknown, port: number, size: number, handlerWord: number): Op {
  if (portsOf(e).header(port, size, handlerWord)) yield* portsOf(e).complete(port);
});

/**
 * The receiver's side of Xfer packets and of the 1..n-word tail messages
 * (StrataXferPut1/2/3Handler): store the words at the port's base + offset, count
 * them down, and run the port's handler when the count reaches zero. A plain
 * function that returns the port handler's run only when there is one (no generator
 * per packet otherwise); messaging runs a returned generator as a handler's own.
 * Messaging calls its array form (the receiving node's port table, and the packet's
 * words as they are, port-and-offset first), which does the same.
 */
export const strataXferPutHandler = withArrayForm(
  engineHandler(function strataXferPutHandler(e: unknown, portAndOffset: number, ...words: number[]): Op | undefined {
    return portsOf(e).putWords(portAndOffset, words, 0, false);
  }),
  (ports, args) => (ports as PortTable).putWords(args[0], args, 1, false),
);

/**
 * The receiver's side of a DMA packet: the interface stores the words (the processor
 * pays only the platform's per-packet DMA receive cost), then counts down as for
 * Xfer packets.
 */
export const strataDmaPutHandler = withArrayForm(
  engineHandler(function strataDmaPutHandler(e: unknown, portAndOffset: number, ...words: number[]): Op | undefined {
    return portsOf(e).putWords(portAndOffset, words, 0, true);
  }),
  (ports, args) => (ports as PortTable).putWords(args[0], args, 1, true),
);

