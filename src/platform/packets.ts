/**
 * What a platform's block transfers put in a packet, apart from the schema (so the
 * runtime's hot path does not load the schema library at start-up).
 */
import type { MessagingCosts, Platform } from './schema.ts';

/**
 * Data words one block-transfer packet carries (Appendix A 7.2: SendXfer puts up to
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
