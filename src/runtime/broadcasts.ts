/**
 * Broadcasts as apps call them (Appendix A 4.4): one word, a double (two words) or a
 * vector to every other node, and the receiving side that waits for them in state 5
 * while a traced run records. The machinery underneath is a BroadcastEngine (control
 * network or tree). Like collectives.ts, methods check and log when called and return
 * the operation's body. Also the asynchronous global OR, which rides the same engine.
 */
import { RunFailure } from '../kernel/errors.ts';
import type { Op } from '../machine/node.ts';
import { CombineOp } from '../network/combine.ts';
import type { Collectives, WordArray } from './collectives.ts';
import type { BroadcastEngine } from './global-ops.ts';
import type { LocalWork } from './local-work.ts';
import type { NodeOutput } from './node-output.ts';
import type { OpGuard } from './op-guard.ts';
import { State, type NodeStates } from './states.ts';
import { doubleToWords, wordsToDouble } from './words.ts';

export class Broadcasts {
  private readonly self: number;
  private readonly engine: BroadcastEngine;
  private readonly guard: OpGuard;
  private readonly output: NodeOutput;
  private readonly states: NodeStates;
  private readonly work: LocalWork;
  /** For the checks broadcasts share with combines. */
  private readonly collectives: Collectives;

  constructor(self: number, engine: BroadcastEngine, guard: OpGuard, output: NodeOutput, states: NodeStates, work: LocalWork, collectives: Collectives) {
    this.self = self;
    this.engine = engine;
    this.guard = guard;
    this.output = output;
    this.states = states;
    this.work = work;
    this.collectives = collectives;
  }

  broadcast(value: number): Op {
    this.collectives.checkCombine([value], CombineOp.ReduceOr, 'broadcast');
    this.output.logGlobal(`broadcast(${value})`);
    return this.engine.broadcast([value]);
  }

  queryBroadcast(): Op<boolean> {
    return this.engine.queryBroadcast();
  }

  receiveBroadcast(): Op<number> {
    // The word as it was broadcast, as a message's arguments arrive (Appendix A 3.3's Word):
    // 0xffffffff came as -1, signed, where the same word sent in a message came as itself.
    return this.receiveWords(1, 'receiveBroadcast', (w) => w[0]);
  }

  broadcastDouble(value: number): Op {
    if (typeof value !== 'number') throw new RunFailure(`node ${this.self}: broadcastDouble(${String(value)}): expected a number`);
    this.output.logGlobal(`broadcastDouble(${value})`);
    // One broadcast's time, not a two-word vector's: Table 1 gives BroadcastDouble 90
    // cycles, as Broadcast (it charged 90 + 49).
    return this.engine.broadcast(doubleToWords(value), 1);
  }

  receiveBroadcastDouble(): Op<number> {
    return this.receiveWords(2, 'receiveBroadcastDouble', wordsToDouble);
  }

  broadcastVector(to: WordArray, from: ArrayLike<number>, count: number): Op {
    this.collectives.checkVector(to, from, count, 'broadcastVector');
    const words = Array.from({ length: count }, (_, i) => from[i]);
    this.collectives.checkCombine(words, CombineOp.ReduceOr, 'broadcast');
    for (let i = 0; i < count; i++) to[i] = words[i];
    this.output.logGlobal(`broadcastVector(${count} words)`);
    return this.engine.broadcast(words);
  }

  receiveBroadcastVector(to: WordArray, count: number): Op {
    this.collectives.checkVector(to, to, count, 'receiveBroadcastVector');
    return this.receiveWords(count, 'receiveBroadcastVector', (w) => {
      for (let i = 0; i < count; i++) to[i] = w[i];
    });
  }

  private *receiveWords<T>(count: number, what: string, take: (words: readonly number[]) => T): Op<T> {
    this.output.logGlobal(`${what}: waiting`);
    const previous = this.states.enter(State.Broadcasting);
    const words = yield* this.guard.nested(this.engine.receiveBroadcast(what));
    this.states.leave(previous);
    this.output.logGlobal(`${what}: done`);
    if (words.length !== count) {
      throw new RunFailure(`node ${this.self}: ${what} expected ${count} words but the broadcast carried ${words.length}`);
    }
    this.work.computeOps({ loads: count });
    return take(words);
  }

  // ---- asynchronous global OR (4.2) ---------------------------------------------------

  setAsyncGlobalOR(notDone: boolean): Op {
    // C's Bool is an int: the tree engine compared 1 with its bit `true`, counted a second
    // set bit, and the OR never turned false again.
    return this.engine.setAsyncOr(Boolean(notDone));
  }

  getAsyncGlobalOR(): Op<boolean> {
    return this.engine.asyncOr();
  }
}
