/**
 * What the stencil's nodes charge for their work (apps/stencil/index.ts), in operation
 * counts at the platform's CPU prices, and which points an update visits: shared with
 * the critical chain the stencil models count with (src/calibrate/stencil-chain.ts),
 * so that the two cannot drift apart.
 */

/** Per point updated (eq. 31: four adds, two multiplies, the delta). */
export const POINT_OPS = { floatAdds: 6, floatMuls: 2, loads: 5, stores: 1, branches: 2 } as const;

/** Per column of the block an update walks (its loop bounds and colour test). */
export const COLUMN_OPS = { intOps: 4, branches: 2 } as const;

/** Per point of a row edge copied out before it is sent, or in after it arrives. */
export const ROW_COPY_OPS = { loads: 1, stores: 1 } as const;

/** Integers in lo..hi (inclusive) of the given parity (0 even, 1 odd); 0 for an empty range. */
function ofParity(lo: number, hi: number, parity: number): number {
  if (hi < lo) return 0;
  const first = (lo & 1) === parity ? lo : lo + 1;
  return first > hi ? 0 : Math.floor((hi - first) / 2) + 1;
}

/**
 * The points of colour `color` in row y of the w columns from x0: those with
 * (x + y) & 1 = color, every other one (apps/stencil sends a row edge one colour at a
 * time: eq. 38's "divided by two because of red-black ordering").
 */
export function rowPointsOfColour(x0: number, w: number, y: number, color: number): number {
  return ((x0 + y) & 1) === (color & 1) ? (w + 1) >> 1 : w >> 1;
}

/**
 * The interior lines (1 to size - 2) among the `lines` lines from `start` of a grid
 * `size` lines across, by parity: [even, odd].
 */
export function interiorByParity(start: number, lines: number, size: number): [number, number] {
  const lo = Math.max(start, 1);
  const hi = Math.min(start + lines - 1, size - 2);
  return [ofParity(lo, hi, 0), ofParity(lo, hi, 1)];
}

/**
 * The points of colour `color` (x + y even: 0, odd: 1) that an update of the w x h block
 * at (x0, y0) of a width x height grid changes: the grid's interior points in the block,
 * 1 <= x <= width - 2 and 1 <= y <= height - 2, as update() visits them column by column.
 * Columns of each parity hold the same count of rows of the colour, so the count is
 * even columns x rows of the colour's parity + odd columns x rows of the other.
 */
export function colourPoints(x0: number, y0: number, w: number, h: number, width: number, height: number, color: number): number {
  return pointsOfColour(interiorByParity(x0, w, width), interiorByParity(y0, h, height), color);
}

/** colourPoints from the block's columns and rows by parity (interiorByParity). */
export function pointsOfColour(columns: readonly [number, number], rows: readonly [number, number], color: number): number {
  return columns[0] * rows[color & 1] + columns[1] * rows[(color + 1) & 1];
}
