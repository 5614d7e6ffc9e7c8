/**
 * The README's figures of the shipped studies stay those of studies/: its table of
 * acceptance checks is the checks of each <name>.summary.json, rendered, and every
 * decimal figure of its table beside the thesis is in that study's summary text. A
 * hand-copied figure drifted from its summary once (the three layouts' mean penalty read
 * 1.22% after the rerun that made it 1.27%). `UPDATE_README=1 npx vitest run
 * test/study/readme-checks.test.ts` rewrites the table of checks from the summaries, as
 * UPDATE_GOLDEN does the goldens: only on purpose, after shipping a new run of a study.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STUDY_NAMES } from '../../src/study/index.ts';
import { ROOT } from '../support/sim-cli.ts';

interface ShippedCheck {
  check: string;
  target: string;
  value: string;
  pass: boolean;
}

interface ShippedSummary {
  study: string;
  reproduces: string;
  checks: ShippedCheck[];
}

const BEGIN = "<!-- begin: the shipped studies' checks, made from studies/*/*.summary.json (test/study/readme-checks.test.ts) -->";
const END = "<!-- end: the shipped studies' checks -->";

/** A table cell: a `|` would end it early. */
const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The checks of every summary as one Markdown table, the study named on its first row. */
function checksTable(summaries: readonly ShippedSummary[]): string {
  const lines = ['| study (thesis) | check | this simulator | target | holds |', '| --- | --- | --- | --- | --- |'];
  for (const s of summaries) {
    s.checks.forEach((c, i) => {
      const study = i === 0 ? `\`${s.study}\` (${s.reproduces})` : '';
      lines.push(`| ${cell(study)} | ${cell(c.check)} | ${cell(c.value)} | ${cell(c.target)} | ${c.pass === null ? 'n/a' : c.pass ? 'pass' : '**FAIL**'} |`);
    });
  }
  return lines.join('\n');
}

describe("README: the shipped studies' checks", () => {
  it('renders a summary row by row, the study on its first row only, a | escaped, a failed check marked', () => {
    const table = checksTable([
      {
        study: 'digit-width',
        reproduces: 'Fig. 5-3',
        checks: [
          { check: 'optimal', target: '40 of 40', value: '39 of 40', pass: false },
          { check: 'a|b', target: '< 1%', value: '0.5%', pass: true },
        ],
      },
    ]);
    expect(table.split('\n').slice(2)).toEqual([
      '| `digit-width` (Fig. 5-3) | optimal | 39 of 40 | 40 of 40 | **FAIL** |',
      '|  | a\\|b | 0.5% | < 1% | pass |',
    ]);
  });

  it('holds the checks of every shipped summary, as the summaries say them', () => {
    const summaries = STUDY_NAMES.map((name) => JSON.parse(readFileSync(join(ROOT, 'studies', name, `${name}.summary.json`), 'utf8')) as ShippedSummary);
    const path = join(ROOT, 'README.md');
    const readme = readFileSync(path, 'utf8');
    const start = readme.indexOf(BEGIN);
    const end = readme.indexOf(END);
    expect(start, `README.md lacks the line ${BEGIN}`).toBeGreaterThanOrEqual(0);
    expect(end, `README.md lacks the line ${END} after the table`).toBeGreaterThan(start);
    const block = `${BEGIN}\n${checksTable(summaries)}\n${END}`;
    if (process.env.UPDATE_README === '1') writeFileSync(path, readme.slice(0, start) + block + readme.slice(end + END.length));
    else expect(readme.slice(start, end + END.length), 'run UPDATE_README=1 npx vitest run test/study/readme-checks.test.ts after shipping a study').toBe(block);
  });
});

describe('README: the shipped studies beside the thesis', () => {
  it("gives only figures its study's summary gives (this simulator's and, in brackets there, the thesis's)", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const table = /\n\| study \| this simulator \| thesis \|\n\| --- \| --- \| --- \|\n((?:\|.*\n)+)/.exec(readme);
    expect(table, "README.md lacks the table '| study | this simulator | thesis |'").not.toBeNull();
    let study = '';
    const missing: string[] = [];
    const rows = table![1].trim().split('\n');
    for (const row of rows) {
      // A row without a study's name goes on with the one above (the same trials, another choice).
      study = /`([a-z-]+)`/.exec(row.split('|')[1])?.[1] ?? study;
      expect(STUDY_NAMES, row).toContain(study);
      const text = readFileSync(join(ROOT, 'studies', study, `${study}.summary.txt`), 'utf8');
      for (const figure of row.match(/\d+\.\d+/g) ?? []) if (!text.includes(figure)) missing.push(`${study}: ${figure}`);
    }
    expect(rows.length).toBeGreaterThanOrEqual(STUDY_NAMES.length);
    expect(missing).toEqual([]);
  });
});
