// Module resolve hook (registered by src/cli/project.ts before a user's TypeScript
// module is imported): a `.ts` file outside node_modules loads as an ES module, as
// every app and spec module is written (`export default defineApp(...)`), even where
// no package.json says "type": "module" (an app in /tmp, or in a CommonJS package).
// Without it tsx takes such a file for CommonJS and Node refuses the import
// ("Cannot require() ES Module ... in a cycle"). Plain JavaScript: hooks run in their
// own thread, where nothing compiles TypeScript yet.

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  if (result.url.startsWith('file:') && result.url.endsWith('.ts') && !result.url.includes('/node_modules/') && result.format !== 'module') {
    return { ...result, format: 'module' };
  }
  return result;
}
