/**
 * The platform schema: every parameter the machine, networks and runtime read,
 * with its unit in its name. Platform files (platforms/*.json) are pure data checked
 * against this schema; platforms/README.md documents each key and where each
 * number comes from in the thesis. This file knows nothing about files or loading.
 */
import * as z from 'zod';
import { LINE_BREAKING_WORDS, ONE_LINE } from '../kernel/one-line.ts';

/*
 * Ranges. Every key has an upper bound that no physical machine comes near, so a
 * typo or an absurd value (a hop latency of 2^52 cycles, a link of 1e-300 bytes per
 * cycle) is refused with the key and the range instead of hanging a run that then
 * never reaches the next event. The shipped platforms sit orders of magnitude inside
 * every range (their numbers: thesis 6.1-6.3, Fig. 6-6, Appendix A Table 1).
 */
/**
 * A fixed latency or overhead: at most 10^6 cycles (30 ms at 33 MHz). The slowest
 * thing the thesis prices is the CM-5's timer interrupt (1000 cycles, 3.4.1) and its
 * time slice (48,200 per packet per node, Table 3-5); the ATM switch's hop is 31.
 */
const MAX_LATENCY_CYCLES = 1_000_000;
const cycles = z.int().min(0).max(MAX_LATENCY_CYCLES);
const positiveCycles = z.int().min(1).max(MAX_LATENCY_CYCLES);
/**
 * Average cost of a basic operation; may be fractional (e.g. 1.5 cycles). At most
 * 10^4: the dearest in the shipped platforms is a floating divide of 19-20 cycles. The
 * thesis gives no per-operation costs (4.3 says only that its three PROTEUS machines
 * share one CPU); platforms/README.md says what the shipped tables are.
 */
const opCycles = z.number().min(0).max(10_000);
/**
 * Link bandwidth from 10^-3 bytes per cycle (33 KB/s at 33 MHz, a slow serial line,
 * so a 20-byte packet takes 20,000 cycles) to 10^4 (330 GB/s); the shipped platforms'
 * links carry 0.59 (ATM) to 5.3 (Paragon) bytes per cycle (platforms/README.md says
 * where each comes from; the thesis gives only the CM-5's, Fig. 7-1).
 */
const bytesPerCycle = z.number().min(0.001).max(10_000);
/** Buffer sizes in packets: at most 2^16 (a CM-5 node "can inject about ten packets before it must wait", thesis 7.1). */
const packets = z.int().min(1).max(65_536);

/** Cycles per basic operation; apps turn operation counts into cycles with these. */
const cpuSchema = z.strictObject({
  intOpCycles: opCycles,
  floatAddCycles: opCycles,
  floatMulCycles: opCycles,
  floatDivCycles: opCycles,
  loadCycles: opCycles,
  storeCycles: opCycles,
  branchCycles: opCycles,
  callCycles: opCycles,
  /** ClearMemory(len): start-up plus per-byte cost (thesis Fig. 6-6). */
  clearMemoryStartCycles: opCycles,
  clearMemoryCyclesPerByte: opCycles,
});

/** The processor side of communication: what sending, receiving and polling cost. */
const messagingSchema = z.strictObject({
  /** Words in one data-network packet, including the handler / header word. */
  packetWords: z.int().min(2).max(64),
  /** Argument words an active message may carry (4 on the CM-5, 20 elsewhere; thesis 6.2). */
  handlerArgWords: z.int().min(1).max(63),
  /** Processor cycles to send one packet (the whole send call, no polling). */
  sendOverheadCycles: positiveCycles,
  /** Cycles into the send at which the packet enters the network (<= sendOverheadCycles). */
  sendInjectionCycles: cycles,
  /**
   * Cycles to inject one block-transfer (Xfer) packet, loading its data words, without
   * polling (thesis 6.1.3: 37 per packet on the CM-5 including one poll).
   */
  xferSendOverheadCycles: positiveCycles,
  /** Cycles to remove one packet and dispatch its handler, before the handler's own work. */
  receiveOverheadCycles: positiveCycles,
  /** Cycles for a poll of one network that finds nothing (thesis 6.1.3: about 10). */
  pollEmptyCycles: positiveCycles,
  /** Bandwidth-matching delay after each injected block-transfer packet, two-way (thesis 6.1.3: 28 cycles, beside eq. 46's one-way minimum of 25). */
  bandwidthMatchDelayCycles: cycles,
  /**
   * Block transfers by DMA (Alewife, thesis 4.3), or null for processor-driven Xfer
   * packets. With DMA the processor only writes a descriptor per packet and the
   * receiver's interface stores the data, so neither side pays per word, packets
   * are longer, and the transmission rate is statically matched (no bandwidth-
   * matching delay; thesis 7.6 on Alewife, iWarp and the T3D).
   */
  dma: z
    .strictObject({
      /** Data words per DMA packet (plus one port-and-offset word). */
      dataWordsPerPacket: z.int().min(1).max(1024),
      /** Processor cycles to launch one DMA packet. */
      sendCycles: positiveCycles,
      /** Receiver cycles per DMA packet beyond the receive overhead (starting the store). */
      receiveCycles: cycles,
    })
    .nullable(),
});

