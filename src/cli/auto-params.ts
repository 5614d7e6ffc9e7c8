/**
 * `--param k=auto` on a run (thesis 4.6, 5.5): before anything runs, the `auto` values
 * are resolved from the platform's models by the app's library module
 * (src/library/auto.ts) into the concrete values the app already takes; the run is
 * then an ordinary run with them, and the summary says what was resolved. The library
 * and the model files are loaded only when a value is `auto`.
 */
import { InputError } from '../kernel/errors.ts';
import type { AutoResolution } from '../library/auto.ts';
import type { Platform } from '../platform/schema.ts';
import type { CommunicationChoice } from './communication-option.ts';
import { parseParams, type ParamSpecs } from '../runtime/app.ts';
import { loadApp } from './load-inputs.ts';
import { grouped, significant } from '../kernel/numbers.ts';

/** The run's `--param` assignments with every `auto` resolved, and what was decided (null if nothing was auto). */
export async function resolveAutoParams(app: string, params: readonly string[], platform: Platform, nodes: number, modelsDir: string | undefined, communication: CommunicationChoice = {}): Promise<{ params: string[]; resolution: AutoResolution | null }> {
  const autoKeys = params.filter((a) => a.endsWith('=auto')).map((a) => a.slice(0, -'=auto'.length));
  if (autoKeys.length === 0) return { params: [...params], resolution: null };
  const loaded = await loadApp(app);
  const specs = loaded.params as ParamSpecs;
  for (const k of autoKeys) {
    if (!Object.hasOwn(specs, k)) throw new InputError(`--param ${k}=auto: app ${loaded.name} has no parameter ${k} (it has: ${Object.keys(specs).join(', ')})`);
  }
  // Every other value as the app would parse it, defaults filled in.
  const others = params.filter((a) => !a.endsWith('=auto'));
  const values: Record<string, number | string | boolean> = parseParams(loaded, others);
  for (const k of autoKeys) values[k] = 'auto';
  // Loaded only here: the model files' schema (zod) is a tenth of a second of every run's start-up.
  const { autoRule, resolveAuto } = await import('../library/auto.ts');
  const { selectContext } = await import('../library/module.ts');
  const { appFolder, loadModelSet, refuseNegativeChoice } = await import('./model-files.ts');
  const folder = appFolder(app) ?? app;
  // Before the models are read: at a node count without shipped models, a key that cannot be auto was refused for the missing models.
  autoRule(folder, autoKeys);
  const ctx = selectContext(platform, nodes, loadModelSet(platform, nodes, modelsDir, communication), communication.communication);
  const given = new Set(others.map((a) => a.slice(0, a.indexOf('='))));
  const resolved = resolveAuto(folder, values, ctx, given);
  if (resolved === null) return { params: [...params], resolution: null };
  const r = resolved.resolution;
  refuseNegativeChoice(r.module, r.variant, r.predictedCycles, values, ctx.models.sources);
  // What was resolved, in place of any other value of those keys (an auto may set another key: apps/sort's sampleDigitBits).
  const set = resolved.resolution.resolved;
  return {
    params: [...others.filter((a) => !Object.hasOwn(set, a.slice(0, a.indexOf('=')))), ...Object.entries(set).map(([k, v]) => `${k}=${String(v)}`)],
    resolution: resolved.resolution,
  };
}

/** One line for the summary: what `auto` became and why. */
export function formatResolution(r: AutoResolution): string {
  const values = Object.entries(r.resolved).map(([k, v]) => `${k}=${v}`).join(' ');
  return `${values} (module ${r.module}: ${r.variant} predicted ${grouped(Math.round(r.predictedCycles))} cycles = ${r.predictedMicros < 1 ? significant(r.predictedMicros, 3) : grouped(r.predictedMicros, 1)} us)`;
}
