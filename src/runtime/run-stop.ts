/**
 * What a run looks like when it stops part-way: every node's clock, state, the call
 * it waits in, its waiting packets and its last log entry (sim replay --stop-at), and
 * the short form of that report that ends a run stopped at a cycle or event limit or
 * by a signal (every node's clock and call, as a deadlock report lists every call);
 * and the heap limit a run stops at before Node would abort.
 */
import { getHeapStatistics } from 'node:v8';
import { grouped } from '../kernel/numbers.ts';
import { LINGERING, waitingIn, type Machine } from '../machine/machine.ts';
import type { NodeEngines } from './engines.ts';
import type { RunOutput } from './printing.ts';

/** One node when a run was stopped part-way. */
export interface NodeSnapshot {
  node: number;
  /** The node's own clock. */
  cycle: number;
  state: number;
  /** The runtime call it waits in, "exited", or "running". */
  call: string;
  /** Handler names of the packets waiting in its interfaces, left and right, oldest first. */
  pending: [string[], string[]];
  /** Its last log entry, if any. */
  lastLog: string | null;
}

export interface StopReport {
  cycle: number;
  events: number;
  fingerprint: string;
  nodes: NodeSnapshot[];
}

/** Lines of a deadlock's report beyond its nodes' calls; the first MAX_PORT_LINES of them. */
const MAX_PORT_LINES = 8;

/**
 * The ports of `engines`' nodes still counting words, one line each (a transfer's header
 * and data that do not add up deadlock as "waiting in pollBothUntil", and nothing said
 * which port), or '' when there are none.
 */
export function unfinishedPorts(engines: readonly NodeEngines[]): string {
  const lines: string[] = [];
  for (const e of engines) {
    for (const { port, count } of e.ports.unfinished()) {
      lines.push(count > 0 ? `  node ${e.self} port ${port}: ${grouped(count)} word${count === 1 ? '' : 's'} still expected` : `  node ${e.self} port ${port}: ${grouped(-count)} word${count === -1 ? '' : 's'} arrived beyond its count (a header still to come, or one that announced too few)`);
    }
  }
  if (lines.length === 0) return '';
  const shown = lines.slice(0, MAX_PORT_LINES);
  if (lines.length > MAX_PORT_LINES) shown.push(`  and ${lines.length - MAX_PORT_LINES} more`);
  return `\nports still counting words (block transfers not complete):\n${shown.join('\n')}`;
}

/** Every node of `machine` as it stands now. */
export function stopReport(machine: Machine, engines: readonly NodeEngines[], output: RunOutput): StopReport {
  const last = output.lastEntryByNode();
  return {
    cycle: machine.sim.now,
    events: machine.sim.events,
    fingerprint: machine.sim.fingerprint(),
    nodes: machine.nodes.map((n, i) => ({
      node: i,
      cycle: n.time,
      state: engines[i].states.current,
      // A node lingering in a handler after StrataExit read "running" here, and only a deadlock said where.
      call: n.hasExited && !n.isLingering ? 'exited' : `${n.waitingIn ?? 'running'}${n.isLingering ? LINGERING : ''}`,
      pending: [0, 1].map((net) =>
        machine.network.waitingList(i, net).map((p) => (typeof p.handler === 'function' && p.handler.name !== '' ? p.handler.name : 'anonymous handler')),
      ) as [string[], string[]],
      lastLog: last[i],
    })),
  };
}

/** Up to this many nodes, the report has a line per node; beyond, a line per call with the clocks' range. */
const NODE_LINES = 64;

/** A snapshot's call as a report says it: "exited", "running ...", or "waiting in <call>". */
export function doingOf(call: string): string {
  return call === 'exited' || call.startsWith('running') ? call : waitingIn(call);
}

/** "  node 3: cycle 1200, waiting in pollBoth" lines (grouped by call for large machines). */
export function formatNodeClocks(nodes: readonly NodeSnapshot[]): string {
  const doing = (n: NodeSnapshot) => doingOf(n.call);
  if (nodes.length <= NODE_LINES) return nodes.map((n) => `  node ${n.node}: cycle ${n.cycle}, ${doing(n)}`).join('\n');
  const groups = new Map<string, { count: number; min: number; max: number }>();
  for (const n of nodes) {
    const g = groups.get(doing(n));
    if (g === undefined) groups.set(doing(n), { count: 1, min: n.cycle, max: n.cycle });
    else {
      g.count++;
      g.min = Math.min(g.min, n.cycle);
      g.max = Math.max(g.max, n.cycle);
    }
  }
  return [...groups].map(([what, g]) => `  ${g.count} nodes ${what}, at cycles ${g.min === g.max ? g.min : `${g.min} to ${g.max}`}`).join('\n');
}

/** Events between two looks at the heap (one look takes about a microsecond). */
export const HEAP_CHECK_EVENTS = 1 << 14;
/**
 * The heap a run leaves free: a tenth of what V8 allows, and at least 64 MB, since the
 * limit V8 reports counts the young generation's space too (48 MB of the 304 MB of
 * --max-old-space-size=256), which the long-lived objects that fill it cannot use.
 */
const HEAP_FREE_SHARE = 0.1;
const HEAP_FREE_MIN = 64 * 2 ** 20;

/**
 * The heap's limit (bytes) when less than its free margin is left, else null. A
 * program that keeps ever more (an app's list that only grows) made Node abort with
 * "JavaScript heap out of memory" and a native stack: no report, no repro, a sweep
 * lost with it. Stopped here, it ends as a run at a limit does. One that allocates
 * more than the margin within HEAP_CHECK_EVENTS events can still outrun the check.
 */
export function heapNearLimit(): number | null {
  const { used_heap_size: used, heap_size_limit: limit } = getHeapStatistics();
  return used > limit - Math.max(HEAP_FREE_SHARE * limit, HEAP_FREE_MIN) ? limit : null;
}

/** Bytes as megabytes for a message: "3,712 MB". */
export function megabytes(bytes: number): string {
  return `${grouped(bytes / 2 ** 20)} MB`;
}