const networkCommon = {
  /** Cycles a packet spends in the sending and receiving interfaces together. */
  interfaceLatencyCycles: cycles,
  /** Largest machine the topology is built for. */
  maxNodes: z.int().min(1).max(4096),
  /** Packets each router input (per logical network) can hold. */
  bufferPackets: packets,
  /** Packets a node's interface can hold for injection before the sender stalls. */
  injectionBufferPackets: packets,
  /** Packets a node's interface can hold for receiving before the network backs up. */
  receiveBufferPackets: packets,
};

const fatTreeSchema = z.strictObject({
  kind: z.literal('fat-tree'),
  /** Children per switch (4 on the CM-5). */
  arity: z.int().min(2).max(16),
  /** Router latency per hop; a packet crossing k levels makes 2k hops. */
  hopLatencyCycles: cycles,
  /**
   * Link bandwidth in one direction for each level, leaves first (thesis Fig. 7-1:
   * 40/80/160 MB/s bidirectional totals). Levels beyond the list grow by
   * `upperLevelGrowth` per level.
   */
  linkBytesPerCycleByLevel: z.array(bytesPerCycle).min(1),
  /** At most 16 (a level's bandwidth at most 16 times its children's; the CM-5 doubles, Fig. 7-1). */
  upperLevelGrowth: z.number().min(1).max(16),
  ...networkCommon,
});

const meshSchema = z.strictObject({
  kind: z.literal('mesh'),
  /**
   * Router latency per hop; may be fractional (a path of h hops takes floor(h x this)
   * cycles, e.g. Alewife's 1.28 for Fig. 6-6's Roundtrip slope of 2.55 per hop).
   */
  hopLatencyCycles: z.number().min(0).max(MAX_LATENCY_CYCLES),
  linkBytesPerCycle: bytesPerCycle,
  ...networkCommon,
});

const switchSchema = z.strictObject({
  kind: z.literal('switch'),
  /** Latency of one hop: a link into or out of a switch, with the switch's share. */
  hopLatencyCycles: cycles,
  /**
   * Hosts one switch serves. Larger machines hang one switch per group of hosts off
   * a root switch, so hosts on different switches are 4 hops apart instead of 2.
   */
  hostsPerSwitch: z.int().min(2).max(4096),
  linkBytesPerCycle: bytesPerCycle,
  ...networkCommon,
});

const networkSchema = z.discriminatedUnion('kind', [fatTreeSchema, meshSchema, switchSchema]);

/**
 * The CM-5 control network: global operations in fixed, traffic-independent time
 * (Appendix A, Table 1). Each `...Cycles` is the time from a simultaneous start on
 * every node to the operation's return; `startCycles` and `queryCycles` are the
 * processor's share at the start and per completion check.
 */
const controlNetworkSchema = z.strictObject({
  barrierCycles: positiveCycles,
  combineIntCycles: positiveCycles,
  combineVectorCyclesPerWord: positiveCycles,
  broadcastCycles: positiveCycles,
  broadcastVectorCyclesPerWord: positiveCycles,
  startCycles: positiveCycles,
  queryCycles: positiveCycles,
});

/**
 * The operating system's timer interrupts (thesis 3.4.1: on the CM-5 every 1/60 s,
 * about 30 us, some 1000 cycles in Fig. 3-6). Each node takes them at a phase of its
 * own, drawn from the run seed.
 */
