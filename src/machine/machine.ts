/**
 * A machine: N nodes, the data network and (on the CM-5) the control network, built
 * from a platform, plus the run loop that ends when every node has exited and turns
 * "no events left but nodes still waiting" into a deadlock report. It knows nothing
 * about Strata's API or apps: node programs arrive as generators.
 */
import { DeadlockError, RunFailure } from '../kernel/errors.ts';
import { smallInteger } from '../kernel/event-queue.ts';
import { RandomStream } from '../kernel/random-stream.ts';
import { Simulation } from '../kernel/simulation.ts';
import { AnalyticNetwork } from '../network/analytic-network.ts';
import { PacketNetwork } from '../network/packet-network.ts';
import { buildTopology } from '../network/build-topology.ts';
import { ControlNetwork } from '../network/control-network.ts';
import type { DataNetwork } from '../network/data-network.ts';
import { PacketPool } from '../network/packet-pool.ts';
import type { Topology } from '../network/topology.ts';
import { blockTransferWords } from '../platform/packets.ts';
import type { Platform, TimeSliceParams } from '../platform/schema.ts';
import { type CycleLimit, Node, WAKE_CONTROL, WAKE_INJECT_LEFT, WAKE_LEFT, type Op } from './node.ts';

/** `packet`: finite buffers and back-pressure (the default); `analytic`: contention-free latency. */
export type NetworkMode = 'packet' | 'analytic';
export const NETWORK_MODES: readonly NetworkMode[] = ['packet', 'analytic'];

export interface MachineOptions {
  nodes: number;
  seed: number;
  network: NetworkMode;
  /** Schedule-perturbation seed (`sim --perturb`), or undefined for none. */
  perturb?: number;
}

/**
 * Schedule perturbation on the nodes: each send's injection and each handler's
 * dispatch take a further 0 to this many cycles (the network adds up to
 * PERTURB_DELIVERY_CYCLES per packet). Small against every platform's costs, but
 * enough to reorder events that would otherwise tie, which exposes order-dependent bugs.
 */
export const PERTURB_NODE_CYCLES = 3;

/** Receives what a run records for traces (src/trace/); none by default. */
export interface TraceSink {
  /** `node` entered `state` at `cycle` (its own clock). */
  state(node: number, cycle: number, state: number): void;
  /** If present: `count` packets are now in the network for `node` (the packet network only). */
  inFlight?(node: number, cycle: number, count: number): void;
  /** If present: `dst` took a message from `src` at `received` (its clock) that entered the network at `sent`. */
  message?(src: number, dst: number, sent: number, received: number): void;
}

/**
 * "waiting in pollBoth"; an app's own label that says it already (pollBothUntil(...,
 * 'waiting for edges')) as it is, not "waiting in waiting for edges". The deadlock report
 * here and a stopped run's (runtime/run-stop.ts) say it alike.
 */
export function waitingIn(call: string): string {
  return call.startsWith('waiting') ? call : `waiting in ${call}`;
}

/** What a node's call is said with while it lingers in a handler after StrataExit (Machine.exit). */
export const LINGERING = ' (in a handler after StrataExit, which every node had reached)';

export class Machine {
  readonly platform: Platform;
  readonly sim: Simulation;
  readonly topology: Topology;
  readonly nodes: Node[] = [];
  readonly network: DataNetwork;
  readonly control: ControlNetwork | null;
  /** Spare packets and block-packet words, shared by the nodes' messaging (packet-pool.ts). */
  readonly packets: PacketPool;
  /** Where state changes are recorded, if the run is traced (set with setTrace). */
  trace: TraceSink | null = null;
  /** The perturbation stream for node timing (`sim --perturb`), or null. */
  readonly perturbation: RandomStream | null;
  /**
   * Whether `node` is inside a message handler its StrataExit loop ran (the runtime says;
   * Machine knows no handlers). Asked of every node once, when the last one reaches StrataExit.
   */
  isInHandler: (node: Node) => boolean = () => false;
  private exitedCount = 0;
  /** Nodes still in a handler when the last node reached StrataExit, not yet out of it. */
  private lingering = 0;
  private cycleLimitReached = false;
  /** The limit limitCycles set, shared by the nodes (see Node.cycleLimit). */
  private readonly cycleLimit: CycleLimit = { cycles: -1 };

