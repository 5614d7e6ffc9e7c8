/**
 * Standalone SVG for the pictures of the library (pictures.ts: Figs. 4-7, 5-5) and
 * the studies' figures (src/study): the document, the palette, text escaping, and a
 * frame with log or linear axes, points, lines, bars and a legend. Text only (no fonts
 * or scripts): the same data always give the same bytes.
 */

export const COLORS = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#b07aa1', '#76b7b2', '#edc948', '#9c755f'];

export const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A number with at most 2 decimals, for coordinates. */
export const f2 = (x: number): string => String(Math.round(x * 100) / 100);

export interface Axis {
  lo: number;
  hi: number;
  log: boolean;
  label: string;
  /** Tick values (drawn where they fall inside [lo, hi]). */
  ticks: readonly number[];
}

/** A plot area of `width` x `height` pixels at (left, top) mapping data to pixels. */
export class Plot {
  readonly parts: string[] = [];

  readonly x: Axis;
  readonly y: Axis;
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;

  constructor(x: Axis, y: Axis, left = 70, top = 50, width = 520, height = 340) {
    this.x = x;
    this.y = y;
    this.left = left;
    this.top = top;
    this.width = width;
    this.height = height;
  }

  px(v: number): number {
    return this.left + frac(this.x, v) * this.width;
  }

  py(v: number): number {
    return this.top + this.height - frac(this.y, v) * this.height;
  }

  /** The frame, ticks and axis labels. */
  frame(): this {
    const { left, top, width, height } = this;
    this.parts.push(`<rect x="${left}" y="${top}" width="${width}" height="${height}" fill="none" stroke="#999"/>`);
    for (const t of this.x.ticks) {
      if (t < this.x.lo || t > this.x.hi) continue;
      this.parts.push(`<line x1="${f2(this.px(t))}" y1="${top + height}" x2="${f2(this.px(t))}" y2="${top + height + 4}" stroke="#999"/><text x="${f2(this.px(t))}" y="${top + height + 16}" text-anchor="middle">${t}</text>`);
    }
    for (const t of this.y.ticks) {
      if (t < this.y.lo || t > this.y.hi) continue;
      this.parts.push(`<line x1="${left - 4}" y1="${f2(this.py(t))}" x2="${left}" y2="${f2(this.py(t))}" stroke="#999"/><text x="${left - 6}" y="${f2(this.py(t) + 4)}" text-anchor="end">${t}</text>`);
    }
    this.parts.push(`<text x="${left + width / 2}" y="${top + height + 36}" text-anchor="middle">${esc(this.x.label)}</text>`);
    this.parts.push(`<text x="16" y="${top + height / 2}" text-anchor="middle" transform="rotate(-90 16 ${top + height / 2})">${esc(this.y.label)}</text>`);
    return this;
  }

  add(svgElement: string): this {
    this.parts.push(svgElement);
    return this;
  }
}

function frac(a: Axis, v: number): number {
  const span = a.log ? Math.log(a.hi) - Math.log(a.lo) : a.hi - a.lo;
  const at = a.log ? Math.log(Math.max(v, a.lo * 1e-3)) - Math.log(a.lo) : v - a.lo;
  return span <= 0 ? 0.5 : at / span;
}

/** Powers of two from lo to hi. */
export function powersOfTwo(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let v = 2 ** Math.floor(Math.log2(Math.max(1, lo))); v <= hi; v *= 2) if (v >= lo) out.push(v);
  return out;
}

/** Powers of ten from lo to hi. */
export function powersOfTen(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let v = 10 ** Math.floor(Math.log10(Math.max(1, lo))); v <= hi; v *= 10) if (v >= lo) out.push(v);
  return out;
}

/** A legend of colored swatches at (x, y). */
export function legend(x: number, y: number, entries: readonly { label: string; color: string; shape?: 'box' | 'circle' | 'cross' }[]): string[] {
  return entries.map((e, k) => {
    const cy = y + k * 20;
    const mark =
      e.shape === 'circle'
        ? `<circle cx="${x + 7}" cy="${cy + 7}" r="5" fill="${e.color}"/>`
        : e.shape === 'cross'
          ? `<path d="M${x + 2},${cy + 2} L${x + 12},${cy + 12} M${x + 12},${cy + 2} L${x + 2},${cy + 12}" stroke="${e.color}" stroke-width="2.5"/>`
          : `<rect x="${x}" y="${cy}" width="14" height="14" fill="${e.color}"/>`;
    return `${mark}<text x="${x + 20}" y="${cy + 12}">${esc(e.label)}</text>`;
  });
}

/** An SVG document of `width` x `height` on white, its elements one a line. */
export function svgRoot(width: number, height: number, body: readonly string[]): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">\n<rect width="100%" height="100%" fill="white"/>\n${body.join('\n')}\n</svg>\n`;
}

/** A study's figure: a document with its title at the top left and an optional note at the foot. */
export function svgDocument(width: number, height: number, title: string, body: readonly string[], note = ''): string {
  const head = `<text x="20" y="24" font-weight="bold">${esc(title)}</text>`;
  const foot = note === '' ? [] : [`<text x="20" y="${height - 10}" fill="#555">${esc(note)}</text>`];
  return svgRoot(width, height, [head, ...body, ...foot]);
}
