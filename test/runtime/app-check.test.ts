/**
 * What an app definition may be (src/runtime/app-check.ts), as runConfig and loadApp
 * check it before anything runs: each mistake a user can make in defineApp is one
 * InputError line naming the field and what was expected.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/kernel/errors.ts';
import { defineApp, type AppDefinition } from '../../src/runtime/app.ts';
import { runConfig } from '../../src/runtime/run-config.ts';
import { runInline } from '../support/inline-app.ts';
import { loadTestPlatform } from '../support/platforms.ts';

const cm5 = loadTestPlatform('cm5');

/** A small app that works, changed by `edit` (as a JavaScript app or a cast can). */
function app(edit: Record<string, unknown>): AppDefinition {
  const base = defineApp({
    name: 'mine',
    description: 'two barriers',
    params: { rounds: { type: 'int', default: 2, min: 1, doc: 'barriers' } },
    *main(rt, p) {
      for (let r = 0; r < p.rounds; r++) yield* rt.barrier();
      return rt.self;
    },
    verify: () => ({ ok: true, detail: 'two barriers' }),
  });
  return { ...base, ...edit } as unknown as AppDefinition;
}

function refusal(edit: Record<string, unknown>): string {
  try {
    runConfig(cm5, app(edit), { nodes: 4 });
  } catch (e) {
    if (e instanceof InputError) return e.message;
    throw e;
  }
  return 'accepted';
}

describe("an app's own functions", () => {
  // An async main's first step was a Promise: the run failed (exit 1, a repro) as
  // "outside any node: RangeError: event delay must be ..."; an async verify's Promise
  // was "its ok is undefined, not true or false".
  it('are refused when async, naming the function and what it must be', () => {
    expect(refusal({ async *main() {} })).toBe(
      'app mine: its main is an async function*; expected a function* (a generator function: the nodes run it event by event, and its runtime calls are made with yield*)',
    );
    expect(refusal({ async main() {} })).toMatch(/^app mine: its main is an async function; expected a function\* /);
    for (const fn of ['verify', 'setup', 'check', 'globals']) {
      expect(refusal({ [fn]: async () => null })).toBe(`app mine: its ${fn} is an async function; expected a plain function (the run is synchronous: it returns its result, not a Promise)`);
    }
    expect(refusal({})).toBe('accepted');
  });
});

describe('an async handler', () => {
  // It was "handler bump returned a value; handlers return nothing (or are generator functions)".
  it('fails the run naming it as async', () => {
    const bump = async (): Promise<void> => {};
    expect(() =>
      runInline('cm5', 2, function* (rt) {
        if (rt.self === 1) yield* rt.sendLeftPollBoth(0, bump as unknown as () => void);
        yield* rt.barrier();
        yield* rt.pollBothTilEmpty();
      }),
    ).toThrow(/^node 0: handler bump is an async function \(it returned a Promise\); a handler runs to its end when its node polls: a plain function, or a function\* /);
  });
});
