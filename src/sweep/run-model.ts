/**
 * The run model every executor shares: a run's inputs (named by strings, with the
 * hashes of the simulator, platform file and app that produced them), its content
 * key, and the resolver through which sweeps and workers load platforms and apps
 * (src/cli/sweep-inputs.ts reads them from disk; this layer reads no inputs itself).
 */
import type { NetworkMode } from '../machine/machine.ts';
import type { Platform } from '../platform/schema.ts';
import type { AnyApp, ParamValue } from '../runtime/app.ts';
import { canonicalJson, sha256 } from './canonical.ts';

/** Version of the result lines and of what a run key covers. */
export const RESULT_FORMAT = 1;

/**
 * Most runs a sweep file may make. Every run is expanded, checked and keyed before any
 * starts, about 800 bytes of memory each (a dry run of 1,000,000 runs peaked at 816 MB
 * in 19 s); 1,000 x 1,000 x 1,000 values went on for four minutes and then died with
 * V8's heap out of memory. A larger job splits into several sweep files.
 */
export const MAX_SWEEP_RUNS = 1_000_000;

/** Loads platforms and apps by the names a sweep gives them, with their content hashes. */
export interface InputResolver {
  /** The simulator's version (package.json). */
  readonly simulator: string;
  /** @throws InputError for an unknown or malformed platform */
  platform(spec: string): Promise<{ platform: Platform; sha256: string }>;
  /** @throws InputError for a missing or malformed app */
  app(spec: string): Promise<{ app: AnyApp; sha256: string }>;
  /**
   * The host's monotonic clock in milliseconds, for the timing sidecar only (never in
   * a result line); the CLI supplies it, since only the CLI reads the wall clock.
   */
  wallMs(): number;
}

/** Everything one run is made of; a result line carries it as `inputs`. */
export interface RunInputs {
  /** The platform as the sweep names it (a name in platforms/ or a path). */
  platform: string;
  /** The app as the sweep names it (a folder or module path). */
  app: string;
  /** sha256 of the platform file's text. */
  platformSha256: string;
  /** Content hash of the app's folder (src/cli/repro.ts `appContentHash`). */
  appSha256: string;
  simulator: string;
  /** Every parameter, defaults filled. */
  params: Record<string, ParamValue>;
  nodes: number;
  seed: number;
  network: NetworkMode;
  /** Schedule-perturbation seed, or null. */
  perturb: number | null;
}

/** One run of a sweep: its place in sweep order, its content key and its inputs. */
export interface SweepRun {
  i: number;
  key: string;
  inputs: RunInputs;
}

/**
 * `run-` + sha256 of the canonical JSON of what determines the run's result: the
 * format, simulator version, platform and app hashes, parameters, node count, seed,
 * network and perturbation (not the names: the same files under other names are the
 * same run). The prefix keeps it from ever looking like an integer (BullMQ job ids).
 */
export function runKey(inputs: RunInputs): string {
  const { simulator, platformSha256, appSha256, params, nodes, seed, network, perturb } = inputs;
  return `run-${sha256(canonicalJson({ format: RESULT_FORMAT, simulator, platformSha256, appSha256, params, nodes, seed, network, perturb }))}`;
}

/**
 * runKey for many runs that differ only in seed, network and perturbation: the
 * canonical text's fixed parts are built once (keys in sorted order: appSha256, format,
 * network, nodes, params, perturb, platformSha256, seed, simulator), so a key costs a
 * string and a hash. Equal to runKey for every run (tested).
 */
export class KeyMaker {
  private readonly head: string;
  private readonly middle: string;
  private readonly tail: string;
  private readonly platform: string;

  constructor(fixed: Pick<RunInputs, 'simulator' | 'platformSha256' | 'appSha256' | 'params' | 'nodes'>) {
    this.head = `{"appSha256":${JSON.stringify(fixed.appSha256)},"format":${RESULT_FORMAT},"network":`;
    this.middle = `,"nodes":${canonicalJson(fixed.nodes)},"params":${canonicalJson(fixed.params)},"perturb":`;
    this.tail = `,"simulator":${JSON.stringify(fixed.simulator)}}`;
    this.platform = `,"platformSha256":${JSON.stringify(fixed.platformSha256)},"seed":`;
  }

  key(seed: number, network: string, perturb: number | null): string {
    return `run-${sha256(`${this.head}${JSON.stringify(network)}${this.middle}${perturb === null ? 'null' : perturb}${this.platform}${seed}${this.tail}`)}`;
  }
}