const timerInterruptSchema = z.strictObject({
  /**
   * At least 1000 cycles and at most 10^9: each interrupt is an event on every node,
   * so a shorter period makes interrupts most of a run's events (the CM-5's is
   * 550,000 cycles, 1/60 s; a fast OS tick of 10 kHz is 3,300 cycles at 33 MHz).
   * `cycles` must be at most half the period (checked in load-platform.ts).
   */
  periodCycles: z.int().min(1000).max(1_000_000_000),
  cycles: positiveCycles,
});

/**
 * The operating system's time slices (thesis 3.4.2): every `periodCycles` of global
 * time, from a phase drawn from the run seed, the whole partition stops at once while
 * the system empties the network ("all-fall-down") and later reinjects its packets.
 * The user is charged `cyclesPerPacketPerNode` times the packets then in the network
 * (sent and not yet received) per node; with the network empty a slice costs nothing.
 */
const timeSliceSchema = z.strictObject({
  /**
   * At least 10,000 cycles (a slice is a machine-wide stop; the CM-5's come every
   * 0.1 s, 3,300,000 cycles, thesis 3.4.1 and Appendix A 9.4) and at most 10^10.
   */
  periodCycles: z.int().min(10_000).max(10_000_000_000),
  /** At most 10^6 (the CM-5's 48,200, Table 3-5, times the 11.9 packets per node of a full network is a slice's cost). */
  cyclesPerPacketPerNode: z.number().positive().max(MAX_LATENCY_CYCLES),
});

/** A platform's clock range in MHz (a trace's header, which copies it, is held to it too). */
export const CLOCK_MHZ = { min: 0.1, max: 100_000 } as const;

export const platformSchema = z.strictObject({
  /** Short name used by `--platform` (the file name without .json). */
  name: z.string().max(64).regex(/^[a-z0-9][a-z0-9-]*$/, { error: 'expected lowercase letters, digits and dashes' }),
  /** A human title for summaries and graphs: one line (a newline or escape in it reached the terminal). */
  title: z.string().min(1).regex(ONE_LINE, { error: `expected one line of text, without ${LINE_BREAKING_WORDS}` }),
  /**
   * Processor clock; cycles convert to microseconds with it. From 0.1 MHz to 10^5 MHz
   * (100 GHz): the thesis's machines run at 33 MHz (6.1; Fig. 6-6 is in cycles at 33).
   */
  clockMHz: z.number().min(CLOCK_MHZ.min).max(CLOCK_MHZ.max),
  /** Node count used when `--nodes` is not given. */
  defaultNodes: z.int().min(1).max(4096),
  cpu: cpuSchema,
  messaging: messagingSchema,
  network: networkSchema,
  /** The CM-5's control network, or null where global operations use the data network. */
  controlNetwork: controlNetworkSchema.nullable(),
  /** Timer interrupts on every node, or null (the PROTEUS-simulated platforms have none). */
  timerInterrupt: timerInterruptSchema.nullable(),
  /** Time slices that cost in proportion to the network's load, or null (the PROTEUS-simulated platforms). */
  timeSlice: timeSliceSchema.nullable(),
});

export type CpuCosts = z.infer<typeof cpuSchema>;
export type MessagingCosts = z.infer<typeof messagingSchema>;
export type FatTreeParams = z.infer<typeof fatTreeSchema>;
export type MeshParams = z.infer<typeof meshSchema>;
export type SwitchParams = z.infer<typeof switchSchema>;
export type NetworkParams = z.infer<typeof networkSchema>;
export type ControlNetworkParams = z.infer<typeof controlNetworkSchema>;
export type TimeSliceParams = z.infer<typeof timeSliceSchema>;
export type PlatformSpec = z.infer<typeof platformSchema>;

/** A validated platform plus where it came from. */
export interface Platform extends PlatformSpec {
  /** File the platform was read from (for messages); `<inline>` when built in code. */
  readonly source: string;
  /** SHA-256 of the file's text, hex; identifies the exact platform in traces. */
  readonly contentHash: string;
  /** The file's text, which repro files embed so that a replay needs no platform file. */
  readonly text: string;
}
