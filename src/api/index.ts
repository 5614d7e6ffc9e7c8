/**
 * The package's public entry (`import { ... } from 'proteus-strata'`): the stable API
 * for programs that run the simulator without its CLI. Everything here is also what
 * `sim` itself uses; anything not exported here is internal and may change.
 *
 *   import { loadRun, runApp, shippedApp } from 'proteus-strata';
 *   const summary = runApp(await loadRun({ platform: 'alewife', app: shippedApp('stencil') }));
 *   summary.fingerprint; // the same as `sim --platform alewife apps/stencil --json`
 *
 * Apps are also importable one by one: `import stencil from 'proteus-strata/apps/stencil'`.
 * Bad input throws InputError with the one line `sim` would print; a simulated
 * program that fails throws RunFailure (or reports `verified: false`).
 */

// Writing and running apps: the Strata runtime API (Appendix A), runApp and runConfig.
export * from '../runtime/index.ts';
export type { AnyApp, ParamSpec } from '../runtime/app.ts';
export { AppError, DeadlockError, InputError, RunFailure, RunInterrupted, RunLimitError } from '../kernel/errors.ts';
// What a RunConfig's fields take: programs that build one could not name these types.
export type { Machine, NetworkMode, TraceSink } from '../machine/machine.ts';
export type { EventObserver } from '../kernel/simulation.ts';
export type { LogEntry, LogSink, OutputSink, OutputStream } from '../runtime/printing.ts';

// Platforms and apps by name or path, as `sim --platform <p> <app>` takes them.
export { loadRun, type RunSetup } from '../cli/run-setup.ts';
export { loadApp, loadPlatform, platformNames, projectPath } from '../cli/load-inputs.ts';
export { shippedApp, shippedAppNames } from '../cli/shipped-apps.ts';
export { parsePlatform } from '../platform/load-platform.ts';
export type { Platform } from '../platform/schema.ts';

// Traces (traces/FORMAT.md): read one, draw it, export it.
export { loadTrace } from '../cli/load-trace.ts';
export { readTrace, type Trace, type NodeStates, type NodeCounts, type MessageRecord, type ReadOptions } from '../trace/reader.ts';
export type { TraceHeader, StateInfo } from '../trace/format.ts';
export { renderSvg, renderCongestionSvg, type GraphOptions } from '../trace/state-graph.ts';
export { renderHtml } from '../trace/html-graph.ts';
export { toPerfetto } from '../trace/perfetto.ts';
// A run with its trace in memory, as sim --trace writes it to a file.
export { runTraced, type TracedRun, type TraceOptions } from '../cli/trace-run.ts';

// Calibration (thesis chapter 3): read samples files and fit models.
export { readSamples, type ModelSamples } from '../calibrate/samples-file.ts';
export { fitModel, mrePercent, predict, type FitResult, type Sample } from '../calibrate/fit.ts';
export { fitSamples, formula, type FittedModel, type FittedSamples } from '../calibrate/models.ts';

// High-level libraries (thesis chapters 4-5): choose and run a module's implementation.
// select(module, inputs, context, pinned?, requested?) takes what loadSelection loads for a request.
export { chooseImplementation, loadSelection, runImplementation, type ImplementationRequest, type Selection } from '../cli/library-api.ts';
export { select, type Choice, type Inputs, type LibraryModule, type Params, type Prediction, type SelectContext, type Tuned, type Variant } from '../library/module.ts';
export type { ModelSet } from '../library/model-set.ts';
export type { Communication } from '../library/extra-lines.ts';
