import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, rootImport, sim, withRootImports, type CliResult } from '../support/sim-cli.ts';

/** Records a small ping-pong run, edits its repro file with `edit`, and replays it. */
async function replayEdited(edit: (r: Record<string, any>) => unknown, ...options: string[]): Promise<CliResult> {
  const dir = mkdtempSync(join(tmpdir(), 'sim-replay-'));
  const file = join(dir, 'p.json');
  await sim(['--platform', 'cm5', 'apps/ping-pong', '--nodes', '2', '--param', 'rounds=1', '--record', file]);
  const repro = JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>;
  edit(repro);
  writeFileSync(file, JSON.stringify(repro));
  return sim(['replay', file, ...options]);
}

let long: Promise<{ dir: string; file: string }> | null = null;

/** A recording of 50 million events (seconds to replay), made once for the tests that stop a replay. */
function longRecording(): Promise<{ dir: string; file: string }> {
  long ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-replay-stop-'));
    const file = join(dir, 'long.json');
    const r = await sim(['--platform', 'cm5', 'apps/patterns', '--nodes', '64', '--param', 'pattern=cshift', '--param', 'blockBytes=4096', '--param', 'rounds=256', '--param', 'barriers=none', '--record', file]);
    if (r.code !== 0) throw new Error(`the long recording failed: ${r.stderr}`);
    return { dir, file };
  })();
  return long;
}