  /** @throws InputError when the node count does not suit the platform's topology */
  constructor(platform: Platform, options: MachineOptions) {
    this.platform = platform;
    this.sim = new Simulation(options.seed);
    this.topology = buildTopology(platform.network, options.nodes);
    const interrupts = platform.timerInterrupt;
    // Each node's interrupt phase comes from the run seed (thesis 3.4.1: the timer is per node).
    const phases = new RandomStream(options.seed, 'timer-interrupt phases');
    for (let i = 0; i < options.nodes; i++) {
      // A literal, not a spread of the platform's object: V8's spread gives each clone past
      // the first few dozen a map of its own (4,049 maps on 4,096 nodes, measured).
      // The phase as a small integer, not the stream's double: a number object per node otherwise.
      const own = interrupts === null ? null : { periodCycles: interrupts.periodCycles, cycles: interrupts.cycles, phase: smallInteger(phases.int(interrupts.periodCycles)) };
      this.nodes.push(new Node(this.sim, i, own, this.cycleLimit));
    }
    // A block packet's words: its port-and-offset word and its data words.
    this.packets = new PacketPool(blockTransferWords(platform.messaging) + 1);
    const onArrival = (node: number, net: number): void => this.nodes[node].notify(WAKE_LEFT << net);
    const n = platform.network;
    this.network =
      options.network === 'analytic'
        ? new AnalyticNetwork(this.sim, this.topology, onArrival)
        : new PacketNetwork(
            this.sim,
            this.topology,
            this.topology.packetRouting(),
            {
              routerPackets: n.bufferPackets,
              injectionPackets: n.injectionBufferPackets,
              receivePackets: n.receiveBufferPackets,
              interfaceLatencyCycles: n.interfaceLatencyCycles,
            },
            onArrival,
            (node, net) => this.nodes[node].notify(WAKE_INJECT_LEFT << net),
          );
    if (options.perturb === undefined) {
      this.perturbation = null;
    } else {
      // Streams from the perturbation seed alone, so the same seed perturbs the same way.
      this.perturbation = new RandomStream(options.perturb, 'perturb/nodes');
      this.network.perturbation = new RandomStream(options.perturb, 'perturb/network');
    }
    this.control =
      platform.controlNetwork === null
        ? null
        : new ControlNetwork(this.sim, platform.controlNetwork, options.nodes, (node) =>
            this.nodes[node].notify(WAKE_CONTROL),
          );
    // Defined last, so the other event kinds keep their ids (and runs without a slice their fingerprints).
    if (platform.timeSlice !== null) this.startTimeSlices(platform.timeSlice, options.seed, options.network);
  }

  /**
   * The operating system's time slices (thesis 3.4.2): at each, every node stops for
   * the slice's charge, which grows with the packets then in the network. They run
   * in the background, so a run whose nodes are all stuck still ends in a deadlock
   * report at the time it got stuck.
   */
  private startTimeSlices(slice: TimeSliceParams, seed: number, network: NetworkMode): void {
    const sim = this.sim;
    const kind = sim.defineEventKind(
      'time-slice',
      () => {
        let inNetwork = 0;
        for (const n of this.nodes) inNetwork += n.packetsSent - n.packetsReceived;
        const cycles = Math.round((slice.cyclesPerPacketPerNode * inNetwork) / this.nodes.length);
        // A slice that lasts to the next one or past it leaves the nodes no time to poll:
        // the packets stay in the network and every later slice is as long, to the cycle
        // limit (a platform file with a 10,000-cycle period ran 10^10 cycles for nothing;
        // one exactly as long as the period ran for ever too).
        if (cycles >= slice.periodCycles) {
          // The analytic network has no buffers to hold packets back at their senders: what the
          // nodes send and have not yet received grows without bound, where the packet network's
          // back-pressure keeps it to what its buffers hold (the shipped CM-5 failed here, "expected a platform ...").
          const why =
            network === 'analytic'
              ? 'on the analytic network, which holds back no packet, the packets sent and not yet received grow without bound; expected the packet network (--network packet) for a run that floods it under time slices'
              : 'expected a platform whose timeSlice.cyclesPerPacketPerNode x packets per node stays below timeSlice.periodCycles';
          throw new RunFailure(
            `at cycle ${sim.now} a time slice costs ${cycles} cycles (${slice.cyclesPerPacketPerNode} per packet, ${(inNetwork / this.nodes.length).toFixed(1)} packets per node in the network), ${cycles === slice.periodCycles ? 'as long as' : 'more than'} the ${slice.periodCycles} between slices: the nodes could never run again; ${why}`,
          );
        }
        if (cycles > 0) for (const n of this.nodes) n.pause(sim.now, cycles);
        sim.schedule(slice.periodCycles, kind);
      },
      { background: true },
    );
    sim.schedule(new RandomStream(seed, 'time-slice phase').int(slice.periodCycles), kind);
  }

