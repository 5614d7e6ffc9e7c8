import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import radixSortApp from '../../apps/radix-sort/index.ts';
import { runApp } from '../../src/runtime/run-app.ts';
import { runConfig } from '../../src/runtime/run-config.ts';
import { traceHeader } from '../../src/trace/format.ts';
import { readTrace } from '../../src/trace/reader.ts';
import { toPerfetto } from '../../src/trace/perfetto.ts';
import { congestionLevels, dominantStates, renderCongestionSvg, renderSvg } from '../../src/trace/state-graph.ts';
import { checkTraceHeader } from '../../src/trace/header-check.ts';
import { MemoryTraceOutput, TraceWriter } from '../../src/trace/writer.ts';
import { loadTestPlatform } from '../support/platforms.ts';
import { sim } from '../support/sim-cli.ts';

/** Radix sort of 28-bit keys with 4-bit digits, traced in memory (thesis Fig. 6-5's run). */
function tracedRadixSort(nodes: number, keys: number, networkCounters = false, messages = false) {
  const config = runConfig(loadTestPlatform('cm5'), radixSortApp, { params: [`keys=${keys}`, 'keyBits=28', 'digitBits=4'], nodes, seed: 1, network: 'packet' });
  const { platform, params } = config;
  const output = new MemoryTraceOutput();
  const writer = new TraceWriter(
    traceHeader({ simulatorVersion: 'test', platform, nodes, network: 'packet', app: radixSortApp, params, seed: 1, networkCounters, messages }),
    output,
  );
  const summary = runApp({ ...config, trace: writer });
  writer.finish(summary.fingerprint, summary.simulatedCycles);
  return { summary, bytes: output.bytes() };
}

describe('state traces', () => {
  it('read back what the run recorded, with the fingerprint in the header, at a few bytes per change', () => {
    const { summary, bytes } = tracedRadixSort(8, 200);
    const trace = readTrace(bytes, 'memory');
    expect(trace.header.fingerprint).toBe(summary.fingerprint);
    expect(trace.header.states.map((s) => s.name)).toEqual(['Idle', 'Busy', 'Logging', 'Qprintf', 'EmptyPrintQ', 'Broadcasting', 'Combine', 'Barrier', 'Count', 'Reorder', 'Init']);
    expect(trace.nodes).toHaveLength(8);
    for (const node of trace.nodes) {
      expect(node.states[0]).toBe(10); // Init first
      expect(node.states.filter((s) => s === 9)).toHaveLength(7); // one Reorder phase per digit
      expect(node.cycles).toEqual([...node.cycles].sort((a, b) => a - b));
    }
    const headerBytes = new TextDecoder().decode(bytes).indexOf('\n', 9) + 1;
    expect((bytes.length - headerBytes) / trace.records).toBeLessThan(6);
  });

  it('do not change the run, and the same run gives the same bytes', () => {
    const a = tracedRadixSort(8, 100);
    const b = tracedRadixSort(8, 100);
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
    const untraced = runApp(
      runConfig(loadTestPlatform('cm5'), radixSortApp, { params: ['keys=100', 'keyBits=28', 'digitBits=4'], nodes: 8, seed: 1, network: 'packet' }),
    );
    expect(untraced.fingerprint).toBe(a.summary.fingerprint);
  });

  it("the state graph of a 64-node radix sort shows initialization and seven digit phases (Fig. 6-5)", () => {
    const trace = readTrace(tracedRadixSort(64, 1000).bytes, 'memory');
    const { states, grid } = dominantStates(trace, 800);
    const reorder = states.findIndex((s) => s.name === 'Reorder');
    const init = states.findIndex((s) => s.name === 'Init');
    for (const node of [0, 31, 63]) {
      let phases = 0;
      for (let c = 0; c < grid[node].length; c++) if (grid[node][c] === reorder && (c === 0 || grid[node][c - 1] !== reorder)) phases++;
      expect(phases, `node ${node}`).toBe(7);
      expect(grid[node][0], `node ${node} starts initializing`).toBe(init);
    }
    const svg = renderSvg(trace);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('radix-sort on cm5 (64 nodes), seed 1: keys=1000 keyBits=28 digitBits=4 dist=uniform');
    expect(svg).toContain('>9 Reorder</text>');
    expect(svg).toContain('us</text>');
  });
});

