/**
 * A model's columns as a message names them: at most `most`, then how many more. A
 * samples file's "# model" line may name thousands, and sim fit's refusals listed them
 * all on their one line (20 kB for 3,000 columns).
 */
export function columnList(items: readonly string[], separator: string, most = 8): string {
  return items.length <= most ? items.join(separator) : `${items.slice(0, most).join(separator)}${separator}... (${items.length - most} more)`;
}
