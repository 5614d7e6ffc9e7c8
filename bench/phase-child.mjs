// Runs one `sim` command line's run in this process, as `bin/sim.mjs` would (the
// JavaScript build when current, else the sources through tsx), and prints one JSON line: the
// machine's build, the run's first PHASE_EVENTS events and the rest, each with its
// wall time (ms) and events. The perf bench's cost-per-event diagnostic: on a
// 4096-node machine the first events hold every node's start (its program, the first
// barrier), run while V8 has yet to optimize that code, where the rest is the run at
// speed; the two parts show how much of the cost per event each makes.
// With --by-kind first it prints instead, for the events after the first PHASE_EVENTS,
// each event kind's count and wall time (the time from its dispatch to the next one's,
// read in the kernel's observer, so each includes the queue's pop of the next event):
// which part of the machine makes a large machine's events cost more.
// Usage: node bench/phase-child.mjs [--by-kind] <sim arguments...>
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isBuildCurrent } from '../scripts/build-state.mjs';

/** Where the run is split: the first 100,000 events hold a 4096-node machine's start (about 23 events a node). */
const PHASE_EVENTS = 100_000;

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const fromBuild = process.env.SIM_FROM_SOURCES !== '1' && isBuildCurrent(root);
if (!fromBuild) await (await import('../src/cli/register-tsx.mjs')).registerTsx();
const load = (path) => import(pathToFileURL(fromBuild ? join(root, 'dist', 'src', path) : join(root, 'src', path.replace(/\.js$/, '.ts'))).href);
const { parseArgv, toRunArgs } = await load('cli/run-args.js');
const { loadRun } = await load('cli/run-setup.js');
const { AppRun } = await load('runtime/run-app.js');

/** The run split after its first PHASE_EVENTS events: each part's wall time (ms) and events, and the build's. */
function split(config) {
  const t0 = performance.now();
  const run = new AppRun(config);
  const t1 = performance.now();
  let ended = run.advance(PHASE_EVENTS);
  const firstEvents = run.events;
  const t2 = performance.now();
  while (!ended) ended = run.advance(PHASE_EVENTS);
  const t3 = performance.now();
  const summary = run.summary();
  return { buildMs: t1 - t0, firstMs: t2 - t1, firstEvents, restMs: t3 - t2, restEvents: run.events - firstEvents, verified: summary.verified, fingerprint: summary.fingerprint };
}

/** The events after the first PHASE_EVENTS by kind, in the order first seen: each kind's name, events and wall time (ms). */
function timeByKind(config) {
  const kinds = new Map();
  let prev = null;
  let prevAt = 0;
  config.observer = (events, _time, kind, _a0, _digest, sim) => {
    const now = performance.now();
    if (prev !== null) prev.ms += now - prevAt;
    prev = null;
    if (events <= PHASE_EVENTS) return;
    prev = kinds.get(kind);
    if (prev === undefined) kinds.set(kind, (prev = { kind: sim.kindName(kind), events: 0, ms: 0 }));
    prev.events++;
    prevAt = now;
  };
  const run = new AppRun(config);
  while (!run.advance(PHASE_EVENTS));
  if (prev !== null) prev.ms += performance.now() - prevAt;
  const summary = run.summary();
  return { byKind: [...kinds.values()], events: run.events, verified: summary.verified, fingerprint: summary.fingerprint };
}

try {
  const byKind = process.argv[2] === '--by-kind';
  const args = toRunArgs(parseArgv(process.argv.slice(byKind ? 3 : 2)));
  const config = await loadRun({ platform: args.platform, app: args.app, params: args.params, nodes: args.nodes, seed: args.seed, network: args.network });
  process.stdout.write(`${JSON.stringify(byKind ? timeByKind(config) : split(config))}\n`);
} catch (e) {
  // Bad input (InputError) or a failed run: one line, as sim says it, not a stack trace.
  process.stderr.write(`bench/phase-child.mjs: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}\n`);
  process.exitCode = e instanceof Error && e.name === 'InputError' ? 2 : 1;
}
