/**
 * What a platform's block transfers put in a packet, apart from the schema (so the
 * runtime's hot path does not load the schema library at start-up).
 */
import type { MessagingCosts } from './schema.ts';

/**
 * Data words one block-transfer packet carries (Appendix A 7.2: SendXfer puts up to
 * packetWords - 1 data words after its port-and-offset word; a DMA platform's packets
 * carry dataWordsPerPacket). A block of n words travels in ceil(n / this) packets.
 */
export function blockTransferWords(messaging: MessagingCosts): number {
  return messaging.dma !== null ? messaging.dma.dataWordsPerPacket : messaging.packetWords - 1;
}
