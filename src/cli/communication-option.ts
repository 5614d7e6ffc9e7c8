/**
 * `--communication factored|hybrid` and `--hybrid-models <dir>` (sim select, and a run's
 * extraRows=auto / extraCols=auto): which model of the missing communication the square
 * layout's extra rows and columns are balanced against (thesis 5.2.1 eq. 38, factored;
 * 8.1.3 eq. 54, hybrid). The default is the hybrid where its models ship for the platform
 * file and machine size (it is measurably the better, platforms/models/hybrid/README.md),
 * else the factored, which needs only the Strata models. Kept apart from the model files so a run parses
 * its options without loading the library.
 */
import { InputError } from '../kernel/errors.ts';
import type { Communication } from '../library/extra-lines.ts';

const CHOICES: readonly Communication[] = ['factored', 'hybrid'];

export interface CommunicationChoice {
  /** Undefined: the default, hybrid where its models for this platform file and machine size ship, else factored. */
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
    throw new InputError(`--communication ${communication}: expected ${CHOICES.join(' or ')} (the model of the missing communication that extra rows and columns make up for: eq. 38 or eq. 54)`);
  }
  if (hybridDir !== undefined && communication !== 'hybrid') throw new InputError(`--hybrid-models ${hybridDir}: the hybrid models are used only with --communication hybrid`);
  return { communication: communication as Communication, ...(hybridDir === undefined ? {} : { hybridDir }) };
}
