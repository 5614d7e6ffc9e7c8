/**
 * One sweep run as every executor runs it: a verified run, a verification failure, a
 * deadlock, an exception in the app and a run that never ends (stopped at the default
 * limits) are all result lines (data, never thrown); a
 * run whose inputs name another checkout's app or platform is refused, and the queue
 * worker turns that refusal into an error BullMQ will not retry; so does it a run the
 * host's stack stopped, which is no line, as is one whose allocation the host refused.
 */
import { describe, expect, it } from 'vitest';
import { checkoutInputs } from '../../src/cli/sweep-inputs.ts';
import { expandSweep } from '../../src/sweep/expand.ts';
import { REFUSED, runQueuedJob } from '../../src/sweep/queue-job.ts';
import { InputsMismatch, runOne } from '../../src/sweep/run-one.ts';
import type { ResultLine } from '../../src/sweep/result-line.ts';
import { checkSweep } from '../../src/sweep/sweep-file.ts';

const inputs = checkoutInputs();
const runsOf = async (entries: unknown[]) => expandSweep(checkSweep({ name: 't', runs: entries }, 't.json'), 't.json', inputs);
const lineOf = async (entry: unknown): Promise<ResultLine> => JSON.parse((await runOne((await runsOf([entry]))[0], inputs)).line) as ResultLine;

describe('runOne', () => {
  it('returns verified, unverified and failed runs as lines', async () => {
    const ok = await lineOf({ app: 'apps/cshift', platform: 'cm5', nodes: 4 });
    expect(ok).toMatchObject({ status: 'verified', error: null, summary: { verified: true, nodes: 4 } });
    const wrong = await lineOf({ app: 'test/fixtures/failing-app', platform: 'cm5', nodes: 4 });
    expect(wrong).toMatchObject({ status: 'unverified', error: null, summary: { verified: false, verification: 'node 3 holds the wrong answer' } });
    const stuck = await lineOf({ app: 'test/fixtures/deadlock-app', platform: 'cm5', nodes: 4 });
    expect(stuck).toMatchObject({ status: 'failed', summary: null, error: { kind: 'run', message: expect.stringMatching(/^DeadlockError: /) } });
    const thrown = await lineOf({ app: 'test/fixtures/throwing-app', platform: 'cm5', nodes: 4 });
    expect(thrown).toMatchObject({ status: 'failed', error: { kind: 'run' } });
    // Bad input found only when the run ends (verify's answer): failed, of kind input.
    const badVerify = await lineOf({ app: 'test/fixtures/verify-not-boolean.ts', platform: 'cm5', nodes: 4 });
    expect(badVerify).toMatchObject({ status: 'failed', summary: null, error: { kind: 'input', message: expect.stringContaining('verify must return') } });
  });

  it("runs each run with its own parameters, seed, network and perturbation: four cshifts give four fingerprints, race's perturbations differ", async () => {
    const runs = await runsOf([
      { app: 'apps/cshift', platform: 'cm5', nodes: 4, seeds: [1, 2], network: ['packet', 'analytic'] },
      { app: 'apps/examples/race', platform: 'cm5', nodes: 4, perturb: [1, 2] },
      { app: 'apps/cshift', platform: 'cm5', nodes: 4, params: { messages: 7 } },
    ]);
    const lines = await Promise.all(runs.map(async (run) => JSON.parse((await runOne(run, inputs)).line) as ResultLine));
    expect(new Set(lines.slice(0, 4).map((l) => l.summary?.fingerprint)).size).toBe(4);
    // Perturbation 1 lets the race pass; 2 loses it (StrataFail).
    expect(lines.slice(4, 6).map((l) => l.status)).toEqual(['verified', 'failed']);
    expect(lines[6].summary?.params).toMatchObject({ messages: 7 });
  });

  it('ends a run that never finishes at the default cycle limit, as a failed run', async () => {
    const runaway = await lineOf({ app: 'test/fixtures/runaway-app', platform: 'cm5', nodes: 4 });
    expect(runaway).toMatchObject({ status: 'failed', summary: null, error: { kind: 'run', message: expect.stringContaining('limit of 10000000000 simulated cycles') } });
  });

  it('refuses inputs made from another checkout, and the queue job marks the refusal unrecoverable', async () => {
    const [run] = await runsOf([{ app: 'apps/cshift', platform: 'cm5', nodes: 4 }]);
    const other = { ...run, inputs: { ...run.inputs, appSha256: '0'.repeat(64) } };
    await expect(runOne(other, inputs)).rejects.toThrow(InputsMismatch);
    await expect(runOne(other, inputs)).rejects.toThrow(/run 0 \(run-[0-9a-f]{64}\): this checkout's app apps\/cshift differs \(sha256 [0-9a-f]{12}, the run wants 000000000000\)/);
    const error = await runQueuedJob({ ...run, inputs: { ...run.inputs, simulator: '9.9.9' } }, inputs).catch((e: unknown) => e as Error);
    expect(error).toMatchObject({ name: 'UnrecoverableError', message: expect.stringContaining(`${REFUSED}run 0`) });
    expect((error as Error).message).toContain('simulator');
    const otherPlatform = { ...run, inputs: { ...run.inputs, platformSha256: '0'.repeat(64) } };
    await expect(runOne(otherPlatform, inputs)).rejects.toThrow(/this checkout's platform cm5 differs \(sha256 [0-9a-f]{12}, the run wants 000000000000\)/);
  });

  it("returns a run stopped by the host's stack as unrecorded, no line, and the queue job refuses it as unrecoverable", async () => {
    // Ten million frames overflow any thread's stack; where a shallower recursion stops is the thread's.
    const [run] = await runsOf([{ app: 'test/fixtures/deep-recursion-app', platform: 'cm5', nodes: 2, params: { n: 10_000_000 } }]);
    const outcome = await runOne(run, inputs);
    expect(outcome).toMatchObject({ key: run.key, line: '', unrecorded: expect.stringMatching(/^run 0 \(run-[0-9a-f]{64}\): node 0 at cycle \d+: RangeError: Maximum call stack size exceeded: how deep a run may recurse is the host thread's stack/) });
    const error = await runQueuedJob(run, inputs).catch((e: unknown) => e as Error);
    expect(error).toMatchObject({ name: 'UnrecoverableError', message: `${REFUSED}${outcome.unrecorded}` });
  });

  it('returns a run whose allocation the host refused as unrecorded, no line', async () => {
    const [run] = await runsOf([{ app: 'test/fixtures/huge-alloc-app', platform: 'cm5', nodes: 2 }]);
    expect(await runOne(run, inputs)).toMatchObject({ key: run.key, line: '', unrecorded: expect.stringMatching(/^run 0 \(run-[0-9a-f]{64}\): node 0 at cycle \d+: RangeError: Array buffer allocation failed: a limit of this host, not of the run, so not recorded/) });
  });
});
