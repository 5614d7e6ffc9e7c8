/**
 * The repro file's schema (src/cli/repro.ts writes them): a repro is a file from
 * outside — it may have been edited, cut short or crafted — so every field is
 * checked here before `sim replay` trusts any of it: the node count within the
 * largest machine a platform may describe, seeds in range, the network one of the
 * modes, the event digests a base64 string (or null for a run stopped part-way
 * without --record), the stop limits non-negative integers. The platform text itself is checked
 * later by the platform loader, the app by the app loader.
 */
import * as z from 'zod';
import { LINE_BREAKING_WORDS, ONE_LINE } from '../kernel/one-line.ts';
import { MAX_SEED } from '../kernel/random-stream.ts';
import { NETWORK_MODES } from '../machine/machine.ts';
import { MAX_TRACE_NODES } from '../trace/header-schema.ts';

const seed = z.int().min(0).max(MAX_SEED);
/**
 * Text sim replay prints as it is (the simulator version, the platform's source, the
 * app's path, a parameter in the run's refusal of it): an escape in it reached the
 * terminal and a newline split sim's line.
 */
const oneLine = z.string().regex(ONE_LINE, { message: `expected one line of text, without ${LINE_BREAKING_WORDS}` });

// Loose: fields a later simulator adds pass through to whoever knows them.
export const reproSchema = z.looseObject({
  format: z.literal('proteus-strata-repro'),
  version: z.number(),
  simulatorVersion: oneLine,
  platform: z.looseObject({ source: oneLine, text: z.string(), contentHash: z.string() }),
  app: z.looseObject({ path: oneLine, contentHash: z.string() }),
  params: z.array(oneLine.regex(/^[^=]+=/, { message: 'expected key=value' })),
  seed,
  nodes: z.int().min(1).max(MAX_TRACE_NODES),
  network: z.enum(NETWORK_MODES as readonly ['packet', 'analytic']),
  perturb: seed.nullable(),
  outcome: z.looseObject({
    fingerprint: z.string().regex(/^[0-9a-f]*$/, { message: 'expected hex digits (none if the run failed before it ended)' }),
    events: z.int().min(0),
    failure: z.string().nullable(),
  }),
  /**
   * Where the run was stopped part-way (--max-cycles, --max-events, or a signal as
   * maxEvents): limits a run takes, from 1 (0 was refused by the run as "limits.maxEvents
   * 0: expected ...", naming neither the file nor its key).
   */
  stop: z.object({ maxCycles: z.int().min(1).optional(), maxEvents: z.int().min(1).optional() }).optional(),
  /** Null when not recorded (a run stopped part-way without --record). */
  eventDigests: z.base64().nullable(),
  /** Present when the digests are the first events' alone (a run longer than MAX_EVENT_DIGESTS). */
  digestedEvents: z.int().min(0).optional(),
});
