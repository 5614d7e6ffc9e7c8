/**
 * One calibration unit as workers run it: everything is named by strings (platform,
 * spec file, spec index), so a unit in a worker starts from exactly the inputs the
 * main thread would use and produces the same text.
 */
import { checkSpecShape, onceEach, parseSpecs, type ModelSpec } from '../calibrate/spec.ts';
import { runUnit, runUnitStoppable } from '../calibrate/samples.ts';
import { appTask } from '../calibrate/app-tasks.ts';
import { runAppUnit } from '../calibrate/app-units.ts';
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { InputError, RunFailure } from '../kernel/errors.ts';
import { loadApp, loadPlatform, projectPath } from './load-inputs.ts';
import { strataSubmodels } from './model-files.ts';
import { moduleLoadProblem } from './app-location.ts';
import { importModule } from './project.ts';

export interface UnitRequest {
  platform: string;
  /** The spec file as given (messages name it), and where it is read from (see lookupPath). */
  specFile: string;
  specPath: string;
  specIndex: number;
  nodes: number;
  seed: number;
  vcount: number;
  noise: boolean;
}

/**
 * Reads a spec file: the one-line grammar, or a module whose default export is a list of
 * ModelSpec. `path` is read; messages name `file`, the spec as given.
 */
export async function loadSpecs(file: string, path = file): Promise<ModelSpec[]> {
  if (['.ts', '.mts', '.js', '.mjs'].includes(extname(path))) {
    let mod: { default?: unknown };
    try {
      mod = (await importModule(path)) as { default?: unknown };
    } catch (e) {
      throw new InputError(`${file}: cannot load the spec module (${moduleLoadProblem(e).text})`);
    }
    const specs = mod.default;
    if (!Array.isArray(specs) || specs.length === 0) {
      throw new InputError(`${file}: expected a default export that is a non-empty list of model specifications ({ name, loops, setup, task, cleanup, inputs, terms })`);
    }
    specs.forEach((spec, i) => checkSpecShape(spec, `${file}: specification ${i + 1}`));
    return onceEach(specs as ModelSpec[], file);
  }
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new InputError(`${file}: cannot read the spec file (${(e as { code?: string }).code ?? String(e)})`);
  }
  return onceEach(parseSpecs(text, file), file);
}

/**
 * Runs one unit; the worker's entry point too. Given `stop` (in the main thread, where
 * SIGINT's handler runs), the run gives the event loop a turn every chunk of events and
 * throws RunStopped once `stop` is aborted.
 */
export default async function runUnitRequest(r: UnitRequest, stop?: AbortSignal): Promise<string> {
  const specs = await loadSpecs(r.specFile, r.specPath);
  const platform = await loadPlatform(r.platform);
  const config = { platform, spec: specs[r.specIndex], source: r.specFile, nodes: r.nodes, seed: r.seed, vcount: r.vcount, noise: r.noise, submodels: strataSubmodels(platform, specs[r.specIndex]) };
  // An app-level task (thesis 4.2) runs a whole app, loaded from the project's apps/.
  const task = appTask(config.spec.task.name);
  const app = task === undefined ? null : await loadApp(projectPath(task.app));
  try {
    if (app !== null) return await runAppUnit(config, app, stop);
    return stop === undefined ? runUnit(config) : await runUnitStoppable(config, stop);
  } catch (e) {
    // Which unit failed: a deadlock of a Roundtrip without its Release named no model, platform or size.
    if (e instanceof RunFailure) {
      const failure = new RunFailure(`${r.specFile}: model ${config.spec.name} on ${platform.name} with ${r.nodes} nodes: ${e.message}`, { cause: e });
      failure.lastLogEntries = e.lastLogEntries;
      throw failure;
    }
    throw e;
  }
}

/** What a worker sends back: the unit's text, or the kind and message of its failure. */
export type UnitOutcome = { text: string } | { failure: 'input' | 'run'; message: string };

/**
 * The worker's entry point: errors lose their class crossing threads, so a unit's
 * bad input or failed run comes back as data and is thrown again, as itself, by
 * `unitText` in the main thread.
 */
export async function runUnitInWorker(r: UnitRequest): Promise<UnitOutcome> {
  try {
    return { text: await runUnitRequest(r) };
  } catch (e) {
    if (e instanceof InputError) return { failure: 'input', message: e.message };
    if (e instanceof RunFailure) return { failure: 'run', message: e.message };
    throw e;
  }
}

/** The text of a worker's outcome, or its failure thrown as the error it was. */
export function unitText(outcome: UnitOutcome): string {
  if ('text' in outcome) return outcome.text;
  throw outcome.failure === 'input' ? new InputError(outcome.message) : new RunFailure(outcome.message);
}
