/**
 * Sets a run up from what a user or a script names: loads the platform (a name in
 * platforms/ or a path) and the app (a folder or a module) unless given already
 * loaded, and builds the RunConfig with runConfig (src/runtime/run-config.ts), which
 * owns the parameter parsing and the defaults. The machine size is not checked here.
 */
import { InputError, kindOf } from '../kernel/errors.ts';
import type { Platform } from '../platform/schema.ts';
import type { AnyApp } from '../runtime/app.ts';
import type { RunConfig } from '../runtime/run-app.ts';
import { runConfig, type RunOptions } from '../runtime/run-config.ts';
import { loadApp, loadPlatform } from './load-inputs.ts';

/** What loadRun needs: a platform and an app, by name or path or already loaded, and the run's options. */
export interface RunSetup extends RunOptions {
  /** A platform name (`cm5`), a path to a platform file, or a loaded platform. */
  platform: string | Platform;
  /** A path to an app folder or module, or a loaded app. */
  app: string | AnyApp;
}

/**
 * Loads the platform, then the app, then builds the run's configuration, as `sim`
 * does for `--platform <p> <app>`. A parameter of `auto` is refused here as any value
 * the app does not take: `sim` resolves those from the models first, and a program
 * has runImplementation (or select) do it.
 * @throws InputError for an unknown or malformed platform, a missing or malformed
 *   app, or a bad parameter (one line naming it, as the CLI reports it)
 */
export async function loadRun(setup: RunSetup): Promise<RunConfig> {
  // loadRun(null) was a TypeError.
  if (setup === null || typeof setup !== 'object' || Array.isArray(setup)) throw new InputError(`loadRun: expected a run setup { platform, app, ...options }, got ${kindOf(setup)}`);
  const { platform, app, ...options } = setup;
  // Checked before either is loaded: platform 5 was reported as the app's problem, loading the app first.
  if (typeof platform !== 'string' && (platform === null || typeof platform !== 'object')) throw new InputError(`loadRun: platform: expected a platform name, a path to a platform file, or a loaded platform, got ${kindOf(platform)}`);
  if (typeof app !== 'string' && (app === null || typeof app !== 'object')) throw new InputError(`loadRun: app: expected a path to an app folder or module, or a loaded app, got ${kindOf(app)}`);
  const loadedPlatform = typeof platform === 'string' ? await loadPlatform(platform) : platform;
  const loadedApp = typeof app === 'string' ? await loadApp(app) : app;
  return runConfig(loadedPlatform, loadedApp, options);
}
