/**
 * Model specifications (thesis 3.2, Fig. 3-3): the loop nest, setup, task, cleanup,
 * inputs and terms of one model. Two forms: TypeScript objects (ModelSpec) and the
 * thesis's one-line grammar,
 *
 *   {{ <loop>+, @ Setup @ Task @ Cleanup @ <inputs> @ <terms> }}
 *   <loop>     ID Start Stop Update        e.g.  i 2 6 ++, j 1 100 *=10
 *   <variable> ID:Value                    e.g.  length:1<<i
 *
 * where Start, Stop, Update and Value are space-free expressions, Task names a
 * registered operation with its arguments (e.g. ClearMemory(length)), and Setup and
 * Cleanup are comma-separated registered calls or empty. The model's name is the task's
 * name (3.3, Table 3-3). Syntax errors name the file, line and column.
 */
import { InputError } from '../kernel/errors.ts';

export interface Loop {
  id: string;
  start: string;
  stop: string;
  /** `++`, `--`, or an assignment operator and operand: `*=10`, `+=2`, `<<=1`, ... */
  update: string;
}

export interface Variable {
  id: string;
  value: string;
}

export interface Call {
  name: string;
  args: string[];
}

export interface ModelSpec {
  name: string;
  /** The line of the spec file it starts on (the one-line grammar's), for messages found after parsing; absent for a module's. */
  line?: number;
  loops: Loop[];
  setup: Call[];
  task: Call;
  cleanup: Call[];
  inputs: Variable[];
  terms: Variable[];
}

/** Where a spec came from, for messages. */
interface Position {
  file: string;
  line: number;
  column: number;
}

const UPDATE = /^(\+\+|--|(\+|-|\*|\/|<<|>>)=-?\d+(\.\d+)?)$/;
const IDENT = /^[A-Za-z_]\w*$/;

class SpecError extends InputError {}

function fail(at: Position, what: string): never {
  throw new SpecError(`${at.file}:${at.line}:${at.column}: ${what}`);
}

/** Line and column (1-based) of offset `i` in `text`. */
function positionOf(file: string, text: string, i: number): Position {
  const before = text.slice(0, i);
  const line = before.split('\n').length;
  return { file, line, column: i - before.lastIndexOf('\n') };
}

/** Parses every `{{ ... }}` in `text` (anything outside them must be blank or a `#` comment). */
export function parseSpecs(text: string, file: string): ModelSpec[] {
  const specs: ModelSpec[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (!text.startsWith('{{', i)) fail(positionOf(file, text, i), `expected "{{" to start a model specification, found "${text.slice(i, i + 12).split('\n')[0]}"`);
    const end = text.indexOf('}}', i + 2);
    if (end < 0) fail(positionOf(file, text, i), 'this specification has no closing "}}"');
    specs.push(parseOne(text, file, i + 2, end));
    i = end + 2;
  }
  if (specs.length === 0) throw new SpecError(`${file}: no model specifications (expected {{ loops @ setup @ task @ cleanup @ inputs @ terms }})`);
  return specs;
}

