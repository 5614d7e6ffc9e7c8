/**
 * The apps' verify refuses wrong results a real run can give: each story takes the verify
 * context of a real run and hands verify what a run with one semantic slip (a shift
 * off by one on every node, a round trip timed without its reply, a message from the
 * wrong node, a pattern drawn wrong) gives. Each of these verified before.
 */
import { describe, expect, it } from 'vitest';
import cshift from '../../apps/cshift/index.ts';
import race from '../../apps/examples/race/index.ts';
import microbench from '../../apps/microbench/index.ts';
import patterns from '../../apps/patterns/index.ts';
import pingPong from '../../apps/ping-pong/index.ts';
import type { AnyApp, VerifyContext } from '../../src/runtime/app.ts';
import { runApp } from '../../src/runtime/run-app.ts';
import { runConfig } from '../../src/runtime/run-config.ts';
import { loadTestPlatform } from '../support/platforms.ts';

type Context = VerifyContext<Record<string, string | number | boolean>, any, any>;

/** The verify context of a real run of `app` on 8 CM-5 nodes, which verifies. */
function contextOf(app: AnyApp, params: string[], nodes = 8): Context {
  let ctx: Context | undefined;
  const spy: AnyApp = { ...app, verify: (c: Context) => ((ctx = c), app.verify(c)) };
  const s = runApp(runConfig(loadTestPlatform('cm5'), spy, { params, nodes, seed: 1, network: 'packet' }));
  expect(s.verified, s.verification).toBe(true);
  return ctx!;
}

describe("the apps' verify", () => {
  it('cshift: a shift every node takes one too far, sender and receiver alike, is not the one asked for', () => {
    // A run of shift 4 is what shift 3 gives when every node computes self + shift + 1 (and expects self - shift - 1).
    const ctx = contextOf(cshift as AnyApp, ['messages=4', 'shift=4']);
    const v = cshift.verify({ ...ctx, params: { ...ctx.params, shift: 3 } } as never);
    expect(v.ok).toBe(false);
    expect(v.detail).toMatch(/^node 0 received from node 4, expected node 5 \(shift 3 on 8 nodes\)/);
  });

  it('patterns: a cshift or transpose drawn wrong, its blocks intact at the targets drawn, is not the pattern', () => {
    const ctx = contextOf(patterns as AnyApp, ['pattern=cshift', 'shift=4', 'rounds=2', 'blockBytes=64']);
    const v = patterns.verify({ ...ctx, params: { ...ctx.params, shift: 3 } } as never);
    expect(v.ok).toBe(false);
    expect(v.detail).toBe("round 0 sends node 0's block to node 4, expected node 3 (pattern cshift)");
    // A transpose whose round 1 shifted by 2 (the all-pairs missed offset 1): its blocks were checked where they went.
    const t = contextOf(patterns as AnyApp, ['pattern=transpose', 'blockBytes=64']);
    const targets = t.input.targets.map((round: number[], r: number) => (r === 1 ? round.map((_, i) => (i + 2) % 8) : round));
    const w = patterns.verify({ ...t, input: { ...t.input, targets } } as never);
    expect(w.ok).toBe(false);
    expect(w.detail).toMatch(/^round 1 sends node 0's block to node 2, expected node 1 \(pattern transpose\)/);
  });

  it('ping-pong and microbench Roundtrip: node 0 timing round trips without waiting for the replies', () => {
    // Every partner got its pings intact; node 0 went on to the next without the echo, and finished having handled none.
    const pp = contextOf(pingPong as AnyApp, ['rounds=3']);
    const results = pp.results.map((r: object, i: number) => (i === 0 ? { ...r, echoes: 0 } : r));
    const v = pingPong.verify({ ...pp, results } as never);
    expect(v.ok).toBe(false);
    expect(v.detail).toBe('node 0 handled 0 echoes before it finished, expected 21 (one per round trip timed)');
    const mb = contextOf(microbench as AnyApp, ['model=Roundtrip', 'reps=2']);
    const w = microbench.verify({ ...mb, results: mb.results.map((r: object, i: number) => (i === 0 ? { ...r, replies: 3 } : r)) } as never);
    expect(w.ok).toBe(false);
    expect(w.detail).toBe('node 0 handled 3 replies before it finished, expected 14 (one per round trip timed)');
  });

  it('race: two messages at node 3, both from node 1, are not the race', () => {
    const ctx = contextOf(race as AnyApp, [], 4);
    const v = race.verify({ ...ctx, results: ctx.results.map((r: number[], i: number) => (i === 3 ? [1, 1] : r)) } as never);
    expect(v.ok).toBe(false);
    expect(v.detail).toBe('node 3 got messages from nodes 1 and 1, expected one from node 1 and one from node 2');
  });
});
