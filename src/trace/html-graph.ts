/**
 * The interactive state graph: one self-contained HTML file holding the trace's
 * changes and a small script that draws them on a canvas, aggregated into pixel
 * columns for whatever time window is shown, with processor numbers down the left
 * and the time axis beneath. Scroll (or +/-) zooms around the
 * pointer, dragging pans, hovering names the node, its state and the time, and
 * Reset returns to the whole run. Works offline; no libraries.
 */
import { InputError } from '../kernel/errors.ts';
import { checkTrace, type Trace } from './reader.ts';
import { graphTitle, legendStates } from './state-graph.ts';

/** Per-node change lists as base64 typed arrays, small enough for large traces. */
function encodeSeries(series: { cycles: number[]; values: number[] }[]): { cycles: string[]; values: string[] } {
  const b64 = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
  return {
    cycles: series.map((s) => b64(Float64Array.from(s.cycles))),
    values: series.map((s) => b64(Int32Array.from(s.values))),
  };
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function renderHtml(trace: Trace, kind: 'states' | 'congestion'): string {
  checkTrace(trace, 'renderHtml');
  // Anything but 'congestion' drew the states.
  if (kind !== 'states' && kind !== 'congestion') throw new InputError(`renderHtml: graph kind ${String(kind)}: expected states or congestion`);
  const h = trace.header;
  const congestion = kind === 'congestion';
  const series = congestion
    ? trace.inFlight.map((n) => ({ cycles: n.cycles, values: n.counts }))
    : trace.nodes.map((n) => ({ cycles: n.cycles, values: n.states }));
  let max = 0;
  if (congestion) for (const s of series) for (const v of s.values) max = Math.max(max, v);
  const title = congestion ? `Packets in flight to each processor: ${graphTitle(trace)}` : graphTitle(trace);
  const data = {
    kind,
    title,
    nodes: h.nodes,
    clockMHz: h.clockMHz,
    lastCycle: Math.max(1, trace.lastCycle),
    states: h.states,
    legend: legendStates(trace).map((s) => s.id),
    max,
    ...encodeSeries(series),
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escape(title)}</title>
<style>
body { font-family: sans-serif; font-size: 12px; margin: 12px; }
#bar { margin: 6px 0; }
#graph { border: 1px solid #888; cursor: crosshair; display: block; }
#tip { position: fixed; pointer-events: none; background: #fffbe6; border: 1px solid #999; padding: 2px 5px; display: none; }
.key { display: inline-block; margin-right: 14px; }
.swatch { display: inline-block; width: 12px; height: 12px; border: 1px solid #888; vertical-align: middle; margin-right: 4px; }
</style>
</head>
<body>
<h1 style="font-size:15px;font-weight:normal">${escape(title)}</h1>
<div id="bar"><button id="zoomin">+</button> <button id="zoomout">-</button> <button id="reset">Reset</button> <span id="window"></span></div>
<canvas id="graph"></canvas>
<div id="axis"></div>
<div id="legend"></div>
<div id="tip"></div>
<script id="data" type="application/json">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>
<script>
const D = JSON.parse(document.getElementById('data').textContent);
const decode = (b64, T) => { const s = atob(b64); const u = new Uint8Array(s.length); for (let i = 0; i < s.length; i++) u[i] = s.charCodeAt(i); return new T(u.buffer); };
const cycles = D.cycles.map((b) => decode(b, Float64Array));
const values = D.values.map((b) => decode(b, Int32Array));
const canvas = document.getElementById('graph');
const W = Math.max(400, Math.min(1400, window.innerWidth - 80));
const rowH = Math.max(1, Math.min(12, Math.floor(800 / D.nodes)));
const AXIS = 34;
/** Room on the left for the processor numbers. */
const LEFT = 40;
canvas.width = W + LEFT; canvas.height = rowH * D.nodes + AXIS;
const ctx = canvas.getContext('2d');
const levels = 8;
const color = D.kind === 'congestion'
  ? (v) => { const g = Math.round(255 * (1 - Math.ceil((v / Math.max(1, D.max)) * levels) / levels)); return 'rgb(' + g + ',' + g + ',' + g + ')'; }
  : (() => { const m = new Map(D.states.map((s) => [s.id, s.color])); return (v) => m.get(v) || '#ff00ff'; })();
const stateName = (v) => D.kind === 'congestion' ? v + ' packets in flight' : ((D.states.find((s) => s.id === v) || { name: 'state ' + v }).name);
let t0 = 0, t1 = D.lastCycle;
/** Index of the last change at or before t (-1: none). */
function at(node, t) { const c = cycles[node]; let lo = 0, hi = c.length; while (lo < hi) { const m = (lo + hi) >> 1; if (c[m] <= t) lo = m + 1; else hi = m; } return lo - 1; }
function valueAt(node, t) { const i = at(node, t); return i < 0 ? 0 : values[node][i]; }
function draw() {
  ctx.fillStyle = '#ffffff'; ctx.fillRect(0, 0, canvas.width, canvas.height);
  drawAxis();
  drawNodeLabels();
  const per = (t1 - t0) / W;
  const time = new Map();
  for (let n = 0; n < D.nodes; n++) {
    const c = cycles[n], v = values[n];
    let i = at(n, t0);
    let cur = i < 0 ? 0 : v[i];
    let t = t0; i++;
    for (let x = 0; x < W; x++) {
      const end = t0 + (x + 1) * per;
      let best = cur;
      if (D.kind === 'congestion') {
        // The most packets in flight at any moment of the column.
        while (i < c.length && c[i] < end) { cur = v[i]; if (cur > best) best = cur; i++; }
      } else {
        // The state the node spent most of the column in.
        time.clear();
        let bestT = -1;
        const add = (val, d) => { const s = (time.get(val) || 0) + d; time.set(val, s); if (s > bestT) { bestT = s; best = val; } };
        while (i < c.length && c[i] < end) { add(cur, c[i] - t); t = c[i]; cur = v[i]; i++; }
        add(cur, end - t);
      }
      t = end;
      if (best !== 0) { ctx.fillStyle = color(best); ctx.fillRect(LEFT + x, n * rowH, 1, rowH); }
    }
  }
  const us = (t) => (t / D.clockMHz).toLocaleString('en-US', { maximumFractionDigits: usDigits(tickStep()) });
  document.getElementById('window').textContent = 'cycles ' + Math.round(t0).toLocaleString('en-US') + ' to ' + Math.round(t1).toLocaleString('en-US') + ' (' + us(t0) + ' to ' + us(t1) + ' us at ' + D.clockMHz + ' MHz)';
}
/** Processor numbers down the left, every few rows as the row height allows (as the SVG has them). */
function drawNodeLabels() {
  const every = Math.max(1, Math.ceil(12 / rowH));
  ctx.fillStyle = '#000000'; ctx.font = '11px sans-serif'; ctx.textAlign = 'right'; ctx.textBaseline = 'middle';
  for (let n = 0; n < D.nodes; n += every) ctx.fillText(String(n), LEFT - 4, n * rowH + rowH / 2);
  ctx.textBaseline = 'alphabetic';
}
/** The axis's tick spacing in cycles for the window shown: 1, 2 or 5 times a power of ten. */
function tickStep() {
  const raw = (t1 - t0) / 8, p = Math.pow(10, Math.floor(Math.log10(raw)));
  return [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw);
}
/** Fraction digits of microseconds for ticks step cycles apart (microsecondDigits in state-graph.ts). */
function usDigits(step) { return Math.min(20, Math.max(1, -Math.floor(Math.log10(step / D.clockMHz)))); }
/** Ticks along the bottom: cycles, and microseconds beneath. */
function drawAxis() {
  const y = rowH * D.nodes;
  const step = tickStep();
  const digits = usDigits(step);
  ctx.fillStyle = '#000000'; ctx.font = '11px sans-serif'; ctx.textAlign = 'center';
  for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) {
    const x = LEFT + ((t - t0) / (t1 - t0)) * W;
    const at = Math.min(LEFT + W - 30, Math.max(LEFT + 30, x));
    ctx.fillRect(x, y, 1, 5);
    ctx.fillText(Math.round(t).toLocaleString('en-US'), at, y + 16);
    ctx.fillStyle = '#555555'; ctx.fillText((t / D.clockMHz).toLocaleString('en-US', { maximumFractionDigits: digits }) + ' us', at, y + 29); ctx.fillStyle = '#000000';
  }
}
function zoom(factor, x) { const t = t0 + (x / W) * (t1 - t0); const span = Math.min(D.lastCycle, Math.max(10, (t1 - t0) * factor)); t0 = Math.max(0, Math.min(D.lastCycle - span, t - (x / W) * span)); t1 = t0 + span; draw(); }
/** The pointer's x within the plot (0 to W). */
const plotX = (e) => Math.max(0, Math.min(W, e.offsetX - LEFT));
canvas.addEventListener('wheel', (e) => { e.preventDefault(); zoom(e.deltaY < 0 ? 0.5 : 2, plotX(e)); });
let drag = null;
canvas.addEventListener('mousedown', (e) => { drag = { x: plotX(e), t0, t1 }; });
window.addEventListener('mouseup', () => { drag = null; });
const tip = document.getElementById('tip');
canvas.addEventListener('mousemove', (e) => {
  if (drag) { const dt = ((drag.x - plotX(e)) / W) * (drag.t1 - drag.t0); const span = drag.t1 - drag.t0; t0 = Math.max(0, Math.min(D.lastCycle - span, drag.t0 + dt)); t1 = t0 + span; draw(); }
  if (e.offsetY >= rowH * D.nodes || e.offsetX < LEFT) { tip.style.display = 'none'; return; }
  const node = Math.min(D.nodes - 1, Math.floor(e.offsetY / rowH));
  const t = t0 + (plotX(e) / W) * (t1 - t0);
  tip.textContent = 'node ' + node + ': ' + stateName(valueAt(node, t)) + ' at cycle ' + Math.round(t).toLocaleString('en-US') + ' (' + (t / D.clockMHz).toFixed(usDigits(tickStep())) + ' us)';
  tip.style.left = (e.clientX + 12) + 'px'; tip.style.top = (e.clientY + 12) + 'px'; tip.style.display = 'block';
});
canvas.addEventListener('mouseleave', () => { tip.style.display = 'none'; });
document.getElementById('zoomin').onclick = () => zoom(0.5, W / 2);
document.getElementById('zoomout').onclick = () => zoom(2, W / 2);
document.getElementById('reset').onclick = () => { t0 = 0; t1 = D.lastCycle; draw(); };
window.addEventListener('keydown', (e) => { if (e.key === '+') zoom(0.5, W / 2); if (e.key === '-') zoom(2, W / 2); });
const legend = document.getElementById('legend');
const keys = D.kind === 'congestion' ? [0, 0.25, 0.5, 0.75, 1].map((f) => Math.round(f * D.max)) : D.legend;
// Built node by node: names and colours come from the trace file, which is data, never markup.
for (const v of keys) {
  const key = document.createElement('span'); key.className = 'key';
  const swatch = document.createElement('span'); swatch.className = 'swatch'; swatch.style.background = color(v);
  key.append(swatch, D.kind === 'congestion' ? v + ' in flight' : v + ' ' + stateName(v));
  legend.append(key);
}
draw();
</script>
</body>
</html>
`;
}
