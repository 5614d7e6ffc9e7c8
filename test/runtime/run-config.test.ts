/** The run builder: the CLI's defaults, and parameters as strings or as parsed values. */
import { describe, expect, it } from 'vitest';
import patterns from '../../apps/patterns/index.ts';
import { InputError } from '../../src/kernel/errors.ts';
import { parseParams } from '../../src/runtime/app.ts';
import { runConfig } from '../../src/runtime/run-config.ts';
import { loadTestPlatform } from '../support/platforms.ts';

const cm5 = loadTestPlatform('cm5');

describe('runConfig', () => {
  it("fills sim's defaults: the platform's node count, seed 1, the packet network, every parameter's default", () => {
    const c = runConfig(cm5, patterns);
    expect(c).toEqual({ platform: cm5, app: patterns, params: parseParams(patterns, []), nodes: cm5.defaultNodes, seed: 1, network: 'packet' });
  });

  it('parses key=value strings as --param does, and keeps the options given', () => {
    const log = () => {};
    const c = runConfig(cm5, patterns, { params: ['pattern=random', 'blockBytes=512'], nodes: 16, seed: 7, network: 'analytic', perturb: 3, log });
    expect(c.params).toEqual(parseParams(patterns, ['pattern=random', 'blockBytes=512']));
    expect(c).toMatchObject({ nodes: 16, seed: 7, network: 'analytic', perturb: 3, log });
    expect(() => runConfig(cm5, patterns, { params: ['blockBytes=3'] })).toThrow('--param blockBytes=3: expected an integer from 4 to 2097148');
    // Digits past 2^53 - 1 are an integer a double cannot hold, said so; so is 1e21, an integer
    // past it written as a number (it was told "expected an integer >= 0"). Exponent notation is
    // not an integer's form, and a value that is an integer in it is told the digits to write.
    expect(() => runConfig(cm5, patterns, { params: ['shift=9007199254740993'] })).toThrow('--param shift=9007199254740993: past the largest integer a parameter holds exactly (2^53 - 1); expected an integer >= 0');
    expect(() => runConfig(cm5, patterns, { params: ['shift=1e21'] })).toThrow(/^--param shift=1e21: past the largest integer a parameter holds exactly \(2\^53 - 1\); expected an integer >= 0$/);
    expect(() => runConfig(cm5, patterns, { params: { shift: 1e21 } })).toThrow(/^--param shift=1e\+21: past the largest integer a parameter holds exactly \(2\^53 - 1\); expected an integer >= 0$/);
    expect(() => runConfig(cm5, patterns, { params: ['shift=1e3'] })).toThrow(/^--param shift=1e3: expected an integer >= 0 written in digits \(1000, not 1e3\)$/);
    expect(() => runConfig(cm5, patterns, { params: ['shift=-1e3'] })).toThrow(/^--param shift=-1e3: expected an integer >= 0$/);
    expect(() => runConfig(cm5, patterns, { params: ['shift=1.5'] })).toThrow(/^--param shift=1\.5: expected an integer >= 0$/);
  });

  it('refuses what a library caller can get wrong with InputError, as the command line would', () => {
    const bad: [Parameters<typeof runConfig>, string][] = [
      // Ran the packet network and reported network 'warp'.
      [[cm5, patterns, { network: 'warp' as never }], 'network warp: expected packet or analytic'],
      // A bare RangeError, naming "seed" for perturb too.
      [[cm5, patterns, { seed: -1 }], 'seed -1: expected an integer from 0 to 4294967295'],
      [[cm5, patterns, { seed: 1.5 }], 'seed 1.5: expected an integer'],
      [[cm5, patterns, { seed: '7' as never }], 'seed "7" (a string): expected an integer'],
      [[cm5, patterns, { perturb: -2 }], 'perturb -2: expected a perturbation seed'],
      [[cm5, patterns, { nodes: 0 }], 'nodes 0: expected a positive integer'],
      // "--param 0=r: app ... has no parameter "0"".
      [[cm5, patterns, { params: 'rounds=2' as never }], 'params: expected key=value strings or an object of values, got "rounds=2"'],
      // Ignored.
      [[cm5, patterns, { bogus: 1 } as never], 'run option bogus: unknown (expected params, nodes, seed,'],
      // TypeErrors deep in the machine.
      [[{} as never, patterns], 'platform: expected a platform (loadPlatform or parsePlatform gives one)'],
      [[cm5, undefined as never], 'app: expected an app (loadApp or defineApp gives one)'],
      // Ran to NaN (or negative) cycles and reported "verified"; a clock of 0 made every time Infinity.
      [[{ ...cm5, messaging: { ...cm5.messaging, sendOverheadCycles: Number.NaN } }, patterns], 'platform.messaging.sendOverheadCycles is NaN; expected a finite number of 0 or more (a platform as loadPlatform or parsePlatform gives it)'],
      [[{ ...cm5, cpu: { ...cm5.cpu, intOpCycles: -5 } }, patterns], 'platform.cpu.intOpCycles is -5; expected a finite number of 0 or more'],
      [[{ ...cm5, clockMHz: 0 }, patterns], 'platform.clockMHz is 0; expected a clock above 0 MHz'],
      // An app made in code is checked as a loaded one: params missing was a TypeError in parseParams, a NaN default ran as NaN.
      [[cm5, { ...patterns, params: undefined } as never], 'app patterns: is not an app: it has no params object (expected an app made with defineApp({'],
      [[cm5, { ...patterns, params: { a: { type: 'int', default: Number.NaN } } } as never], 'app patterns: parameter "a" has default NaN, expected an integer'],
      // An integer, but past 2^53 - 1: it was told "expected an integer".
      [[cm5, { ...patterns, params: { a: { type: 'int', default: 1e21 } } } as never], 'app patterns: parameter "a" has default 1e+21, past the largest integer a parameter holds exactly (2^53 - 1); expected an integer'],
      [[cm5, { ...patterns, verify: undefined } as never], 'app patterns: is not an app: it has no verify function'],
      // A RangeError from the kernel, or ignored; hooks failed mid-run, blaming the app.
      [[cm5, patterns, { limits: { maxCycles: 'x' } } as never], 'limits.maxCycles x: expected a whole number from 1 to 2^53 - 1'],
      [[cm5, patterns, { limits: { maxEvent: 5 } } as never], 'limits.maxEvent: unknown (expected maxCycles, maxEvents)'],
      [[cm5, patterns, { output: 'x' } as never], 'output: expected a function, got string'],
      [[cm5, patterns, { trace: { state() {}, inFlight: 'x' } } as never], 'trace.inFlight: expected a function or none, got string'],
      // A TypeError ("Cannot convert undefined or null to object"), "run option 0: unknown", and taken.
      [[cm5, patterns, null as never], 'runConfig: expected the run options as an object { params?, nodes?, seed?, network?, output?, log?, trace?, observer?, perturb?, inspect?, limits? }, got null'],
      [[cm5, patterns, 'x' as never], 'runConfig: expected the run options as an object { params?, nodes?, seed?, network?, output?, log?, trace?, observer?, perturb?, inspect?, limits? }, got string'],
      [[cm5, patterns, [] as never], 'runConfig: expected the run options as an object { params?, nodes?, seed?, network?, output?, log?, trace?, observer?, perturb?, inspect?, limits? }, got a list of 0'],
      [[cm5, patterns, { limits: [] } as never], 'limits: expected { maxCycles?, maxEvents? }, got []'],
    ];
    for (const [args, message] of bad) {
      expect(() => runConfig(...args)).toThrow(InputError);
      expect(() => runConfig(...args)).toThrow(message);
    }
  });

  it('checks parsed values as parseParams checks strings, and fills the rest with defaults', () => {
    const c = runConfig(cm5, patterns, { params: { pattern: 'transpose', bwMatch: false, blockBytes: 1024 } });
    expect(c.params).toEqual(parseParams(patterns, ['pattern=transpose', 'bwMatch=false', 'blockBytes=1024']));
    expect(() => runConfig(cm5, patterns, { params: { blockBytes: 3 } })).toThrow('--param blockBytes=3: expected an integer from 4 to 2097148');
    expect(() => runConfig(cm5, patterns, { params: { pattern: 'diagonal' } })).toThrow('--param pattern=diagonal: expected one of cshift, exchange, random, transpose');
    expect(() => runConfig(cm5, patterns, { params: { colour: 'red' } })).toThrow(/app patterns has no parameter "colour"/);
    expect(() => runConfig(cm5, patterns, { params: { bwMatch: 'false' } })).toThrow('param bwMatch: expected a boolean for a bool parameter, got string false');
  });
});
