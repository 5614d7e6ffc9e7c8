/** What an app's verify may return (verificationProblem): checked, since a JavaScript app can return anything. */
import { describe, expect, it } from 'vitest';
import { verificationProblem } from '../../src/runtime/app.ts';

describe("an app's verification", () => {
  it('takes ok, a one-line detail and metrics of numbers, strings, booleans and records of numbers', () => {
    expect(verificationProblem({ ok: true, detail: 'sorted' })).toBeNull();
    expect(verificationProblem({ ok: false, detail: 'node 3 got 7', metrics: { cycles: 12.5, layout: 'rect', tuned: true, byHops: { '2': 404 } } })).toBeNull();
  });

  it('names the first thing that is not so', () => {
    expect(verificationProblem(undefined)).toBe('it returned undefined');
    expect(verificationProblem({ ok: 1, detail: 'x' })).toBe('its ok is 1, not true or false');
    expect(verificationProblem({ ok: true })).toBe('its detail is undefined, not a string');
    expect(verificationProblem({ ok: true, detail: 'x', metrics: [1] })).toBe('its metrics are an array, not an object');
    expect(verificationProblem({ ok: true, detail: 'x', metrics: { rate: Number.NaN } })).toBe('its metric rate is NaN');
    expect(verificationProblem({ ok: true, detail: 'x', metrics: { byHops: { '2': Infinity } } })).toBe('its metric byHops.2 is Infinity, not a finite number');
    expect(verificationProblem({ ok: true, detail: 'x', metrics: { list: null } })).toBe('its metric list is null');
    // The summary's verified line is one line: these reached the terminal as they were.
    expect(verificationProblem({ ok: true, detail: 'fine\nreally' })).toBe(
      'its detail "fine\\nreally" has a character not allowed on one line (control characters (a newline, a tab, an escape), line separators or direction overrides); expected one line of text',
    );
    // An escape, a C1 control (a terminal's CSI), a line separator and a right-to-left override.
    for (const bad of ['\u001b[31mred', '\u009b31mred', 'one\u2028two', 'abc\u202edef']) expect(verificationProblem({ ok: true, detail: bad })).toMatch(/has a character not allowed on one line/);
    expect(verificationProblem({ ok: true, detail: 'naïve – ok ✓' })).toBeNull();
  });
});