// A run with a parameter's value of a megabyte wrote a trace that sim graph refused
// ("the header line is cut short or longer than 1 MB"), or of 20,000 characters, one
// whose header the reader's schema refused.
describe("a trace's header that the reader would refuse", () => {
  const header = (params: Record<string, string>) => traceHeader({ simulatorVersion: 'test', platform: { name: 'p', contentHash: 'ab'.repeat(32), clockMHz: 10 }, nodes: 2, network: 'packet', app: { name: 'a' }, params, seed: 1, networkCounters: false, messages: false });

  it('is refused before anything is written', () => {
    expect(() => checkTraceHeader(header({ s: 'x'.repeat(20_000) }))).toThrow(/^--trace: the trace's header would not read back: key "params\.s": .*\(traces\/FORMAT\.md\)$/);
    const many = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`p${i}`, 'x'.repeat(9000)]));
    expect(() => checkTraceHeader(header(many))).toThrow(/^--trace: the trace's header would take \d+ bytes \(the app's parameters and state names\), more than the 1048576 a trace's header may \(traces\/FORMAT\.md\); expected shorter parameter values$/);
    const output = new MemoryTraceOutput();
    expect(() => new TraceWriter(header(many), output)).toThrow(/more than the 1048576/);
    expect(output.bytes()).toHaveLength(0);
    expect(() => checkTraceHeader(header({ s: 'x'.repeat(9000) }))).not.toThrow();
  });
});

describe('a trace written and read back', () => {
  const write = (cut: 'interrupted' | 'limit' | null) => {
    const output = new MemoryTraceOutput();
    const header = traceHeader({ simulatorVersion: 'test', platform: { name: 'p', contentHash: 'ab'.repeat(32), clockMHz: 10 }, nodes: 2, network: 'packet', app: { name: 'a' }, params: {}, seed: 1, networkCounters: false, messages: true });
    const writer = new TraceWriter(header, output);
    writer.state(1, 40, 1);
    writer.message?.(0, 1, 5, 20);
    writer.message?.(0, 1, 25, 70);
    // The run's clock stopped before its last record's cycle: END gives the later one.
    writer.finish('abc', 60, cut);
    return readTrace(output.bytes(), 'written');
  };

  it('gives back each message of a receiver, the last cycle the records reach, the fingerprint, and why the run was cut short', () => {
    const t = write(null);
    expect(t.messages).toEqual([
      { src: 0, dst: 1, sent: 5, received: 20 },
      { src: 0, dst: 1, sent: 25, received: 70 },
    ]);
    expect([t.lastCycle, t.cutShort, t.header.fingerprint]).toEqual([70, null, '0000000000000abc']);
    expect(write('interrupted').cutShort).toBe('interrupted');
    expect(write('limit').cutShort).toBe('limit');
  });
});

describe('the time axis', () => {
  it('labels microseconds to the digits its ticks need, on a 100 GHz platform as on the CM-5', () => {
    // The schema allows clocks to 10^5 MHz: ticks 1000 cycles apart read 0, 0, 0, 0, 0.1, 0.1 us.
    const fast = { ...loadTestPlatform('cm5'), clockMHz: 100_000 };
    const config = runConfig(fast, radixSortApp, { params: ['keys=20', 'keyBits=8', 'digitBits=4'], nodes: 4, seed: 1, network: 'packet' });
    const output = new MemoryTraceOutput();
    const writer = new TraceWriter(traceHeader({ simulatorVersion: 'test', platform: fast, nodes: 4, network: 'packet', app: radixSortApp, params: config.params, seed: 1, networkCounters: false, messages: false }), output);
    const summary = runApp({ ...config, trace: writer });
    writer.finish(summary.fingerprint, summary.simulatedCycles);
    const trace = readTrace(output.bytes(), 'memory');
    const ticks = [...renderSvg(trace).matchAll(/>([\d,]+)<\/text>\s*<text [^>]*>([\d.,]+) us<\/text>/g)].map((m) => [Number(m[1].replace(/,/g, '')), m[2]]);
    expect(ticks.length).toBeGreaterThan(3);
    for (const [cycles, us] of ticks) expect(Number(us), `${cycles} cycles`).toBeCloseTo(Number(cycles) / 100_000, 12);
  });
});

