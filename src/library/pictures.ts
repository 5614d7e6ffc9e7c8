/**
 * Pictures of what the models decide, as standalone SVG: the predicted winner over
 * width x height for the stencil module (thesis Fig. 4-7), and the radix sort's
 * digit-width curve f(bpd) with g(i)'s viable points marked (Fig. 5-5). Pure: the
 * CLI writes the text.
 */
import { select, type LibraryModule, type SelectContext } from './module.ts';
import { viablePasses, bestDigitBits } from './digit-width.ts';
import { COLORS, esc, svgRoot } from './svg.ts';

/** Sizes from lo to hi (powers of two) in `perOctave` steps per doubling, rounded to integers. */
function logSteps(lo: number, hi: number, perOctave: number): number[] {
  const out: number[] = [];
  for (let k = 0; lo * 2 ** (k / perOctave) <= hi * 1.0001; k++) out.push(Math.round(lo * 2 ** (k / perOctave)));
  return out;
}

/**
 * Fig. 4-7: each cell is the variant the selector picks for that width (x, log scale)
 * and height (y, log scale, growing upwards) at `iters` iterations.
 */
export function winnerMap(mod: LibraryModule, ctx: SelectContext, iters: number, title: string, range = { lo: 8, hi: 4096, perOctave: 8 }): string {
  const sizes = logSteps(range.lo, range.hi, range.perOctave);
  const cell = 6;
  const left = 60;
  const top = 40;
  const side = sizes.length * cell;
  const names = mod.variants.map((v) => v.name);
  const counts = new Map<string, number>();
  const rects: string[] = [];
  sizes.forEach((h, yi) => {
    sizes.forEach((w, xi) => {
      const v = select(mod, { width: w, height: h, iters }, ctx, {}, [], false).variant;
      counts.set(v, (counts.get(v) ?? 0) + 1);
      const color = COLORS[names.indexOf(v) % COLORS.length];
      rects.push(`<rect x="${left + xi * cell}" y="${top + side - (yi + 1) * cell}" width="${cell}" height="${cell}" fill="${color}"><title>${w} x ${h}: ${v}</title></rect>`);
    });
  });
  const ticks = sizes.filter((s) => Number.isInteger(Math.log2(s)));
  const at = (s: number) => sizes.indexOf(s) * cell + cell / 2;
  const axis = [
    ...ticks.map((s) => `<text x="${left + at(s)}" y="${top + side + 16}" text-anchor="middle">${s}</text>`),
    ...ticks.map((s) => `<text x="${left - 6}" y="${top + side - at(s) + 4}" text-anchor="end">${s}</text>`),
    `<text x="${left + side / 2}" y="${top + side + 36}" text-anchor="middle">width (columns)</text>`,
    `<text x="16" y="${top + side / 2}" text-anchor="middle" transform="rotate(-90 16 ${top + side / 2})">height (rows)</text>`,
  ];
  const legend = names.map(
    (n, k) => `<rect x="${left + side + 20}" y="${top + k * 22}" width="14" height="14" fill="${COLORS[k % COLORS.length]}"/><text x="${left + side + 40}" y="${top + k * 22 + 12}">${esc(n)} (${counts.get(n) ?? 0})</text>`,
  );
  const width = left + side + 180;
  const height = top + side + 50;
  return svgRoot(width, height, [`<text x="${left}" y="24" font-weight="bold">${esc(title)}</text>`, ...rects, ...axis, ...legend]);
}

/**
 * Fig. 5-5: the naive composite f(bpd) = Radix(keys, bpd, width) over [lo, hi], with the
 * points g(i) visits (the viable pass counts) circled and g's minimum filled.
 */
export function digitCurve(radix: (bpd: number) => number, keyBits: number, lo: number, hi: number, title: string, clockMHz: number): string {
  const xs = Array.from({ length: hi - lo + 1 }, (_, k) => lo + k);
  const ys = xs.map((b) => radix(b) / clockMHz);
  const viable = new Set(viablePasses(keyBits, lo, hi).map((i) => Math.ceil(keyBits / i)));
  const best = bestDigitBits(keyBits, lo, hi, radix);
  const left = 80;
  const top = 40;
  const plotW = 480;
  const plotH = 300;
  const yMin = Math.min(...ys);
  const yMax = Math.max(...ys);
  const px = (b: number) => left + ((b - lo) / Math.max(1, hi - lo)) * plotW;
  const py = (y: number) => top + plotH - ((y - yMin) / Math.max(1e-9, yMax - yMin)) * plotH;
  const path = xs.map((b, k) => `${k === 0 ? 'M' : 'L'}${px(b).toFixed(1)},${py(ys[k]).toFixed(1)}`).join(' ');
  const parts = [
    `<text x="${left}" y="24" font-weight="bold">${esc(title)}</text>`,
    `<rect x="${left}" y="${top}" width="${plotW}" height="${plotH}" fill="none" stroke="#999"/>`,
    `<path d="${path}" fill="none" stroke="#4e79a7" stroke-width="2"/>`,
    ...xs.map((b, k) => {
      const mark = b === best.digitBits ? 'fill="#e15759" r="6"' : viable.has(b) ? 'fill="white" stroke="#e15759" stroke-width="2" r="5"' : 'fill="#4e79a7" r="3"';
      return `<circle cx="${px(b).toFixed(1)}" cy="${py(ys[k]).toFixed(1)}" ${mark}><title>${b}-bit digits, ${Math.ceil(keyBits / b)} passes: ${ys[k].toFixed(1)} us</title></circle>`;
    }),
    ...xs.map((b) => `<text x="${px(b)}" y="${top + plotH + 16}" text-anchor="middle">${b}</text>`),
    `<text x="${left + plotW / 2}" y="${top + plotH + 36}" text-anchor="middle">bits per digit (bpd)</text>`,
    `<text x="${left - 8}" y="${top + 4}" text-anchor="end">${yMax.toFixed(0)}</text>`,
    `<text x="${left - 8}" y="${top + plotH}" text-anchor="end">${yMin.toFixed(0)}</text>`,
    `<text x="16" y="${top + plotH / 2}" text-anchor="middle" transform="rotate(-90 16 ${top + plotH / 2})">predicted us</text>`,
    `<text x="${left}" y="${top + plotH + 60}">line: f(bpd), eq. 42 (local minima at ${best.naiveMinima.join(', ')}); circles: g(i) over the viable pass counts, eq. 44; filled: its minimum, ${best.digitBits} bits</text>`,
  ];
  return svgRoot(left + plotW + 40, top + plotH + 80, parts);
}

