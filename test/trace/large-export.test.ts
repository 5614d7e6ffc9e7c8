/**
 * `sim export` of a long run's trace: its Perfetto JSON is more text than one
 * JavaScript string holds (2^29 characters). A 10 MB trace of a 4-second ping-pong
 * run on 256 nodes with --trace-messages exported to 563 MB, and sim export stopped
 * with "internal error: RangeError: Invalid string length" (exit 1, a stack trace).
 * And a trace too large to hold: sim graph of 50 million messages (350 MB) ended in
 * Node's "FATAL ERROR: ... JavaScript heap out of memory" and a native stack (signal
 * 6) after 31 s; here the same with 3 million messages and a 256 MB heap.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAGIC, TAG_END, TAG_MESSAGE } from '../../src/trace/format.ts';
import { perfettoJson, toPerfetto } from '../../src/trace/perfetto.ts';
import { readTrace } from '../../src/trace/reader.ts';
import { ROOT, sim } from '../support/sim-cli.ts';
import { start, waitFor } from '../support/servers.ts';

const dir = mkdtempSync(join(tmpdir(), 'sim-large-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A real run's trace with messages: 4 nodes of ping-pong on the CM-5. */
async function pingPongTrace(): Promise<string> {
  const file = join(dir, 'ping-pong.trace');
  const r = await sim(['--platform', 'cm5', 'apps/ping-pong', '--nodes', '4', '--param', 'rounds=3', '--trace', file, '--trace-messages']);
  expect(r.code).toBe(0);
  return file;
}

/**
 * `trace`'s magic and header, then `count` messages between its 4 nodes (the record a
 * run writes for each message taken from the network) and the END record: the
 * messages of a long run, without running it for seconds.
 */
function withMessages(trace: Buffer, count: number): Buffer {
  const headerEnd = trace.indexOf(0x0a, MAGIC.length) + 1;
  const varint = (out: number[], v: number) => {
    for (; v >= 0x80; v = Math.floor(v / 0x80)) out.push((v % 0x80) | 0x80);
    out.push(v);
  };
  // dst, cycles since dst's last message, src, latency: 1 + 1 + 2 + 1 + 2 bytes.
  const records = Buffer.alloc(count * 7);
  const one: number[] = [];
  for (let i = 0, at = 0; i < count; i++) {
    one.length = 0;
    one.push(TAG_MESSAGE);
    varint(one, i % 4);
    varint(one, 1000);
    varint(one, (i + 1) % 4);
    varint(one, 300);
    for (const b of one) records[at++] = b;
  }
  const end: number[] = [TAG_END];
  varint(end, count);
  varint(end, 1000 * Math.ceil(count / 4) + 1);
  return Buffer.concat([trace.subarray(0, headerEnd), records, Buffer.from(end)]);
}

describe('sim export of a long run', () => {
  it('writes the same JSON as the whole object gives, in pieces', async () => {
    const file = await pingPongTrace();
    const trace = readTrace(readFileSync(file), file);
    expect(trace.messages.length).toBeGreaterThan(0);
    expect([...perfettoJson(trace)].join('')).toBe(JSON.stringify(toPerfetto(trace)));
    const out = join(dir, 'p.json');
    const r = await sim(['export', '--format', 'perfetto', file, '-o', out]);
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(JSON.stringify(toPerfetto(trace)));
  });

  it('whose JSON is more than a string holds: 1.3 million messages, 560 MB of JSON, exit 0', async () => {
    const big = join(dir, 'big.trace');
    writeFileSync(big, withMessages(readFileSync(await pingPongTrace()), 1_300_000));
    const r = await sim(['export', '--format', 'perfetto', big, '-o', '/dev/null']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('sim export: wrote /dev/null (perfetto; open it in ui.perfetto.dev or chrome://tracing)\n');
  }, 20_000);

  // The export held the thread from start to end: Ctrl-C killed it there (exit 130,
  // nothing said) and left its temporary file, up to 100 MB of half a JSON document.
  it.each(['SIGINT', 'SIGTERM'] as const)('stopped by %s part-way, says so, leaves no file and exits 130 / 143', async (signal) => {
    const big = join(dir, `stopped-${signal}.trace`);
    writeFileSync(big, withMessages(readFileSync(await pingPongTrace()), 1_300_000));
    const outDir = join(dir, `out-${signal}`);
    mkdirSync(outDir);
    const out = join(outDir, 'p.json');
    const c = start(process.execPath, [join(ROOT, 'bin/sim.mjs'), 'export', '--format', 'perfetto', big, '-o', out]);
    await waitFor('the export to begin its file', () => readdirSync(outDir).some((f) => f.endsWith('.tmp')), 20_000, c.stderr);
    process.kill(c.pid, signal);
    expect(await c.exited).toBe(signal === 'SIGINT' ? 130 : 143);
    await c.closed;
    expect(c.stderr()).toBe(`sim export: stopped by ${signal}; ${out} was not written\n`);
    expect(readdirSync(outDir)).toEqual([]);
  }, 30_000);
});

describe('a trace too large for the heap', () => {
  const small = { NODE_OPTIONS: '--max-old-space-size=256' };

  it('is drawn by sim graph, which keeps no messages', async () => {
    const big = join(dir, 'heap.trace');
    writeFileSync(big, withMessages(readFileSync(await pingPongTrace()), 3_000_000));
    const r = await sim(['graph', big, '-o', join(dir, 'heap.svg')], undefined, small);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'heap.svg'), 'utf8')).toContain('<svg');
  }, 20_000);

  it('is refused by sim export with one line and exit 2, before the heap runs out', async () => {
    const big = join(dir, 'heap.trace');
    writeFileSync(big, withMessages(readFileSync(await pingPongTrace()), 3_000_000));
    const r = await sim(['export', '--format', 'perfetto', big, '-o', join(dir, 'heap.json')], undefined, small);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      new RegExp(`^sim: ${big.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: too large to read: by its record \\d+ \\(byte \\d+ of 21000\\d{3}\\) what is read takes \\d+ MB of memory, half of Node's heap \\(\\d+ MB\\); expected a smaller trace, or give Node more with NODE_OPTIONS=--max-old-space-size=<MB>\n$`),
    );
    expect(existsSync(join(dir, 'heap.json'))).toBe(false);
  }, 20_000);
});
