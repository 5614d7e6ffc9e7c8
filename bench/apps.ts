/**
 * App benchmark: wall time and events/s of the example apps on every platform at
 * 64 nodes, as `sim` runs them (platform and app loaded the same way).
 */
import { loadApp, loadPlatform } from '../src/cli/load-inputs.ts';
import { parseParams } from '../src/runtime/app.ts';
import { runApp, type RunSummary } from '../src/runtime/run-app.ts';
import { fmt, printRows, timeTask } from './harness.ts';

const RUNS: [string, string[]][] = [
  ['apps/ping-pong', ['rounds=8']],
  ['apps/cshift', ['messages=256']],
];
const PLATFORMS = ['cm5', 'alewife', 'paragon', 'atm'];

export async function appsBench(): Promise<void> {
  const rows: [string, string][] = [];
  for (const [appPath, params] of RUNS) {
    const app = await loadApp(appPath);
    for (const name of PLATFORMS) {
      const platform = loadPlatform(name);
      let summary: RunSummary | undefined;
      const t = await timeTask(`${app.name}-${name}`, () => {
        summary = runApp({ platform, app, params: parseParams(app, params), nodes: 64, seed: 1, network: 'analytic' });
      }, 5);
      const s = summary!;
      rows.push([
        `${app.name} on ${name}`,
        `${t.medianMs.toFixed(1)} ms wall, ${fmt.format(s.events)} events, ${fmt.format(s.events / (t.medianMs / 1000))} events/s, ${fmt.format(s.simulatedCycles)} cycles`,
      ]);
    }
  }
  printRows('Example apps at 64 nodes (analytic network, median of 5)', rows);
}
