/**
 * Thesis chapter 7 on a 64-node CM-5 with the packet network (issue 4): transpose with
 * and without barriers (Fig. 7-6), bandwidth matching (Fig. 7-8) and packet
 * interleaving by asynchronous block transfers (Fig. 7-9). Runs are separate child
 * processes, two at a time; every run must verify. Prints MB/s per node and the
 * ratios the thesis reports, with the targets from the issue beside them.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fmt2, printRows } from './harness.ts';

const NODES = 64;
const PARALLEL = 2;

interface Run {
  params: string[];
  seed: number;
}

function runChild({ params, seed }: Run): Promise<number> {
  const args = ['--import', 'tsx', join(import.meta.dirname, 'run-child.ts'), 'cm5', 'apps/patterns', String(NODES), String(seed), ...params];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: join(import.meta.dirname, '..'), maxBuffer: 1 << 26 }, (error, stdout) => {
      if (error !== null) return reject(error);
      const s = JSON.parse(stdout) as { verified: boolean; metrics: { mbPerSecPerNode: number } };
      if (!s.verified) return reject(new Error(`patterns ${params.join(' ')} seed ${seed} did not verify`));
      resolve(s.metrics.mbPerSecPerNode);
    });
  });
}

/** Runs all, PARALLEL at a time, keeping their order. */
async function runAll(runs: Run[]): Promise<number[]> {
  const out = new Array<number>(runs.length);
  let next = 0;
  const worker = async () => {
    while (next < runs.length) {
      const i = next++;
      out[i] = await runChild(runs[i]);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return out;
}

function stats(v: number[]): { mean: number; sd: number } {
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  const sd = v.length < 2 ? 0 : Math.sqrt(v.reduce((a, b) => a + (b - mean) ** 2, 0) / (v.length - 1));
  return { mean, sd };
}

const show = (s: { mean: number; sd: number }) => `${fmt2.format(s.mean)} MB/s (sd ${s.sd.toFixed(3)})`;

export async function chapter7Bench(): Promise<void> {
  // Fig. 7-6: one transpose (64 shifts) per block size.
  const sizes = [1024, 4096];
  const policies = ['none', 'each', 'optimized'];
  const fig76 = await runAll(sizes.flatMap((b) => policies.map((policy) => ({ params: ['pattern=transpose', `blockBytes=${b}`, `barriers=${policy}`], seed: 1 }))));
  printRows(
    'Thesis Fig. 7-6: transpose (64 cyclic shifts) on a 64-node CM-5, MB/s per node',
    sizes.flatMap((b, i) => {
      const [none, each, optimized] = fig76.slice(3 * i, 3 * i + 3);
      return [
        [`${b} B, no barriers`, `${fmt2.format(none)}`],
        [`${b} B, barrier after each shift`, `${fmt2.format(each)}`],
        [`${b} B, optimized barriers (eq. 52)`, `${fmt2.format(optimized)}`],
        [`${b} B, barriers / none`, `${fmt2.format(each / none)}x  (thesis 2-3x; target >= 2x)`],
      ] as [string, string][];
    }),
  );

  // Fig. 7-8: bandwidth matching on 8 KB transposes of 32 shifts, over seeds.
  const seeds = [1, 2, 3];
  const variants = [
    ['no barriers, no delay', 'barriers=none', 'bwMatch=false'],
    ['no barriers, delay 28', 'barriers=none', 'bwMatch=true'],
    ['barriers, no delay', 'barriers=each', 'bwMatch=false'],
    ['barriers, delay 28', 'barriers=each', 'bwMatch=true'],
    ['barriers, delay 28, poll once', 'barriers=each', 'bwMatch=true', 'poll=once'],
  ];
  const fig78 = await runAll(
    variants.flatMap(([, ...p]) => seeds.map((seed) => ({ params: ['pattern=transpose', 'blockBytes=8192', 'rounds=32', ...p], seed }))),
  );
  const s78 = variants.map((_, i) => stats(fig78.slice(3 * i, 3 * i + 3)));
  printRows('Thesis Fig. 7-8: bandwidth matching, 8 KB transposes of 32 shifts, 64-node CM-5 (3 seeds)', [
    ...variants.map(([label], i) => [label, show(s78[i])] as [string, string]),
    ['gain of the delay, no barriers', `${fmt2.format((s78[1].mean / s78[0].mean - 1) * 100)}%, sd x${fmt2.format(s78[1].sd / Math.max(s78[0].sd, 1e-9))}  (thesis +25%, sd / 50; target >= +15%, smaller sd)`],
    ['gain of the delay, barriers', `${fmt2.format((s78[3].mean / s78[2].mean - 1) * 100)}%, sd x${fmt2.format(s78[3].sd / Math.max(s78[2].sd, 1e-9))}`],
  ]);

  // Fig. 7-9: interleaving (asynchronous transfers, 8 queued at a time) vs one block at a time.
  const patterns = [
    ['random targets', 'pattern=random'],
    ['transpose', 'pattern=transpose'],
  ];
  const fig79 = await runAll(
    patterns.flatMap(([, p]) =>
      ['sync', 'async'].flatMap((t) => seeds.map((seed) => ({ params: [p, 'blockBytes=4096', 'rounds=64', `transfer=${t}`], seed }))),
    ),
  );
  printRows(
    'Thesis Fig. 7-9: packet interleaving, 4 KB blocks, 64 rounds, no barriers, 64-node CM-5 (3 seeds)',
    patterns.flatMap(([label], i) => {
      const sync = stats(fig79.slice(6 * i, 6 * i + 3));
      const async = stats(fig79.slice(6 * i + 3, 6 * i + 6));
      const thesis = i === 0 ? '1.8x; target >= 1.5x' : '2.1x';
      return [
        [`${label}, synchronous`, show(sync)],
        [`${label}, asynchronous`, show(async)],
        [`${label}, async / sync`, `${fmt2.format(async.mean / sync.mean)}x  (thesis ${thesis})`],
      ] as [string, string][];
    }),
  );
}
