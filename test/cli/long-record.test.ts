/**
 * --record of a long run: a repro file is one JSON string, which holds the digests of
 * about 201 million events. `sim --platform cm5 -n 4096 apps/ping-pong --param
 * rounds=100000 --max-events 202000000 --record r.json` ran 25 s, then stopped with
 * "internal error: Cannot create a string longer than 0x1fffffe8 characters" and no
 * repro. A repro now gives the first MAX_EVENT_DIGESTS (2^27) events a digest and says
 * so (digestedEvents); sim replay compares those event by event, then the end. The
 * stories below set that maximum small, on real runs and real files.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import pingPongApp from '../../apps/ping-pong/index.ts';
import { RunLimitError } from '../../src/kernel/errors.ts';
import { runApp } from '../../src/runtime/run-app.ts';
import { runConfig } from '../../src/runtime/run-config.ts';
import { EventDigests, MAX_EVENT_DIGESTS, saveRepro } from '../../src/cli/repro.ts';
import { loadTestPlatform } from '../support/platforms.ts';
import { sim } from '../support/sim-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'sim-long-record-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const config = runConfig(loadTestPlatform('cm5'), pingPongApp, { params: ['rounds=3'], nodes: 4, seed: 1, network: 'packet' });

/** Records the 4-node ping-pong run as `sim --record` does, keeping at most `max` digests. */
function record(file: string, max: number): { events: number; fingerprint: string } {
  const digests = new EventDigests(max);
  const s = runApp({ ...config, observer: digests.observer });
  saveRepro(file, config, 'apps/ping-pong', ['rounds=3'], digests, { fingerprint: s.fingerprint, events: s.events, failure: null });
  return { events: s.events, fingerprint: s.fingerprint };
}

const edited = (file: string, edit: (r: Record<string, any>) => void): string => {
  const r = JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>;
  edit(r);
  const out = file.replace(/\.json$/, `-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(out, JSON.stringify(r));
  return out;
};

describe('a repro of a run longer than a repro file gives digests', () => {
  it('is at most 2^27 digests, under the 2^29 characters of one string', () => {
    expect(MAX_EVENT_DIGESTS).toBe(2 ** 27);
    expect(Math.ceil((2 * MAX_EVENT_DIGESTS) / 3) * 4).toBeLessThan(2 ** 29 - 24 - 10_000);
  });

  it('holds the first events’ digests, says how many, and replays: those event by event, then the end', async () => {
    const file = join(dir, 'long.json');
    const { events, fingerprint } = record(file, 64);
    expect(events).toBeGreaterThan(64);
    const repro = JSON.parse(readFileSync(file, 'utf8'));
    expect(repro.digestedEvents).toBe(64);
    expect(Buffer.from(repro.eventDigests, 'base64').length).toBe(128);
    expect(repro.outcome.events).toBe(events);
    const r = await sim(['replay', file]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`sim replay: reproduced the recorded run: its first 64 events event for event (a repro file gives at most that many a digest), then to its end (${events} events, fingerprint ${fingerprint})\n`);
    // A short run's repro is as it was: every event, no digestedEvents.
    const short = join(dir, 'short.json');
    record(short, MAX_EVENT_DIGESTS);
    expect(JSON.parse(readFileSync(short, 'utf8')).digestedEvents).toBeUndefined();
    expect((await sim(['replay', short])).stdout).toMatch(/^sim replay: reproduced the recorded run event for event \(\d+ events, fingerprint [0-9a-f]+\)\n$/);
  });

  it('diverges at its end when the events after the digested ones differ from the recording', async () => {
    const file = join(dir, 'end.json');
    const { events } = record(file, 64);
    const more = await sim(['replay', edited(file, (r) => (r.outcome.events += 1))]);
    expect(more.code).toBe(1);
    expect(more.stdout).toBe(`sim replay: diverged from the recording at its end: the first 64 events match, but this run had ${events} events, the recording ${events + 1}\n`);
    const other = await sim(['replay', edited(file, (r) => (r.outcome.fingerprint = '0123456789abcdef'))]);
    expect(other.code).toBe(1);
    expect(other.stdout).toMatch(/^sim replay: diverged from the recording at its end: the first 64 events match, but this run's fingerprint is [0-9a-f]+, the recording's 0123456789abcdef$/m);
    const crafted = await sim(['replay', edited(file, (r) => (r.digestedEvents = events + 5))]);
    expect(crafted.code).toBe(2);
    expect(crafted.stderr).toBe(`sim: ${crafted.stderr.split(': ')[1]}: digestedEvents ${events + 5} is more than the run's ${events} events\n`);
  });

  it('of a run stopped at --max-events replays to the same place', async () => {
    const file = join(dir, 'stopped.json');
    const digests = new EventDigests(50);
    const limits = { maxEvents: 200 };
    let stopped: RunLimitError | null = null;
    try {
      runApp({ ...config, limits, observer: digests.observer });
    } catch (e) {
      if (!(e instanceof RunLimitError)) throw e;
      stopped = e;
    }
    expect(stopped).not.toBeNull();
    saveRepro(file, config, 'apps/ping-pong', ['rounds=3'], digests, { fingerprint: stopped!.fingerprint, events: stopped!.events, failure: stopped!.message.split('\n')[0] }, limits);
    expect(JSON.parse(readFileSync(file, 'utf8')).digestedEvents).toBe(50);
    const r = await sim(['replay', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^sim replay: reproduced the recorded run: its first 50 events event for event .*then to its end \(200 events, fingerprint [0-9a-f]+\)\nsim replay: the run stops as recorded, at event 200: stopped at its limit of 200 events/);
  });
});
