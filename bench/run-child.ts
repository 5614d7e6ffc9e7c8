/**
 * Runs one app in this process and prints its summary with wall time and peak
 * resident memory as JSON, so a benchmark can measure a run's own memory.
 * Usage: run-child.ts <platform> <app> <nodes> <seed> [key=value ...]
 */
import { loadRun } from '../src/cli/run-setup.ts';
import { runApp } from '../src/runtime/run-app.ts';

const [platformName, appPath, nodes, seed, ...params] = process.argv.slice(2);
const config = await loadRun({ platform: platformName, app: appPath, params, nodes: Number(nodes), seed: Number(seed), network: 'packet' });
const start = performance.now();
const summary = runApp(config);
const wallMs = performance.now() - start;
console.log(JSON.stringify({ ...summary, wallMs, peakRssMB: process.resourceUsage().maxRSS / 1024 }));
