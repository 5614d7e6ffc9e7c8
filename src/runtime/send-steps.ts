/**
 * Strata's send variants (Appendix A 6.1) as data: each is a list of steps, a
 * network to try and a network to poll after the try (-1 for none), repeated until
 * the packet is out. Xfer packets have their own lists: they try both networks
 * without polling, since the block loop's pacing step is the poll (thesis 6.1.3);
 * only when both refuse does the sender poll and stall.
 */
import { LEFT, RIGHT } from '../network/packet.ts';

/** Send variants as (network to try, network to poll after the try) steps, -1 for none. */
export type SendSteps = readonly (readonly [number, number])[];

export const SEND_LEFT_POLL_BOTH: SendSteps = [
  [LEFT, LEFT],
  [-1, RIGHT],
];
export const SEND_BOTH_RL_POLL_BOTH: SendSteps = [
  [RIGHT, RIGHT],
  [LEFT, LEFT],
];
export const SEND_BOTH_LR_POLL_BOTH: SendSteps = [
  [LEFT, LEFT],
  [RIGHT, RIGHT],
];
export const SEND_BOTH_RL_POLL_RIGHT: SendSteps = [
  [RIGHT, RIGHT],
  [LEFT, -1],
];
export const SEND_BOTH_LR_POLL_RIGHT: SendSteps = [
  [LEFT, -1],
  [RIGHT, RIGHT],
];

const XFER_LR_POLL_BOTH: SendSteps = [
  [LEFT, -1],
  [RIGHT, -1],
  [-1, LEFT],
  [-1, RIGHT],
];
const XFER_RL_POLL_BOTH: SendSteps = [
  [RIGHT, -1],
  [LEFT, -1],
  [-1, LEFT],
  [-1, RIGHT],
];
const XFER_LR_POLL_RIGHT: SendSteps = [
  [LEFT, -1],
  [RIGHT, -1],
  [-1, RIGHT],
];
const XFER_RL_POLL_RIGHT: SendSteps = [
  [RIGHT, -1],
  [LEFT, -1],
  [-1, RIGHT],
];

/** The steps of an Xfer packet that tries `firstNet` first, polling both networks or only the right. */
export function xferSteps(firstNet: number, pollRightOnly: boolean): SendSteps {
  if (pollRightOnly) return firstNet === LEFT ? XFER_LR_POLL_RIGHT : XFER_RL_POLL_RIGHT;
  return firstNet === LEFT ? XFER_LR_POLL_BOTH : XFER_RL_POLL_BOTH;
}
