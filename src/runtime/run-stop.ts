/**
 * What a run looks like when it stops part-way: every node's clock, state, the call
 * it waits in, its waiting packets and its last log entry (sim replay --stop-at), and
 * the short form of that report that ends a run stopped at a cycle or event limit or
 * by a signal (every node's clock and call, as a deadlock report lists every call).
 */
import type { Machine } from '../machine/machine.ts';
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
      call: n.hasExited ? 'exited' : (n.waitingIn ?? 'running'),
      pending: [0, 1].map((net) =>
        machine.network.waitingList(i, net).map((p) => (typeof p.handler === 'function' && p.handler.name !== '' ? p.handler.name : 'anonymous handler')),
      ) as [string[], string[]],
      lastLog: last[i],
    })),
  };
}

/** Up to this many nodes, the report has a line per node; beyond, a line per call with the clocks' range. */
const NODE_LINES = 64;

/**
 * "waiting in pollBoth"; an app's own label that says it already (pollBothUntil(...,
 * 'waiting for edges')) as it is, not "waiting in waiting for edges".
 */
export function waitingIn(call: string): string {
  return call.startsWith('waiting') ? call : `waiting in ${call}`;
}

/** "  node 3: cycle 1200, waiting in pollBoth" lines (grouped by call for large machines). */
export function formatNodeClocks(nodes: readonly NodeSnapshot[]): string {
  const doing = (n: NodeSnapshot) => (n.call === 'exited' || n.call === 'running' ? n.call : waitingIn(n.call));
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
