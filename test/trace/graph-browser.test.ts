/**
 * What a person sees: the SVG and HTML state graphs rendered in headless Chromium
 * (Debian's, or the npm package's: test/support/browser.ts), with assertions on the
 * page. Screenshots go to a directory in the OS temp dir for a human look (its path
 * is printed).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/trace/html-graph.ts';
import { readTrace } from '../../src/trace/reader.ts';
import { legendStates, renderSvg } from '../../src/trace/state-graph.ts';
import { launchChromium } from '../support/browser.ts';
import { radixSortTrace, SCRIPT_NAME, smallTrace, withHeader } from '../support/crafted-trace.ts';

const OUT = mkdtempSync(join(tmpdir(), 'sim-graphs-'));

describe('state graphs in a browser', () => {
  let browser: Browser;
  const trace = readTrace(radixSortTrace(32, 300, 28), 'memory');

  beforeAll(async () => {
    const launched = await launchChromium();
    browser = launched.browser;
    console.log(`graph-browser: ${launched.source} Chromium ${browser.version()}; screenshots in ${OUT}`);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('the SVG shows the title, a legend with every state the run showed, and coloured rows for every node', async () => {
    const file = join(OUT, 'radix.svg');
    writeFileSync(file, renderSvg(trace));
    const page = await browser.newPage();
    await page.goto(`file://${file}`);
    const [head, params] = await page.locator('svg > text').allTextContents();
    expect(head).toBe('radix-sort on cm5 (32 nodes), seed 1');
    expect(params).toBe('keys=300 keyBits=28 digitBits=4 dist=uniform');
    const legend = await page.locator('svg > text').allTextContents();
    for (const name of ['0 Idle', '7 Barrier', '8 Count', '9 Reorder']) expect(legend).toContain(name);
    // States no node entered (Qprintf: the sort prints nothing) are left out, as in the HTML page's legend.
    expect(legend).not.toContain('3 Qprintf');
    const titles = await page.locator('svg rect > title').allTextContents();
    for (let node = 0; node < 32; node++) expect(titles.some((t) => t.startsWith(`node ${node}: `))).toBe(true);
    await page.screenshot({ path: join(OUT, 'radix-svg.png') });
    await page.close();
  }, 60_000);

  it('the HTML graph draws, zooms and pans along time, and names the state under the pointer', async () => {
    const file = join(OUT, 'radix.html');
    writeFileSync(file, renderHtml(trace, 'states'));
    const page = await browser.newPage({ viewport: { width: 1200, height: 700 } });
    await page.goto(`file://${file}`);
    const window0 = await page.locator('#window').textContent();
    expect(window0).toMatch(/^cycles 0 to [\d,]+ \(0 to [\d,.]+ us at 33 MHz\)$/);
    // Something other than white was drawn.
    // (A string, since this project's TypeScript has no DOM types.)
    const painted = await page.evaluate<number>(`(() => {
      const c = document.getElementById('graph');
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] !== 255 || d[i + 1] !== 255 || d[i + 2] !== 255) n++;
      return n / (d.length / 4);
    })()`);
    expect(painted).toBeGreaterThan(0.5);
    // Processor numbers down the left margin (40 pixels), as the SVG has them.
    const labelled = await page.evaluate<number>(`(() => {
      const c = document.getElementById('graph');
      const d = c.getContext('2d').getImageData(0, 0, 40, c.height - 34).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] < 128) n++;
      return n;
    })()`);
    expect(labelled).toBeGreaterThan(50);
    const box = (await page.locator('#graph').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 5);
    expect(await page.locator('#tip').textContent()).toMatch(/^node 0: (Idle|Busy|Barrier|Combine|Count|Reorder) at cycle [\d,]+ \([\d.]+ us\)$/);
    await page.mouse.wheel(0, -100);
    const zoomed = await page.locator('#window').textContent();
    expect(zoomed).not.toBe(window0);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 200, box.y + 5);
    await page.mouse.up();
    expect(await page.locator('#window').textContent()).not.toBe(zoomed);
    await page.screenshot({ path: join(OUT, 'radix-html.png') });
    const keys = await page.locator('#legend .key').allTextContents();
    expect(keys).toEqual(legendStates(trace).map((st) => `${st.id} ${st.name}`));
    expect(keys).toContain('9 Reorder');
    await page.click('#reset');
    expect(await page.locator('#window').textContent()).toBe(window0);
    await page.close();
  }, 60_000);

  it('a crafted trace whose state names and app name are markup runs no script: the names show as text (edges case 160)', async () => {
    const crafted = readTrace(
      withHeader(smallTrace(), (h) => {
        h.states[8].name = SCRIPT_NAME;
        h.app = '<script>document.title="PWNED"</script>';
      }),
      'crafted',
    );
    for (const [file, text] of [['xss.html', renderHtml(crafted, 'states')], ['xss.svg', renderSvg(crafted)]]) {
      const page = await browser.newPage();
      writeFileSync(join(OUT, file), text);
      await page.goto(`file://${join(OUT, file)}`);
      await page.waitForTimeout(200);
      expect(await page.title()).not.toBe('PWNED');
      expect(await page.locator('img').count()).toBe(0);
      const shown = await page.locator(file.endsWith('.html') ? '#legend' : 'svg > text').allTextContents();
      expect(shown.join(' ')).toContain(`8 ${SCRIPT_NAME}`);
      await page.close();
    }
  }, 60_000);
});
