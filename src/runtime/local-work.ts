/**
 * Local work on one node: computation charged by cycle count or by operation counts
 * at the platform's CPU costs, ClearMemory (thesis Fig. 6-6), the cycle counters
 * (Appendix A 9.4) and Strata's Random (3.6), whose steps cost cycles too. Nothing
 * here touches the network.
 */
import { InputError, kindOf, RunFailure } from '../kernel/errors.ts';
import type { Node } from '../machine/node.ts';
import type { CpuCosts } from '../platform/schema.ts';
import { ParkMiller } from './park-miller.ts';
import { shownArgument } from './words.ts';

/** Operation counts for `cost` / `computeOps`; each is multiplied by the platform's CPU table. */
export interface OpCounts {
  intOps?: number;
  floatAdds?: number;
  floatMuls?: number;
  floatDivs?: number;
  loads?: number;
  stores?: number;
  branches?: number;
  calls?: number;
}

/**
 * Cycles the given operation counts cost at the CPU table's prices, rounded to an integer.
 * @throws InputError for a cpu that is not a platform's CPU table, or counts that
 *   computeOps refuses (a negative count gave negative cycles; null was a TypeError)
 */
export function opCycles(cpu: CpuCosts, ops: OpCounts): number {
  if (cpu === null || typeof cpu !== 'object' || typeof cpu.intOpCycles !== 'number') throw new InputError(`opCycles: expected a platform's CPU table (platform.cpu), got ${kindOf(cpu)}`);
  const problem = opsProblem(ops);
  if (problem !== null) throw new InputError(`opCycles: ${problem}`);
  return sumOpCycles(cpu, ops);
}

/**
 * What is wrong with operation counts, or null: computeOps and opCycles refuse the same
 * (a count that is not a finite number of 0 or more, or a name not in OpCounts).
 */
function opsProblem(ops: OpCounts): string | null {
  if (ops === null || typeof ops !== 'object' || Array.isArray(ops)) return `expected operation counts { ${OP_NAMES.join(', ')} }, got ${kindOf(ops)}`;
  // The own keys, as Object.entries gives them, without its array of pairs: the sorts
  // charge computeOps once a key, and that array and the name search were 5% of a
  // 64-node Paragon radix sort (the perf bench's W4).
  for (const name in ops) {
    if (!Object.hasOwn(ops, name)) continue;
    const count: unknown = ops[name as keyof OpCounts];
    if (!OP_NAME_SET.has(name)) return `no operation "${name}" (expected ${OP_NAMES.join(', ')})`;
    if (typeof count !== 'number' || !(count >= 0) || count === Infinity) return `${name} ${String(count)}: expected a finite count of 0 or more`;
  }
  return null;
}

/** opCycles on counts already checked. */
function sumOpCycles(cpu: CpuCosts, ops: OpCounts): number {
  return Math.round(
    (ops.intOps ?? 0) * cpu.intOpCycles +
      (ops.floatAdds ?? 0) * cpu.floatAddCycles +
      (ops.floatMuls ?? 0) * cpu.floatMulCycles +
      (ops.floatDivs ?? 0) * cpu.floatDivCycles +
      (ops.loads ?? 0) * cpu.loadCycles +
      (ops.stores ?? 0) * cpu.storeCycles +
      (ops.branches ?? 0) * cpu.branchCycles +
      (ops.calls ?? 0) * cpu.callCycles,
  );
}

const OP_NAMES: readonly string[] = ['intOps', 'floatAdds', 'floatMuls', 'floatDivs', 'loads', 'stores', 'branches', 'calls'] satisfies (keyof OpCounts)[];
const OP_NAME_SET: ReadonlySet<string> = new Set(OP_NAMES);

/** What one Park-Miller step costs (Schrage's method), for `random()`. */
const RANDOM_OPS: OpCounts = { intOps: 5, floatMuls: 2, floatDivs: 2 };

/**
 * Local work went on past the run's cycle limit without a yield. The limit is an event
 * the kernel dispatches, which a loop of rt.compute that never makes a runtime call
 * (waiting for a handler's flag without polling) never let it reach: the run went on
 * for ever, deaf to SIGINT and SIGTERM. AppRun reports it as the cycle limit.
 */
