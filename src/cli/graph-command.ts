/**
 * `sim graph <trace> -o <file.svg|file.html> [--kind states|congestion]`: reads a
 * trace file and writes its state graph (thesis Fig. 6-5) or its congestion graph
 * (Fig. 7-7) as SVG, or as an HTML page that zooms and pans. The drawing itself is
 * src/trace/'s; this file only checks the arguments and writes the file.
 */
import { InputError } from '../kernel/errors.ts';
import { renderHtml } from '../trace/html-graph.ts';
import { renderCongestionSvg, renderSvg } from '../trace/state-graph.ts';
import type { Io } from './io.ts';
import { checkOutputFile, checkSeparateFiles, isSpecialOutput, reportStream, writeFileAtomic } from './output-file.ts';
import { parseGraphArgs } from './run-args.ts';
import { loadTrace } from './load-trace.ts';

/**
 * Runs `sim graph` with its arguments (after `graph`); returns the exit status.
 * @throws InputError for a bad file name, an unreadable trace, or a congestion graph
 *   of a trace recorded without --trace-network
 */
export function graphCommand(argv: readonly string[], io: Io): number {
  const { trace, out, kind, json } = parseGraphArgs(argv);
  const html = out.endsWith('.html');
  // A device or FIFO (/dev/stdout, /dev/null) takes the SVG, as every -o may be one (it was refused for its name).
  if (!html && !out.endsWith('.svg') && !isSpecialOutput(out)) throw new InputError(`-o ${out}: expected a file name ending in .svg or .html, or a device such as /dev/stdout (which gets the SVG)`);
  checkSeparateFiles([['trace', trace], ['-o', out]]);
  checkOutputFile('-o', out);
  // The graphs draw no messages: a trace with millions of them is read without keeping them.
  const loaded = loadTrace(trace, { messages: false });
  if (kind === 'congestion' && !loaded.header.networkCounters) {
    throw new InputError(`${trace}: has no network counters; record them with --trace-network (and the packet network)`);
  }
  const drawing = html ? renderHtml(loaded, kind) : kind === 'congestion' ? renderCongestionSvg(loaded) : renderSvg(loaded);
  writeFileAtomic('-o', out, drawing);
  const report = reportStream(io, out);
  if (json) {
    const h = loaded.header;
    report(JSON.stringify({ wrote: out, format: html ? 'html' : 'svg', kind, app: h.app, platform: h.platform, nodes: h.nodes, records: loaded.records, lastCycle: loaded.lastCycle, cutShort: loaded.cutShort }));
  } else report(`sim graph: wrote ${out}`);
  return 0;
}
