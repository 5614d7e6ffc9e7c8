/** Test helper: run a small inline SPMD program on a real simulated machine. */
import type { Op, Runtime } from '../../src/runtime/index.ts';
import { defineApp } from '../../src/runtime/app.ts';
import { runApp, type RunSummary } from '../../src/runtime/run-app.ts';
import { runConfig } from '../../src/runtime/run-config.ts';
import type { Machine, NetworkMode, TraceSink } from '../../src/machine/machine.ts';
import type { LogSink, OutputSink } from '../../src/runtime/printing.ts';
import type { Platform } from '../../src/platform/schema.ts';
import { loadTestPlatform, type PlatformName } from './platforms.ts';

export interface InlineRun<R> {
  summary: RunSummary;
  results: R[];
}

/**
 * Runs `main` on every node of `platform` and returns the run summary and what each
 * node returned. `globals` makes each node's rt.globals.
 */
export function runInline<R, G = undefined>(
  platform: PlatformName | Platform,
  nodes: number,
  main: (rt: Runtime<G>, input: any) => Op<R>,
  options: {
    seed?: number;
    globals?: () => G;
    setup?: (random: { int(n: number): number }) => unknown;
    network?: NetworkMode;
    output?: OutputSink;
    log?: LogSink;
    /** Sees the machine before it runs (to read node or network counters from `main`). */
    inspect?: (machine: Machine) => void;
    /** Records state changes (a traced run: Strata's own calls show as states 2-7). */
    trace?: TraceSink;
  } = {},
): InlineRun<R> {
  let results: R[] = [];
  const app = defineApp({
    name: 'inline',
    description: 'a test program',
    params: {},
    globals: options.globals,
    setup: options.setup === undefined ? undefined : ({ random }) => options.setup!(random),
    main: (rt: Runtime<G>, _params, input) => main(rt, input),
    verify: (ctx) => {
      results = ctx.results as R[];
      return { ok: true, detail: 'test' };
    },
  });
  const summary = runApp(
    runConfig(typeof platform === 'string' ? loadTestPlatform(platform) : platform, app, {
      nodes,
      seed: options.seed ?? 1,
      network: options.network ?? 'analytic',
      output: options.output,
      log: options.log,
      inspect: options.inspect,
      trace: options.trace,
    }),
  );
  return { summary, results };
}
