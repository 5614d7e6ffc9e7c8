/**
 * The architecture rules of the README's How it works, for dependency-cruiser: no import
 * cycles in src/, layers that import only downwards, and the narrow entry points
 * (apps/, src/calibrate and src/library see Strata only through src/runtime/index.ts).
 * test/architecture.test.ts runs these rules; `npx depcruise src apps` does too.
 */

/** Layers from the bottom up; a layer may import only the layers on earlier rows. */
const LAYERS = [['kernel'], ['platform'], ['network'], ['machine'], ['runtime'], ['trace', 'calibrate', 'sweep'], ['library'], ['study'], ['cli'], ['api']];

const layerRules = LAYERS.flatMap((row, level) =>
  row.map((layer) => {
    const below = LAYERS.slice(0, level).flat();
    const notAllowed = LAYERS.flat().filter((other) => other !== layer && !below.includes(other));
    return {
      name: `layer-${layer}`,
      severity: 'error',
      comment:
        `src/${layer} may import ` +
        (below.length === 0 ? 'no other layer' : `only the layers below it (${below.map((b) => `src/${b}`).join(', ')})`) +
        ': data flows down (README, How it works)',
      from: { path: `^src/${layer}/` },
      to: { path: `^src/(${notAllowed.join('|')})/` },
    };
  }),
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'no import cycles in src/, type-only imports included: they shape the code as much as the others do',
      from: { path: '^src/' },
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'apps-see-only-the-runtime-api',
      severity: 'error',
      comment: 'apps import from src/ only the public runtime entry point, src/runtime/index.ts (STYLE.md 4)',
      from: { path: '^apps/' },
      to: { path: '^src/', pathNot: '^src/runtime/index[.]ts$' },
    },
    {
      name: 'library-sees-only-the-runtime-api',
      severity: 'error',
      comment: 'src/library (modules, selector, optimizer: thesis ch. 4-5) imports from src/runtime/ only src/runtime/index.ts',
      from: { path: '^src/library/' },
      to: { path: '^src/runtime/', pathNot: '^src/runtime/index[.]ts$' },
    },
    {
      name: 'calibrate-sees-only-the-runtime-api',
      severity: 'error',
      comment: 'src/calibrate imports from src/runtime/ only src/runtime/index.ts',
      from: { path: '^src/calibrate/' },
      to: { path: '^src/runtime/', pathNot: '^src/runtime/index[.]ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // typescript 7 has no JavaScript compiler API, so dependency-cruiser's tsc parser is
    // unavailable; without a parser it would skip every .ts file and find nothing. swc
    // parses TypeScript and reports `import type` like any other import.
    parser: 'swc',
    tsPreCompilationDeps: true,
  },
};
