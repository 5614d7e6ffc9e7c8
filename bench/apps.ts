/**
 * App benchmark: wall time and events/s of the apps on every platform at 64 nodes,
 * as `sim` runs them (platform and app loaded the same way, packet network).
 */
import { loadRun } from '../src/cli/run-setup.ts';
import { runApp, type RunSummary } from '../src/runtime/run-app.ts';
import { fmt, printRows, timeTask } from './harness.ts';

const RUNS: [string, string[], number][] = [
  ['apps/stencil', [], 3],
  ['apps/radix-sort', ['keys=1000'], 3],
  ['apps/sample-sort', ['keys=1000'], 3],
  ['apps/ping-pong', ['rounds=8'], 5],
  ['apps/cshift', ['messages=256'], 5],
];
const PLATFORMS = ['cm5', 'alewife', 'paragon', 'atm'];

export async function appsBench(): Promise<void> {
  const rows: [string, string][] = [];
  for (const [appPath, params, iterations] of RUNS) {
    for (const name of PLATFORMS) {
      const config = await loadRun({ platform: name, app: appPath, params, nodes: 64, seed: 1, network: 'packet' });
      const { app } = config;
      let summary: RunSummary | undefined;
      const t = await timeTask(`${app.name}-${name}`, () => {
        summary = runApp(config);
      }, iterations);
      const s = summary!;
      if (!s.verified) throw new Error(`${app.name} on ${name} did not verify: ${s.verification}`);
      rows.push([
        `${app.name} ${params.join(' ') || '(defaults)'} on ${name}`,
        `${t.medianMs.toFixed(1)} ms wall, ${fmt.format(s.events)} events, ${fmt.format(s.events / (t.medianMs / 1000))} events/s, ${fmt.format(s.simulatedCycles)} cycles`,
      ]);
    }
  }
  printRows('Apps at 64 nodes (packet network; median of 3 runs, 5 for the small ones)', rows);
}
