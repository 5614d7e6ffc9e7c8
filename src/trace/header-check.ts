/**
 * A trace's header checked, before its file is made, against all that the reader checks
 * (header-schema.ts, and the 1 MB of a header line): a run whose header the reader would
 * refuse (a parameter's value past the 10,000 characters a header's parameter may hold,
 * or of a megabyte) wrote a trace that sim graph then refused. Its own module: a run
 * without --trace does not load the schema library.
 */
import { InputError } from '../kernel/errors.ts';
import type { TraceHeader } from './format.ts';
import { describeSchemaError, traceHeaderSchema } from './header-schema.ts';
import { checkHeaderSize, headerJson } from './writer.ts';

/** @throws InputError naming the key and what was expected, or the header's size */
export function checkTraceHeader(header: Omit<TraceHeader, 'fingerprint'>): void {
  const json = headerJson(header);
  const full: unknown = JSON.parse(json);
  const checked = traceHeaderSchema.safeParse(full);
  if (!checked.success) throw new InputError(`--trace: the trace's header would not read back: ${describeSchemaError(checked.error, full)} (traces/FORMAT.md)`);
  checkHeaderSize(json);
}