function parseOne(text: string, file: string, from: number, to: number): ModelSpec {
  // Split on '@' into the six components, remembering where each starts.
  const parts: { text: string; at: number }[] = [];
  let start = from;
  for (let i = from; i <= to; i++) {
    if (i === to || text[i] === '@') {
      parts.push({ text: text.slice(start, i), at: start });
      start = i + 1;
    }
  }
  /** Where part k's text starts (or, with `offset`, that many characters into the part). */
  const pos = (k: number, offset?: number) => {
    const p = parts[k];
    const lead = p.text.length - p.text.trimStart().length;
    return positionOf(file, text, p.at + (offset ?? lead));
  };
  if (parts.length !== 6) {
    fail(positionOf(file, text, from), `expected 6 components separated by "@" (loops @ setup @ task @ cleanup @ inputs @ terms), found ${parts.length}`);
  }
  const loops = list(parts[0].text).map((item) => {
    const fields = item.text.trim().split(/\s+/);
    const at = pos(0, item.offset);
    if (fields.length !== 4) fail(at, `a loop is "ID Start Stop Update" (e.g. "i 1 10 ++"), found "${item.text.trim()}"`);
    const [id, lo, hi, update] = fields;
    if (!IDENT.test(id)) fail(at, `loop variable "${id}" is not an identifier`);
    if (!UPDATE.test(update)) fail(at, `loop update "${update}": expected ++, --, or an operator and number such as *=10, +=2, <<=1`);
    return { id, start: lo, stop: hi, update };
  });
  if (loops.length === 0) fail(pos(0), 'the loop nest is empty: expected at least one "ID Start Stop Update"');
  const task = parseCall(parts[2].text.trim(), pos(2));
  const inputs = variables(parts[4].text, pos(4));
  const terms = variables(parts[5].text, pos(5));
  // Each name once: a second loop of one variable, or an input or term named twice (two
  // columns of one name in the samples), was accepted and the later one silently won.
  const repeated = nameTwice(loops, [...inputs, ...terms]);
  if (repeated !== null) fail(pos(repeated.loop ? 0 : inputs.filter((v) => v.id === repeated.name).length > 1 ? 4 : 5), repeated.message);
  return {
    name: task.name,
    line: positionOf(file, text, from).line,
    loops,
    setup: calls(parts[1].text, pos(1)),
    task,
    cleanup: calls(parts[3].text, pos(3)),
    inputs,
    terms,
  };
}

/** Comma-separated items at top level (not inside parentheses), with their offsets. */
function list(text: string): { text: string; offset: number }[] {
  const out: { text: string; offset: number }[] = [];
  const lead = text.length - text.trimStart().length;
  const body = text.trim();
  if (body === '') return out;
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= body.length; i++) {
    const c = body[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    if (i === body.length || (c === ',' && depth === 0)) {
      out.push({ text: body.slice(start, i), offset: lead + start + (body.slice(start, i).length - body.slice(start, i).trimStart().length) });
      start = i + 1;
    }
  }
  return out;
}

function parseCall(text: string, at: Position): Call {
  const m = /^([A-Za-z_]\w*)\((.*)\)$/.exec(text);
  if (m === null) fail(at, `expected an operation call such as ClearMemory(length), found "${text}"`);
  return { name: m[1], args: list(m[2]).map((a) => a.text.trim()) };
}

function calls(text: string, at: Position): Call[] {
  return list(text).map((item) => parseCall(item.text.trim(), { ...at, column: at.column + item.offset - (text.length - text.trimStart().length) }));
}

function variables(text: string, at: Position): Variable[] {
  return list(text).map((item) => {
    const m = /^([A-Za-z_]\w*):(\S+)$/.exec(item.text.trim());
    if (m === null) {
      const where = { ...at, column: at.column + item.offset - (text.length - text.trimStart().length) };
      // "länge:i" was told its value had spaces.
      const named = /^([^:\s]+):\S+$/.exec(item.text.trim());
      if (named !== null) fail(where, `the name "${named[1]}" is not an identifier; expected letters, digits and _ (not starting with a digit), as in "length:1<<i"`);
      fail(where, `expected "name:value" with a space-free value, found "${item.text.trim()}"`);
    }
    return { id: m[1], value: m[2] };
  });
}

/**
 * Refuses a model specified twice: its samples shared one model line and were pooled
 * into one fit (ClearMemory(i) and ClearMemory(100*i), MRE 41%), or refused only at the
 * fit, after all the sampling.
 */
export function onceEach(specs: ModelSpec[], file: string): ModelSpec[] {
  const names = specs.map((s) => s.name);
  const twice = names.findIndex((n, k) => names.indexOf(n) !== k);
  if (twice >= 0) {
    throw new SpecError(`${file}: model ${names[twice]} is specified twice (specifications ${names.indexOf(names[twice]) + 1} and ${twice + 1}; a model is named by its task); expected each model once`);
  }
  return specs;
}

/**
 * Checks a module's specification against what the one-line grammar guarantees (a
 * ModelSpec's shape, identifiers and loop updates): a loop without start or stop, a
 * missing setup or an update of '+++' were internal errors, and a term named 't t' wrote
 * samples that sim fit refused.
 */
