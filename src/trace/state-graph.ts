/**
 * State graphs (thesis Fig. 6-5, Appendix A 10): each processor's state, as a colour,
 * against time. Changes are aggregated into pixel columns — each column shows the
 * state the node spent most of that column's time in — so the picture stays small
 * and readable for 1024 nodes and millions of changes.
 */
import { InputError, kindOf } from '../kernel/errors.ts';
import { grouped } from '../kernel/numbers.ts';
import type { StateInfo } from './format.ts';
import { checkTrace, type Trace } from './reader.ts';

export interface GraphOptions {
  /** Pixel columns for the time axis: an integer from 1 to MAX_WIDTH (default 1000). */
  width?: number;
}

/** The most pixel columns a graph takes (its grids hold a column per pixel per node). */
const MAX_WIDTH = 100_000;

/** The width asked for, checked: -5 and Infinity were RangeErrors from a typed array, 0 and NaN an empty picture. */
function graphWidth(options: GraphOptions): number {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw new InputError(`graph options: expected { width? }, got ${kindOf(options)}`);
  // A misspelt option was drawn past at the default ({ columns: 500 }, { widht: 500 }).
  for (const key of Object.keys(options)) if (key !== 'width') throw new InputError(`graph option ${key}: unknown (expected width)`);
  const width = options.width ?? 1000;
  if (!Number.isInteger(width) || width < 1 || width > MAX_WIDTH) throw new InputError(`graph width ${width}: expected an integer number of pixel columns from 1 to ${MAX_WIDTH}`);
  return width;
}

/**
 * For each node, the dominant state index (into `states`) of every pixel column: the
 * state with the most time in it, the first in `states` of those tied (the first when
 * none has any). Kept as time is added, column by column, and only the entries time was
 * added to are cleared for the next node: scanning every state of every column of every
 * node took 4096 x 1000 x 1024 steps for a 140 kB trace whose header lists 1024 states
 * (46 s for sim graph).
 */
