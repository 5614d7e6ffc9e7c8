/**
 * The trace file format (documented in traces/FORMAT.md): a magic line, a JSON header
 * line, then binary records, each a tag byte followed by unsigned LEB128 varints.
 * A state change costs 4 bytes or more (most 4-7). The last record is END, whose absence marks a
 * truncated file.
 */
import { STRATA_STATE_NAMES } from '../runtime/states.ts';

export const MAGIC = 'PSTRACE1\n';
export const FORMAT_VERSION = 1;
/** The header's fingerprint is written as this many hex digits, patched when the run ends. */
export const FINGERPRINT_DIGITS = 16;

/** The longest header line a reader takes (traces/FORMAT.md), in bytes. */
export const MAX_HEADER_BYTES = 1 << 20;

/** END: total records before it, then the last cycle of the run. */
export const TAG_END = 0;
/** STATE: node, cycles since that node's previous STATE record (from 0), new state. */
export const TAG_STATE = 1;
/** IN_FLIGHT: node, cycles since the previous IN_FLIGHT record of any node, packets in flight to it. */
export const TAG_IN_FLIGHT = 2;
/** MESSAGE: receiver, cycles since its previous MESSAGE record, sender, cycles from injection to receipt. */
export const TAG_MESSAGE = 3;
/** END of a run cut short: END's two fields, then why (CUT_REASONS). */
export const TAG_END_CUT = 4;
/** Why a run was cut short, by the code its END_CUT record carries (from 1). */
export const CUT_REASONS = ['interrupted', 'limit'] as const;
export type CutReason = (typeof CUT_REASONS)[number];

/** Graph colours of Strata's predefined states, by number (Idle, Busy, Logging, Qprintf, EmptyPrintQ, Broadcasting, Combine, Barrier). */
const STRATA_STATE_COLORS = ['#ffffff', '#1f1f1f', '#8c564b', '#e377c2', '#7f7f7f', '#2ca02c', '#1f77b4', '#d62728'];

/** Strata's predefined states (Appendix A 10; numbers and names from src/runtime/states.ts) with their graph colours. */
const STRATA_STATES: readonly { id: number; name: string; color: string }[] = STRATA_STATE_NAMES.map((name, id) => ({
  id,
  name,
  color: STRATA_STATE_COLORS[id],
}));

/** Colours for app-defined states 8, 9, ... in turn. */
const APP_STATE_COLORS = ['#ff7f0e', '#9467bd', '#17becf', '#bcbd22', '#aec7e8', '#ffbb78', '#98df8a', '#ff9896', '#c5b0d5'];

export interface StateInfo {
  id: number;
  name: string;
  color: string;
}

/** The header line's fields. */
export interface TraceHeader {
  format: 'proteus-strata-trace';
  version: number;
  simulatorVersion: string;
  platform: string;
  platformHash: string;
  nodes: number;
  clockMHz: number;
  network: string;
  app: string;
  params: Record<string, string | number | boolean>;
  seed: number;
  states: StateInfo[];
  /** The run fingerprint (hex); all zeros if the run did not finish. */
  fingerprint: string;
  /** Whether the trace holds IN_FLIGHT records (`--trace-network`). */
  networkCounters: boolean;
  /** Whether the trace holds MESSAGE records (`--trace-messages`). */
  messages: boolean;
}

/** Appends `value` (a non-negative safe integer) as unsigned LEB128. */
export function writeVarint(out: number[], value: number): void {
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

/** The states a trace of `app` can show: Strata's 0-7 and the app's own, each with a colour. */
function stateTable(appStates: Record<number, string> | undefined): StateInfo[] {
  const own = Object.entries(appStates ?? {})
    .map(([id, name]) => ({ id: Number(id), name }))
    .sort((a, b) => a.id - b.id)
    .map(({ id, name }, i) => ({ id, name, color: APP_STATE_COLORS[i % APP_STATE_COLORS.length] }));
  return [...STRATA_STATES, ...own];
}

/** The header of a trace of one run (the fingerprint is filled in when it ends). */
export function traceHeader(run: {
  simulatorVersion: string;
  platform: { name: string; contentHash: string; clockMHz: number };
  nodes: number;
  network: string;
  app: { name: string; states?: Record<number, string> };
  params: Record<string, string | number | boolean>;
  seed: number;
  networkCounters: boolean;
  messages?: boolean;
}): Omit<TraceHeader, 'fingerprint'> {
  return {
    format: 'proteus-strata-trace',
    version: FORMAT_VERSION,
    simulatorVersion: run.simulatorVersion,
    platform: run.platform.name,
    platformHash: run.platform.contentHash,
    nodes: run.nodes,
    clockMHz: run.platform.clockMHz,
    network: run.network,
    app: run.app.name,
    params: run.params,
    seed: run.seed,
    states: stateTable(run.app.states),
    networkCounters: run.networkCounters,
    messages: run.messages ?? false,
  };
}
