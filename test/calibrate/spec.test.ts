import { describe, expect, it } from 'vitest';
import { compileExpression, loopValues, onceEach, parseSpecs } from '../../src/calibrate/spec.ts';
import { InputError } from '../../src/kernel/errors.ts';

describe('the one-line model-specification grammar (thesis Fig. 3-3)', () => {
  it('reads loops, setup, task, cleanup, inputs and terms, naming the model after its task', () => {
    const [spec] = parseSpecs('{{ i 0 11 ++, r 1 4 *=2 @ Barrier() @ CombineVector(length) @ @ length:1<<i @ lengthLogP:length*logP }}', 'strata.spec');
    expect(spec).toEqual({
      name: 'CombineVector',
      line: 1,
      loops: [
        { id: 'i', start: '0', stop: '11', update: '++' },
        { id: 'r', start: '1', stop: '4', update: '*=2' },
      ],
      setup: [{ name: 'Barrier', args: [] }],
      task: { name: 'CombineVector', args: ['length'] },
      cleanup: [],
      inputs: [{ id: 'length', value: '1<<i' }],
      terms: [{ id: 'lengthLogP', value: 'length*logP' }],
    });
  });

  it('reads several specifications with comments between them', () => {
    const specs = parseSpecs('# Strata\n{{ x 1 10000 *=10 @ @ ClearMemory(x) @ @ length:x @ }}\n\n{{ h 1 3 ++ @ @ Roundtrip(h) @ @ hops:h @ }}\n', 'f.spec');
    expect(specs.map((s) => s.name)).toEqual(['ClearMemory', 'Roundtrip']);
  });

  it.each([
    ['{{ i 1 10 ++ @ @ Foo(i) @ @ x:i }}', /^f\.spec:1:3: expected 6 components separated by "@"/],
    ['\n\n  {{ i 1 10 @ @ Foo(i) @ @ x:i @ }}', /^f\.spec:3:6: a loop is "ID Start Stop Update"/],
    ['{{ i 1 10 +-3 @ @ Foo(i) @ @ x:i @ }}', /^f\.spec:1:4: loop update "\+-3": expected/],
    ['{{ i 1 10 ++ @ @ Foo i @ @ x:i @ }}', /^f\.spec:1:18: expected an operation call such as ClearMemory\(length\), found "Foo i"/],
    ['{{ i 1 10 ++ @ @ Foo(i) @ @ x = i @ }}', /^f\.spec:1:29: expected "name:value"/],
    ['{{ i 1 10 ++ @ @ Foo(i) @ @ x:i @ ', /^f\.spec:1:1: this specification has no closing "}}"/],
    ['hello', /^f\.spec:1:1: expected "\{\{" to start a model specification/],
    ['# nothing', /^f\.spec: no model specifications/],
    // Accepted, the later one silently winning (and two columns of one name in the samples).
    ['{{ i 1 4 ++, i 1 2 ++ @ @ Foo(i) @ @ x:i @ }}', /^f\.spec:1:4: loop variable "i" is given twice; expected each loop variable once$/],
    ['{{ i 1 4 ++ @ @ Foo(i) @ @ x:i, x:2 @ }}', /^f\.spec:1:28: "x" is named twice among the inputs and terms/],
    ['{{ i 1 4 ++ @ @ Foo(i) @ @ x:i @ x:x*x }}', /^f\.spec:1:34: "x" is named twice among the inputs and terms/],
    ['{{ 2i 1 4 ++ @ @ Foo(i) @ @ x:i @ }}', /^f\.spec:1:4: loop variable "2i" is not an identifier$/],
    ['{{ @ @ Foo() @ @ x:1 @ }}', /^f\.spec:1:4: the loop nest is empty: expected at least one "ID Start Stop Update"$/],
    // It said the value had spaces.
    ['{{ i 1 4 ++ @ @ Foo(i) @ @ länge:i @ }}', /^f\.spec:1:28: the name "länge" is not an identifier; expected letters, digits and _/],
  ])('reports %s with file, line and column', (text, message) => {
    expect(() => parseSpecs(text, 'f.spec')).toThrow(InputError);
    expect(() => parseSpecs(text, 'f.spec')).toThrow(message);
  });
});

