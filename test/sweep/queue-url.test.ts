/**
 * A queue's password stays out of messages (src/sweep/queue-url.ts): a refusal printed
 * `--queue redis://:secret@host...` whole into terminals and batch logs.
 */
import { describe, expect, it } from 'vitest';
import { shownQueue } from '../../src/sweep/queue-url.ts';
import { sim } from '../support/sim-cli.ts';

describe("a queue URL's password", () => {
  it('is shown as *** with or without a user, and a URL without one is shown as it is', () => {
    expect(shownQueue('redis://:s3cret@127.0.0.1:6379/0')).toBe('redis://:***@127.0.0.1:6379/0');
    expect(shownQueue('rediss://worker:p@ss:w0rd@queue.example:6380/2')).toBe('rediss://worker:***@queue.example:6380/2');
    expect(shownQueue('redis://127.0.0.1:6379/0')).toBe('redis://127.0.0.1:6379/0');
  });

  it('is not in the line that says Redis cannot be reached', async () => {
    const r = await sim(['study', 'stencil-gain', '--platform', 'cm5', '--nodes', '16', '--trials', '2', '--max-grid', '48', '--out', 'never-made', '--queue', 'redis://:s3cret@127.0.0.1:1/0']);
    expect(r.stderr).toBe('sim: --queue redis://:***@127.0.0.1:1/0: cannot reach Redis (ECONNREFUSED)\n');
    expect(r.code).toBe(2);
  }, 60_000);
});
