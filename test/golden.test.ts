/**
 * Golden runs: every example app on every platform at a small size, compared with
 * the fingerprints and summaries stored in traces/golden/. Set UPDATE_GOLDEN=1 to
 * rewrite them — only on purpose, saying why in the commit.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadApp } from '../src/cli/load-inputs.ts';
import { loadRun } from '../src/cli/run-setup.ts';
import { runApp } from '../src/runtime/run-app.ts';
import type { NetworkMode } from '../src/machine/machine.ts';
import { PLATFORM_NAMES } from './support/platforms.ts';

const FILE = join(import.meta.dirname, '../traces/golden/examples.json');
/** [app, params, network]: the example apps on the analytic network and the packet network. */
const APPS: [string, string[], NetworkMode][] = [
  ['apps/ping-pong', ['rounds=4'], 'analytic'],
  ['apps/cshift', ['shift=3', 'messages=32'], 'analytic'],
  ['apps/ping-pong', ['rounds=4'], 'packet'],
  ['apps/patterns', ['pattern=random', 'blockBytes=512'], 'packet'],
  ['apps/stencil', ['width=48', 'height=40', 'iters=4'], 'packet'],
  ['apps/radix-sort', ['keys=64', 'digitBits=6'], 'packet'],
  ['apps/sample-sort', ['keys=64', 'oversample=16'], 'packet'],
];
const NODES = 16;

type Golden = Record<string, { fingerprint: string; simulatedCycles: number; events: number; verification: string; metrics: unknown }>;

async function current(): Promise<Golden> {
  const out: Golden = {};
  for (const [appPath, params, network] of APPS) {
    const app = await loadApp(join(import.meta.dirname, '..', appPath));
    for (const name of PLATFORM_NAMES) {
      const s = runApp(await loadRun({ platform: name, app, params, nodes: NODES, seed: 1, network }));
      expect(s.verified, `${app.name} on ${name}: ${s.verification}`).toBe(true);
      out[`${app.name} ${name} ${NODES} nodes ${params.join(' ')}${network === 'packet' ? ' packet network' : ''}`] = {
        fingerprint: s.fingerprint,
        simulatedCycles: s.simulatedCycles,
        events: s.events,
        verification: s.verification,
        metrics: s.metrics,
      };
    }
  }
  return out;
}

describe('golden runs', () => {
  it('match the stored fingerprints and summaries', async () => {
    const now = await current();
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(FILE, `${JSON.stringify(now, null, 2)}\n`);
    expect(existsSync(FILE), `${FILE} is missing; create it with UPDATE_GOLDEN=1`).toBe(true);
    expect(now).toEqual(JSON.parse(readFileSync(FILE, 'utf8')) as Golden);
  });
});
