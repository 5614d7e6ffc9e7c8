/**
 * What names a repro file (repro.ts writes them, repro-read.ts reads them): its format
 * and version. Apart, so that the commands that only need to tell a repro file from a
 * trace (sim graph, sim export) do not load the runtime that repro.ts runs.
 */
export const REPRO_FORMAT = 'proteus-strata-repro';
export const REPRO_VERSION = 1;

/** How a repro's outcome begins the failure of a run that ended but failed its verification (it has a fingerprint, as a passed run does). */
export const VERIFICATION_FAILED = 'verification failed: ';
