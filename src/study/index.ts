/**
 * The validation studies `sim study <name>` runs (issue 21), in the order the help
 * lists them.
 */
import { DIGIT_WIDTH } from './digit-width.ts';
import { EXTRA_ROWS } from './extra-rows.ts';
import { SORT_SELECTION } from './sort-selection.ts';
import { STENCIL_GAIN } from './stencil-gain.ts';
import { STENCIL_SELECTION } from './stencil-selection.ts';
import type { Study } from './study.ts';

export const STUDIES: readonly Study[] = [STENCIL_SELECTION, STENCIL_GAIN, SORT_SELECTION, EXTRA_ROWS, DIGIT_WIDTH];

export const STUDY_NAMES = STUDIES.map((s) => s.name);

export type { Measured, Measurements, Row, Study, StudyOptions, StudyPlatform, StudyRun, Summary } from './study.ts';
export { runId } from './study.ts';
