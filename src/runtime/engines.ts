/**
 * One node's Strata engines, built from narrow pieces of the machine: messaging,
 * block and asynchronous transfers with the port table, the collective engines (the
 * control network's or the combining trees'), output, states, local work, and the
 * node's thread, which is the guard that counts operations too (NodeProgram). The
 * façade apps see (runtime.ts) delegates to these;
 * engines never see the façade, only an opaque target to hand app callbacks. Also
 * what a node does when its program ends (StrataExit(0)).
 */
import type { Machine } from '../machine/machine.ts';
import { COMBINE_HEADER_WORDS } from '../platform/packets.ts';
import type { Node, Op } from '../machine/node.ts';
import type { Topology } from '../network/topology.ts';
import { AsyncTransfers } from './async-transfer.ts';
import { BlockSender } from './block-transfer.ts';
import { Broadcasts } from './broadcasts.ts';
import { Collectives } from './collectives.ts';
import { ControlOps } from './control-ops.ts';
import type { BroadcastEngine, CombineEngine } from './global-ops.ts';
import type { HandlerTable } from './handler-table.ts';
import { LocalWork } from './local-work.ts';
import { Messaging } from './messaging.ts';
import { NodeOutput } from './node-output.ts';
import { NodeProgram } from './node-program.ts';
import { PollUntilOp } from './poll-until-op.ts';
import { PortTable } from './ports.ts';
import type { RunOutput } from './printing.ts';
import { NodeStates, State } from './states.ts';
import { TreeBroadcast } from './tree-broadcast.ts';
import { TreeCombine, type TreeContext } from './tree-combine.ts';

export class NodeEngines {
  readonly self: number;
  readonly nodes: number;
  readonly node: Node;
  readonly topology: Topology;
  readonly clockMHz: number;
  readonly handlers: HandlerTable;
  /** Argument words an active message carries on this platform. */
  readonly maxArgWords: number;
  /** The node's thread, which is its guard too (see NodeProgram). */
  readonly guard: NodeProgram;
  readonly states: NodeStates;
  readonly work: LocalWork;
  readonly output: NodeOutput;
  readonly messaging: Messaging;
  readonly ports: PortTable;
  readonly blocks: BlockSender;
  /** The asynchronous transfers (see asyncTransfers), made at first use. */
  private async: AsyncTransfers | null = null;
  /** The StrataExit loop, once main has returned. */
  private exitLoop: PollUntilOp | null = null;
  /** What app callbacks receive, once connected (the asynchronous transfers are handed it when made). */
  private appTarget: unknown = null;
  /** The machinery of global ORs and combines; its tree handlers find it here. */
  readonly combines: CombineEngine;
  /** The machinery of broadcasts and the asynchronous global OR; likewise. */
  readonly broadcasts: BroadcastEngine;
  readonly collectives: Collectives;
  readonly broadcasting: Broadcasts;
  private readonly machine: Machine;

  constructor(machine: Machine, node: Node, handlers: HandlerTable, output: RunOutput) {
    const platform = machine.platform;
    const costs = platform.messaging;
    this.machine = machine;
    this.node = node;
    this.self = node.id;
    this.nodes = machine.size;
    this.topology = machine.topology;
    this.clockMHz = platform.clockMHz;
    this.handlers = handlers;
    this.maxArgWords = costs.handlerArgWords;
    this.states = new NodeStates(node, machine.trace);
    this.work = new LocalWork(node, platform.cpu, machine.sim.seed);
    this.output = new NodeOutput(node, output, this.states, this.work);
    this.guard = new NodeProgram(node.id, this.output, () => this.exit());
    this.messaging = new Messaging(node, this.nodes, machine.network, machine.packets, costs, machine.perturbation, machine.trace, this.guard);
    this.ports = new PortTable(node, handlers, this.work, costs.dma, this.guard);
    this.blocks = new BlockSender(node, this.messaging, this.guard, costs);
    const control = machine.control;
    const controlParams = platform.controlNetwork;
    if (control !== null && controlParams !== null) {
      const ops = new ControlOps(node, control, controlParams, this.guard);
      this.combines = ops;
      this.broadcasts = ops;
    } else {
      const tree: TreeContext = {
        self: node.id,
        nodes: this.nodes,
        chunkWords: costs.handlerArgWords - COMBINE_HEADER_WORDS,
        guard: this.guard,
        messaging: this.messaging,
        work: this.work,
      };
      this.combines = new TreeCombine(tree);
      this.broadcasts = new TreeBroadcast(tree);
    }
    this.collectives = new Collectives(node.id, this.combines, this.guard, this.output, this.states);
    this.broadcasting = new Broadcasts(node.id, this.broadcasts, this.guard, this.output, this.states, this.work, this.collectives);
  }

  /** Hands `app` (the node's Runtime) to the engines that call app code: handlers, port handlers, completions. */
  connect(app: unknown): void {
    this.messaging.setTargets(app, this, this.ports);
    this.ports.setAppTarget(app);
    this.appTarget = app;
    this.async?.setAppTarget(app);
  }

  /**
   * The node's asynchronous block transfers (Appendix A 8), made at the first call that
   * needs them: most runs queue none, and on a 4096-node machine an engine per node (its
   * queue, its map of finished transfers) was build-time garbage for the collector.
   */
  get asyncTransfers(): AsyncTransfers {
    if (this.async === null) {
      const id = this.self;
      const sim = this.machine.sim;
      // The stream is derived from (seed, name) alone, so making it at first use draws the same numbers.
      this.async = new AsyncTransfers(id, this.blocks, this.messaging, () => sim.stream(`node/${id}/transfer-order`));
      this.async.setAppTarget(this.appTarget);
    }
    return this.async;
  }

  /** EmptyPrintQ: outputs the queued messages, then polls until empty; returns how many there were. */
  emptyPrintQ(): Op<number> {
    const queued = this.output.queued;
    const previous = this.states.enter(State.EmptyPrintQ);
    return this.emptyPrintQBody(queued, previous);
  }

  private *emptyPrintQBody(queued: number, previous: number): Op<number> {
    this.output.flush();
    yield* this.guard.nested(this.messaging.drainBoth());
    this.states.leave(previous);
    return queued;
  }

  /** ResetCurrentCycle: a barrier, after which currentCycle counts from 0. */
  *resetCurrentCycle(): Op {
    yield* this.collectives.barrier();
    this.work.resetCycleBase();
  }

  /**
   * Whether the node's StrataExit loop is inside a handler it ran (Machine.isInHandler asks
   * when the last node reaches StrataExit). Its loop, not the handler depth: a handler
   * that threw into the app's own try/catch left that counted.
   */
  get isInExitHandler(): boolean {
    return this.exitLoop?.isInHandler ?? false;
  }

  /** Ends the node's program: Strata's StrataExit(0) — keep serving messages until every node has exited. */
  *exit(): Op {
    this.guard.checkMain();
    this.output.flush();
    yield* this.node.sync();
    this.machine.exit(this.node);
    if (this.machine.allExited) return;
    const loop = new PollUntilOp(this.messaging, () => this.machine.allExited, 'StrataExit (waiting for the other nodes)', true);
    this.exitLoop = loop;
    yield* this.guard.nested(loop);
    // Every node has reached StrataExit; this one was in a handler then (Machine.exit).
    yield* this.node.sync();
    this.machine.leave(this.node);
  }
}
