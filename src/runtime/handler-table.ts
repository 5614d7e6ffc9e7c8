/**
 * Handlers as the network carries them. C Strata passes handler addresses in message
 * words (e.g. the completion handler in StrataXferHeaderHandler's third argument):
 * here a run-wide table gives each handler function a word, in order of first use, so
 * the same run numbers them the same way every time (one table per run, shared by all
 * nodes). And a handler runs on the receiving node with a first argument that depends
 * on whose it is: an app's handler gets the app's Runtime, an engine's own handler
 * (block data, combining trees) gets that node's engines.
 */
import { RunFailure } from '../kernel/errors.ts';
import type { Op } from '../machine/node.ts';
import { shownArgument } from './words.ts';

/**
 * Any handler a packet can carry, as messaging calls it: the first argument is the
 * receiving node's Runtime or engines (see `engineHandler`), the rest are words.
 */
export type PacketHandler = (target: never, ...args: number[]) => void | Op;

const ENGINE_HANDLER = Symbol('engine handler');

/** Marks `handler` as an engine's own: on arrival it gets the receiving node's engines. */
export function engineHandler<F extends PacketHandler>(handler: F): F {
  (handler as F & { [ENGINE_HANDLER]?: true })[ENGINE_HANDLER] = true;
  return handler;
}

const ARRAY_FORM = Symbol('array form');

/**
 * A handler's array form: the same work, with the argument words as the packet carries
 * them; its first argument is the receiving node's port table, not its engines.
 */
export type ArrayFormHandler = (ports: unknown, args: readonly number[]) => void | Op;

/**
 * Gives `handler` (an engine handler) an array form that messaging calls instead of
 * spreading the packet's words into arguments (for the per-packet block-data handlers:
 * no rest array per packet, and no boxed number per word that does not fit a small
 * integer). The array form must do exactly what `handler` does with the same words,
 * given the port table the engines hold.
 */
export function withArrayForm<F extends PacketHandler>(handler: F, arrayForm: ArrayFormHandler): F {
  (handler as F & { [ARRAY_FORM]?: ArrayFormHandler })[ARRAY_FORM] = arrayForm;
  return handler;
}

/** `handler`'s array form (see withArrayForm), or undefined. */
export function arrayFormOf(handler: PacketHandler): ArrayFormHandler | undefined {
  return (handler as PacketHandler & { [ARRAY_FORM]?: ArrayFormHandler })[ARRAY_FORM];
}

/** Whether `handler` was marked with `engineHandler`. */
export function isEngineHandler(handler: PacketHandler): boolean {
  return (handler as PacketHandler & { [ENGINE_HANDLER]?: true })[ENGINE_HANDLER] === true;
}

export class HandlerTable {
  private readonly words = new Map<unknown, number>();
  private readonly handlers: unknown[] = [null];

  /** The word naming `handler` (0 names "no handler"). */
  wordOf(handler: unknown): number {
    if (handler === null || handler === undefined) return 0;
    if (typeof handler !== 'function') throw new RunFailure(`handlerWord(${shownArgument(handler)}): expected a handler function, or null for none`);
    let w = this.words.get(handler);
    if (w === undefined) {
      w = this.handlers.length;
      this.handlers.push(handler);
      this.words.set(handler, w);
    }
    return w;
  }

  /** The handler a word names, or null for 0. */
  handlerOf(word: number): unknown {
    if (!Number.isInteger(word) || word < 0 || word >= this.handlers.length) {
      // It said "12345 is not a handler word", not where the word came from or what one is.
      throw new RunFailure(`handler word ${shownArgument(word)}: expected a word rt.handlerWord gave (0 to ${this.handlers.length - 1})`);
    }
    return this.handlers[word];
  }
}