export class WorkPastLimit extends RunFailure {
  override name = 'WorkPastLimit';
  readonly node: number;
  readonly call: string;

  constructor(node: number, call: string, calls: number) {
    super(`node ${node}: ${call}, called ${calls} times past the run's cycle limit without a runtime call`);
    this.node = node;
    this.call = call;
  }
}

/** How many calls of local work past the cycle limit, with no yield between them, stop a run (see LocalWork.pastLimit). */
export const WORK_PAST_LIMIT = 1 << 20;

/**
 * How many calls of local work that cost nothing, made in a row with the node's clock
 * standing still, stop a run (see LocalWork.noTime): a loop of them never reaches the
 * cycle limit, which counts only calls past it. A program's own loop over 16 million
 * zero counts with no time passing between them is far past any the shipped apps make.
 */
export const ZERO_TIME_CALLS = 1 << 24;

/** setRandomSeed(TIME_BASED_SEED) seeds from the node and its cycle counter (Appendix A 3.6). */
export const TIME_BASED_SEED = -1;

export class LocalWork {
  private readonly node: Node;
  /** The platform's CPU table (what each operation costs). */
  readonly cpu: CpuCosts;
  private readonly runSeed: number;
  /**
   * The node's generator (seeded node + 1, Appendix A 3.6), made at its first use: most
   * programs draw nothing, and its seed, a double past 2^30, is a number object per node.
   */
  private rngMade: ParkMiller | null = null;
  /** Where currentCycle counts from (ResetCurrentCycle). */
  private cycleBase = 0;
  /** Calls of local work made with the clock past the run's cycle limit (see pastLimit). */
  private callsPastLimit = 0;
  /** Calls of local work that cost nothing made in a row at the clock `stillAt` (see noTime). */
  private stillCalls = 0;
  private stillAt = -1;

  constructor(node: Node, cpu: CpuCosts, runSeed: number) {
    this.node = node;
    this.cpu = cpu;
    this.runSeed = runSeed;
  }

  private get rng(): ParkMiller {
    return (this.rngMade ??= new ParkMiller(this.node.id + 1));
  }

  /**
   * Local work on a clock past the run's cycle limit. A node that yields then is
   * stopped by the limit's event before its next step, as any run is; one that makes
   * WORK_PAST_LIMIT such calls has not yielded since (a loop that never makes a runtime
   * call), and is stopped here. Counting them, not stopping at the first, leaves where
   * every other run stops as it was.
   */
  /** Whether this node's clock is past the run's cycle limit (Node.cycleLimit). */
  private pastLimit(call: string): void {
    if (++this.callsPastLimit >= WORK_PAST_LIMIT) throw new WorkPastLimit(this.node.id, call, this.callsPastLimit);
  }

  /**
   * A call of local work that cost nothing. `while (!done) rt.compute(0)` (or computeOps
   * of zero counts) let no time pass, so no cycle limit stopped it, and it never yielded,
   * so neither did Ctrl-C or SIGTERM: the process ran until killed. ZERO_TIME_CALLS of
   * them with the clock standing still fail the run, naming the node and the call.
   */
  private noTime(call: string): void {
    const now = this.node.time;
    if (now !== this.stillAt) {
      this.stillAt = now;
      this.stillCalls = 0;
    }
    if (++this.stillCalls >= ZERO_TIME_CALLS) {
      throw new RunFailure(`node ${this.node.id}: ${call} called ${this.stillCalls} times in a row at cycle ${now} at no cost and without a runtime call: a loop that never polls or waits lets no simulated time pass, and nothing else can happen`);
    }
  }

  /** After a charge made for compute's sake elsewhere (the port table's puts) took the clock past the cycle limit. */
  computedPastLimit(): void {
    this.pastLimit('compute');
  }

