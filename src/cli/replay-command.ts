/**
 * `sim replay <file> [--stop-at <cycle>|event:<n>]`: runs a recorded run again from
 * its repro file and compares it event by event, reporting the first event that
 * differs; or stops it part-way and describes every node there. Writing repro files
 * is repro.ts's.
 */
import { existsSync } from 'node:fs';
import { InputError, RunFailure, RunLimitError } from '../kernel/errors.ts';
import { nodeCountProblem } from '../network/build-topology.ts';
import { escapeLineBreaking } from '../kernel/one-line.ts';
import type { EventObserver } from '../kernel/simulation.ts';
import { parsePlatform } from '../platform/load-platform.ts';
import { AppRun, runUntil, type RunConfig, type StopReport } from '../runtime/run-app.ts';
import type { AnyApp } from '../runtime/app.ts';
import { advanceToEnd, RunStopped, stopPoint } from '../runtime/stoppable-run.ts';
import { SignalStop } from './signal-stop.ts';
import { doingOf } from '../runtime/run-stop.ts';
import { runConfig } from '../runtime/run-config.ts';
import { STRATA_STATE_NAMES } from '../runtime/states.ts';
import type { Io } from './io.ts';
import { loadApp, resolveAppFile } from './load-inputs.ts';
import { simulatorVersion } from './project.ts';
import { limitAdvice, signalExitCode } from './run-driver.ts';
import { VERIFICATION_FAILED } from './repro-format.ts';
import { appContentHash } from './app-hash.ts';
import { reproAppFile, type Repro } from './repro.ts';
import { digestsOf, readRepro } from './repro-read.ts';

function parseStopAt(value: string): { untilCycle?: number; maxEvents?: number } {
  const m = /^(event:)?(\d+)$/.exec(value);
  if (m === null || !Number.isSafeInteger(Number(m[2]))) {
    throw new InputError(`--stop-at ${value}: expected a cycle (e.g. 50000) or an event number (e.g. event:1200)`);
  }
  return m[1] === undefined ? { untilCycle: Number(m[2]) } : { maxEvents: Number(m[2]) };
}

/**
 * The recorded run's configuration, its refusals naming the file: a repro whose params
 * had "shift=abc" was "--param shift=abc: expected an integer >= 0", of a --param nobody gave.
 */
function recordedConfig<T>(file: string, make: () => T): T {
  try {
    return make();
  } catch (e) {
    if (e instanceof InputError) throw new InputError(`${file}: the recorded run: ${e.message}`);
    throw e;
  }
}

/** `sim replay <file> [--stop-at ...]`: returns the exit status. */
export async function replayCommand(file: string, stopAt: string | undefined, io: Io, json = false): Promise<number> {
  // Ctrl-C or SIGTERM stops the replay, saying so: between chunks of events (it killed it,
  // silently), and while the recording loads (a long run's is hundreds of megabytes, read
  // for seconds: a signal then ended it as Node's default does, status null).
  const stop = new SignalStop();
  try {
    const { repro, config, app, limits, changed } = await prepare(file, stopAt, io);
    await stopPoint(stop.signal);
    return await replay(repro, config, app, limits, stopAt, io, json, changed, stop);
  } catch (e) {
    if (!(e instanceof RunStopped)) throw e;
    io.err(`sim replay: stopped by ${stop.interrupted}; nothing was compared past where it stopped`);
    // --json's one object, as a run's and sim explore's say they were interrupted (it printed none).
    if (json) io.out(JSON.stringify({ interrupted: stop.interrupted ?? 'SIGINT' }));
    return signalExitCode(stop.interrupted ?? 'SIGINT');
  } finally {
    stop.release();
  }
}