describe('network counters (--trace-network)', () => {
  it('record packets in flight per destination, which rise and return to zero, and draw as Fig. 7-7', () => {
    const { bytes } = tracedRadixSort(8, 300, true);
    const trace = readTrace(bytes, 'memory');
    expect(trace.header.networkCounters).toBe(true);
    for (const node of trace.inFlight) {
      expect(node.counts.length).toBeGreaterThan(0);
      expect(node.counts.at(-1)).toBe(0);
      expect(node.cycles).toEqual([...node.cycles].sort((a, b) => a - b));
    }
    const { grid, max } = congestionLevels(trace, 200);
    expect(max).toBeGreaterThan(1);
    expect(grid.some((row) => row.some((level) => level > 0))).toBe(true);
    expect(renderCongestionSvg(trace)).toContain('Packets in flight to each processor: radix-sort on cm5 (8 nodes)');
  });

  it('are not recorded unless asked for', () => {
    const trace = readTrace(tracedRadixSort(4, 50).bytes, 'memory');
    expect(trace.header.networkCounters).toBe(false);
    expect(trace.inFlight.every((n) => n.counts.length === 0)).toBe(true);
  });
});

describe('messages (--trace-messages)', () => {
  it('record every message taken from the network, and export as flow arrows', () => {
    const { summary, bytes } = tracedRadixSort(4, 80, false, true);
    const trace = readTrace(bytes, 'memory');
    expect(trace.messages).toHaveLength(summary.packetsSent);
    for (const m of trace.messages) {
      expect(m.received).toBeGreaterThan(m.sent);
      expect(m.src).not.toBe(m.dst); // radix sort copies the keys that stay; only others' arrive
    }
    const flows = toPerfetto(trace).traceEvents.filter((e) => e.cat === 'message' && (e.ph === 's' || e.ph === 'f'));
    expect(flows).toHaveLength(2 * trace.messages.length);
    const starts = new Map(flows.filter((e) => e.ph === 's').map((e) => [e.id, e]));
    for (const f of flows.filter((e) => e.ph === 'f')) expect(starts.get(f.id)!.ts!).toBeLessThan(f.ts!);
  });
});

describe('Perfetto export', () => {
  it('gives one named track per node and each state as a slice in microseconds, never overlapping', () => {
    const trace = readTrace(tracedRadixSort(4, 50).bytes, 'memory');
    const out = toPerfetto(trace);
    const names = out.traceEvents.filter((e) => e.name === 'thread_name').map((e) => e.args?.name);
    expect(names).toEqual(['node 0', 'node 1', 'node 2', 'node 3']);
    const slices = out.traceEvents.filter((e) => e.ph === 'X');
    expect(new Set(slices.map((e) => e.name))).toEqual(new Set(['Init', 'Count', 'Reorder', 'Combine', 'Barrier']));
    for (let tid = 0; tid < 4; tid++) {
      const mine = slices.filter((e) => e.tid === tid);
      for (let i = 1; i < mine.length; i++) expect(mine[i].ts!).toBeGreaterThanOrEqual(mine[i - 1].ts! + mine[i - 1].dur! - 1e-9);
      expect(mine.every((e) => e.dur! > 0 && e.ts! >= 0)).toBe(true);
    }
    // Cycles become microseconds at the platform's 33 MHz.
    const first = slices[0];
    expect(first.ts!).toBeCloseTo((first.args!.cycle as number) / 33, 9);
    expect(out.otherData.fingerprint).toBe(trace.header.fingerprint);
  });
});