describe.concurrent('repro files and sim replay', () => {
  it('a failed run writes a repro and the command to replay it; the replay reproduces the failure', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-replay-'));
    const r = await sim(['--platform', 'cm5', join(ROOT, 'test/fixtures/deadlock-app'), '--nodes', '8'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^sim: replay this run with: sim replay sim-repro-deadlock-cm5-n8-s1\.json$/m);
    const replay = await sim(['replay', 'sim-repro-deadlock-cm5-n8-s1.json'], dir);
    expect(replay.code).toBe(1);
    expect(replay.stdout).toMatch(/^sim replay: reproduced the recorded run event for event \(\d+ events\)$/m);
    expect(replay.stdout).toMatch(/^sim replay: the run fails as recorded, at event \d+: deadlock at cycle \d+/m);
    // --json says it reproduced, and still exits 1: the run it reproduced failed.
    const json = await sim(['replay', 'sim-repro-deadlock-cm5-n8-s1.json', '--json'], dir);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ reproduced: true, eventByEvent: true, divergence: null, failure: expect.stringMatching(/^deadlock at cycle \d+/) });
  });

  it('--record writes a repro of a good run, which replays event for event, embedding the platform', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-replay-'));
    const file = join(dir, 'run.json');
    const r = await sim(['--platform', 'alewife', 'apps/stencil', '--nodes', '16', '--param', 'iters=2', '--record', file]);
    expect(r.code).toBe(0);
    const repro = JSON.parse(readFileSync(file, 'utf8'));
    expect(repro.platform.text).toBe(readFileSync(join(ROOT, 'platforms/alewife.json'), 'utf8'));
    expect(repro.params).toEqual(['iters=2']);
    const replay = await sim(['replay', file]);
    expect(replay.code).toBe(0);
    expect(replay.stdout).toMatch(new RegExp(`reproduced the recorded run event for event \\(${repro.outcome.events} events, fingerprint ${repro.outcome.fingerprint}\\)`));
  });

  it('reports the first divergent event when the app changed after recording', async () => {
    // A copy in the OS temp dir, importing the project's runtime by absolute path.
    const dir = mkdtempSync(join(tmpdir(), 'sim-replay-changed-'));
    const app = join(dir, 'ping-pong');
    cpSync(join(ROOT, 'apps/ping-pong'), app, { recursive: true });
    writeFileSync(join(app, 'index.ts'), withRootImports(readFileSync(join(app, 'index.ts'), 'utf8')));
    const file = join(dir, 'run.json');
    expect((await sim(['--platform', 'cm5', app, '--nodes', '4', '--record', file])).code).toBe(0);
    // Node 0 now does some work before its round trips.
    writeFileSync(join(app, 'index.ts'), readFileSync(join(app, 'index.ts'), 'utf8').replace('if (rt.self === 0) {', 'if (rt.self === 0) {\n      rt.compute(5);'));
    const replay = await sim(['replay', file]);
    expect(replay.code).toBe(1);
    expect(replay.stderr).toMatch(/note: .*ping-pong\/index\.ts \(or a module beside it or that it imports\) changed since the recording/);
    expect(replay.stdout).toMatch(/^sim replay: diverged from the recording at event \d+ \(cycle \d+\): .+; the app changed since the recording$/m);
  });

  // apps/sample-sort imports ../radix-sort: an edit there changed no hash, so a replay diverged
  // without the note, and a sweep resumed after it took its recorded results as current.
  it('notes a change in a module the app imports from another folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-replay-imported-'));
    mkdirSync(join(dir, 'mine'));
    mkdirSync(join(dir, 'lib'));
    writeFileSync(join(dir, 'lib', 'who.ts'), 'export const WHO = 2;\n');
    writeFileSync(
      join(dir, 'mine', 'index.ts'),
      `import { defineApp } from ${rootImport('src/runtime/index.ts')};
import { WHO } from '../lib/who.ts';
export default defineApp({ name: 'mine', description: 'node WHO works longer', params: {}, *main(rt) { if (rt.self === WHO) rt.compute(100); yield* rt.barrier(); return rt.self; }, verify: () => ({ ok: true, detail: 'ran' }) });
`,
    );
    const file = join(dir, 'run.json');
    expect((await sim(['--platform', 'cm5', join(dir, 'mine'), '--nodes', '4', '--record', file])).code).toBe(0);
    writeFileSync(join(dir, 'lib', 'who.ts'), 'export const WHO = 3;\n');
    const replay = await sim(['replay', file]);
    expect(replay.code).toBe(1);
    expect(replay.stderr).toMatch(/note: .*mine\/index\.ts \(or a module beside it or that it imports\) changed since the recording/);
    expect(replay.stdout).toMatch(/; the app changed since the recording$/m);
  });

  // Every event matched and both failed, so it said "the run fails as recorded", then the new failure.
  it('tells a failure that changed from the recorded one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-replay-failure-'));
    const app = join(dir, 'failing.ts');
    writeFileSync(app, withRootImports(readFileSync(join(ROOT, 'test/fixtures/failing-app/index.ts'), 'utf8').replace("'../../../src/", "'../../src/")));
    expect((await sim(['--platform', 'cm5', app, '--nodes', '4'], dir)).code).toBe(1);
    writeFileSync(app, readFileSync(app, 'utf8').replace('node 3 holds', 'node 2 holds'));
    const replay = await sim(['replay', 'sim-repro-failing-cm5-n4-s1.json'], dir);
    expect(replay.code).toBe(1);
    expect(replay.stdout).toMatch(
      /^sim replay: diverged from the recording at its end: every event matches, but the recording failed \(verification failed: node 3 holds the wrong answer\) and this run failed \(verification failed: node 2 holds the wrong answer\); the app changed since the recording$/m,
    );
    expect(replay.stdout).not.toMatch(/fails as recorded/);
  });

  it('--stop-at prints every node: its state, the call it is in, its waiting packets and last log line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-replay-'));
    await sim(['--platform', 'cm5', join(ROOT, 'test/fixtures/deadlock-app'), '--nodes', '4', '--record', join(dir, 'd.json')]);
    const r = await sim(['replay', join(dir, 'd.json'), '--stop-at', '100']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^stopped at cycle 100 after \d+ events, the last at cycle \d+ \(fingerprint so far [0-9a-f]{16}\)$/m);
    expect(r.stdout).toMatch(/^ {2}node 0: cycle \d+, state 0 Idle, (exited|running), waiting packets: left none, right none; last log: cycle \d+ node 0: skipping the barrier \(on purpose\)$/m);
    expect(r.stdout).toMatch(/^ {2}node 3: cycle \d+, state \d+ \w+, waiting in completeBarrier, waiting packets: left none, right none/m);
  });

  // Only the app's own strataLog lines were kept, and no shipped app writes any: "last log" was never shown for them.
  it("--stop-at shows each node's last global operation as its last log line, as --loglast does", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-replay-'));
    const file = join(dir, 's.json');
    await sim(['--platform', 'alewife', 'apps/stencil', '--nodes', '16', '--param', 'width=64', '--param', 'height=64', '--param', 'iters=2', '--record', file]);
    const r = await sim(['replay', file, '--stop-at', '21000']);
    expect(r.code).toBe(0);
    const nodes = r.stdout.split('\n').filter((l) => l.startsWith('  node '));
    expect(nodes).toHaveLength(16);
    for (const line of nodes) expect(line).toMatch(/; last log: cycle \d+ node \d+: \w+/);
  });

  it('--stop-at past the last event says where the run ended (it said "ended before event:N" of a run that ends with event N)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-replay-'));
    const file = join(dir, 'p.json');
    await sim(['--platform', 'cm5', 'apps/ping-pong', '--nodes', '2', '--param', 'rounds=1', '--record', file]);
    const events = (JSON.parse(readFileSync(file, 'utf8')) as { outcome: { events: number } }).outcome.events;
    const r = await sim(['replay', file, '--stop-at', `event:${events}`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^sim replay: the run ended after ${events} events, at cycle \\d+, before it got past event ${events}\n$`));
  });

  // It simulated on, past the recording; then it said "the run ended", exit 0, as of a run whose every node exited.
  it('--stop-at past where a run stopped at its --max-events or --max-cycles says it stopped there, exit 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-replay-'));
    const file = join(dir, 'm.json');
    expect((await sim(['--platform', 'cm5', 'apps/ping-pong', '--nodes', '2', '--param', 'rounds=100000', '--max-events', '5000', '--record', file])).code).toBe(1);
    const r = await sim(['replay', file, '--stop-at', 'event:20000']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^sim replay: the run stopped at its limit of 5000 events after 5000 events, at cycle \d+, before it got past event 20000\n$/);
    const within = await sim(['replay', file, '--stop-at', 'event:3000']);
    expect(within.stdout).toMatch(/^stopped at event 3000 after 3000 events/m);
    const cycles = join(dir, 'c.json');
    expect((await sim(['--platform', 'cm5', 'apps/ping-pong', '--nodes', '2', '--param', 'rounds=100000', '--max-cycles', '40000', '--record', cycles])).code).toBe(1);
    const json = await sim(['replay', cycles, '--stop-at', '90000', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ ended: true, failure: expect.stringMatching(/^stopped at its limit of 40000 simulated cycles after \d+ events, at cycle 40001$/), report: null });
  });

  // A deadlock was "the run ended after 12 events", exit 0; a recorded exception printed no JSON under --json.
  it.each([
    ['a deadlock', 'test/fixtures/deadlock-app', /^deadlock at cycle \d+: 3 node\(s\) waiting with nothing left to happen$/],
    ['an exception', 'test/fixtures/throwing-app', /: Error: /],
  ])('--stop-at past where a run failed in %s says it failed, exit 1, with --json too', async (_what, app, failure) => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-replay-'));
    const file = join(dir, 'f.json');
    expect((await sim(['--platform', 'cm5', join(ROOT, app), '--nodes', '4', '--record', file])).code).toBe(1);
    const r = await sim(['replay', file, '--stop-at', 'event:100000']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^sim replay: the run failed before it got past event 100000: /);
    const json = await sim(['replay', file, '--stop-at', 'event:100000', '--json']);
    expect(json.code).toBe(1);
    const out = JSON.parse(json.stdout) as { ended: boolean; failure: string; report: null };
    expect(out).toMatchObject({ stopAt: 'event:100000', ended: true, report: null });
    expect(out.failure).toMatch(failure);
  });

  it('of a run that overflowed the JavaScript stack is no divergence where the two agree to the earlier end (it said "diverged at event 5162")', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-replay-stack-'));
    writeFileSync(
      join(dir, 'deep.ts'),
      `import { defineApp, type Op } from ${rootImport('src/runtime/index.ts')};
function* down(rt: any, n: number): Op<number> { yield* rt.pollBoth(); return (yield* down(rt, n + 1)) + 1; }
export default defineApp({ name: 'deep', description: 'recurses without end', params: {}, *main(rt) { if (rt.self === 0) yield* down(rt, 0); return 0; }, verify: () => ({ ok: true, detail: 'ran' }) });
`,
    );
    const run = await sim(['--platform', 'cm5', '--nodes', '4', 'deep.ts', '--record', 'deep.json'], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Maximum call stack size exceeded/);
    const r = await sim(['replay', 'deep.json'], dir);
    // The stack's depth may fall at the same event in both, or not: never a divergence.
    expect(r.stdout).not.toMatch(/diverged/);
    expect(r.stdout).toMatch(/^sim replay: (the run fails as recorded|this run and the recording agree event for event to event \d+, where (this run|the recording) reached the JavaScript stack's depth)/m);
  }, 60_000);

  it.each([
    ['SIGINT', ['--json'] as string[], 130],
    ['SIGTERM', ['--stop-at', 'event:48000000'], 143],
  ] as const)('stopped by %s says so and exits with its code (it was killed silently; --json printed nothing)', async (signal, extra, code) => {
    const { dir, file } = await longRecording();
    const child = spawn(process.execPath, [join(ROOT, 'bin/sim.mjs'), 'replay', file, ...extra], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Past Node's start and sim's loading of its modules (a signal before the command begins
    // ends the process as Node's default does). The replay takes it from its first step on:
    // under the suite's load a signal 2.5 s in came while the 50-million-event recording was
    // still being read, before the replay listened, and ended it with status null.
    await new Promise((r) => setTimeout(r, 4000));
    child.kill(signal);
    expect(await closed).toBe(code);
    expect(stderr).toBe(`sim replay: stopped by ${signal}; nothing was compared past where it stopped\n`);
    expect(stdout).toBe((extra as readonly string[]).includes('--json') ? `${JSON.stringify({ interrupted: signal })}\n` : '');
  }, 90_000);

  it('--stop-at lists the handlers of the packets a node has not polled yet', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-replay-'));
    const file = join(dir, 'pat.json');
    await sim(['--platform', 'cm5', 'apps/patterns', '--nodes', '16', '--param', 'pattern=random', '--param', 'blockBytes=2048', '--record', file]);
    const r = await sim(['replay', file, '--stop-at', '8000']);
    expect(r.stdout).toMatch(/waiting packets: (left \d+ \(strataXferPutHandler|left none, right \d+ \(strataXferPutHandler)/);
  });

  it.each([
    ['a missing file', (d: string) => join(d, 'nope.json'), /cannot read the repro file \(ENOENT\)$/],
    ['a file that is not JSON', (d: string) => (writeFileSync(join(d, 'x.json'), '{"format": "proteus-strata-re'), join(d, 'x.json')), /not a repro file: the JSON is malformed or truncated/],
    ['another JSON file', (d: string) => (writeFileSync(join(d, 'y.json'), '{"a": 1}'), join(d, 'y.json')), /not a repro file \(expected "format": "proteus-strata-repro"\)$/],
    // JSON.parse's message quotes the text, newlines included: it once came out cut at the first one.
    ['a text file of several lines', (d: string) => (writeFileSync(join(d, 'z.txt'), 'hello\nworld\n'), join(d, 'z.txt')), /not a repro file: the JSON is malformed or truncated \(.*"hello world ?".*\)$/],
    ['a trace', (d: string) => (writeFileSync(join(d, 't.trace'), 'PSTRACE1\n{}\n'), join(d, 't.trace')), /: a trace \(written by --trace\), not a repro file: sim replay runs the file --record writes; sim graph and sim export read traces$/],
  ])('refuses %s with one line and exit 2', async (_what, make, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-replay-'));
    const r = await sim(['replay', make(dir)]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr.trimEnd()).toMatch(message);
  });

  it.each([
    ['claims 10^9 nodes', (r: Record<string, any>) => (r.nodes = 1e9), /bad repro file: key "nodes": expected number to be <=4096, got 1000000000$/],
    ['has a negative seed', (r: Record<string, any>) => (r.seed = -1), /bad repro file: key "seed": expected number to be >=0, got -1$/],
    ['names no network', (r: Record<string, any>) => (r.network = 'wormhole'), /bad repro file: key "network": expected one of "packet"\|"analytic", got "wormhole"$/],
    ['has no app path', (r: Record<string, any>) => delete r.app.path, /bad repro file: key "app\.path": missing \(expected string\)$/],
    ['has a parameter without =', (r: Record<string, any>) => (r.params = ['rounds']), /bad repro file: key "params\.0": expected key=value, got "rounds"$/],
    // It said "37.5 event digests".
    ['has its digests cut to an odd byte', (r: Record<string, any>) => (r.eventDigests = Buffer.from(r.eventDigests, 'base64').subarray(1).toString('base64')), /truncated: \d*[13579] bytes of event digests for \d+ events \(expected \d*[02468], two a digest\)$/],
    // Printed as it was in a note: an escape reached the terminal, a newline split the line.
    ['gives a simulator version with an escape and a newline', (r: Record<string, any>) => (r.simulatorVersion = '0.1.0\u001b[31mRED\nsecond'), /bad repro file: key "simulatorVersion": expected one line of text, without control characters \(a newline, a tab, an escape\), line separators or direction overrides, got "0\.1\.0\\u001b\[31mRED\\nsecond"$/],
    // The run's refusal printed it: "sim: --param rounds=1<ESC>[31m: expected an integer".
    ['gives a parameter with an escape', (r: Record<string, any>) => (r.params = ['rounds=1\u001b[31m']), /bad repro file: key "params\.0": expected one line of text, without control characters/],
    ['gives an app path with an escape', (r: Record<string, any>) => (r.app.path = 'apps/ping-pong\u001b[2J/index.ts'), /bad repro file: key "app\.path": expected one line of text, without control characters/],
    // The run refused it: "limits.maxEvents 0: expected a whole number from 1 to 2^53 - 1", naming neither file nor key.
    ['is of another repro format version', (r: Record<string, any>) => (r.version = 2), /p\.json: repro format version 2; this simulator reads version 1$/],
    // "repro format version 1; this simulator reads version 1".
    ['gives its version as a string', (r: Record<string, any>) => (r.version = '1'), /p\.json: repro format version "1" \(a string\); this simulator reads version 1$/],
    // Each of these was taken, and the replay ran what the file did not record, or "diverged" where nothing did.
    ['runs a platform other than the one its hash names', (r: Record<string, any>) => (r.platform.text = r.platform.text.replace('"intOpCycles": 1,', '"intOpCycles": 2,')), /p\.json: bad repro file: key "platform\.contentHash": not the SHA-256 of platform\.text \(the recorded platform was edited\)/],
    ['gives a run that failed before it ended a fingerprint', (r: Record<string, any>) => (r.outcome.failure = 'node 0: boom'), /p\.json: bad repro file: key "outcome\.fingerprint": [0-9a-f]{16} for a run that failed before it ended, which has none; expected ""$/],
    ['stops before the events it records', (r: Record<string, any>) => (r.stop = { maxEvents: 5 }), /p\.json: bad repro file: key "stop\.maxEvents": 5, fewer than the run's \d+ events \(outcome\.events\); expected at least as many$/],
    ['has no digests though no limit or signal stopped it', (r: Record<string, any>) => (r.eventDigests = null), /p\.json: bad repro file: key "eventDigests": null for a run that was not stopped part-way; expected its event digests/],
    // "truncated" of more bytes than its events have digests.
    ['has more digests than its events', (r: Record<string, any>) => (r.eventDigests = Buffer.concat([Buffer.from(r.eventDigests, 'base64'), Buffer.from([1, 2])]).toString('base64')), /p\.json: bad repro file: \d+ bytes of event digests for \d+ events \(expected \d+, two a digest\)$/],
    ['digests more events than the run had', (r: Record<string, any>) => (r.digestedEvents = r.outcome.events + 1), /p\.json: digestedEvents (\d+) is more than the run's \d+ events$/],
    ['stops at event 0', (r: Record<string, any>) => (r.stop = { maxEvents: 0 }), /p\.json: bad repro file: key "stop\.maxEvents": expected number to be >=1, got 0$/],
    // V8 quotes the text around a stray character, newline included: it came out as two lines.
    // Replay compared only the first 10 events and the event count: "reproduced the recorded run", exit 0.
    [
      'gives a passed run of partial digests no fingerprint',
      (r: Record<string, any>) => ((r.eventDigests = Buffer.from(r.eventDigests, 'base64').subarray(0, 20).toString('base64')), (r.digestedEvents = 10), (r.outcome.fingerprint = '')),
      /p\.json: bad repro file: key "outcome\.fingerprint": empty for a run that passed; expected its fingerprint \(hex digits\), as only a run that failed before it ended has none$/,
    ],
    ['gives a run that failed its verification no fingerprint', (r: Record<string, any>) => ((r.outcome.failure = 'verification failed: node 1 is wrong'), (r.outcome.fingerprint = '')), /key "outcome\.fingerprint": empty for a run that failed its verification; expected/],
    ['gives a run stopped part-way no fingerprint', (r: Record<string, any>) => ((r.stop = { maxEvents: 5 }), (r.outcome.failure = 'stopped at its limit'), (r.outcome.fingerprint = '')), /key "outcome\.fingerprint": empty for a run that was stopped part-way; expected/],
    // These three were the run's refusals, of a --param or a node count nobody gave: "sim: --param rounds=abc: ...".
    ['gives a parameter of the wrong type', (r: Record<string, any>) => (r.params = ['rounds=abc']), /^sim: \S*p\.json: the recorded run: --param rounds=abc: expected an integer/],
    ['gives a node count the network cannot take', (r: Record<string, any>) => (r.nodes = 3), /^sim: \S*p\.json: the recorded run: .*3 nodes.*power of two/],
    // Replayed with the last value, as a divergence (exit 1), where the command line refuses it.
    ['gives a parameter twice', (r: Record<string, any>) => (r.params = ['rounds=1', 'rounds=2']), /p\.json: bad repro file: key "params": rounds is given twice; expected each parameter once$/],
    [
      'has a stray character in its platform',
      (r: Record<string, any>) => {
        r.platform.text = r.platform.text.replace('"intOpCycles": 1,', '"intOpCycles": x1,');
        r.platform.contentHash = createHash('sha256').update(r.platform.text).digest('hex');
      },
      /\(platform platforms\/cm5\.json\): not valid JSON \(Unexpected token 'x', \.\.\."pCycles": x1, "f"\.\.\. is not valid JSON\)$/],
  ])('refuses a crafted repro file that %s, with one line and exit 2', async (_what, edit, message) => {
    const r = await replayEdited(edit);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr.trimEnd()).toMatch(message);
  });

  // JSON.parse's "Unexpected token ' '" quoted an invisible character.
  it('refuses a repro file that starts with a byte-order mark, saying so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-replay-bom-'));
    const file = join(dir, 'p.json');
    await sim(['--platform', 'cm5', 'apps/ping-pong', '--nodes', '2', '--param', 'rounds=1', '--record', file]);
    writeFileSync(file, `\ufeff${readFileSync(file, 'utf8')}`);
    const r = await sim(['replay', file]);
    expect(r.stderr).toBe(`sim: ${file}: starts with a byte-order mark (U+FEFF); expected the JSON --record writes, without one (save it as UTF-8 without a BOM)\n`);
    expect(r.code).toBe(2);
  });

  // A folder said the app "changed since the recording" (the folder's own hash); /etc/passwd was "sim: app /etc/passwd: ...", naming no repro.
  it('takes a recorded app folder as its module, and refuses a recorded path that is no app naming the repro file', async () => {
    const folder = await replayEdited((r) => (r.app.path = 'apps/ping-pong'));
    expect(folder.code).toBe(0);
    expect(folder.stderr).toBe('');
    const passwd = await replayEdited((r) => (r.app.path = '/etc/passwd'));
    expect(passwd.code).toBe(2);
    expect(passwd.stderr).toMatch(/^sim: \S*p\.json: the recorded app: app \/etc\/passwd: /);
  });

  it.each([
    ['a fingerprint', (r: Record<string, any>) => (r.outcome.fingerprint = '0000000000000000'), /^sim replay: diverged from the recording at its end: every event matches, but this run's fingerprint is [0-9a-f]{16}, the recording's 0000000000000000$/m],
    // A run that failed before it ended has no fingerprint (a recording with both is refused below).
    ['a failure', (r: Record<string, any>) => ((r.outcome.failure = 'boom'), (r.outcome.fingerprint = '')), /^sim replay: diverged from the recording at its end: every event matches, but the recording failed \(boom\) and this run passed$/m],
    // The recorded failure is shown with its escape and newline written out (they reached the terminal as they were).
    ['a failure of two lines with an escape', (r: Record<string, any>) => ((r.outcome.failure = 'boom\u001b[2J\nsecond'), (r.outcome.fingerprint = '')), /^sim replay: diverged from the recording at its end: every event matches, but the recording failed \(boom\\u001b\[2J\\u000asecond\) and this run passed$/m],
  ])('checks how the run ended, not only its events: a recording with %s edited in diverges (it was "reproduced", exit 0)', async (_what, edit, message) => {
    const r = await replayEdited(edit);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(message);
  });

  it('--json gives this run\'s fingerprint and the recording\'s beside it (it gave the recording\'s beside this run\'s events)', async () => {
    const r = await replayEdited((x) => (x.outcome.fingerprint = '0000000000000000'), '--json');
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(j).toMatchObject({ reproduced: false, recordedFingerprint: '0000000000000000', fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(j.fingerprint).not.toBe('0000000000000000');
    expect(j.events).toBe(j.recordedEvents);
  });

  it('refuses a bad --stop-at', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-replay-'));
    await sim(['--platform', 'cm5', 'apps/ping-pong', '--nodes', '2', '--param', 'rounds=1', '--record', join(dir, 'p.json')]);
    const r = await sim(['replay', join(dir, 'p.json'), '--stop-at', 'soon']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('sim: --stop-at soon: expected a cycle (e.g. 50000) or an event number (e.g. event:1200)\n');
    // Digits past 2^53 are no cycle a run can name exactly.
    const huge = await sim(['replay', join(dir, 'p.json'), '--stop-at', 'event:99999999999999999999']);
    expect(huge.code).toBe(2);
    expect(huge.stderr).toBe('sim: --stop-at event:99999999999999999999: expected a cycle (e.g. 50000) or an event number (e.g. event:1200)\n');
  });

  it('notes a recording made with another simulator version, and replays it', async () => {
    const r = await replayEdited((repro) => (repro.simulatorVersion = '0.0.1'));
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^sim replay: note: recorded with simulator 0\.0\.1, replaying with \S+\n$/);
    expect(r.stdout).toMatch(/^sim replay: reproduced the recorded run event for event/m);
  });
});
