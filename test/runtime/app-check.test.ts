/**
 * What an app definition may be (src/runtime/app-check.ts), as runConfig and loadApp
 * check it before anything runs: each mistake a user can make in defineApp is one
 * InputError line naming the field and what was expected.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/kernel/errors.ts';
import { defineApp, type AppDefinition } from '../../src/runtime/app.ts';
import { runApp } from '../../src/runtime/run-app.ts';
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

describe("an app's parameters as defineApp declares them", () => {
  const spec = { type: 'int', default: 2, min: 1, doc: 'barriers' };
  it.each([
    // A NaN min let every value through (--param rounds=-100 ran); '3' compared as text.
    ['a NaN min', { rounds: { ...spec, min: Number.NaN } }, 'parameter "rounds" has min NaN; expected a finite number or none'],
    ['a min given as text', { rounds: { ...spec, max: '3' } }, 'parameter "rounds" has max "3"; expected a finite number or none'],
    ['a min above the max', { rounds: { ...spec, min: 10, max: 1 } }, 'parameter "rounds" has min 10 above its max 1'],
    // Accepted, then --param mode=1 was refused with "expected one of 1, 2".
    ['enum values that are numbers', { mode: { type: 'enum', values: [1, 2], default: 1, doc: 'which' } }, 'parameter "mode" has values [1,2]; expected a list of one or more names (non-empty strings on one line)'],
    // sim params printed "rounds  int, default 2: undefined".
    ['no doc', { rounds: { type: 'int', default: 2 } }, 'parameter "rounds" has doc undefined; expected one line of text saying what it means'],
    ['a doc of two lines', { rounds: { ...spec, doc: 'barriers\nper run' } }, 'parameter "rounds" has doc "barriers\\nper run"; expected one line of text saying what it means'],
    // --param splits at the first '=': it could never be set.
    ['a name with =', { 'a=b': spec }, `has a parameter named "a=b"; expected a name without '=' on one line`],
  ])('refuses %s', (_what, params, message) => {
    expect(refusal({ params })).toBe(`app mine: ${message}`);
  });

  it('refuses a description that is missing or not one line', () => {
    expect(refusal({ description: undefined })).toBe('app mine: has description undefined; expected one line of text saying what it does');
    expect(refusal({ description: 'two\nbarriers' })).toBe('app mine: has description "two\\nbarriers"; expected one line of text saying what it does');
  });
});

describe("an app's check", () => {
  // Its message reached stderr as two lines under "sim: app mine: ".
  it('must say what is wrong, in one line', () => {
    const checked = app({ check: () => 'rounds must be\neven' });
    expect(() => runApp(runConfig(cm5, checked, { nodes: 4 }))).toThrow(
      'app mine: check returned "rounds must be\\neven", which has a character not allowed on one line (control characters (a newline, a tab, an escape), line separators or direction overrides); expected one line saying what is wrong',
    );
    // '' refused the run as "app mine: " and nothing more.
    expect(() => runApp(runConfig(cm5, app({ check: () => '' }), { nodes: 4 }))).toThrow(
      'app mine: check returned an empty string; expected null (the parameters are fine) or a string saying what is wrong',
    );
    expect(runApp(runConfig(cm5, app({ check: () => null }), { nodes: 4 })).verified).toBe(true);
  });

  // Its setup's refusal read "sim: cannot draw input", naming no app.
  it("and its setup's refusal of the parameters name the app, once", () => {
    const refuse = (message: string) => () => {
      throw new InputError(message);
    };
    expect(() => runApp(runConfig(cm5, app({ setup: refuse('cannot draw input') }), { nodes: 4 }))).toThrow(/^app mine: cannot draw input$/);
    expect(() => runApp(runConfig(cm5, app({ setup: refuse('app mine: too many rounds') }), { nodes: 4 }))).toThrow(/^app mine: too many rounds$/);
  });
});

describe("an app's state names", () => {
  // Accepted: the run wrote a trace that sim graph refused ("bad header: key "states":
  // expected every state id once"), a state numbered as one of Strata's or a name that is
  // not a string.
  it('are refused unless numbered from 8 and named in one line', () => {
    const expected = "expected { <number from 8 to 255>: '<name>' } or none";
    expect(refusal({ states: { 3: 'mine' } })).toBe(`app mine: has state "3"; ${expected} (Strata's states are 0-7)`);
    expect(refusal({ states: { 256: 'mine' } })).toBe(`app mine: has state "256"; ${expected} (Strata's states are 0-7)`);
    expect(refusal({ states: 'abc' })).toBe(`app mine: has states "abc"; ${expected}`);
    expect(refusal({ states: { 9: 5 } })).toBe('app mine: has state 9 named 5; expected a name of one line, at most 200 characters');
    expect(refusal({ states: { 9: 'two\nlines' } })).toBe('app mine: has state 9 named "two\\nlines"; expected a name of one line, at most 200 characters');
    expect(refusal({ states: { 8: 'Count', 255: 'Reorder' } })).toBe('accepted');
  });
});
