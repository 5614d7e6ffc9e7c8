/**
 * Repro files (thesis 6.2: "repeatability is priceless"): everything needed to run
 * a simulation again — the platform file's text, the app's path and content hash,
 * parameters, seed, node count, network mode and simulator version — plus, for every
 * dispatched event (the first MAX_EVENT_DIGESTS), 16 bits of the running fingerprint. `sim replay` runs it again
 * and compares event by event, so the first event that differs (because the app or
 * the simulator changed) is found exactly, unless its 16 bits collide by chance (1 in
 * 65536), in which case a later one is reported. Also writes a run's repro file
 * (`--record`, and automatically when a run fails).
 */
import { isAbsolute, join } from 'node:path';
import { RunFailure, RunInterrupted, RunLimitError } from '../kernel/errors.ts';
import type { EventObserver } from '../kernel/simulation.ts';
import type { NetworkMode } from '../machine/machine.ts';
import { AppRun, type RunConfig } from '../runtime/run-app.ts';
import { appContentHash } from './app-hash.ts';
import { recordedPlatformFile, resolveAppFile } from './load-inputs.ts';
import { writeFileAtomic } from './output-file.ts';
import { PROJECT_ROOT, recordedPath, simulatorVersion } from './project.ts';
import { REPRO_FORMAT, REPRO_VERSION, VERIFICATION_FAILED } from './repro-format.ts';


export interface Repro {
  format: typeof REPRO_FORMAT;
  version: number;
  simulatorVersion: string;
  platform: { source: string; text: string; contentHash: string };
  /** The app's module: relative to the project root when it lies inside it (so the file moves between checkouts), else absolute. */
  app: { path: string; contentHash: string };
  /** The `--param` assignments as given. */
  params: string[];
  seed: number;
  nodes: number;
  network: NetworkMode;
  /** The schedule-perturbation seed (`--perturb`), or null. */
  perturb: number | null;
  /**
   * How the recorded run ended: its fingerprint (empty for a run that failed before it ended, the
   * fingerprint so far for one stopped part-way), events, and failure (null if it verified).
   */
  outcome: { fingerprint: string; events: number; failure: string | null };
  /**
   * Where the run was stopped part-way, if it was: its `--max-cycles` / `--max-events`
   * limits, or the event at which a signal stopped it (as maxEvents). A replay stops
   * at the same place. Absent for a run that ended by itself.
   */
  stop?: { maxCycles?: number; maxEvents?: number };
  /**
   * Base64 of a little-endian Uint16Array: 16 bits of the fingerprint after each
   * event (after each of the first `digestedEvents`, when that is given); null when
   * they were not recorded (a run stopped part-way without --record), in which case a
   * replay compares the fingerprint where it stops.
   */
  eventDigests: string | null;
  /**
   * Present when the digests cover only the run's first events: a run of more than
   * MAX_EVENT_DIGESTS events. A replay compares those event by event, then where the
   * run ends (its events and fingerprint).
   */
  digestedEvents?: number;
}

/**
 * The most events a repro file gives a digest: 2^27, 358 MB of base64. The text of a
 * repro file is one JavaScript string, at most 2^29 characters, which holds the
 * digests of about 201 million events; `--record` of a longer run stopped with
 * "internal error: Cannot create a string longer than 0x1fffffe8 characters".
 */
export const MAX_EVENT_DIGESTS = 2 ** 27;

/** Collects each event's digest (sim.observer) for a repro file: the first `max`; `count` counts them all. */
export class EventDigests {
  private data = new Uint16Array(1 << 16);
  count = 0;
  private readonly max: number;

  constructor(max = MAX_EVENT_DIGESTS) {
    this.max = max;
  }

  readonly observer: EventObserver = (_index, _time, _kind, _a0, digest) => {
    if (this.count >= this.max) {
      this.count++;
      return;
    }
    if (this.count === this.data.length) {
      const grown = new Uint16Array(Math.min(this.data.length * 2, this.max));
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.count++] = digest;
  };

  /** How many digests are kept: every event's, or the first `max`. */
  get kept(): number {
    return Math.min(this.count, this.max);
  }

  base64(): string {
    const view = this.data.subarray(0, this.kept);
    return Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString('base64');
  }
}

