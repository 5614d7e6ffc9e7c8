/**
 * Output from simulated programs: Strata's queued printing (Qprintf, Qfprintf,
 * EmptyPrintQ; thesis 6.1.4, Appendix A 9.1) and its log (StrataLog and the logging
 * of global operations; Appendix A 9.3, with the manual's `loglast` report of each
 * node's last entry). Handlers may print because printing only queues; the queue
 * reaches the run's output when the node next runs a non-atomic Strata call outside
 * a handler, calls emptyPrintQ, exits or fails (StrataFail); what handlers queue
 * after the node exited is printed when the run ends, node by node. Output is ordered by when queues are
 * flushed, which is deterministic.
 */
export type OutputStream = 'stdout' | 'stderr';

/** Receives flushed program output. */
export type OutputSink = (stream: OutputStream, text: string) => void;

export interface LogEntry {
  node: number;
  cycle: number;
  text: string;
}

/** Receives every log entry as it is made. */
export type LogSink = (entry: LogEntry) => void;

/**
 * One log line: "cycle 1234 node 5: text" (Strata prefixes every entry with the
 * node), with newlines in the text written as \n so that an entry stays one line.
 */
export function formatLogEntry(e: LogEntry): string {
  return `cycle ${e.cycle} node ${e.node}: ${e.text.replaceAll('\\', '\\\\').replaceAll('\n', '\\n')}`;
}

/** The run-wide destinations of printing and logging, shared by every node's runtime. */
export class RunOutput {
  private readonly sink: OutputSink | null;
  private readonly logSink: LogSink | null;
  /** Whether global operations log their progress (Strata's debugging library). */
  readonly logsGlobalOps: boolean;
  private readonly last: (LogEntry | null)[];

  constructor(nodes: number, sink: OutputSink | null, logSink: LogSink | null) {
    this.sink = sink;
    this.logSink = logSink;
    this.logsGlobalOps = logSink !== null;
    this.last = new Array<LogEntry | null>(nodes).fill(null);
  }

  print(stream: OutputStream, text: string): void {
    this.sink?.(stream, text);
  }

  log(node: number, cycle: number, text: string): void {
    const entry = { node, cycle, text };
    this.last[node] = entry;
    this.logSink?.(entry);
  }

  /** Each node's last log entry as a line, or null. */
  lastEntryByNode(): (string | null)[] {
    return this.last.map((e) => (e === null ? null : formatLogEntry(e)));
  }

  /** The last log entry of every node that made one, in node order (the manual's loglast). */
  lastEntries(): string[] {
    return this.last.filter((e): e is LogEntry => e !== null).map(formatLogEntry);
  }
}