export function checkSpecShape(value: unknown, where: string): void {
  const bad = (what: string): never => {
    throw new SpecError(`${where}: ${what}; expected { name, loops: [{ id, start, stop, update }], setup: [{ name, args }], task: { name, args }, cleanup: [...], inputs: [{ id, value }], terms: [{ id, value }] } with identifiers for names and expressions as strings`);
  };
  const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const isString = (v: unknown): v is string => typeof v === 'string';
  const call = (v: unknown, what: string) => {
    if (!isRecord(v) || !isString(v.name) || !IDENT.test(v.name) || !Array.isArray(v.args) || !v.args.every(isString)) bad(`${what} is not { name, args } with an identifier and a list of expression strings`);
  };
  const list = <T>(v: unknown, what: string, each: (x: unknown, label: string) => T) => {
    if (!Array.isArray(v)) bad(`${what} is not a list`);
    (v as unknown[]).forEach((x, k) => each(x, `${what}[${k}]`));
  };
  if (!isRecord(value)) return bad('not an object');
  if (!isString(value.name) || value.name === '') bad('its name is not a non-empty string');
  list(value.loops, 'loops', (l, label) => {
    if (!isRecord(l) || !isString(l.id) || !IDENT.test(l.id) || !isString(l.start) || !isString(l.stop) || !isString(l.update)) bad(`${label} is not { id, start, stop, update } with an identifier and strings`);
    if (!UPDATE.test((l as { update: string }).update)) bad(`${label}'s update ${JSON.stringify((l as { update: string }).update)} is not ++, --, or an operator and number such as *=10`);
  });
  if ((value.loops as unknown[]).length === 0) bad('its loop nest is empty');
  list(value.setup, 'setup', call);
  call(value.task, 'task');
  if ((value.task as { name: string }).name !== value.name) bad(`its name ${JSON.stringify(value.name)} is not its task's (${(value.task as { name: string }).name}), as a model is named by its task`);
  list(value.cleanup, 'cleanup', call);
  for (const key of ['inputs', 'terms'] as const) {
    list(value[key], key, (v, label) => {
      if (!isRecord(v) || !isString(v.id) || !IDENT.test(v.id) || !isString(v.value)) bad(`${label} is not { id, value } with an identifier and an expression string`);
    });
  }
  // Each name once, as the one-line grammar has it: a module's loop variable given twice
  // sampled every value of one loop for each of the other's, and a column named twice held
  // the second's values under the first's name; both were sampled and fitted, exit 0.
  const repeated = nameTwice(value.loops as Loop[], [...(value.inputs as Variable[]), ...(value.terms as Variable[])]);
  if (repeated !== null) throw new SpecError(`${where}: ${repeated.message}`);
}

/** The first name a spec gives twice, a loop variable's or a column's (an input or term), or null. */
function nameTwice(loops: readonly Loop[], columns: readonly Variable[]): { loop: boolean; name: string; message: string } | null {
  const twice = (names: string[]) => names.find((n, k) => names.indexOf(n) !== k);
  const loop = twice(loops.map((l) => l.id));
  if (loop !== undefined) return { loop: true, name: loop, message: `loop variable "${loop}" is given twice; expected each loop variable once` };
  const column = twice(columns.map((v) => v.id));
  if (column !== undefined) return { loop: false, name: column, message: `"${column}" is named twice among the inputs and terms (each is a column of the samples); expected each name once` };
  return null;
}

// ---- expressions ------------------------------------------------------------------

/** An expression compiled against named variables. */
export type Expression = (vars: Readonly<Record<string, number>>) => number;

const TOKEN = /\s*(?:(\d+(?:\.\d+)?)|([A-Za-z_]\w*)|(<<|>>|<=|>=|==|!=|\*\*|[-+*/%()&|^~<>,]))/y;
/** The most tokens an expression may have (numbers, names, operators, parentheses). */
const MAX_TOKENS = 1000;
/** Binary operators by C precedence (higher binds tighter). */
const PRECEDENCE: Record<string, number> = { '|': 1, '^': 2, '&': 3, '==': 4, '!=': 4, '<': 5, '<=': 5, '>': 5, '>=': 5, '<<': 6, '>>': 6, '+': 7, '-': 7, '*': 8, '/': 8, '%': 8 };

