/**
 * Broadcasts on the data-network platforms (thesis 6.2) arrive in the order their
 * root sent them (Appendix A 4.4: each ReceiveBroadcast takes the next broadcast),
 * even when a later broadcast's messages overtake an earlier one's in the network.
 */
import { describe, expect, it } from 'vitest';
import { runInline } from '../support/inline-app.ts';

describe('broadcasts from one root, back to back, on the packet network', () => {
  // On 64 Alewife nodes node 32 assembled the double before the word sent ahead of it
  // and failed: "receiveBroadcast expected 1 words but the broadcast carried 2".
  it.each([
    ['alewife', 64],
    ['paragon', 64],
    ['atm', 5],
  ] as const)('on %s with %i nodes are received in the order they were sent', (platform, nodes) => {
    const { results } = runInline(
      platform,
      nodes,
      function* (rt) {
        if (rt.self === 0) {
          yield* rt.broadcast(-1);
          yield* rt.broadcastDouble(-1.25e300);
          yield* rt.broadcastVector([0, 0], [0xffffffff, 7]);
          yield* rt.broadcast(42);
          return [];
        }
        const to = [0, 0];
        const word = yield* rt.receiveBroadcast();
        const double = yield* rt.receiveBroadcastDouble();
        yield* rt.receiveBroadcastVector(to);
        return [word, double, ...to, yield* rt.receiveBroadcast()];
      },
      { network: 'packet' },
    );
    for (const r of results.slice(1)) expect(r).toEqual([-1, -1.25e300, 0xffffffff, 7, 42]);
  });
});