describe('expressions and loops', () => {
  const known = new Set(['i', 'length', 'logP']);

  it('evaluate C operators with C precedence', () => {
    const v = { i: 3, length: 8, logP: 6 };
    expect(compileExpression('1<<i', known, 'e')(v)).toBe(8);
    expect(compileExpression('length*logP+1', known, 'e')(v)).toBe(49);
    expect(compileExpression('1+2<<i', known, 'e')(v)).toBe(24);
    expect(compileExpression('(length-1)&6|1', known, 'e')(v)).toBe(7);
    expect(compileExpression('log2(length)*-2', known, 'e')(v)).toBe(-6);
    // Left to right within a level, shifts below + and -, % a remainder, comparisons 1 or 0 (C).
    expect(compileExpression('length-i-1', known, 'e')(v)).toBe(4);
    expect(compileExpression('length/2/2', known, 'e')(v)).toBe(2);
    expect(compileExpression('i<<1+1', known, 'e')(v)).toBe(12);
    expect(compileExpression('length%i', known, 'e')(v)).toBe(2);
    expect([compileExpression('i>=3', known, 'e')(v), compileExpression('i>3', known, 'e')(v), compileExpression('i<=2', known, 'e')(v)]).toEqual([1, 0, 0]);
  });

  // 1<<i for i from 28 to 36 gave ..., 2^30, -2^31, 1, 2, 4, ... (C's shift counts mod 32),
  // and they were sampled and fitted, exit 0; a loop's <<= was refused for the same wrap.
  it('refuse a shift whose value 32-bit integers do not hold', () => {
    expect(compileExpression('1<<i', known, 'term big')({ i: 30, length: 0, logP: 0 })).toBe(2 ** 30);
    for (const i of [31, 32, 36]) {
      expect(() => compileExpression('1<<i', known, 'term big')({ i, length: 0, logP: 0 })).toThrow(/^term big: 1 << \d+ is -?\d+ in C's 32-bit integers, in the expression "1<<i"; expected a shift whose value they hold \(below 2\^31\)$/);
    }
    expect(compileExpression('-1<<i', known, 'e')({ i: 31, length: 0, logP: 0 })).toBe(-(2 ** 31));
  });

  it('take ceil and floor, as thesis 4.5.5 needs for iter = ceiling(width/bpd)', () => {
    const v = { i: 3, length: 28, logP: 6 };
    expect(compileExpression('ceil(length/i)', known, 'e')(v)).toBe(10);
    expect(compileExpression('floor(length/i)', known, 'e')(v)).toBe(9);
    expect(compileExpression('ceil(length/7)', known, 'e')(v)).toBe(4);
    expect(compileExpression('exp(-i+3)', known, 'e')(v)).toBe(1);
  });

  it('compare as C does (1 or 0, below shifts and above &) and take min and max of two', () => {
    const v = { i: 3, length: 28, logP: 6 };
    expect(compileExpression('2*length<=64', known, 'e')(v)).toBe(1);
    expect(compileExpression('2*length<=32', known, 'e')(v)).toBe(0);
    expect(compileExpression('i<1<<2', known, 'e')(v)).toBe(1); // 3 < (1 << 2)
    expect(compileExpression('i==3&logP>5', known, 'e')(v)).toBe(1); // (i == 3) & (logP > 5)
    expect(compileExpression('i!=3', known, 'e')(v) + compileExpression('i>=4', known, 'e')(v)).toBe(0);
    expect(compileExpression('max(0,4*(2*i+1)/2-55)', known, 'e')(v)).toBe(0);
    expect(compileExpression('max(0,4*(2*length+1)/2-55)*(i<logP)', known, 'e')(v)).toBe(59);
    expect(compileExpression('min(length,max(i,logP))', known, 'e')(v)).toBe(6);
    expect(() => compileExpression('max(i)', known, 'w')).toThrow(/max\(\.\.\.\) takes 2 arguments, got 1/);
    expect(() => compileExpression('i,2', known, 'w')).toThrow(/unexpected ","/);
  });

  it('refuse unknown variables and malformed expressions', () => {
    expect(() => compileExpression('k*2', known, 'f.spec: CombineVector input x')).toThrow(/f\.spec: CombineVector input x: unknown variable "k" \(known: i, length, logP\)/);
    expect(() => compileExpression('(i+1', known, 'w')).toThrow(/a "\)" is missing/);
    expect(() => compileExpression('i+', known, 'w')).toThrow(/an operand is missing/);
    // 5,000 nested parentheses overflowed the stack: an internal error.
    expect(() => compileExpression(`${'('.repeat(5000)}i${')'.repeat(5000)}`, known, 'w')).toThrow(/^w: the expression is longer than 1000 tokens; expected a shorter one/);
    expect(compileExpression(`${'('.repeat(400)}i${')'.repeat(400)}`, known, 'w')({ i: 3 })).toBe(3);
  });

  it('call a function they do not have an unknown function, naming those they have (log(i) was "unknown variable log")', () => {
    expect(() => compileExpression('log(length)', known, 'f.spec: ClearMemory term l')).toThrow(
      /^f\.spec: ClearMemory term l: unknown function "log" \(known: log2, ceil, floor, exp, min, max\) in the expression "log\(length\)"$/,
    );
    expect(() => compileExpression('sqrt(i)', known, 'w', { hops: (n: number) => n })).toThrow(/^w: unknown function "sqrt" \(known: log2, ceil, floor, exp, min, max, hops\)/);
    // A capitalized name is a Strata model's (apps/calibration/hybrid.spec): where those come from.
    expect(() => compileExpression('2*BlockTransfer(i)', known, 'w')).toThrow(/unknown function "BlockTransfer" \(known: .*; a Strata model of one variable is one where platforms\/models\/<platform>\.json, fitted on this platform file, holds it\)/);
    // A variable before a parenthesis is still a misplaced "(".
    expect(() => compileExpression('i(2)', known, 'w')).toThrow(/^w: unexpected "\(" in the expression "i\(2\)"$/);
  });

  it('take ~ and ^ as C does: a complement and an exclusive or', () => {
    const v = { i: 3, length: 8, logP: 6 };
    expect(compileExpression('~i', known, 'e')(v)).toBe(-4);
    expect(compileExpression('i^1', known, 'e')(v)).toBe(2);
    expect(compileExpression('(0-length)>>1', known, 'e')(v)).toBe(-4);
  });

  it('call toString an unknown function, not the object prototype\'s', () => {
    expect(() => compileExpression('toString(i)', known, 'w')).toThrow(/^w: unknown function "toString"/);
  });

  it('refuse an expression of 1001 tokens and take one of 999', () => {
    expect(() => compileExpression(`i${'+i'.repeat(500)}`, known, 'w')).toThrow(/^w: the expression is longer than 1000 tokens/);
    expect(compileExpression(`i${'+i'.repeat(499)}`, known, 'w')({ i: 1 })).toBe(500);
  });

  it('refuse a model specified twice, naming both specifications', () => {
    const specs = parseSpecs('{{ i 1 4 ++ @ @ Foo(i) @ @ x:i @ }}\n{{ i 1 4 ++ @ @ Foo(100*i) @ @ x:i @ }}', 'f.spec');
    expect(() => onceEach(specs, 'f.spec')).toThrow(/^f\.spec: model Foo is specified twice \(specifications 1 and 2; a model is named by its task\); expected each model once$/);
  });

  it('shift a negative loop variable arithmetically and stop where the shift stands still', () => {
    expect(loopValues(-64, -1, '>>=1', 'l')).toEqual([-64, -32, -16, -8, -4, -2, -1]);
    expect(() => loopValues(1, 200_000, '++', 'f.spec: loop i')).toThrow(/^f\.spec: loop i: the loop from 1 to 200000 with \+\+ has more than 100000 values \(or never ends\); expected at most 100000$/);
  });

  it('run loops with their updates and refuse empty ones', () => {
    expect(loopValues(2, 6, '++', 'l')).toEqual([2, 3, 4, 5, 6]);
    expect(loopValues(1, 100, '*=10', 'l')).toEqual([1, 10, 100]);
    expect(loopValues(1, 64, '<<=1', 'l')).toEqual([1, 2, 4, 8, 16, 32, 64]);
    expect(() => loopValues(5, 1, '++', 'f.spec: loop i')).toThrow(/f\.spec: loop i: the loop from 5 to 1 with \+\+ is empty/);
    // <<=1 past 2^30 wrapped to -2^31 and 0, both sampled; /=0 gave one value, then Infinity.
    expect(() => loopValues(1, 2 ** 32, '<<=1', 'l')).toThrow(/^l: the loop from 1 to 4294967296 with <<=1 turns back after 1073741824 \(shifts act on 32-bit integers\)/);
    expect(() => loopValues(1, 10, '/=0', 'l')).toThrow(/^l: the loop update \/=0 does not move the variable; expected a nonzero operand$/);
    // Each was "is empty", as if the range were; -1 >>=1 stood still after one value, accepted.
    expect(() => loopValues(1, 10, '*=1', 'l')).toThrow(/^l: the loop update \*=1 does not move the variable from 1; expected one that does$/);
    expect(() => loopValues(0, 10, '*=2', 'l')).toThrow(/^l: the loop update \*=2 does not move the variable from 0/);
    expect(() => loopValues(-1, -100, '>>=1', 'l')).toThrow(/^l: the loop update >>=1 does not move the variable from -1/);
    expect(() => loopValues(1, 100, '*=-2', 'l')).toThrow(/^l: the loop update \*=-2 turns the variable's sign from 1 to -2; expected one that moves it one way$/);
    expect(loopValues(1, -3, '-=2', 'l')).toEqual([1, -1, -3]);
  });
});
