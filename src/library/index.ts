/**
 * The high-level libraries' public API (thesis ch. 4-5), for programs: the modules,
 * the selector, `auto` resolution and the optimizers. Model sets are built from the
 * JSON `sim fit` writes (ModelSet.addFile); src/cli/library-api.ts loads the shipped
 * ones by platform and machine size and runs the choice.
 */
export { resolveAuto, moduleOfApp, AUTO_APP_FOLDERS, type AutoResolution } from './auto.ts';
export { bestDigitBits, viablePasses, type DigitChoice } from './digit-width.ts';
export { extraLines, HYBRID_MODELS, type Communication, type ExtraLines } from './extra-lines.ts';
export { evaluate, ModelSet, type Columns } from './model-set.ts';
export { checkInputs, select, variantNamed, type Choice, type Inputs, type LibraryModule, type Params, type Prediction, type SelectContext, type Tuned, type Variant } from './module.ts';
export { enumerateMinimum, integerMinimum, integerRoot, localMinima, minimize, type Found, type Minimized } from './optimize.ts';
export { digitCurve, winnerMap } from './pictures.ts';
export { DIGIT_RANGE, RADIX, radixColumns, radixWithDigits, SAMPLE, sampleColumns, SORT_MODULE } from './sort-module.ts';
export { rectModel, STENCIL_MODULE, stencilColumns, stencilCycles } from './stencil-module.ts';
