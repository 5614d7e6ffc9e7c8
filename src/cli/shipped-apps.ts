/**
 * The apps shipped in the package's apps/ folder, by name, for programs that use the
 * package as a library (src/api/index.ts): `shippedApp('stencil')` is the path `loadRun`
 * and `loadApp` take, wherever the package is installed.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../kernel/errors.ts';
import { projectPath } from './load-inputs.ts';

/** The names of the shipped apps (folders of apps/ with an index.ts). */
export function shippedAppNames(): string[] {
  return readdirSync(projectPath('apps'), { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(projectPath(join('apps', e.name, 'index.ts'))))
    .map((e) => e.name)
    .sort();
}

/**
 * The folder of the shipped app `name` (e.g. `stencil`), for loadRun or loadApp.
 * @throws InputError for a name that is not a shipped app
 */
export function shippedApp(name: string): string {
  const names = shippedAppNames();
  if (!names.includes(name)) throw new InputError(`app ${name}: not a shipped app (expected one of: ${names.join(', ')})`);
  return projectPath(join('apps', name));
}