  /** Records this run into `sink`, including the network's counters if it takes them. */
  setTrace(sink: TraceSink | null): void {
    this.trace = sink;
    const net = this.network;
    if (sink?.inFlight !== undefined && net instanceof PacketNetwork) {
      const record = sink.inFlight.bind(sink);
      net.onInFlight = (dst, count) => record(dst, this.sim.now, count);
    }
  }

  get size(): number {
    return this.nodes.length;
  }

  /** Starts `program(node)` as node's thread at cycle 0. */
  start(node: Node, program: Op): void {
    node.pid = this.sim.spawn(`node ${node.id}`, program);
  }

  /**
   * Marks `node` as having reached StrataExit at its current clock (the caller has
   * synced). StrataExit handles messages until every node has reached it (Appendix A
   * 3.5), so when the last node does, the run is over, unless a node is then inside a
   * handler that its exit loop ran: a handler runs to its end, so the run waits for it
   * (leave), and one that never ends is a deadlock (it was cut off, and the run passed).
   */
  exit(node: Node): void {
    node.hasExited = true;
    node.exitCycle = node.time;
    this.exitedCount++;
    if (this.exitedCount !== this.nodes.length) return;
    for (const n of this.nodes) {
      if (this.isInHandler(n)) {
        n.isLingering = true;
        this.lingering++;
      }
    }
    if (this.lingering === 0) this.sim.stop();
  }

  /**
   * `node`'s exit loop found every node exited: if it lingered in a handler, it leaves
   * StrataExit now (the caller has synced), and the run is over once no node lingers.
   */
  leave(node: Node): void {
    if (!node.isLingering) return;
    node.isLingering = false;
    node.exitCycle = node.time;
    if (--this.lingering === 0) this.sim.stop();
  }

  /** Every node has reached StrataExit (some may linger in a handler: isOver). */
  get allExited(): boolean {
    return this.exitedCount === this.nodes.length;
  }

  /** Every node has reached StrataExit and none lingers in a handler: the run is over. */
  get isOver(): boolean {
    return this.allExited && this.lingering === 0;
  }

  /** What `node` is doing, for a report of a run that stopped: "exited", or the call it waits in. */
  private callOf(node: Node): string {
    if (node.hasExited && !node.isLingering) return 'exited';
    const call = node.waitingIn ?? 'an unknown call';
    return waitingIn(call) + (node.isLingering ? LINGERING : '');
  }

  /**
   * Runs until every node has exited.
   * @throws DeadlockError if events run out first; rethrows a node program's exception
   */
  run(): void {
    this.runFor(Infinity);
  }

  /**
   * Runs until every node has exited ('finished'), until `maxEvents` events in all
   * have been dispatched ('paused': calling again goes on in exactly the order one
   * call would have taken, since the kernel checks its event limit between events),
   * or until the cycle limit of limitCycles ('cycle-limit').
   * @throws DeadlockError if events run out first; rethrows a node program's exception
   */
  runFor(maxEvents: number): 'finished' | 'paused' | 'cycle-limit' {
    const outcome = this.sim.run({ maxEvents });
    if (outcome === 'event-limit') return 'paused';
    if (this.cycleLimitReached) return 'cycle-limit';
    if (!this.isOver) throw this.deadlock();
    return 'finished';
  }

  /** Whether the run has stopped at the cycle limit of limitCycles. */
  get atCycleLimit(): boolean {
    return this.cycleLimitReached;
  }

  /** The deadlock of a run whose events have run out before every node exited: each node's call. */
  deadlock(): DeadlockError {
    return new DeadlockError(this.sim.now, this.nodes.map((n) => this.callOf(n)));
  }

  /**
   * Stops the run (runFor returns 'cycle-limit') at its first event after cycle
   * `limit`, by a background event at limit + 1. Call it once, after the machine is
   * built: the event kind is defined last, so the others keep their ids, and a run
   * that ends sooner never dispatches it, so its events and fingerprint are unchanged.
   */
  limitCycles(limit: number): void {
    const kind = this.sim.defineEventKind(
      'cycle-limit',
      () => {
        this.cycleLimitReached = true;
        this.sim.stop();
      },
      { background: true },
    );
    this.sim.scheduleAt(limit + 1, kind);
    this.cycleLimit.cycles = limit;
  }

  /** Cycle at which the last node exited. */
  get finishCycle(): number {
    let t = 0;
    for (const n of this.nodes) t = Math.max(t, n.exitCycle);
    return t;
  }
}