/** Functions every expression may call (each takes as many arguments as its length). */
const BUILT_INS: ExpressionFunctions = { log2: Math.log2, ceil: Math.ceil, floor: Math.floor, exp: Math.exp, min: (a: number, b: number) => Math.min(a, b), max: (a: number, b: number) => Math.max(a, b) };

/**
 * Functions an expression may call besides the built-ins, each taking as many arguments
 * as its `length` (e.g. hops(n), the machine's distance from node 0).
 */
export type ExpressionFunctions = Readonly<Record<string, (...args: number[]) => number>>;

/**
 * Compiles a C-style arithmetic expression over `known` variables: numbers, + - * / %
 * << >> & | ^ ~, the comparisons < <= > >= == != (1 if true, else 0, as in C),
 * parentheses, the built-ins log2(...), ceil(...), floor(...), exp(...), min(a,b) and
 * max(a,b) (ceil for thesis 4.5.5's iter = ceiling(width/bpd)) and the given
 * `functions`, each called with as many arguments as it takes. Shifts and bit
 * operations act on 32-bit integers as in C; / is real division.
 * Unknown names and syntax errors throw an InputError naming `where`.
 */
export function compileExpression(source: string, known: ReadonlySet<string>, where: string, functions: ExpressionFunctions = {}): Expression {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < source.length) {
    // The parser and the compiled expression recurse once or twice a token: 5,000 nested
    // parentheses overflowed the stack ("internal error: Maximum call stack size exceeded").
    if (tokens.length === MAX_TOKENS) throw new SpecError(`${where}: the expression is longer than ${MAX_TOKENS} tokens; expected a shorter one (split it into inputs)`);
    const start = TOKEN.lastIndex;
    const m = TOKEN.exec(source);
    if (m === null || m[0].trim() === '') {
      if (source.slice(start).trim() === '') break;
      throw new SpecError(`${where}: cannot read "${source.slice(start).trim()}" in the expression "${source}"`);
    }
    tokens.push(m[1] ?? m[2] ?? m[3]);
  }
  let k = 0;
  const bad = (what: string): never => {
    throw new SpecError(`${where}: ${what} in the expression "${source}"`);
  };
  const primary = (): Expression => {
    const t = tokens[k++];
    if (t === undefined) return bad('an operand is missing');
    if (t === '(') {
      const inner = binary(0);
      if (tokens[k++] !== ')') bad('a ")" is missing');
      return inner;
    }
    if (t === '-') {
      const e = primary();
      return (v) => -e(v);
    }
    if (t === '~') {
      const e = primary();
      return (v) => ~e(v);
    }
    if (/^\d/.test(t)) {
      const n = Number(t);
      return () => n;
    }
    if (IDENT.test(t)) {
      const fn = Object.hasOwn(BUILT_INS, t) ? BUILT_INS[t] : Object.hasOwn(functions, t) ? functions[t] : undefined;
      if (fn !== undefined && tokens[k] === '(') {
        k++;
        const args = [binary(0)];
        while (tokens[k] === ',') {
          k++;
          args.push(binary(0));
        }
        if (tokens[k++] !== ')') bad(`a ")" is missing after ${t}(`);
        if (args.length !== fn.length) bad(`${t}(...) takes ${fn.length} argument${fn.length === 1 ? '' : 's'}, got ${args.length}`);
        if (args.length === 1) {
          const a = args[0];
          return (v) => fn(a(v));
        }
        return (v) => fn(...args.map((a) => a(v)));
      }
      // log(i), sqrt(i), or a Strata model the platform has none of, were "unknown variable".
      if (!known.has(t) && tokens[k] === '(') {
        const strata = /^[A-Z]/.test(t) ? '; a Strata model of one variable is one where platforms/models/<platform>.json, fitted on this platform file, holds it' : '';
        bad(`unknown function "${t}" (known: ${[...Object.keys(BUILT_INS), ...Object.keys(functions)].join(', ')}${strata})`);
      }
      if (!known.has(t)) bad(`unknown variable "${t}" (known: ${[...known].join(', ')})`);
      return (v) => v[t];
    }
    return bad(`unexpected "${t}"`);
  };
  // C's 32-bit shift, refused where it loses the value: 1<<i past i = 30 gave -2^31, 1, 2, ...
  // (shift counts taken mod 32), which were sampled and fitted, as the loop updates' <<= is refused.
  const shiftLeft = (a: number, n: number): number => {
    const r = a << n;
    if (r !== (a | 0) * 2 ** n) throw new SpecError(`${where}: ${a} << ${n} is ${r} in C's 32-bit integers, in the expression "${source}"; expected a shift whose value they hold (below 2^31)`);
    return r;
  };
  const binary = (min: number): Expression => {
    let left = primary();
    for (;;) {
      const op = tokens[k];
      const p = op === undefined ? -1 : (PRECEDENCE[op] ?? -1); // -1 ends the expression
      if (p < min) break;
      k++;
      const right = binary(p + 1);
      const l = left;
      switch (op) {
        case '+': left = (v) => l(v) + right(v); break;
        case '-': left = (v) => l(v) - right(v); break;
        case '*': left = (v) => l(v) * right(v); break;
        case '/': left = (v) => l(v) / right(v); break;
        case '%': left = (v) => l(v) % right(v); break;
        case '<<': left = (v) => shiftLeft(l(v), right(v)); break;
        case '>>': left = (v) => l(v) >> right(v); break;
        case '&': left = (v) => l(v) & right(v); break;
        case '|': left = (v) => l(v) | right(v); break;
        case '<': left = (v) => Number(l(v) < right(v)); break;
        case '<=': left = (v) => Number(l(v) <= right(v)); break;
        case '>': left = (v) => Number(l(v) > right(v)); break;
        case '>=': left = (v) => Number(l(v) >= right(v)); break;
        case '==': left = (v) => Number(l(v) === right(v)); break;
        case '!=': left = (v) => Number(l(v) !== right(v)); break;
        default: left = (v) => l(v) ^ right(v);
      }
    }
    return left;
  };
  const e = binary(0);
  if (k !== tokens.length) bad(`unexpected "${tokens[k]}"`);
  return e;
}

