// Worker-thread entry points (*.mjs beside the modules they run) load their module
// through this: in the JavaScript build (dist/, where `npm run build` copies these
// files) the compiled sibling; in the sources, tsx first (module hooks are per
// thread), then the TypeScript sibling. Plain JavaScript: nothing can compile yet.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Imports the module `name` (no extension) that sits beside the file at `url`. */
export async function importSibling(url, name) {
  const built = new URL(`./${name}.js`, url);
  if (existsSync(fileURLToPath(built))) return import(built.href);
  const { registerTsx } = await import('./register-tsx.mjs');
  await registerTsx();
  return import(new URL(`./${name}.ts`, url).href);
}