  /** Charges `cycles` (a non-negative integer) of computation. */
  compute(cycles: number): void {
    // Infinity passed (it is its own floor), and on the CM-5 its timer interrupts were counted
    // in a loop no cycle limit could stop; cycles past 2^53 are not whole numbers any more.
    if (!(cycles >= 0) || cycles !== Math.floor(cycles) || cycles > Number.MAX_SAFE_INTEGER) {
      throw new RunFailure(`node ${this.node.id}: compute(${shownArgument(cycles)}): expected a non-negative integer number of cycles, at most 2^53 - 1`);
    }
    this.node.charge(cycles);
    if (this.node.isPastCycleLimit) this.pastLimit('compute');
    else if (cycles === 0) this.noTime('compute');
  }

  /**
   * Cycles the given operation counts cost on this platform, rounded to an integer.
   * @throws RunFailure for a count that is not a finite number of 0 or more, or a name
   *   not in OpCounts (a negative count moved time backwards, NaN made every clock NaN,
   *   and a misspelt name cost nothing, all with exit 0)
   */
  cost(ops: OpCounts): number {
    const problem = opsProblem(ops);
    if (problem !== null) throw new RunFailure(`node ${this.node.id}: cost/computeOps: ${problem}`);
    return sumOpCycles(this.cpu, ops);
  }

  /** Charges the cost of the given operation counts. */
  computeOps(ops: OpCounts): void {
    const cycles = this.cost(ops);
    if (cycles > Number.MAX_SAFE_INTEGER) throw new RunFailure(`node ${this.node.id}: computeOps: the counts cost ${cycles} cycles; expected at most 2^53 - 1`);
    this.node.charge(cycles);
    if (this.node.isPastCycleLimit) this.pastLimit('computeOps');
    else if (cycles === 0) this.noTime('computeOps');
  }

  /**
   * Zeroes the first `lengthBytes` bytes (whole words) of `region`, charging
   * start + length x per-byte cycles (thesis Fig. 6-6); false if the length does not fit.
   */
  clearMemory(region: Uint32Array | Int32Array | number[], lengthBytes: number): boolean {
    if (!Number.isInteger(lengthBytes) || lengthBytes < 0 || Math.ceil(lengthBytes / 4) > region.length) return false;
    region.fill(0, 0, Math.ceil(lengthBytes / 4));
    this.node.charge(Math.round(this.cpu.clearMemoryStartCycles + lengthBytes * this.cpu.clearMemoryCyclesPerByte));
    if (this.node.isPastCycleLimit) this.pastLimit('clearMemory');
    return true;
  }

  /** CycleCount: the node's 32-bit cycle counter. */
  cycleCount(): number {
    return this.node.time >>> 0;
  }

  /** CurrentCycle: cycles since initialization or the last reset, modulo 2^32. */
  currentCycle(): number {
    return (this.node.time - this.cycleBase) >>> 0;
  }

  /** ResetCurrentCycle's last step: currentCycle counts from now. */
  resetCycleBase(): void {
    this.cycleBase = this.node.time;
  }

  /** The next Park-Miller value, charging what Schrage's method costs. */
  random(): number {
    this.node.charge(sumOpCycles(this.cpu, RANDOM_OPS));
    return this.rng.next();
  }

  /**
   * Reseeds the generator; returns the seed used. TIME_BASED_SEED derives one from
   * the node, its cycle counter and, so that runs stay repeatable, the run seed
   * (Appendix A 3.6 sets it from the cycle counter and the processor number).
   */
  setRandomSeed(seed: number): number {
    if (seed === TIME_BASED_SEED) {
      let h = Math.imul(this.runSeed ^ 0x3c6ef372, 0x9e3779b1);
      h = Math.imul(h ^ this.node.id, 0x85ebca6b);
      h = Math.imul(h ^ (this.node.time >>> 0), 0xc2b2ae35);
      return this.rng.reseed((h ^ (h >>> 16)) >>> 1);
    }
    // NaN and Infinity reduced to a NaN seed, and every rt.random() after was NaN. A
    // fraction is cut to its integer, as C's int parameter takes a double.
    if (typeof seed !== 'number' || !Number.isFinite(seed)) throw new RunFailure(`node ${this.node.id}: setRandomSeed(${shownArgument(seed)}): expected an integer seed, or TIME_BASED_SEED`);
    return this.rng.reseed(seed);
  }
}
