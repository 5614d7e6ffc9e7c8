/**
 * The library for programs (thesis 4.6's run-time selection): pick a module's
 * implementation for a platform, machine size and input from the shipped (or given)
 * models, and run it, as `sim select --run` does.
 *
 *   const choice = await chooseImplementation({ platform: 'atm', module: 'stencil', inputs: { width: 4096, height: 64, iters: 20 } });
 *   const { summary } = await runImplementation({ platform: 'atm', module: 'stencil', inputs: { width: 4096, height: 64, iters: 20 } });
 */
import { select, selectContext, type Choice, type Inputs } from '../library/module.ts';
import type { Platform } from '../platform/schema.ts';
import { DEFAULT_RUN_LIMITS, runApp, type RunSummary } from '../runtime/run-app.ts';
import { loadPlatform, projectPath } from './load-inputs.ts';
import { parseCommunication } from './communication-option.ts';
import { loadModelSet, moduleNamed } from './model-files.ts';
import { loadRun } from './run-setup.ts';

export interface ImplementationRequest {
  /** A platform name, a path to a platform file, or a loaded platform. */
  platform: string | Platform;
  /** A module name (stencil, sort) or an app folder of one. */
  module: string;
  inputs: Inputs;
  /** Default: the platform's defaultNodes. */
  nodes?: number;
  /** A directory of app models (<dir>/<platform>.json); default platforms/models/apps/n<nodes>. */
  models?: string;
  /** How the square layout's extra rows and columns are chosen: chain (the default, the shortest critical chain), or eq. 40 with the factored (eq. 38) or hybrid (eq. 54) Communication. */
  communication?: 'chain' | 'factored' | 'hybrid';
  /** With communication 'hybrid': a directory of hybrid models (<dir>/<platform>.json); default platforms/models/hybrid/n<nodes>. */
  hybridModels?: string;
}

/**
 * Every variant's prediction and the choice.
 * @throws InputError for an unknown module, platform or input, missing models, or an input no variant covers
 */
export async function chooseImplementation(r: ImplementationRequest): Promise<Choice> {
  const platform = typeof r.platform === 'string' ? await loadPlatform(r.platform) : r.platform;
  const nodes = r.nodes ?? platform.defaultNodes;
  const comm = parseCommunication(r.communication, r.hybridModels);
  return select(moduleNamed(r.module), r.inputs, selectContext(platform, nodes, loadModelSet(platform, nodes, r.models, comm), comm.communication));
}

/** Chooses, then runs the choice on a fresh machine (seed 1 unless given). */
export async function runImplementation(r: ImplementationRequest & { seed?: number }): Promise<{ choice: Choice; summary: RunSummary }> {
  const platform = typeof r.platform === 'string' ? await loadPlatform(r.platform) : r.platform;
  const nodes = r.nodes ?? platform.defaultNodes;
  const choice = await chooseImplementation({ ...r, platform, nodes });
  const config = await loadRun({ platform, app: projectPath(choice.app), params: choice.params, nodes, seed: r.seed });
  return { choice, summary: runApp({ ...config, limits: DEFAULT_RUN_LIMITS }) };
}
