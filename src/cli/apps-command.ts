/**
 * `sim apps` lists the apps shipped in apps/ (folder, name, description); `sim params
 * <app>` lists what an app takes with --param (type, default, range or values, doc).
 * Both with `--json` for scripts.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../kernel/errors.ts';
import type { ParamSpec } from '../runtime/app.ts';
import type { Io } from './io.ts';
import { loadApp, projectPath } from './load-inputs.ts';
import { parseOptions } from './parse-options.ts';

/**
 * The app folders under apps/ (one level, and one more for groups such as apps/examples),
 * in name order: by code unit, as everywhere in the simulator, not localeCompare's,
 * whose order is the host's locale's (LANG).
 */
function appFolders(): string[] {
  const found: string[] = [];
  const visit = (rel: string, depth: number): void => {
    for (const entry of readdirSync(projectPath(rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (!entry.isDirectory()) continue;
      const folder = `${rel}/${entry.name}`;
      if (existsSync(join(projectPath(folder), 'index.ts'))) found.push(folder);
      else if (depth > 0) visit(folder, depth - 1);
    }
  };
  visit('apps', 1);
  return found;
}

/** "int, default 256, from 3 to 65536" and the like. */
function describeSpec(spec: ParamSpec): string {
  switch (spec.type) {
    case 'int':
    case 'float': {
      const range = spec.min !== undefined && spec.max !== undefined ? `, from ${spec.min} to ${spec.max}` : spec.min !== undefined ? `, at least ${spec.min}` : spec.max !== undefined ? `, at most ${spec.max}` : '';
      return `${spec.type}, default ${spec.default}${range}`;
    }
    case 'bool':
      return `bool, default ${spec.default}`;
    case 'enum':
      return `one of ${spec.values.join('|')}, default ${spec.default}`;
  }
}

export async function appsCommand(command: 'apps' | 'params', argv: readonly string[], io: Io): Promise<number> {
  const { values, positionals } = parseOptions(command, argv);
  const json = values.json === true;
  if (command === 'apps') {
    if (positionals.length > 0) throw new InputError(`sim apps: unexpected argument "${positionals[0]}" (sim params <app> lists an app's parameters)`);
    const apps = [];
    for (const folder of appFolders()) {
      const app = await loadApp(projectPath(folder));
      apps.push({ folder, name: app.name, description: app.description });
    }
    if (json) io.out(JSON.stringify(apps));
    else {
      const width = Math.max(...apps.map((a) => a.folder.length));
      for (const a of apps) io.out(`${a.folder.padEnd(width)}  ${a.description}`);
    }
    return 0;
  }
  if (positionals.length !== 1) throw new InputError('sim params: expected one app: sim params <app-folder|app-file>');
  const app = await loadApp(positionals[0]);
  const params = Object.entries(app.params as Record<string, ParamSpec>);
  if (json) {
    io.out(JSON.stringify({ app: app.name, description: app.description, params: Object.fromEntries(params) }));
    return 0;
  }
  io.out(`${app.name}: ${app.description}`);
  if (params.length === 0) io.out('  (no parameters)');
  const width = Math.max(0, ...params.map(([k]) => k.length));
  for (const [key, spec] of params) io.out(`  ${key.padEnd(width)}  ${describeSpec(spec)}: ${spec.doc}`);
  return 0;
}
