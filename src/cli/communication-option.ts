/**
 * `--communication chain|factored|hybrid` and `--hybrid-models <dir>` (sim select, and a
 * run's extraRows=auto / extraCols=auto): how the square layout's extra rows and columns
 * are chosen. chain, the default: the values that make an iteration's critical chain
 * shortest (src/library/extra-lines.ts chainExtraLines; measurably the best, and it needs
 * no calibration); factored and hybrid: eq. 40's balance against the missing
 * communication of eq. 38 (thesis 5.2.1) or eq. 54 (8.1.3). Kept apart from the model
 * files so a run parses its options without loading the library.
 */
import { InputError } from '../kernel/errors.ts';
import type { Communication } from '../library/extra-lines.ts';

const CHOICES: readonly Communication[] = ['chain', 'factored', 'hybrid'];

export interface CommunicationChoice {
  /** Undefined: the default, chain. */
  communication?: Communication;
  /** The hybrid models' directory (<dir>/<platform>.json); default the shipped one for the machine size. */
  hybridDir?: string;
}

/** The options checked (none given: the default); --hybrid-models only with hybrid. */
export function parseCommunication(value: string | undefined, hybridDir: string | undefined): CommunicationChoice {
  if (value === undefined) {
    if (hybridDir !== undefined) throw new InputError(`--hybrid-models ${hybridDir}: the hybrid models are used only with --communication hybrid`);
    return {};
  }
  const communication = value;
  if (!(CHOICES as readonly string[]).includes(communication)) {
    throw new InputError(`--communication ${communication}: expected chain, factored or hybrid (how extra rows and columns are chosen: the shortest critical chain, or eq. 40 with eq. 38's or eq. 54's Communication)`);
  }
  if (hybridDir !== undefined && communication !== 'hybrid') throw new InputError(`--hybrid-models ${hybridDir}: the hybrid models are used only with --communication hybrid`);
  return { communication: communication as Communication, ...(hybridDir === undefined ? {} : { hybridDir }) };
}
