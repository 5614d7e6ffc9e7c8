/**
 * A study's acceptance checks (issue 21) as its summary states them: what is checked,
 * the target, the value found, and whether it holds — or null where the study measured
 * nothing the check could judge. A study at settings that drew no trials (a --max-grid
 * too small for any grid near a boundary, a --max-keys with no predicted crossover)
 * passed every check "0 of 0"; it says n/a.
 */

export interface Check {
  check: string;
  target: string;
  value: string;
  /** Whether it holds; null: nothing was measured that it could judge. */
  pass: boolean | null;
}

/** A check's verdict over `judged` items: n/a when there are none. */
export const holdsOver = (judged: number, holds: boolean): boolean | null => (judged === 0 ? null : holds);

/** The checks as a summary's text lists them, each on a line: pass, FAIL or n/a. */
export function checkLines(checks: readonly Check[]): string[] {
  return checks.map((c) => `  ${c.pass === null ? 'n/a ' : c.pass ? 'pass' : 'FAIL'}  ${c.check}: ${c.value} (target ${c.target})`);
}
