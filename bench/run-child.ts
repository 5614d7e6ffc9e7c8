/**
 * Runs one app in this process and prints its summary with wall time and peak
 * resident memory as JSON, so a benchmark can measure a run's own memory.
 * Usage: run-child.ts <platform> <app> <nodes> <seed> [key=value ...]
 */
import { loadApp, loadPlatform } from '../src/cli/load-inputs.ts';
import { parseParams } from '../src/runtime/app.ts';
import { runApp } from '../src/runtime/run-app.ts';

const [platformName, appPath, nodes, seed, ...params] = process.argv.slice(2);
const platform = loadPlatform(platformName);
const app = await loadApp(appPath);
const start = performance.now();
const summary = runApp({ platform, app, params: parseParams(app, params), nodes: Number(nodes), seed: Number(seed), network: 'packet' });
const wallMs = performance.now() - start;
console.log(JSON.stringify({ ...summary, wallMs, peakRssMB: process.resourceUsage().maxRSS / 1024 }));
