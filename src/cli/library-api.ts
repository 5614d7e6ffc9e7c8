/**
 * The library for programs (thesis 4.6's run-time selection): pick a module's
 * implementation for a platform, machine size and input from the shipped (or given)
 * models, and run it, as `sim select --run` does.
 *
 *   const choice = await chooseImplementation({ platform: 'atm', module: 'stencil', inputs: { width: 4096, height: 64, iters: 20 } });
 *   const { summary } = await runImplementation({ platform: 'atm', module: 'stencil', inputs: { width: 4096, height: 64, iters: 20 } });
 */
import { InputError, kindOf } from '../kernel/errors.ts';
import { shownArgument } from '../runtime/words.ts';
import { select, selectContext, type Choice, type Inputs, type LibraryModule, type SelectContext } from '../library/module.ts';
import type { Platform } from '../platform/schema.ts';
import { nodeCountProblem } from '../network/build-topology.ts';
import { DEFAULT_RUN_LIMITS, runApp, type RunSummary } from '../runtime/run-app.ts';
import { loadPlatform, projectPath } from './load-inputs.ts';
import { parseCommunication } from './communication-option.ts';
import { platformShapeProblem } from '../platform/platform-shape.ts';
import { loadModelSet, moduleNamed, refuseNegativeChoice } from './model-files.ts';
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
 * @throws InputError for an unknown module, platform or input, a machine size the platform cannot build, missing models, or an input no variant covers
 */
export async function chooseImplementation(r: ImplementationRequest): Promise<Choice> {
  checkRequest(r);
  return choose(r);
}

/**
 * chooseImplementation's work, on a request already checked. A choice predicted to take a
 * negative time is refused as sim select refuses it (it was returned, and
 * runImplementation ran it); select() itself keeps such predictions (model-set.ts).
 */
async function choose(r: ImplementationRequest): Promise<Choice> {
  const { module, context } = await selection(r);
  const choice = select(module, r.inputs, context);
  refuseNegativeChoice(module.name, choice.variant, choice.cycles, r.inputs, context.models.sources);
  return choice;
}

/** What select needs for a request: the module, and the context of its platform's models at its machine size. */
export interface Selection {
  readonly module: LibraryModule;
  /** For this platform and machine size; frozen (load another selection for another size). */
  readonly context: Readonly<SelectContext>;
}

/**
 * The module and selection context a request names, for calling `select` yourself (to
 * pin a tunable, or ask for advisory ones): `select(s.module, inputs, s.context, { extraRows: 2 })`.
 * chooseImplementation is `select(s.module, r.inputs, s.context)`.
 * @throws InputError for an unknown module or platform, a machine size it cannot build, or missing models
 */
export async function loadSelection(r: Omit<ImplementationRequest, 'inputs'>): Promise<Selection> {
  checkRequest(r, false);
  return selection(r);
}

async function selection(r: Omit<ImplementationRequest, 'inputs'>): Promise<Selection> {
  const platform = typeof r.platform === 'string' ? await loadPlatform(r.platform) : r.platform;
  const nodes = r.nodes ?? platform.defaultNodes;
  // As sim select checks it: a CM-5 of 3 nodes was told to calibrate models for 3 nodes, and with models
  // taken at any size it got a choice for a machine that cannot be built (runImplementation then refused it).
  const problem = nodeCountProblem(platform.network, nodes);
  if (problem !== null) throw new InputError(`nodes ${nodes}: ${problem} (platform ${platform.name})`);
  const comm = parseCommunication(r.communication, r.hybridModels);
  const mod = moduleNamed(r.module);
  // As sim select refuses it: the sort module took a communication and changed nothing.
  if (mod.name !== 'stencil' && comm.communication !== undefined) throw new InputError(`communication ${comm.communication}: it chooses the stencil's extra rows and columns; module ${mod.name} has none (leave it out)`);
  // Frozen: setting s.context.nodes = 64 chose for 64 nodes from the 16-node models, with nothing said.
  return Object.freeze({ module: mod, context: Object.freeze(selectContext(platform, nodes, loadModelSet(platform, nodes, r.models, comm), comm.communication)) });
}

const REQUEST_FIELDS = ['platform', 'module', 'inputs', 'nodes', 'models', 'communication', 'hybridModels', 'seed'];

/**
 * The request's shape, as the command line would check it: nodes '16' was told the
 * 16-node models were "fitted on 16 nodes only, and this is 16", null inputs or module
 * were TypeErrors, and a misspelt field was ignored.
 * @throws InputError naming the field
 */
function checkRequest(r: Partial<ImplementationRequest> & { seed?: number }, needsInputs = true, runs = false): void {
  if (r === null || typeof r !== 'object') throw new InputError(`expected a request { platform, module, ${needsInputs ? 'inputs, ' : ''}nodes?, models?, communication?, hybridModels?${runs ? ', seed?' : ''} }`);
  // A seed is runImplementation's alone: chooseImplementation({ ..., seed: 7 }) took it and ignored it.
  const fields = REQUEST_FIELDS.filter((f) => (needsInputs || f !== 'inputs') && (runs || f !== 'seed'));
  for (const key of Object.keys(r)) if (!fields.includes(key)) throw new InputError(`request field ${key}: unknown (expected ${fields.join(', ')})`);
  // A loaded platform is checked as runConfig checks one: { } was "no app models for undefined on undefined nodes".
  const p = r.platform as Partial<Platform> | null | undefined;
  if (typeof p !== 'string' && (p === null || typeof p !== 'object' || typeof p.name !== 'string' || typeof p.network !== 'object' || typeof p.cpu !== 'object')) {
    throw new InputError(`platform: expected a platform name, a path to a platform file, or a loaded platform (loadPlatform or parsePlatform gives one), got ${kindOf(p)}`);
  }
  // An edited copy is checked against its file, as runConfig checks one.
  const shape = typeof p === 'string' ? null : platformShapeProblem(p as Platform);
  if (shape !== null) throw new InputError(shape);
  if (typeof r.module !== 'string') throw new InputError(`module: expected a module name (stencil, sort) or an app folder of one, got ${String(r.module)}`);
  if (needsInputs && (r.inputs === null || typeof r.inputs !== 'object' || Array.isArray(r.inputs))) throw new InputError(`inputs: expected an object of the module's inputs, got ${String(r.inputs)}`);
  if (r.nodes !== undefined && !(Number.isInteger(r.nodes) && r.nodes >= 1)) throw new InputError(`nodes ${shownArgument(r.nodes)}: expected a positive integer`);
  for (const key of ['models', 'hybridModels'] as const) if (r[key] !== undefined && typeof r[key] !== 'string') throw new InputError(`${key}: expected a directory path, got ${String(r[key])}`);
}

/** Chooses, then runs the choice on a fresh machine (seed 1 unless given). */
export async function runImplementation(r: ImplementationRequest & { seed?: number }): Promise<{ choice: Choice; summary: RunSummary }> {
  checkRequest(r, true, true);
  const platform = typeof r.platform === 'string' ? await loadPlatform(r.platform) : r.platform;
  const nodes = r.nodes ?? platform.defaultNodes;
  const choice = await choose({ ...r, platform, nodes });
  const config = await loadRun({ platform, app: projectPath(choice.app), params: choice.params, nodes, seed: r.seed });
  return { choice, summary: runApp({ ...config, limits: DEFAULT_RUN_LIMITS }) };
}
