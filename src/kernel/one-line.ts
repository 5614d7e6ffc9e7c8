/**
 * What may stand in text shown on one line (a platform's title, a sweep's name, an
 * app's verify detail), in one place for every schema that checks it: no character
 * that breaks a line or steers a terminal. That is the C0 controls and DEL (a newline,
 * a tab, an escape), the C1 controls U+0080-U+009F (U+0085 is a line break, U+009B a
 * terminal's escape), the line and paragraph separators U+2028 and U+2029, and the
 * bidirectional overrides and isolates U+202A-U+202E and U+2066-U+2069, which reorder
 * the rest of the line. A title with U+009B reached the summary's terminal as is.
 */

const BREAKING = '\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';

/** Matches a whole non-empty string without any of those characters. */
export const ONE_LINE = new RegExp(`^[^${BREAKING}]+$`);

/** Matches the first of those characters in a string. */
export const LINE_BREAKING = new RegExp(`[${BREAKING}]`);

/** The characters ONE_LINE refuses, as a message says them. */
export const LINE_BREAKING_WORDS = 'control characters (a newline, a tab, an escape), line separators or direction overrides';

/**
 * `text` with each of those characters written as its \u escape, for text from a file
 * shown as it came (a repro's recorded failure) that must stay on its one line.
 */
export function escapeLineBreaking(text: string): string {
  return text.replace(new RegExp(LINE_BREAKING.source, 'g'), (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