/** The recording read and checked, and the run it recorded configured (nothing run yet). */
async function prepare(file: string, stopAt: string | undefined, io: Io): Promise<{ repro: Repro; config: RunConfig; app: AnyApp; limits: { untilCycle?: number; maxEvents?: number } | null; changed: boolean }> {
  const repro = readRepro(file);
  const limits = stopAt === undefined ? null : parseStopAt(stopAt);
  const platform = parsePlatform(repro.platform.text, `${file} (platform ${repro.platform.source})`);
  const recorded = reproAppFile(repro);
  if (!existsSync(recorded)) throw new InputError(`${file}: the recorded app ${repro.app.path} no longer exists`);
  // What the recorded path names, refused naming the repro ("sim: app /etc/passwd: ..." named no file of the user's);
  // a folder by its module, as --record names it (a folder's own hash said the app had changed).
  let app: AnyApp;
  let appFile: string;
  try {
    appFile = resolveAppFile(recorded);
    app = await loadApp(appFile);
  } catch (e) {
    if (e instanceof InputError) throw new InputError(`${file}: the recorded app: ${e.message}`);
    throw e;
  }
  const changed = appContentHash(appFile) !== repro.app.contentHash;
  if (changed) io.err(`sim replay: note: ${repro.app.path} (or a module beside it or that it imports) changed since the recording`);
  if (repro.simulatorVersion !== simulatorVersion()) {
    io.err(`sim replay: note: recorded with simulator ${repro.simulatorVersion}, replaying with ${simulatorVersion()}`);
  }
  const config = recordedConfig(file, () => {
    const problem = nodeCountProblem(platform.network, repro.nodes);
    if (problem !== null) throw new InputError(`${repro.nodes} nodes: ${problem}`);
    return runConfig(platform, app, { params: repro.params, nodes: repro.nodes, seed: repro.seed, network: repro.network, perturb: repro.perturb ?? undefined, limits: repro.stop });
  });
  return { repro, config, app, limits, changed };
}

