/**
 * What the simulator writes does not depend on the host it runs on: nothing in src/
 * formats, compares or sorts text through the host's locale or the Node build's ICU
 * (toLocaleString, localeCompare, Intl). Their answers follow LANG and how Node was
 * built, so the same run's output, listing or file could differ from one machine to
 * the next. Numbers go through src/kernel/numbers.ts; text compares by code unit.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src', import.meta.url));
const LOCALE_DEPENDENT = /\.toLocale(String|UpperCase|LowerCase|DateString|TimeString)\(|\.localeCompare\(|\bIntl\./;
/**
 * html-graph.ts writes a page whose script runs in the reader's browser, drawing axis
 * labels on a canvas; numbers.ts names Intl.NumberFormat in its comment, as what it matches.
 */
const EXEMPT = new Set([join('trace', 'html-graph.ts'), join('kernel', 'numbers.ts')]);

describe('host independence', () => {
  it('no file in src/ formats or compares through the host locale or ICU', () => {
    // A state graph's axis labels were toLocaleString('en-US')'s ("1234" on a Node built
    // without ICU), and `sim apps` sorted its folders with localeCompare (LANG's order).
    const offenders = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.ts') && !EXEMPT.has(file))
      .filter((file) => LOCALE_DEPENDENT.test(readFileSync(join(SRC, file), 'utf8')))
      .sort();
    expect(offenders).toEqual([]);
  });
});
