/**
 * Module resolve hook for the compiled `sim` (registered by project.ts only when a
 * user's module is loaded): an import of one of the project's own
 * TypeScript sources (src/, apps/) resolves to its build in dist/, so the user's
 * module and the simulator share one copy of the runtime. Everything else passes on.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { builtCounterpart } from './project.ts';

interface ResolveResult {
  url: string;
  format?: string | null;
  shortCircuit?: boolean;
}

type NextResolve = (specifier: string, context: unknown) => Promise<ResolveResult>;

export async function resolve(specifier: string, context: unknown, nextResolve: NextResolve): Promise<ResolveResult> {
  const result = await nextResolve(specifier, context);
  if (!result.url.startsWith('file:') || !/\.m?ts$/.test(result.url)) return result;
  const built = builtCounterpart(fileURLToPath(result.url));
  if (built === null) return result;
  return { url: pathToFileURL(built).href, format: 'module', shortCircuit: true };
}
