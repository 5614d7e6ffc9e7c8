/**
 * Handler words: C Strata passes handler addresses in message words (e.g. the
 * completion handler in StrataXferHeaderHandler's third argument). Here a run-wide
 * table gives each handler function a word, in order of first use, so the same run
 * numbers them the same way every time. One table per run, shared by all nodes.
 */
import { RunFailure } from '../kernel/errors.ts';

export class HandlerTable {
  private readonly words = new Map<unknown, number>();
  private readonly handlers: unknown[] = [null];

  /** The word naming `handler` (0 names "no handler"). */
  wordOf(handler: unknown): number {
    if (handler === null || handler === undefined) return 0;
    if (typeof handler !== 'function') throw new RunFailure('a handler word can only name a function');
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
      throw new RunFailure(`${word} is not a handler word`);
    }
    return this.handlers[word];
  }
}