describe('sim --trace and sim graph', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sim-trace-'));

  it('write byte-identical traces from two processes and draw them', async () => {
    const args = ['--platform', 'alewife', 'apps/stencil', '--nodes', '16', '--param', 'iters=3'];
    const [a, b] = await Promise.all([sim([...args, '--trace', join(dir, 'a.trace')]), sim([...args, '--trace', join(dir, 'b.trace')])]);
    expect(a.code + b.code).toBe(0);
    expect(readFileSync(join(dir, 'a.trace')).equals(readFileSync(join(dir, 'b.trace')))).toBe(true);
    const g = await sim(['graph', join(dir, 'a.trace'), '-o', join(dir, 'a.svg')]);
    expect(g.stderr).toBe('');
    expect(g.code).toBe(0);
    expect(readFileSync(join(dir, 'a.svg'), 'utf8')).toContain('stencil on alewife (16 nodes), seed 1');
  });

  it.each([
    ['a truncated trace', (t: Buffer) => t.subarray(0, t.length - 3), /: truncated: /],
    ['a file that is not a trace', () => Buffer.from('hello\n'), /: not a trace file \(expected it to start with "PSTRACE1"\)$/],
    ['a repro file', () => Buffer.from(JSON.stringify({ format: 'proteus-strata-repro', version: 1 }, null, 2)), /: a repro file \(written by --record\), not a trace: sim replay runs it again; sim graph and sim export read the file --trace writes$/],
    ['a corrupt header', (t: Buffer) => Buffer.concat([t.subarray(0, 12), Buffer.from('}\n')]), /: the header is not valid JSON/],
  ])('refuse %s with one line and exit 2', async (_what, spoil, message) => {
    const good = join(dir, 'good.trace');
    await sim(['--platform', 'cm5', 'apps/ping-pong', '--nodes', '2', '--param', 'rounds=1', '--trace', good]);
    const bad = join(dir, 'bad.trace');
    writeFileSync(bad, spoil(readFileSync(good)));
    const r = await sim(['graph', bad, '-o', join(dir, 'bad.svg')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr.trimEnd()).toMatch(message);
  });

  it('sim export --format perfetto writes trace-event JSON', async () => {
    const t = join(dir, 'p.trace');
    await sim(['--platform', 'cm5', 'apps/ping-pong', '--nodes', '4', '--param', 'rounds=2', '--trace', t]);
    const r = await sim(['export', '--format', 'perfetto', t, '-o', join(dir, 'p.json')]);
    expect(r.code).toBe(0);
    const json = JSON.parse(readFileSync(join(dir, 'p.json'), 'utf8'));
    expect(json.traceEvents.filter((e: { name: string }) => e.name === 'thread_name')).toHaveLength(4);
    const bad = await sim(['export', '--format', 'csv', t, '-o', join(dir, 'p.csv')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('sim export: --format csv: expected --format perfetto\n');
    // Any name was taken (the help says <file.json>); a device stays fine.
    const named = await sim(['export', '--format', 'perfetto', t, '-o', join(dir, 'p.txt')]);
    expect(named.code).toBe(2);
    expect(named.stderr).toBe(`sim: -o ${join(dir, 'p.txt')}: expected a file name ending in .json (the export is trace-event JSON), or a device such as /dev/stdout\n`);
    expect((await sim(['export', '--format', 'perfetto', t, '-o', '/dev/null'])).code).toBe(0);
  });

  it('sim graph --kind congestion needs a trace with network counters', async () => {
    const plain = join(dir, 'plain.trace');
    await sim(['--platform', 'cm5', 'apps/ping-pong', '--nodes', '4', '--param', 'rounds=2', '--trace', plain]);
    const refused = await sim(['graph', plain, '-o', join(dir, 'c.svg'), '--kind', 'congestion']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/has no network counters; record them with --trace-network/);
    const counted = join(dir, 'counted.trace');
    await sim(['--platform', 'cm5', 'apps/ping-pong', '--nodes', '4', '--param', 'rounds=2', '--trace', counted, '--trace-network']);
    const drawn = await sim(['graph', counted, '-o', join(dir, 'c.svg'), '--kind', 'congestion']);
    expect(drawn.code).toBe(0);
  });

  it('refuses a graph file name that is not .svg', async () => {
    const r = await sim(['graph', 'x.trace', '-o', 'x.png']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('sim: -o x.png: expected a file name ending in .svg or .html, or a device such as /dev/stdout (which gets the SVG)\n');
  });
});
