// Module resolve hook (registered by src/cli/project.ts before a user's TypeScript
// module is imported): a `.ts` file outside node_modules loads as an ES module, as
// every app and spec module is written (`export default defineApp(...)`), even where
// no package.json says "type": "module" (an app in /tmp, or in a CommonJS package).
// Without it tsx takes such a file for CommonJS and Node refuses the import
// ("Cannot require() ES Module ... in a cycle"). Plain JavaScript: hooks run in their
// own thread, where nothing compiles TypeScript yet.

// A module the app imports (./helper.ts) came back from tsx as CommonJS under a URL of
// its own, helper.ts%3Ftsx-commonjs-export-preparse=1?...: it loaded as CommonJS, and
// one that threw while loading was reported, then killed the process with an uncaught
// rejection and tsx's compiled source as its stack (exit 1). It is the plain file's URL
// here, as an ES module like the app's own.
const TSX_COMMONJS = /%3Ftsx-commonjs-[^/]*$/;

export async function resolve(specifier, context, nextResolve) {
  const result = await nextResolve(specifier, context);
  if (!result.url.startsWith('file:') || result.url.includes('/node_modules/') || result.format === 'module') return result;
  const url = new URL(result.url);
  const path = url.pathname.replace(TSX_COMMONJS, '');
  if (!path.endsWith('.ts')) return result;
  return { ...result, url: path === url.pathname ? result.url : `file://${path}`, format: 'module' };
}
