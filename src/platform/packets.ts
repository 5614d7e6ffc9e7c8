/**
 * What a platform's block transfers put in a packet and the other packet facts app
 * models count with (PacketFacts), apart from the schema (so the runtime's hot path does
 * not load the schema library at start-up).
 */
import type { MessagingCosts, Platform } from './schema.ts';

/**
 * Data words one block-transfer packet carries (Appendix A 7.1: SendXfer puts up to
 * packetWords - 1 data words after its port-and-offset word; a DMA platform's packets
 * carry dataWordsPerPacket). A block of n words travels in ceil(n / this) packets.
 */
export function blockTransferWords(messaging: MessagingCosts): number {
  return messaging.dma !== null ? messaging.dma.dataWordsPerPacket : messaging.packetWords - 1;
}

/** Words of a combining tree's message before its vector words: header, offset and flags (tree-combine.ts). */
export const COMBINE_HEADER_WORDS = 3;

/** Whether the platform's reductions climb a binomial tree of active messages (src/runtime/tree-combine.ts), as they do without a control network. */
export function combinesOverTree(platform: Pick<Platform, 'controlNetwork'>): boolean {
  return platform.controlNetwork === null;
}

/**
 * Vector words one message of a vector combine carries. Without a control network the
 * combines are trees of active messages, each carrying handlerArgWords - 3 words of the
 * vector, not pipelined (tree-combine.ts, thesis 6.2), so a vector of n words costs
 * ceil(n / this) messages a tree level; a control network combines word by word (1).
 */
export function combineChunkWords(platform: Pick<Platform, 'messaging' | 'controlNetwork'>): number {
  return combinesOverTree(platform) ? platform.messaging.handlerArgWords - COMBINE_HEADER_WORDS : 1;
}

/** Bytes per cycle of a node's own link (the leaves' on a fat tree). */
export function nodeLinkBytesPerCycle(network: Platform['network']): number {
  return network.kind === 'fat-tree' ? network.linkBytesPerCycleByLevel[0] : network.linkBytesPerCycle;
}

/**
 * What a DMA block transfer's packets cost on the injection link and at the receiver:
 * dmaWordCycles, the cycles one word of a packet holds the node's link (4 bytes over the
 * link's bytes per cycle, the leaves' on a fat tree: the simulator serializes a packet
 * in ceil(bytes / that), src/network/packet-network.ts), and dmaReceiveCycles, a
 * receiver's handling of one packet (its receive overhead and the DMA engine's receive
 * cycles, platform.messaging.dma: estimates, as the thesis gives no DMA figures). Both are 0 without DMA, whose packets the processor itself
 * sends at a cost per packet about as large as a full packet's time on the link or
 * larger (xferSendOverheadCycles 26 against 27 cycles on the CM-5, 133 against 16 on the
 * Paragon, 1100 against 143 on the ATM), so they do not queue. The stencil models use
 * them for the wait of an edge's one-packet transfer queued behind its twin's
 * (iter_colQueue).
 */
function dmaPacketCosts(platform: Pick<Platform, 'messaging' | 'network'>): { dmaWordCycles: number; dmaReceiveCycles: number } {
  const dma = platform.messaging.dma;
  if (dma === null) return { dmaWordCycles: 0, dmaReceiveCycles: 0 };
  return { dmaWordCycles: 4 / nodeLinkBytesPerCycle(platform.network), dmaReceiveCycles: platform.messaging.receiveOverheadCycles + dma.receiveCycles };
}

/** The platform's numbers that app models count with (a SelectContext carries them; spec expressions see them as machine variables). */
export interface PacketFacts {
  /** Data words a block-transfer packet carries (blockTransferWords). */
  xferWords: number;
  /** Vector words one combine message carries (combineChunkWords). */
  combineWords: number;
  /** Whether reductions climb a tree of messages (combinesOverTree). */
  combineTree: boolean;
  /** Cycles a word of a DMA packet holds the node's link; 0 without DMA (dmaPacketCosts). */
  dmaWordCycles: number;
  /** A receiver's cycles per DMA packet; 0 without DMA (dmaPacketCosts). */
  dmaReceiveCycles: number;
}

export function packetFacts(platform: Pick<Platform, 'messaging' | 'network' | 'controlNetwork'>): PacketFacts {
  return { xferWords: blockTransferWords(platform.messaging), combineWords: combineChunkWords(platform), combineTree: combinesOverTree(platform), ...dmaPacketCosts(platform) };
}