/** The values a loop takes from start to stop with its update. */
export function loopValues(start: number, stop: number, update: string, where: string): number[] {
  const out: number[] = [];
  const step = (x: number): number => {
    if (update === '++') return x + 1;
    if (update === '--') return x - 1;
    const m = /^(\+|-|\*|\/|<<|>>)=(-?\d+(?:\.\d+)?)$/.exec(update)!;
    const n = Number(m[2]);
    switch (m[1]) {
      case '+': return x + n;
      case '-': return x - n;
      case '*': return x * n;
      case '/': return x / n;
      case '<<': return x << n;
      default: return x >> n;
    }
  };
  // An update that cannot move the variable (/=0 made one value of 1, then Infinity).
  if (/=-?0+(\.0+)?$/.test(update)) throw new SpecError(`${where}: the loop update ${update} does not move the variable; expected a nonzero operand`);
  // Said as what they are: *=1 from 1 (or *=2 from 0) and *=-2 were "empty", as if the range were.
  const first = step(start);
  if (first === start) throw new SpecError(`${where}: the loop update ${update} does not move the variable from ${start}; expected one that does`);
  // A negative factor alternates the sign (a sum may cross 0 and go on one way: 1, -1, -3).
  if (/^[*/]=-/.test(update) && start !== 0) throw new SpecError(`${where}: the loop update ${update} turns the variable's sign from ${start} to ${first}; expected one that moves it one way`);
  const up = first > start;
  for (let x = start; up ? x <= stop : x >= stop; x = step(x)) {
    out.push(x);
    if (out.length > 100000) throw new SpecError(`${where}: the loop from ${start} to ${stop} with ${update} has more than 100000 values (or never ends); expected at most 100000`);
    const next = step(x);
    if (next === x) break;
    // Shifts act on 32-bit integers: <<=1 from 2^30 wrapped to -2^31, then 0, and both were sampled.
    if (up ? next < x : next > x) throw new SpecError(`${where}: the loop from ${start} to ${stop} with ${update} turns back after ${x} (shifts act on 32-bit integers); expected a loop that stays in range`);
  }
  if (out.length === 0) throw new SpecError(`${where}: the loop from ${start} to ${stop} with ${update} is empty`);
  return out;
}