/** The replay itself: to --stop-at, or the whole run compared event by event with the recording. */
async function replay(repro: Repro, config: RunConfig, app: AnyApp, limits: { untilCycle?: number; maxEvents?: number } | null, stopAt: string | undefined, io: Io, json: boolean, changed: boolean, stop: SignalStop): Promise<number> {
  if (limits !== null) {
    const where = limits.maxEvents !== undefined ? `event ${limits.maxEvents}` : `cycle ${limits.untilCycle}`;
    let reached: Awaited<ReturnType<typeof runUntil>>;
    try {
      // Logging into nothing, so that global operations log their progress too (as --loglast has them):
      // without a log only the app's own strataLog lines were kept, and no shipped app writes any.
      reached = await runUntil({ ...config, log: () => {} }, limits, stop.signal);
    } catch (e) {
      // Failed first (the recorded exception, a deadlock): --json printed nothing, and a deadlock was "the run ended", exit 0.
      if (!(e instanceof RunFailure)) throw e;
      const failure = e.message.split('\n')[0];
      if (json) io.out(JSON.stringify({ stopAt, ended: true, failure, report: null }));
      else io.out(`sim replay: the run failed before it got past ${where}: ${failure}`);
      return 1;
    }
    const { report, ended, atOwnLimit } = reached;
    // A recording stopped at its own limit stops there again: said so, as a failure is (it read "the run ended", exit 0).
    const failure = atOwnLimit === null ? null : `stopped at ${atOwnLimit} after ${report.events} events, at cycle ${report.cycle}`;
    if (json) io.out(JSON.stringify({ stopAt, ended, ...(failure === null ? {} : { failure }), report: ended ? null : report }));
    else if (failure !== null) io.out(`sim replay: the run ${failure}, before it got past ${where}`);
    // "ended before event:158" of a 158-event run, which ends with that event.
    else io.out(ended ? `sim replay: the run ended after ${report.events} events, at cycle ${report.cycle}, before it got past ${where}` : formatStopReport(report, app.states, where));
    return failure === null ? 0 : 1;
  }

  // Without digests (a run stopped part-way, recorded without --record), only where it stops is compared.
  const recorded = digestsOf(repro) ?? new Uint16Array(0);
  const compare = repro.eventDigests !== null;
  // A run longer than a repro file gives digests (MAX_EVENT_DIGESTS) is compared event by event that far.
  const partial = repro.digestedEvents !== undefined;
  const found: { divergence: Divergence | null; events: number } = { divergence: null, events: 0 };
  const observer: EventObserver = (index, time, kind, a0, digest, sim) => {
    found.events = index;
    if (!compare || found.divergence !== null || (partial && index > recorded.length) || (index <= recorded.length && recorded[index - 1] === digest)) return;
    const what = kind === 0 ? `${sim.processName(a0)} resumes its program` : `a ${sim.kindName(kind)} event`;
    found.divergence = { index, detail: `event ${index} (cycle ${time}): ${what}` };
  };
  let failure: string | null = null;
  let stoppedAt: string | null = null;
  let fingerprint: string | null = null;
  let heapStop: RunLimitError | null = null;
  try {
    const run = new AppRun({ ...config, observer, output: (stream, text) => io.write(json ? 'stderr' : stream, text) });
    await advanceToEnd(run, stop.signal);
    const s = run.summary();
    fingerprint = s.fingerprint;
    if (!s.verified) failure = `${VERIFICATION_FAILED}${s.verification}`;
  } catch (e) {
    if (!(e instanceof RunFailure)) throw e;
    failure = e.message.split('\n')[0];
    if (e instanceof RunLimitError) stoppedAt = e.fingerprint;
    if (e instanceof RunLimitError && e.limit === 'heap') heapStop = e;
  }
  // --json: one object saying what the text would (reproduced, where it diverged, how the run ended).
  const result = (reproduced: boolean, divergence: string | null): number => {
    // This run's events and fingerprint beside the recording's (the recording's fingerprint was given beside this run's events).
    // A recording stopped part-way (a limit, a signal, the heap) is replayed to its event count, whose stop reads
    // "its limit of N events": the reason is the recording's, as the text says ("the run stops as recorded: ...").
    const why = repro.stop !== undefined && failure !== null && repro.outcome.failure !== null ? repro.outcome.failure : failure;
    io.out(JSON.stringify({ reproduced, eventByEvent: compare, events: found.events, recordedEvents: repro.outcome.events, fingerprint: fingerprint ?? stoppedAt, recordedFingerprint: repro.outcome.fingerprint, divergence, failure: why, appChanged: changed }));
    return reproduced && failure === null ? 0 : 1;
  };
  // This process's heap, not the program, ended the replay before the recording's end: no
  // divergence (under the heap a run stopped at, the collector's timing decides the event).
  if (heapStop !== null && found.events < repro.outcome.events) {
    const text = `this run stopped at the JavaScript heap's limit after ${found.events} events, before the recording's ${repro.outcome.events}: not a divergence; ${limitAdvice(heapStop)}`;
    if (json) return result(false, text);
    io.out(`sim replay: ${text}`);
    return 1;
  }
  // How deep a run may recurse is the host thread's stack and how deep the call that runs it
  // is, not the run: a run that overflowed it at one event overflows it at another here. Where
  // the two agree up to the earlier end, that is no divergence (it said "diverged at event 5162").
  const overflow = /Maximum call stack size exceeded/;
  if (compare && (overflow.test(failure ?? '') || overflow.test(repro.outcome.failure ?? ''))) {
    const earlierEnd = Math.min(found.events, repro.outcome.events);
    const agreed = found.divergence === null ? earlierEnd : found.divergence.index - 1;
    if (agreed >= earlierEnd && found.events !== repro.outcome.events) {
      const text = `this run and the recording agree event for event to event ${earlierEnd}, where ${found.events < repro.outcome.events ? 'this run' : 'the recording'} reached the JavaScript stack's depth (the host thread's stack, not the run's): not a divergence; make the app recurse less deeply`;
      if (json) return result(false, text);
      io.out(`sim replay: ${text}`);
      return 1;
    }
  }
  if (!compare) {
    const same = stoppedAt !== null && stoppedAt === repro.outcome.fingerprint && found.events === repro.outcome.events;
    if (json) return result(same, same ? null : `it stopped after ${repro.outcome.events} events, this run after ${found.events}`);
    io.out(
      same
        ? `sim replay: reproduced the recorded run to where it stopped (${found.events} events, fingerprint ${stoppedAt}; its event digests were not recorded: run it with --record to compare event by event)`
        : `sim replay: diverged from the recording: it stopped after ${repro.outcome.events} events with fingerprint ${repro.outcome.fingerprint}, this run ${stoppedAt === null ? `ended after ${found.events} events` : `after ${found.events} with ${stoppedAt}`}`,
    );
    if (same) io.out(`sim replay: the run stops as recorded: ${escapeLineBreaking(repro.outcome.failure ?? failure ?? '')}`);
    return 1;
  }
  // A run that ends before the recording did diverges at its first missing event; one
  // whose every event matches must also end as recorded (a recording whose fingerprint
  // or failure was edited was "reproduced", showing the recorded value unchecked).
  const events = found.events;
  // Shown as it came from the file, on its one line (an app's exception may hold a tab, so it is not refused).
  const recordedFailure = repro.outcome.failure === null ? null : escapeLineBreaking(repro.outcome.failure);
  const endDivergence = (): Divergence | null => {
    if (events < recorded.length) return { index: events + 1, detail: `event ${events + 1}: the recorded run went on, this one ended` };
    const matched = partial ? `the first ${recorded.length} events match` : 'every event matches';
    if (partial && events !== repro.outcome.events) return { index: events, detail: `its end: ${matched}, but this run had ${events} events, the recording ${repro.outcome.events}` };
    // Past the digests the run's fingerprint where it ended (or stopped) is all there is to compare.
    const end = partial ? (fingerprint ?? stoppedAt) : fingerprint;
    if (repro.outcome.fingerprint !== '' && end !== null && end !== repro.outcome.fingerprint) {
      return { index: events, detail: `its end: ${matched}, but this run's fingerprint is ${end}, the recording's ${repro.outcome.fingerprint}` };
    }
    if ((recordedFailure === null) !== (failure === null)) {
      return { index: events, detail: `its end: ${matched}, but the recording ${recordedFailure === null ? 'passed' : `failed (${recordedFailure})`} and this run ${failure === null ? 'passed' : `failed (${failure})`}` };
    }
    // Both failed, but not alike (an app whose verify changed since): it said "the run fails as
    // recorded" with the new failure. Not for a run stopped part-way (a signal, a limit): its
    // replay stops at an event limit in its stead, which says so in its own words.
    if (repro.stop === undefined && failure !== null && failure !== repro.outcome.failure) {
      return { index: events, detail: `its end: ${matched}, but the recording failed (${recordedFailure}) and this run failed (${escapeLineBreaking(failure)})` };
    }
    return null;
  };
  const divergence = found.divergence ?? endDivergence();
  if (json) return result(divergence === null, divergence?.detail ?? null);
  if (divergence !== null) {
    io.out(`sim replay: diverged from the recording at ${divergence.detail}${changed ? '; the app changed since the recording' : ''}`);
    return 1;
  }
  io.out(
    partial
      ? `sim replay: reproduced the recorded run: its first ${recorded.length} events event for event (a repro file gives at most that many a digest), then to its end (${events} events${repro.outcome.fingerprint ? `, fingerprint ${repro.outcome.fingerprint}` : ''})`
      : `sim replay: reproduced the recorded run event for event (${recorded.length} events${repro.outcome.fingerprint ? `, fingerprint ${repro.outcome.fingerprint}` : ''})`,
  );
  if (failure !== null) {
    // A run stopped part-way is replayed to its recorded event count, whose stop reads "its limit of
    // N events" even for a run a signal stopped: say how the recording stopped.
    const how = repro.stop !== undefined && recordedFailure !== null ? `stops as recorded, at event ${events}: ${recordedFailure}` : `fails as recorded, at event ${events}: ${failure}`;
    io.out(`sim replay: the run ${how}`);
    return 1;
  }
  return 0;
}