export function dominantStates(trace: Trace, columns: number): { states: StateInfo[]; grid: Int16Array[] } {
  const states = trace.header.states;
  const count = states.length;
  const index = new Map(states.map((s, i) => [s.id, i]));
  const end = Math.max(1, trace.lastCycle);
  const perPixel = end / columns;
  const time = new Float64Array(columns * count);
  const touched: number[] = [];
  const grid: Int16Array[] = [];
  for (const node of trace.nodes) {
    const row = new Int16Array(columns);
    const most = new Float64Array(columns);
    /** The first state of the most time in column c, scanned in full (after a rounding made a share negative). */
    const rescan = (c: number): void => {
      let best = 0;
      for (let k = 1; k < count; k++) if (time[c * count + k] > time[c * count + best]) best = k;
      row[c] = best;
      most[c] = time[c * count + best];
    };
    const add = (from: number, to: number, state: number) => {
      const s = index.get(state);
      if (s === undefined || to <= from) return;
      let c = Math.min(columns - 1, Math.floor(from / perPixel));
      let t = from;
      while (t < to && c < columns) {
        const columnEnd = Math.min(to, (c + 1) * perPixel);
        const at = c * count + s;
        if (time[at] === 0) touched.push(at);
        const share = columnEnd - t;
        const v = (time[at] += share);
        if (share < 0 && s === row[c]) rescan(c);
        else if (s === row[c]) most[c] = v;
        else if (v > most[c] || (v === most[c] && s < row[c])) {
          row[c] = s;
          most[c] = v;
        }
        t = columnEnd;
        c++;
      }
    };
    let at = 0;
    let state = 0;
    for (let i = 0; i < node.cycles.length; i++) {
      add(at, node.cycles[i], state);
      at = node.cycles[i];
      state = node.states[i];
    }
    add(at, end, state);
    for (const k of touched) time[k] = 0;
    touched.length = 0;
    grid.push(row);
  }
  return { states, grid };
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Round tick spacing near span / count: 1, 2 or 5 times a power of ten. */
function tickStep(span: number, count: number): number {
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}

/**
 * Fraction digits for microsecond labels `step` cycles apart: one, or as many as the
 * step needs to show (at 100 GHz, a clock the schema allows, ticks 1000 cycles apart
 * are 0.01 us apart, and one digit labelled them 0, 0, 0, 0, 0.1, 0.1). The HTML
 * graph's script has the same rule.
 */
export function microsecondDigits(step: number, clockMHz: number): number {
  return Math.min(20, Math.max(1, -Math.floor(Math.log10(step / clockMHz))));
}

/** The graph title: platform, app, parameters and seed, and whether the run was cut short. */
export function graphTitle(trace: Trace): string {
  const h = trace.header;
  const params = Object.entries(h.params).map(([k, v]) => `${k}=${v}`).join(' ');
  // END's cycle is where the run stopped or, if later, where a node's own clock had run
  // ahead to: "cut short at cycle 103423" of a run stopped at its limit of 100000 cycles.
  const cut = trace.cutShort === null ? '' : `, cut short (${trace.cutShort === 'interrupted' ? 'interrupted' : 'at its cycle or event limit'}), drawn to cycle ${trace.lastCycle}`;
  return `${h.app} on ${h.platform} (${h.nodes} node${h.nodes === 1 ? '' : 's'}), seed ${h.seed}${cut}${params ? `: ${params}` : ''}`;
}

/** The states the legend lists: Idle (every node's state before its first record) and those the trace shows. */
export function legendStates(trace: Trace): StateInfo[] {
  const seen = new Set<number>([0]);
  for (const node of trace.nodes) for (const s of node.states) seen.add(s);
  return trace.header.states.filter((s) => seen.has(s.id));
}

export function renderSvg(trace: Trace, options: GraphOptions = {}): string {
  checkTrace(trace, 'renderSvg');
  const { states, grid } = dominantStates(trace, graphWidth(options));
  return svgFrame(
    trace,
    graphTitle(trace),
    grid,
    states.map((s) => s.color),
    legendStates(trace).map((s) => [s.color, `${s.id} ${s.name}`]),
    (node, c) => `node ${node}: ${states[c].name}`,
  );
}

/** Grey levels for congestion, white (nothing in flight) to black (the most). */
const CONGESTION_LEVELS = 8;

/**
 * For each node and pixel column, the most packets in flight to it during the column,
 * as a level from 0 (none) to CONGESTION_LEVELS (the trace's maximum); also the maximum.
 */
export function congestionLevels(trace: Trace, columns: number): { grid: Int16Array[]; max: number } {
  const end = Math.max(1, trace.lastCycle);
  const perPixel = end / columns;
  let max = 0;
  for (const n of trace.inFlight) for (const c of n.counts) max = Math.max(max, c);
  const grid = trace.inFlight.map((n) => {
    const peak = new Float64Array(columns);
    let count = 0;
    let at = 0;
    const hold = (to: number) => {
      if (count === 0) return;
      const first = Math.min(columns - 1, Math.floor(at / perPixel));
      const last = Math.min(columns - 1, Math.floor(Math.max(at, to - 1e-9) / perPixel));
      for (let c = first; c <= last; c++) peak[c] = Math.max(peak[c], count);
    };
    for (let i = 0; i < n.cycles.length; i++) {
      hold(n.cycles[i]);
      at = n.cycles[i];
      count = n.counts[i];
      hold(at + 1e-9);
    }
    hold(end);
    return Int16Array.from(peak, (v) => (max === 0 ? 0 : Math.ceil((v / max) * CONGESTION_LEVELS)));
  });
  return { grid, max };
}

/** Thesis Fig. 7-7: packets in the network for each processor over time. */
export function renderCongestionSvg(trace: Trace, options: GraphOptions = {}): string {
  checkTrace(trace, 'renderCongestionSvg');
  const { grid, max } = congestionLevels(trace, graphWidth(options));
  const colors = Array.from({ length: CONGESTION_LEVELS + 1 }, (_, l) => {
    const v = Math.round(255 * (1 - l / CONGESTION_LEVELS));
    return `rgb(${v},${v},${v})`;
  });
  const legend: [string, string][] = colors.map((c, l) => [c, l === 0 ? 'none in flight' : `up to ${Math.ceil((l / CONGESTION_LEVELS) * max)}`]);
  return svgFrame(trace, `Packets in flight to each processor: ${graphTitle(trace)}`, grid, colors, legend, (node, l) => `node ${node}: ${legend[l][1]}`);
}

/** A graph of one colour index per node and pixel column, with title, axes and legend. */
function svgFrame(trace: Trace, title: string, grid: Int16Array[], colors: string[], legend: [string, string][], describe: (node: number, index: number) => string): string {
  const h = trace.header;
  const columns = grid[0]?.length ?? 0;
  const rowHeight = Math.max(1, Math.min(12, Math.floor(800 / h.nodes)));
  const left = 70;
  const top = 42;
  const plotHeight = rowHeight * h.nodes;
  const width = left + columns + 20;
  const height = top + plotHeight + 60 + 20 * Math.ceil(legend.length / 6);
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`);
  out.push(`<title>${escape(title)}</title>`);
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  // Long parameter lists go on a second, smaller line.
  const split = title.lastIndexOf(': ');
  const [head, tail] = split < 0 ? [title, ''] : [title.slice(0, split), title.slice(split + 2)];
  out.push(`<text x="${left}" y="17" font-size="14">${escape(head)}</text>`);
  if (tail !== '') out.push(`<text x="${left}" y="32" font-size="11" fill="#444444">${escape(tail)}</text>`);
  out.push(`<rect x="${left}" y="${top}" width="${columns}" height="${plotHeight}" fill="${escape(colors[0])}" stroke="#888888"/>`);
  grid.forEach((row, node) => {
    const y = top + node * rowHeight;
    let c = 0;
    while (c < columns) {
      const v = row[c];
      let e = c + 1;
      while (e < columns && row[e] === v) e++;
      if (v !== 0) out.push(`<rect x="${left + c}" y="${y}" width="${e - c}" height="${rowHeight}" fill="${escape(colors[v])}"><title>${escape(describe(node, v))}</title></rect>`);
      c = e;
    }
  });
  // Node axis: a label every few rows.
  const every = Math.max(1, Math.ceil(12 / rowHeight));
  for (let node = 0; node < h.nodes; node += every) {
    out.push(`<text x="${left - 6}" y="${top + node * rowHeight + rowHeight}" text-anchor="end">${node}</text>`);
  }
  out.push(`<text x="12" y="${top + plotHeight / 2}" transform="rotate(-90 12 ${top + plotHeight / 2})" text-anchor="middle">processor</text>`);
  // Time axis in cycles, with microseconds beneath.
  const end = Math.max(1, trace.lastCycle);
  const step = tickStep(end, 8);
  const usDigits = microsecondDigits(step, h.clockMHz);
  for (let t = 0; t <= end; t += step) {
    const x = left + (t / end) * columns;
    out.push(`<line x1="${x}" y1="${top + plotHeight}" x2="${x}" y2="${top + plotHeight + 5}" stroke="#000000"/>`);
    out.push(`<text x="${x}" y="${top + plotHeight + 17}" text-anchor="middle">${grouped(t)}</text>`);
    out.push(`<text x="${x}" y="${top + plotHeight + 30}" text-anchor="middle" fill="#555555">${grouped(t / h.clockMHz, usDigits)} us</text>`);
  }
  out.push(`<text x="${left + columns / 2}" y="${top + plotHeight + 45}" text-anchor="middle">time (cycles; microseconds at ${h.clockMHz} MHz)</text>`);
  legend.forEach(([color, label], i) => {
    const x = left + (i % 6) * 150;
    const y = top + plotHeight + 58 + Math.floor(i / 6) * 20;
    out.push(`<rect x="${x}" y="${y}" width="14" height="12" fill="${escape(color)}" stroke="#888888"/><text x="${x + 20}" y="${y + 10}">${escape(label)}</text>`);
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
