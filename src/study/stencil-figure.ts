/**
 * The stencil selection figure (thesis Figs. 4-7 and 4-8): per platform, the
 * predicted-winner map over width x height (log scales) at the largest machine size
 * studied, with every trial drawn on it: a dot where the choice was the fastest
 * measured, a black cross where it was not (Fig. 4-8 shows the CM-5's errors "only
 * at the boundaries").
 */
import { STENCIL_MODULE } from '../library/stencil-module.ts';
import { groupBy, max } from './stats.ts';
import { winnerFunction } from './stencil-grids.ts';
import type { Row, StudyOptions } from './study.ts';
import { COLORS, esc, f2, legend, powersOfTwo, svgDocument } from '../library/svg.ts';

const CELLS = 40;
const SIDE = 320;

export function selectionFigure(rows: readonly Row[], options: StudyOptions, iters: number): string {
  const names = STENCIL_MODULE.variants.map((v) => v.name);
  const color = (v: string) => COLORS[names.indexOf(v) % COLORS.length];
  const lo = 8;
  const hi = options.maxGrid;
  const pos = (v: number) => (Math.log(v / lo) / Math.log(hi / lo)) * SIDE;
  const panels: string[] = [];
  const platforms = options.platforms;
  platforms.forEach((p, k) => {
    const mine = rows.filter((r) => r.platform === p.name);
    if (mine.length === 0) return;
    // stats.max, not Math.max(...): a study of many trials has more rows than a call takes arguments.
    const nodes = max(mine.map((r) => r.nodes as number)) as number;
    const ox = 70 + (k % 2) * (SIDE + 110);
    const oy = 60 + Math.floor(k / 2) * (SIDE + 80);
    const winner = winnerFunction(p.context(nodes), iters);
    const cell = SIDE / CELLS;
    for (let yi = 0; yi < CELLS; yi++) {
      for (let xi = 0; xi < CELLS; xi++) {
        const w = Math.round(lo * (hi / lo) ** ((xi + 0.5) / CELLS));
        const h = Math.round(lo * (hi / lo) ** ((yi + 0.5) / CELLS));
        panels.push(`<rect x="${f2(ox + xi * cell)}" y="${f2(oy + SIDE - (yi + 1) * cell)}" width="${f2(cell + 0.2)}" height="${f2(cell + 0.2)}" fill="${color(winner(w, h))}" fill-opacity="0.45"/>`);
      }
    }
    panels.push(`<rect x="${ox}" y="${oy}" width="${SIDE}" height="${SIDE}" fill="none" stroke="#999"/>`);
    panels.push(`<text x="${ox}" y="${oy - 8}" font-weight="bold">${esc(`${p.name}, ${nodes} nodes`)}</text>`);
    for (const t of powersOfTwo(lo, hi)) {
      panels.push(`<text x="${f2(ox + pos(t))}" y="${oy + SIDE + 14}" text-anchor="middle">${t}</text>`);
      panels.push(`<text x="${ox - 4}" y="${f2(oy + SIDE - pos(t) + 4)}" text-anchor="end">${t}</text>`);
    }
    const trials = [...groupBy(mine.filter((r) => r.nodes === nodes), (r) => String(r.trial)).values()];
    for (const t of trials) {
      if (t.some((r) => r.measured === null)) continue;
      const best = Math.min(...t.map((r) => r.measured as number));
      const chosen = t.find((r) => r.chosen === true)!;
      const x = f2(ox + pos(t[0].width as number));
      const y = f2(oy + SIDE - pos(t[0].height as number));
      if ((chosen.measured as number) <= best) panels.push(`<circle cx="${x}" cy="${y}" r="1.8" fill="#333"/>`);
      else panels.push(`<path d="M${x},${y} m-5,-5 l10,10 m0,-10 l-10,10" stroke="black" stroke-width="2.5"><title>${t[0].width} x ${t[0].height}: chose ${chosen.variant}</title></path>`);
    }
  });
  const rowsOfPanels = Math.ceil(platforms.length / 2);
  const width = 70 + Math.min(2, platforms.length) * (SIDE + 110) + 60;
  const height = 60 + rowsOfPanels * (SIDE + 80) + 90;
  const keys = legend(70, height - 90, [...names.map((n) => ({ label: `${n} predicted`, color: color(n) })), { label: 'trial, choice fastest', color: '#333', shape: 'circle' as const }, { label: 'trial, wrong pick', color: 'black', shape: 'cross' as const }].slice(0, 4));
  const keys2 = legend(330, height - 90, [...names.map((n) => ({ label: `${n} predicted`, color: color(n) })), { label: 'trial, choice fastest', color: '#333', shape: 'circle' as const }, { label: 'trial, wrong pick', color: 'black', shape: 'cross' as const }].slice(4));
  return svgDocument(width, height, `Stencil selection: predicted winner (shaded) and trials, width x height, ${iters} iterations (thesis Figs. 4-7, 4-8)`, [...panels, ...keys, ...keys2]);
}
