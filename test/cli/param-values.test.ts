/**
 * A --param value that is no key=value is named before anything else: `--param
 * apps/ping-pong` took the app for the parameter, and the run was told "missing app".
 */
import { describe, expect, it } from 'vitest';
import { sim } from '../support/sim-cli.ts';

describe.concurrent('a --param that is no key=value', () => {
  it.each([
    ['the app taken as the value', ['--platform', 'cm5', '--nodes', '4', '--param', 'apps/ping-pong'], 'sim: --param apps/ping-pong: expected key=value (is it the app? --param takes the word after it)'],
    ['the same on sim explore', ['explore', '--runs', '2', '--platform', 'cm5', '--param', 'apps/ping-pong'], 'sim explore: --param apps/ping-pong: expected key=value (is it the app? --param takes the word after it)'],
    ['a key alone, with the app given', ['--platform', 'cm5', '--nodes', '4', 'apps/ping-pong', '--param', 'rounds'], 'sim: --param rounds: expected key=value'],
  ])('%s: one line naming it, exit 2', async (_what, args, line) => {
    const r = await sim(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`${line}\n`);
  });
});
