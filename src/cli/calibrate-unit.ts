/**
 * One calibration unit as workers run it: everything is named by strings (platform,
 * spec file, spec index), so a unit in a worker starts from exactly the inputs the
 * main thread would use and produces the same text.
 */
import { parseSpecs, type ModelSpec } from '../calibrate/spec.ts';
import { runUnit } from '../calibrate/samples.ts';
import { appTask } from '../calibrate/app-tasks.ts';
import { runAppUnit } from '../calibrate/app-units.ts';
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { InputError, RunFailure } from '../kernel/errors.ts';
import { loadApp, loadPlatform, projectPath } from './load-inputs.ts';
import { strataSubmodels } from './model-files.ts';
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
  if (['.ts', '.mts', '.js', '.mjs'].includes(extname(file))) {
    let mod: { default?: unknown };
    try {
      mod = (await importModule(path)) as { default?: unknown };
    } catch (e) {
      throw new InputError(`${file}: cannot load the spec module (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`);
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
 * Refuses a model specified twice: its samples shared one model line and were pooled
 * into one fit (ClearMemory(i) and ClearMemory(100*i), MRE 41%), or refused only at the
 * fit, after all the sampling.
 */
function onceEach(specs: ModelSpec[], file: string): ModelSpec[] {
  const names = specs.map((s) => s.name);
  const twice = names.findIndex((n, k) => names.indexOf(n) !== k);
  if (twice >= 0) {
    throw new InputError(`${file}: model ${names[twice]} is specified twice (specifications ${names.indexOf(names[twice]) + 1} and ${twice + 1}; a model is named by its task); expected each model once`);
  }
  return specs;
}

const IDENT = /^[A-Za-z_]\w*$/;
const UPDATE = /^(\+\+|--|(\+|-|\*|\/|<<|>>)=-?\d+(\.\d+)?)$/;

/**
 * Checks a module's specification against what the one-line grammar guarantees (a
 * ModelSpec's shape, identifiers and loop updates): a loop without start or stop, a
 * missing setup or an update of '+++' were internal errors, and a term named 't t' wrote
 * samples that sim fit refused.
 */
function checkSpecShape(value: unknown, where: string): void {
  const bad = (what: string): never => {
    throw new InputError(`${where}: ${what}; expected { name, loops: [{ id, start, stop, update }], setup: [{ name, args }], task: { name, args }, cleanup: [...], inputs: [{ id, value }], terms: [{ id, value }] } with identifiers for names and expressions as strings`);
  };
  const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const isString = (v: unknown): v is string => typeof v === 'string';
  const call = (v: unknown, what: string) => {
    if (!isRecord(v) || !isString(v.name) || !IDENT.test(v.name) || !Array.isArray(v.args) || !v.args.every(isString)) bad(`${what} is not { name, args } with an identifier and a list of expression strings`);
  };
  const list = <T>(v: unknown, what: string, each: (x: unknown, label: string) => T) => {
    if (!Array.isArray(v)) bad(`${what} is not a list`);
    (v as unknown[]).forEach((x, k) => each(x, `${what}[${k}]`));
  };
  if (!isRecord(value)) return bad('not an object');
  if (!isString(value.name) || value.name === '') bad('its name is not a non-empty string');
  list(value.loops, 'loops', (l, label) => {
    if (!isRecord(l) || !isString(l.id) || !IDENT.test(l.id) || !isString(l.start) || !isString(l.stop) || !isString(l.update)) bad(`${label} is not { id, start, stop, update } with an identifier and strings`);
    if (!UPDATE.test((l as { update: string }).update)) bad(`${label}'s update ${JSON.stringify((l as { update: string }).update)} is not ++, --, or an operator and number such as *=10`);
  });
  if ((value.loops as unknown[]).length === 0) bad('its loop nest is empty');
  list(value.setup, 'setup', call);
  call(value.task, 'task');
  if ((value.task as { name: string }).name !== value.name) bad(`its name ${JSON.stringify(value.name)} is not its task's (${(value.task as { name: string }).name}), as a model is named by its task`);
  list(value.cleanup, 'cleanup', call);
  for (const key of ['inputs', 'terms'] as const) {
    list(value[key], key, (v, label) => {
      if (!isRecord(v) || !isString(v.id) || !IDENT.test(v.id) || !isString(v.value)) bad(`${label} is not { id, value } with an identifier and an expression string`);
    });
  }
}

/** Runs one unit; the worker's entry point too. */
export default async function runUnitRequest(r: UnitRequest): Promise<string> {
  const specs = await loadSpecs(r.specFile, r.specPath);
  const platform = await loadPlatform(r.platform);
  const config = { platform, spec: specs[r.specIndex], source: r.specFile, nodes: r.nodes, seed: r.seed, vcount: r.vcount, noise: r.noise, submodels: strataSubmodels(platform, specs[r.specIndex]) };
  // An app-level task (thesis 4.2) runs a whole app, loaded from the project's apps/.
  const task = appTask(config.spec.task.name);
  const app = task === undefined ? null : await loadApp(projectPath(task.app));
  try {
    return app === null ? runUnit(config) : runAppUnit(config, app);
  } catch (e) {
    // Which unit failed: a deadlock of a Roundtrip without its Release named no model, platform or size.
    if (e instanceof RunFailure && !(e instanceof InputError)) {
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
