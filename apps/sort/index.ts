/**
 * sort: the sorting library's module as an app (thesis 4.5.3): sorts `keys` unsigned
 * keys of `keyBits` bits per node with `algorithm=radix` (apps/radix-sort, digits of
 * `digitBits`) or `algorithm=sample` (apps/sample-sort, which sorts its samples with
 * `sampleDigitBits`). `sim` resolves `algorithm=auto` and `digitBits=auto` from the
 * platform's models before the run (src/library/auto.ts: the digit width by eq. 44,
 * then the faster of the optimized radix sort and sample sort, thesis 5.5), so a run
 * is exactly a run of the chosen app with the same seed: same input, same fingerprint.
 */
import { defineApp, type AppDefinition, type ParamSpecs } from '../../src/runtime/index.ts';
import { DISTRIBUTIONS, MAX_KEYS_PER_NODE } from '../radix-sort/keys.ts';
import radixSort from '../radix-sort/index.ts';
import sampleSort from '../sample-sort/index.ts';

// `any` because the two apps' input, result and globals types differ and this app only passes them between each one's own functions.
type Delegate = AppDefinition<any, any, any, any>;

const radix = radixSort as Delegate;
const sample = sampleSort as Delegate;

type SortParams = { algorithm: string; keys: number; keyBits: number; dist: string; digitBits: number; sampleDigitBits: number; oversample: number; bufferKeys: number; memory: number };

/** The chosen app and the parameters it takes. */
function delegate(p: SortParams): { app: Delegate; params: Record<string, number | string> } {
  if (p.algorithm === 'radix') return { app: radix, params: { keys: p.keys, keyBits: p.keyBits, digitBits: p.digitBits, dist: p.dist } };
  return { app: sample, params: { keys: p.keys, keyBits: p.keyBits, dist: p.dist, oversample: p.oversample, digitBits: p.sampleDigitBits, bufferKeys: p.bufferKeys, memory: p.memory } };
}

const samplePs = sampleSort.params;

export default defineApp({
  name: 'sort',
  description: 'the sorting module (thesis 4.5.3): radix sort or sample sort, chosen by algorithm=auto from the models',
  states: { ...radix.states, ...sample.states },
  params: {
    algorithm: { type: 'enum', values: ['radix', 'sample'], default: 'radix', doc: 'radix or sample (auto: the models pick, thesis 4.5)' },
    keys: { type: 'int', default: 1000, min: 1, max: MAX_KEYS_PER_NODE, doc: "keys per node (at most 2^19: a key's place is a block transfer's offset; sample sort: memory x keys at most 524,287)" },
    keyBits: { type: 'int', default: 32, min: 1, max: 32, doc: 'bits per key' },
    dist: { type: 'enum', values: [...DISTRIBUTIONS], default: 'uniform', doc: 'key distribution' },
    digitBits: { type: 'int', default: 8, min: 1, max: 16, doc: 'radix: bits per digit (auto: eq. 44, thesis 5.3)' },
    sampleDigitBits: { ...samplePs.digitBits, doc: 'sample: digit width of the radix sort of the samples' },
    oversample: samplePs.oversample,
    bufferKeys: samplePs.bufferKeys,
    memory: samplePs.memory,
  } satisfies ParamSpecs,
  globals: () => sample.globals!(),
  check(p, machine) {
    const d = delegate(p);
    return d.app.check?.(d.params, machine) ?? null;
  },
  setup(ctx) {
    const d = delegate(ctx.params);
    return d.app.setup!({ ...ctx, params: d.params }) as unknown;
  },
  main(rt, p, input) {
    const d = delegate(p);
    return d.app.main(rt, d.params, input);
  },
  verify(ctx) {
    const d = delegate(ctx.params);
    const v = d.app.verify({ ...ctx, params: d.params });
    return { ...v, detail: `${p(ctx.params.algorithm)}: ${v.detail}` };
  },
});

const p = (algorithm: string) => (algorithm === 'radix' ? 'radix sort' : 'sample sort');
