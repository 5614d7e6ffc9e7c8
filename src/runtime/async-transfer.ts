/**
 * Asynchronous block transfers (Appendix A 8): a node's queue of pending transfers,
 * serviced two packets per transfer per round in a pseudo-random order fixed when
 * each is queued (thesis 7.4.1: interleaving packets of several transfers), from a
 * stream derived from the run seed and the node, so nodes interleave differently but
 * reproducibly. Packets go out through the BlockSender.
 */
import { RunFailure } from '../kernel/errors.ts';
import type { Op } from '../machine/node.ts';
import type { AnyAbxCompletion, BlockSender, Transfer } from './block-transfer.ts';
import type { Messaging } from './messaging.ts';
import { strataXferPutHandler } from './ports.ts';
import { shownArgument } from './words.ts';

export class AsyncTransfers {
  private readonly pending: Transfer[] = [];
  /**
   * Transfers whose last word has gone, by id: Appendix A 8's GetABX... accessors describe
   * "the named transfer", and a completion is handed its id, so a finished transfer stays
   * nameable (remaining 0) rather than vanishing (one record per transfer; the buffer is the app's).
   */
  private readonly finished = new Map<number, Transfer>();
  private readonly self: number;
  private readonly sender: BlockSender;
  private readonly messaging: Messaging;
  /** The service-order stream, made at the first queued transfer (most runs never queue one). */
  private order: { int(n: number): number } | null = null;
  private readonly makeOrder: () => { int(n: number): number };
  /** What completion callbacks receive: the node's Runtime (set once it exists). */
  private appTarget: unknown = null;

  /** @param makeOrder makes the node's service-order stream (called at most once, when first needed) */
  constructor(self: number, sender: BlockSender, messaging: Messaging, makeOrder: () => { int(n: number): number }) {
    this.self = self;
    this.sender = sender;
    this.messaging = messaging;
    this.makeOrder = makeOrder;
  }

  setAppTarget(app: unknown): void {
    this.appTarget = app;
  }

  /** AsyncBlockXfer: queues a transfer at a pseudo-random place in the service order; returns its id. */
  queue(proc: number, port: number, offset: number, buffer: ArrayLike<number>, size: number, complete: AnyAbxCompletion | null): number {
    this.messaging.checkMessage(proc, strataXferPutHandler, []);
    // Checked here, where the app's line is on the stack: it failed when the transfer ended, "TypeError: ... is not a function".
    if (complete !== null && typeof complete !== 'function') throw new RunFailure(`node ${this.self}: asyncBlockXfer's completion ${shownArgument(complete)}: expected a function, or null for none`);
    const t = this.sender.transfer(proc, port, offset, buffer, size, complete);
    this.order ??= this.makeOrder();
    this.pending.splice(this.order.int(this.pending.length + 1), 0, t);
    return t.id;
  }

  /** Checks ServiceAllTransfers' argument. */
  checkRounds(rounds: number): void {
    if (!Number.isInteger(rounds) || rounds < -1) {
      throw new RunFailure(`node ${this.self}: serviceAllTransfers(${rounds}): expected a number of rounds, or -1 for all`);
    }
  }

  /** ServiceAllTransfers: `rounds` rounds of two packets per pending transfer; -1 until all are sent. */
  *serviceAll(rounds: number): Op {
    for (let r = 0; (rounds < 0 || r < rounds) && this.pending.length > 0; r++) {
      for (const t of [...this.pending]) {
        yield* this.sender.sendPackets(t, false, 2); // none, if it has finished meanwhile
        // A handler's CompleteTransfer may have finished it meanwhile: finished twice, it
        // ran its completion again and dropped another transfer (splice at index -1).
        if (t.remaining === 0 && !this.finished.has(t.id)) this.finish(t);
      }
    }
  }

  /** CompleteTransfer: sends the rest of one transfer now (nothing, if it has finished). */
  *completeOne(id: number): Op {
    const t = this.find(id);
    if (this.finished.has(id)) return;
    yield* this.sender.sendPackets(t, false, Infinity);
    if (this.pending.includes(t)) this.finish(t);
  }

  /** The transfer with this id, pending or finished (GetABX... accessors). */
  find(id: number): Transfer {
    const t = this.finished.get(id) ?? this.pending.find((x) => x.id === id);
    if (t === undefined) throw new RunFailure(`node ${this.self}: no asynchronous transfer ${id}: expected an id asyncBlockXfer returned on this node`);
    return t;
  }

  private finish(t: Transfer): void {
    this.pending.splice(this.pending.indexOf(t), 1);
    this.finished.set(t.id, t);
    const complete = t.complete as ((rt: unknown, id: number, buffer: ArrayLike<number>) => unknown) | null;
    if (complete === null) return;
    // A function* completion made a generator that never ran, and the run went on as if it
    // had. Other values are let be: the type is a void function's, which TypeScript lets
    // return anything (`(rt, id) => sent.push(id)`).
    const r = complete(this.appTarget, t.id, t.buffer);
    if (r instanceof Promise || (r !== null && typeof r === 'object' && typeof (r as { next?: unknown }).next === 'function')) {
      const what = r instanceof Promise ? 'is an async function (its body runs after the run has gone on)' : 'is a function* (its body never ran)';
      throw new RunFailure(`node ${this.self}: asynchronous transfer ${t.id}'s completion ${complete.name || '(anonymous)'} ${what}; a completion is a plain function (it runs within the call that sent the last packet, and cannot send or poll)`);
    }
  }
}