interface Divergence {
  index: number;
  detail: string;
}

/** "left: 3 (ping, ping, pong)", listing at most five handlers. */
function describeQueue(net: string, handlers: string[]): string {
  if (handlers.length === 0) return `${net} none`;
  const shown = handlers.slice(0, 5).join(', ') + (handlers.length > 5 ? ', ...' : '');
  return `${net} ${handlers.length} (${shown})`;
}

function formatStopReport(r: StopReport, appStates: Record<number, string> | undefined, stopAt: string): string {
  const names: Record<number, string> = { ...STRATA_STATE_NAMES, ...appStates };
  // Where it was asked to stop and where the last event was: --stop-at 100 said "stopped at cycle 15".
  const lines = [`stopped at ${stopAt} after ${r.events} events, the last at cycle ${r.cycle} (fingerprint so far ${r.fingerprint})`];
  for (const n of r.nodes) {
    lines.push(
      `  node ${n.node}: cycle ${n.cycle}, state ${n.state} ${names[n.state] ?? ''}`.trimEnd() +
        `, ${doingOf(n.call)}` +
        `, waiting packets: ${describeQueue('left', n.pending[0])}, ${describeQueue('right', n.pending[1])}` +
        (n.lastLog === null ? '' : `; last log: ${n.lastLog}`),
    );
  }
  return lines.join('\n');
}