function writeRepro(path: string, repro: Repro): void {
  writeFileAtomic('repro file', path, `${JSON.stringify(repro)}\n`);
}

/** The module a repro's app path names (relative paths are the project root's). */
export function reproAppFile(r: Repro): string {
  return isAbsolute(r.app.path) ? r.app.path : join(PROJECT_ROOT, r.app.path);
}

/**
 * Where a failed run's repro goes when --record did not say:
 * sim-repro-<app>-<platform>-n<nodes>-s<seed>[-p<perturb>][-analytic].json. The node
 * count and network are in it: failed runs at 4 and 16 nodes (or explore --network
 * analytic after a packet-network one) wrote one file, the later over the earlier.
 */
export function defaultReproPath(config: RunConfig): string {
  const { app, platform, nodes, seed, perturb, network } = config;
  return `sim-repro-${app.name}-${platform.name}-n${nodes}-s${seed}${perturb === undefined ? '' : `-p${perturb}`}${network === 'packet' ? '' : `-${network}`}.json`;
}

/**
 * What a run was and how it ended, with its event digests (null: not recorded), as a
 * repro file; `stop` says where a run stopped part-way was stopped.
 * @throws InputError when the file cannot be written
 */
export function saveRepro(path: string, config: RunConfig, appArg: string, paramArgs: string[], digests: EventDigests | null, outcome: Repro['outcome'], stop?: Repro['stop']): void {
  const entry = resolveAppFile(appArg);
  writeRepro(path, {
    format: REPRO_FORMAT,
    version: REPRO_VERSION,
    simulatorVersion: simulatorVersion(),
    platform: { source: recordedPlatformFile(config.platform), text: config.platform.text, contentHash: config.platform.contentHash },
    app: { path: recordedPath(entry), contentHash: appContentHash(entry) },
    // By name: the same parameters given in another order wrote another file (a parameter is
    // given at most once, so the order says nothing).
    params: byName(paramArgs),
    seed: config.seed,
    nodes: config.nodes,
    network: config.network,
    perturb: config.perturb ?? null,
    outcome,
    ...(stop === undefined ? {} : { stop }),
    eventDigests: digests === null ? null : digests.base64(),
    ...(digests === null || digests.kept === outcome.events ? {} : { digestedEvents: digests.kept }),
  });
}

/** `--param` arguments (k=v, each name once) in the code-unit order of their names. */
function byName(paramArgs: readonly string[]): string[] {
  const name = (arg: string) => (arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg);
  return [...paramArgs].sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
}

/**
 * Runs `config` once more, recording every event's digest, and writes the repro
 * file. Runs are deterministic, so this is exactly the run that failed. `drive` runs
 * it (the command's driveRun: in chunks, taking Ctrl-C and SIGTERM, showing progress;
 * a run of minutes ran again for minutes, silent and deaf to both).
 * @throws InputError when the file cannot be written; RunInterrupted when a signal stopped it (no file)
 */
export async function recordRun(path: string, config: RunConfig, appArg: string, paramArgs: string[], drive: (run: AppRun) => Promise<void>): Promise<void> {
  const digests = new EventDigests();
  let outcome: Repro['outcome'];
  try {
    const run = new AppRun({ ...config, output: undefined, log: undefined, trace: undefined, observer: digests.observer });
    await drive(run);
    const s = run.summary();
    outcome = { fingerprint: s.fingerprint, events: s.events, failure: s.verified ? null : `${VERIFICATION_FAILED}${s.verification}` };
  } catch (e) {
    // Stopped by a signal while running again: no repro (the caller says so).
    if (!(e instanceof RunFailure) || e instanceof RunInterrupted) throw e;
    // A run stopped at its limit is recorded with the limit and where it stopped, as
    // run-command records one: without them sim explore's repro of such a run diverged.
    if (e instanceof RunLimitError) {
      saveRepro(path, config, appArg, paramArgs, digests, { fingerprint: e.fingerprint, events: e.events, failure: e.message.split('\n')[0] }, config.limits);
      return;
    }
    outcome = { fingerprint: '', events: digests.count, failure: e.message.split('\n')[0] };
  }
  saveRepro(path, config, appArg, paramArgs, digests, outcome);
}
