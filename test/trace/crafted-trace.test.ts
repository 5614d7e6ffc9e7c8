/**
 * Traces are files from outside: a crafted header is refused with one line before
 * anything is allocated from it, and names that reach SVG or HTML are text, never
 * markup (issue 23 item 5; edges cases 147-154 and 160).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TAG_END, TAG_END_CUT, TAG_IN_FLIGHT, TAG_MESSAGE, TAG_STATE } from '../../src/trace/format.ts';
import { readTrace } from '../../src/trace/reader.ts';
import { renderHtml } from '../../src/trace/html-graph.ts';
import { toPerfetto } from '../../src/trace/perfetto.ts';
import { congestionLevels, dominantStates, renderCongestionSvg, renderSvg } from '../../src/trace/state-graph.ts';
import { SCRIPT_NAME, smallTrace, withHeader } from '../support/crafted-trace.ts';
import { sim } from '../support/sim-cli.ts';

const good = smallTrace();
const dir = mkdtempSync(join(tmpdir(), 'sim-crafted-trace-'));

describe('a crafted trace header', () => {
  it.each([
    ['claims 10^9 nodes', (h: Record<string, any>) => (h.nodes = 1e9), /bad header: key "nodes": expected number to be <=4096, got 1000000000$/],
    ['lists states as bare numbers', (h: Record<string, any>) => (h.states = [1, 2, 3]), /bad header: key "states\.0": expected object, received number, got 1$/],
    ['has no clock', (h: Record<string, any>) => delete h.clockMHz, /bad header: key "clockMHz": missing \(expected number\)$/],
    ['has a negative clock', (h: Record<string, any>) => (h.clockMHz = -33), /bad header: key "clockMHz": expected number to be >=0.1, got -33$/],
    ['has a zero clock', (h: Record<string, any>) => (h.clockMHz = 0), /key "clockMHz": expected number to be >=0.1, got 0$/],
    // Drawn, with axis labels of 300 digits ("100,000,000,...,000 us"): no platform runs that slow.
    ['has a clock of 1e-300 MHz', (h: Record<string, any>) => (h.clockMHz = 1e-300), /key "clockMHz": expected number to be >=0.1, got 1e-300$/],
    ['has a clock of 1e300 MHz', (h: Record<string, any>) => (h.clockMHz = 1e300), /key "clockMHz": expected number to be <=100000, got 1e\+300$/],
    ['gives a colour that is markup', (h: Record<string, any>) => (h.states[1].color = 'red"/><script>alert(2)</script>'), /key "states\.1\.color": expected a colour written #rrggbb, got "red\\"\/><script>/],
    ['gives a state id twice', (h: Record<string, any>) => (h.states[9].id = 8), /key "states": expected every state id once/],
    // Read, then sim graph crashed: "Cannot read properties of undefined (reading 'replace')".
    ['lists no states', (h: Record<string, any>) => (h.states = []), /bad header: key "states": no state of id 0; expected one \(every node is in state 0 before its first record\)$/],
    ['is of another format version', (h: Record<string, any>) => (h.version = 999), /: trace format version 999; this simulator reads version \d+$/],
    // Each of these was read (a string version as "version 1; this simulator reads version 1", a missing one as "version undefined").
    ['gives its version as a string', (h: Record<string, any>) => (h.version = '1'), /: bad header: key "version": expected the number 1, got "1"$/],
    ['gives no version', (h: Record<string, any>) => delete h.version, /: bad header: key "version": missing \(expected 1\)$/],
    ['names a network there is not', (h: Record<string, any>) => (h.network = 'quantum'), /bad header: key "network": expected one of "packet"\|"analytic", got "quantum"$/],
    ['gives a platform hash that is not one', (h: Record<string, any>) => (h.platformHash = 'nothex'), /bad header: key "platformHash": expected the 64 hex digits of the platform file's SHA-256, got "nothex"$/],
    ['names a state with nothing', (h: Record<string, any>) => (h.states[1].name = ''), /bad header: key "states\.1\.name": expected string to have >=1 characters, got ""$/],
    ['names a state over two lines', (h: Record<string, any>) => (h.states[1].name = 'a\nb'), /bad header: key "states\.1\.name": expected one line, without control characters .*, got "a\\nb"$/],
    ['gives a state a key of its own', (h: Record<string, any>) => (h.states[7].x = 1), /bad header: key "states\.7": unknown key "x"; expected only the keys traces\/FORMAT\.md gives it$/],
    ['lists 5000 states', (h: Record<string, any>) => (h.states = Array.from({ length: 5000 }, (_, id) => ({ id, name: 's', color: '#000000' }))), /key "states": expected array to have <=1024 items/],
  ])('that %s is refused by sim graph and sim export with one line and exit 2', async (_what, edit, message) => {
    const file = join(dir, `${_what.replace(/\W+/g, '-')}.trace`);
    writeFileSync(file, withHeader(good, edit));
    expect(() => readTrace(readFileSync(file), file)).toThrow(message);
    for (const args of [['graph', file, '-o', join(dir, 'x.svg')], ['export', '--format', 'perfetto', file, '-o', join(dir, 'x.json')]]) {
      const r = await sim(args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr.trimEnd()).toMatch(message);
    }
  }, 30_000);
});

describe('crafted trace records', () => {
  /** The good trace's magic and header lines (saying it has messages and network counters), then `records` (a tag and its numbers each) and an END record. */
  const withRecords = (records: number[][], lastCycle: number, edit = (h: Record<string, any>) => Object.assign(h, { messages: true, networkCounters: true })): Buffer => {
    const head = withHeader(good, edit);
    const bytes: number[] = [...head.subarray(0, head.indexOf(0x0a, head.indexOf(0x0a) + 1) + 1)];
    const varint = (v: number) => {
      for (; v >= 0x80; v = Math.floor(v / 0x80)) bytes.push((v % 0x80) | 0x80);
      bytes.push(v);
    };
    for (const [tag, ...values] of records) {
      bytes.push(tag);
      values.forEach(varint);
    }
    bytes.push(TAG_END);
    [records.length, lastCycle].forEach(varint);
    return Buffer.from(bytes);
  };

  it('read when they hold what a run writes', () => {
    expect(readTrace(withRecords([[TAG_STATE, 0, 10, 1], [TAG_STATE, 0, 5, 200]], 20), 'ok').nodes[0]).toEqual({ cycles: [10, 15], states: [1, 200] });
  });

  it('read at the edges of what a run writes: the last node, state 255, a message sent at cycle 0', () => {
    const t = readTrace(withRecords([[TAG_STATE, 3, 10, 255], [TAG_IN_FLIGHT, 3, 12, 2], [TAG_MESSAGE, 3, 10, 2, 10]], 20), 'edges');
    expect(t.nodes[3]).toEqual({ cycles: [10], states: [255] });
    expect(t.inFlight[3]).toEqual({ cycles: [12], counts: [2] });
    expect(t.messages).toEqual([{ src: 2, dst: 3, sent: 0, received: 10 }]);
    expect(t.cutShort).toBeNull();
  });

  it('are exported and drawn as the run went: the last state to the run\'s end, a message from its sender to its receiver, in microseconds', () => {
    const t = readTrace(withRecords([[TAG_STATE, 0, 10, 1], [TAG_MESSAGE, 3, 30, 2, 10]], 50), 'flows');
    const us = (cycles: number) => cycles / t.header.clockMHz;
    const events = toPerfetto(t).traceEvents;
    expect(events.filter((e) => e.cat === 'state').map((e) => [e.tid, e.ts, e.dur, e.args?.state])).toEqual([[0, us(10), us(40), 1]]);
    expect(events.filter((e) => e.cat === 'message').map((e) => [e.name, e.ph, e.tid, e.ts])).toEqual([
      ['send', 'X', 2, us(20)],
      ['message', 's', 2, us(20)],
      ['receive', 'X', 3, us(30)],
      ['message', 'f', 3, us(30)],
    ]);
    // Five columns of 10 cycles: idle, then state 1 to the end.
    const one = t.header.states.findIndex((st) => st.id === 1);
    expect([...dominantStates(t, 5).grid[0]]).toEqual([0, one, one, one, one]);
  });

  it('draw one packet in flight darker than none, however many another node has', () => {
    const t = readTrace(withRecords([[TAG_IN_FLIGHT, 0, 10, 1], [TAG_IN_FLIGHT, 1, 0, 20]], 50), 'congestion');
    const { grid, max } = congestionLevels(t, 5);
    expect(max).toBe(20);
    expect(grid.slice(0, 2).map((row) => [...row])).toEqual([
      [0, 1, 1, 1, 1],
      [0, 8, 8, 8, 8],
    ]);
  });

  it.each([
    // Each was drawn as it came.
    ['a state setState cannot set', [[TAG_STATE, 0, 10, 300]], /corrupt: node 0 enters state 300; states are 0 to 255$/],
    ['the state one past the last', [[TAG_STATE, 0, 10, 256]], /corrupt: node 0 enters state 256; states are 0 to 255$/],
    ['a cycle past 2^53', [[TAG_STATE, 0, 2 ** 54, 1]], /corrupt: node 0's state record at cycle 18014398509481984, past 2\^53$/],
    ['a message sent before cycle 0', [[TAG_MESSAGE, 1, 10, 0, 50]], /corrupt: a message received at cycle 10 after 50 cycles in the network, sent before cycle 0$/],
    // The good trace has 4 nodes: node 4 is past the last.
    ['a state record for a node past the last', [[TAG_STATE, 4, 10, 1]], /^crafted: corrupt: a record for node 4 of 4$/],
    ['an in-flight count for a node past the last', [[TAG_IN_FLIGHT, 4, 10, 1]], /^crafted: corrupt: a record for node 4 of 4$/],
    ['a message to a node past the last', [[TAG_MESSAGE, 4, 10, 1, 5]], /^crafted: corrupt: a message between nodes 1 and 4 of 4$/],
    ['a message from a node past the last', [[TAG_MESSAGE, 1, 10, 4, 5]], /^crafted: corrupt: a message between nodes 4 and 1 of 4$/],
    // Taken, and the HTML congestion graph's 32-bit counts made it 0.
    ['2^40 packets in flight', [[TAG_IN_FLIGHT, 0, 10, 2 ** 40]], /^crafted: corrupt: 1099511627776 packets in flight to node 0; expected at most 2147483647$/],
    // Records past END's cycle were taken and drawn nowhere.
    ['a state past the END\'s cycle', [[TAG_STATE, 0, 500, 1]], /^crafted: corrupt: END gives the run's last cycle as 100, before cycle 500, which a record before it reaches$/],
    ['a message past the END\'s cycle', [[TAG_MESSAGE, 1, 150, 0, 5]], /^crafted: corrupt: END gives the run's last cycle as 100, before cycle 150/],
  ])('refuse %s with one line', (_what, records, message) => {
    expect(() => readTrace(withRecords(records, 100), 'crafted')).toThrow(message);
  });

  // Bytes that are not UTF-8 in the header became U+FFFD in the app's name, and the file was drawn.
  it('refuse a header that is not UTF-8', () => {
    const bytes = withRecords([[TAG_STATE, 0, 10, 1]], 100);
    const at = bytes.indexOf(Buffer.from('"app":"')) + 7;
    bytes[at] = 0xff;
    expect(() => readTrace(bytes, 'crafted')).toThrow(/^crafted: the header is not valid UTF-8; expected one line of UTF-8 JSON$/);
  });

  it.each([
    // sim export drew the messages of a header without them, and sim graph --kind congestion said it "has no network counters".
    ['a MESSAGE record', 'messages', [TAG_MESSAGE, 1, 10, 0, 5], 'a MESSAGE record at byte \\d+, but the header\'s "messages" is false \\(the run was not traced with --trace-messages\\)'],
    ['an IN_FLIGHT record', 'networkCounters', [TAG_IN_FLIGHT, 1, 10, 1], 'an IN_FLIGHT record at byte \\d+, but the header\'s "networkCounters" is false \\(the run was not traced with --trace-network\\)'],
  ])('refuse %s that the header says the trace has none of', async (_what, key, record, message) => {
    const records = [[TAG_STATE, 0, 10, 1], record];
    expect(readTrace(withRecords(records, 100), 'crafted').records).toBe(2);
    const file = join(dir, `no-${key}.trace`);
    writeFileSync(file, withRecords(records, 100, (h) => Object.assign(h, { messages: true, networkCounters: true, [key]: false })));
    expect(() => readTrace(readFileSync(file), file)).toThrow(new RegExp(`: corrupt: ${message}; expected no such record, or "${key}": true$`));
    const r = await sim(['export', '--format', 'perfetto', file, '-o', join(dir, 'x.json')]);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(new RegExp(`^sim: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: corrupt: ${message}; expected no such record, or "${key}": true\n$`));
  });

  it('refuse an END_CUT of an unknown reason, and bytes after the END; read the reasons there are', () => {
    const cut = (reason: number) => {
      const bytes = withRecords([[TAG_STATE, 0, 10, 1]], 20);
      bytes[bytes.length - 3] = TAG_END_CUT; // END, 1 record, cycle 20: END_CUT takes a reason after them
      return Buffer.concat([bytes, Buffer.from([reason])]);
    };
    expect(readTrace(cut(1), 'cut').cutShort).toBe('interrupted');
    expect(readTrace(cut(2), 'cut').cutShort).toBe('limit');
    expect(() => readTrace(cut(3), 'crafted')).toThrow(/^crafted: corrupt: END gives an unknown reason 3 for cutting the run short$/);
    expect(() => readTrace(cut(0), 'crafted')).toThrow(/^crafted: corrupt: END gives an unknown reason 0 for cutting the run short$/);
    expect(() => readTrace(Buffer.concat([withRecords([[TAG_STATE, 0, 10, 1]], 20), Buffer.from([0, 0])]), 'crafted')).toThrow(/^crafted: corrupt: 2 bytes after the END record$/);
  });

  it('refuse an END that counts other than the records before it (a record lost or added in the middle)', () => {
    const bytes = withRecords([[TAG_STATE, 0, 10, 1], [TAG_STATE, 0, 5, 2]], 20);
    bytes[bytes.length - 2] = 3; // END, 2 records, cycle 20: say 3
    expect(() => readTrace(bytes, 'crafted')).toThrow(/^crafted: corrupt: END counts 3 records, the file holds 2$/);
  });

  it('refuse an END whose last cycle is past 2^53 (it was drawn, the axis running to 2^55)', () => {
    expect(() => readTrace(withRecords([[TAG_STATE, 0, 10, 1]], 2 ** 55), 'crafted')).toThrow(/^crafted: corrupt: the END record at cycle 36028797018963970, past 2\^53$/);
  });
});

describe('a crafted header of 4096 nodes and 1024 states', () => {
  // The real trace's states first (its records use them), then made-up ones to 1024.
  const wide = (nodes: number) =>
    readTrace(
      withHeader(good, (h) => {
        h.nodes = nodes;
        h.states = [...h.states, ...Array.from({ length: 1024 - h.states.length }, (_, k) => ({ id: 100 + k, name: `s${k}`, color: '#123456' }))];
      }),
      'wide',
    );

  it('gives each pixel column the state a scan of every state gives', () => {
    const trace = wide(64);
    const { grid } = dominantStates(trace, 500);
    const count = trace.header.states.length;
    trace.nodes.forEach((node, n) => {
      // Every state's time in every column, then the first of the most.
      const time = new Float64Array(500 * count);
      const perPixel = trace.lastCycle / 500;
      const add = (from: number, to: number, state: number) => {
        const s = trace.header.states.findIndex((x) => x.id === state);
        for (let t = from, c = Math.min(499, Math.floor(from / perPixel)); t < to && c < 500; c++) {
          const e = Math.min(to, (c + 1) * perPixel);
          time[c * count + s] += e - t;
          t = e;
        }
      };
      let at = 0;
      let state = 0;
      node.cycles.forEach((cycle, i) => {
        add(at, cycle, state);
        [at, state] = [cycle, node.states[i]];
      });
      add(at, trace.lastCycle, state);
      const expected = Array.from({ length: 500 }, (_, c) => {
        let best = 0;
        for (let k = 1; k < count; k++) if (time[c * count + k] > time[c * count + best]) best = k;
        return best;
      });
      expect([...grid[n]], `node ${n}`).toEqual(expected);
    });
  });

  it('is drawn in seconds: scanning 1024 states in every column of every node took 46 s for this 45 kB file', () => {
    expect(renderSvg(wide(4096))).toContain('<svg');
  }, 10_000);
});

describe('a graph width', () => {
  it('is an integer of pixel columns from 1 to 100,000; others are one InputError line (-5 and Infinity were RangeErrors, 0 and NaN an empty picture)', () => {
    const trace = readTrace(good, 'good');
    expect(renderSvg(trace, { width: 200 })).toContain('<svg');
    for (const width of [-5, Infinity, 0, Number.NaN, 1.5, 100_001]) {
      expect(() => renderSvg(trace, { width })).toThrow(new RegExp(`^graph width ${width}: expected an integer number of pixel columns from 1 to 100000$`));
      expect(() => renderCongestionSvg(trace, { width })).toThrow(/^graph width .*: expected an integer number of pixel columns/);
    }
  });

  // Drawn past at the default width: { columns: 500 } and { widht: 500 } gave a 1000-column picture.
  it('is asked for by its name: another option is one InputError line', () => {
    const trace = readTrace(good, 'good');
    expect(() => renderSvg(trace, { columns: 500 } as never)).toThrow(/^graph option columns: unknown \(expected width\)$/);
    expect(() => renderCongestionSvg(trace, { widht: 500 } as never)).toThrow(/^graph option widht: unknown \(expected width\)$/);
  });
});

describe('state names from a trace', () => {
  const crafted = withHeader(good, (h) => {
    h.states[8].name = SCRIPT_NAME;
    h.app = '<script>alert(1)</script>';
  });

  it('go into the SVG as escaped text', () => {
    const svg = renderSvg(readTrace(crafted, 'crafted'));
    expect(svg).not.toContain('<img');
    expect(svg).not.toContain('<script');
    expect(svg).toContain('8 &lt;img src=x onerror=&quot;document.title=');
  });

  it('go into the HTML page only inside its JSON data, and the legend is built as text', () => {
    const html = renderHtml(readTrace(crafted, 'crafted'), 'states');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('innerHTML');
  });

  it('are drawn by sim graph (exit 0)', async () => {
    const file = join(dir, 'xss.trace');
    writeFileSync(file, crafted);
    for (const out of ['xss.svg', 'xss.html']) {
      const r = await sim(['graph', file, '-o', join(dir, out)]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    }
  });
});
