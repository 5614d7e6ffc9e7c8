/**
 * What a person sees: the SVG and HTML state graphs rendered in headless Chromium
 * (Debian's chromium package; .ci/run installs it), with assertions on the page.
 * Screenshots go to test/.tmp/ for a human look.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import radixSortApp from '../../apps/radix-sort/index.ts';
import { runApp } from '../../src/runtime/run-app.ts';
import { runConfig } from '../../src/runtime/run-config.ts';
import { traceHeader } from '../../src/trace/format.ts';
import { renderHtml } from '../../src/trace/html-graph.ts';
import { readTrace } from '../../src/trace/reader.ts';
import { renderSvg } from '../../src/trace/state-graph.ts';
import { MemoryTraceOutput, TraceWriter } from '../../src/trace/writer.ts';
import { loadTestPlatform } from '../support/platforms.ts';
import { ROOT } from '../support/sim-cli.ts';

const CHROMIUM = '/usr/bin/chromium';
const OUT = join(ROOT, 'test/.tmp/graphs');

function radixTrace() {
  const config = runConfig(loadTestPlatform('cm5'), radixSortApp, { params: ['keys=300', 'keyBits=28', 'digitBits=4'], nodes: 32, seed: 1, network: 'packet' });
  const { platform, params } = config;
  const output = new MemoryTraceOutput();
  const writer = new TraceWriter(traceHeader({ simulatorVersion: 'test', platform, nodes: 32, network: 'packet', app: radixSortApp, params, seed: 1, networkCounters: false }), output);
  const s = runApp({ ...config, trace: writer });
  writer.finish(s.fingerprint, s.simulatedCycles);
  return readTrace(output.bytes(), 'memory');
}

describe('state graphs in a browser', () => {
  let browser: Browser;
  const trace = radixTrace();

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium), as .ci/run does`);
    mkdirSync(OUT, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('the SVG shows the title, a legend with every state, and coloured rows for every node', async () => {
    const file = join(OUT, 'radix.svg');
    writeFileSync(file, renderSvg(trace));
    const page = await browser.newPage();
    await page.goto(`file://${file}`);
    const [head, params] = await page.locator('svg > text').allTextContents();
    expect(head).toBe('radix-sort on cm5 (32 nodes), seed 1');
    expect(params).toBe('keys=300 keyBits=28 digitBits=4 dist=uniform');
    const legend = await page.locator('svg > text').allTextContents();
    for (const name of ['1 Busy', '7 Barrier', '8 Count', '9 Reorder']) expect(legend).toContain(name);
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
    await page.click('#reset');
    expect(await page.locator('#window').textContent()).toBe(window0);
    await page.close();
  }, 60_000);
});
