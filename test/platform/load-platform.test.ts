import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/kernel/errors.ts';
import { parsePlatform } from '../../src/platform/load-platform.ts';
import { packetFacts } from '../../src/platform/packets.ts';
import { editedPlatformText, loadTestPlatform, PLATFORM_NAMES, platformText } from '../support/platforms.ts';

function problem(text: string): string {
  try {
    parsePlatform(text, 'bad.json');
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return (e as Error).message;
  }
  throw new Error('expected the platform to be rejected');
}

describe('platform files', () => {
  it.each(PLATFORM_NAMES)('%s loads, with a content hash and thesis argument widths', (name) => {
    const p = loadTestPlatform(name);
    expect(p.name).toBe(name);
    expect(p.contentHash).toMatch(/^[0-9a-f]{64}$/);
    // Thesis 6.2: 4 argument words on the CM-5, 20 on the PROTEUS platforms.
    expect(p.messaging.handlerArgWords).toBe(name === 'cm5' ? 4 : 20);
    expect(p.controlNetwork === null).toBe(name !== 'cm5');
  });

  it('carries the CM-5 numbers of Appendix A Table 1 and thesis 6.1.3', () => {
    const p = loadTestPlatform('cm5');
    expect(p.controlNetwork).toMatchObject({ barrierCycles: 140, combineIntCycles: 150, combineVectorCyclesPerWord: 49, broadcastCycles: 90 });
    expect(p.messaging.sendOverheadCycles + p.messaging.pollEmptyCycles).toBe(43); // SendLeftPollBoth
    expect(2 * p.messaging.pollEmptyCycles).toBe(22); // PollBothTilEmpty
    expect(p.messaging.bandwidthMatchDelayCycles).toBe(28);
  });
});

describe('platform validation', () => {
  it('names the file and position of malformed JSON', () => {
    expect(problem('{\n  "name": "x",\n}')).toMatch(/^bad\.json: not valid JSON \(.* at line 3 column 1\)$/);
  });

  it.each([
    ['an unknown top-level key', (p: any) => (p.colour = 'red'), /^bad\.json: unknown key "colour" \(expected one of: name, title, .*\)$/],
    ['an unknown nested key', (p: any) => (p.cpu.fpuCycles = 2), /^bad\.json: unknown key "cpu\.fpuCycles" \(expected one of: intOpCycles, /],
    ['a missing key', (p: any) => delete p.messaging.pollEmptyCycles, /^bad\.json: missing key "messaging\.pollEmptyCycles" \(expected an integer\)$/],
    ['a wrong type', (p: any) => (p.clockMHz = '33'), /^bad\.json: key "clockMHz": expected a number, got "33"$/],
    ['a fraction where cycles must be whole', (p: any) => (p.messaging.sendOverheadCycles = 32.5), /key "messaging\.sendOverheadCycles": expected an integer, got 32\.5$/],
    ['an out-of-range value', (p: any) => (p.messaging.pollEmptyCycles = 0), /key "messaging\.pollEmptyCycles": expected a number >= 1, got 0$/],
    ['an unknown topology', (p: any) => (p.network.kind = 'torus'), /key "network\.kind": expected one of "fat-tree", "mesh", "switch", got "torus"$/],
    ['a key of another topology', (p: any) => (p.network.linkBytesPerCycle = 1), /unknown key "network\.linkBytesPerCycle" \(expected one of: kind, arity, /],
    ['an empty bandwidth list', (p: any) => (p.network.linkBytesPerCycleByLevel = []), /key "network\.linkBytesPerCycleByLevel": expected a list with length >= 1, got \[\]$/],
    ['a control network that is not an object', (p: any) => (p.controlNetwork = 5), /key "controlNetwork": expected an object or null, got 5$/],
    ['a bad name', (p: any) => (p.name = 'CM 5'), /key "name": expected lowercase letters, digits and dashes, got "CM 5"$/],
    // It reached the terminal in every summary and graph.
    ['a title of two lines', (p: any) => (p.title = 'CM-5\nreally'), /key "title": expected one line of text, without control characters \(a newline, a tab, an escape\), line separators or direction overrides, got "CM-5\\nreally"$/],
    // A terminal's escape as one C1 character (it reached the summary as is), and a right-to-left override.
    ['a title with a C1 control', (p: any) => (p.title = 'CM-5\u009b31m'), /key "title": expected one line of text, without control characters/],
    ['a title with a direction override', (p: any) => (p.title = 'CM-5 \u202eevil'), /key "title": expected one line of text, without control characters/],
    ['a name too long for a file name', (p: any) => (p.name = 'x'.repeat(65)), /key "name": expected a string with length <= 64, got "x+\.\.\.$/],
    ['inconsistent send costs', (p: any) => (p.messaging.sendInjectionCycles = 99), /key "messaging\.sendInjectionCycles": expected at most messaging\.sendOverheadCycles \(32\), got 99$/],
    ['more argument words than a packet holds', (p: any) => (p.messaging.handlerArgWords = 5), /key "messaging\.handlerArgWords": expected at most messaging\.packetWords - 1 \(4\), got 5$/],
    // Every block transfer then failed at its last packet: "9 argument words, but ... at most 4".
    ['a packet wider than an active message without DMA', (p: any) => (p.messaging.packetWords = 16), /key "messaging\.handlerArgWords": expected messaging\.packetWords - 1 \(15\) without DMA \(a block transfer's last packet is an active message of up to that many words\), got 4$/],
    ['tree messages too small for global operations', (p: any) => ((p.controlNetwork = null), (p.messaging.packetWords = 4), (p.messaging.handlerArgWords = 3)), /key "messaging\.handlerArgWords": expected at least 4 on a platform without a control network .*got 3$/],
    // Its packets arrived before their tails had crossed it (a 4-hop round trip of 1169 cycles
    // through a link that takes 2000 a packet; 441 on the analytic network).
    ['a fat-tree level slower than the node link', (p: any) => (p.network.linkBytesPerCycleByLevel = [0.758, 0.01]), /key "network\.linkBytesPerCycleByLevel\.1": expected at least the node link's network\.linkBytesPerCycleByLevel\.0 \(0\.758\): .*, got 0\.01$/],
    ['a default machine larger than the network', (p: any) => (p.defaultNodes = 4096, p.network.maxNodes = 64), /key "defaultNodes": expected at most network\.maxNodes \(64\), got 4096$/],
  ])('rejects %s with one line', (_what, edit, message) => {
    const text = problem(editedPlatformText('cm5', edit));
    expect(text).toMatch(message);
    expect(text).not.toContain('\n');
  });

  // Physically absurd values once hung a run with no output (issue 23, cases 94-101).
  it.each([
    ['a hop latency of 2^52 cycles', (p: any) => (p.network.hopLatencyCycles = 2 ** 52), /key "network\.hopLatencyCycles": expected a number <= 1000000, got 4503599627370496$/],
    ['a clock of 1e308 MHz', (p: any) => (p.clockMHz = 1e308), /key "clockMHz": expected a number <= 100000, got 1e\+308$/],
    ['a clock of 1e-300 MHz', (p: any) => (p.clockMHz = 1e-300), /key "clockMHz": expected a number >= 0\.1, got 1e-300$/],
    ['a link of 1e-300 bytes per cycle', (p: any) => (p.network.linkBytesPerCycleByLevel[1] = 1e-300), /key "network\.linkBytesPerCycleByLevel\.1": expected a number >= 0\.001, got 1e-300$/],
    ['a 1-cycle timer period', (p: any) => (p.timerInterrupt.periodCycles = 1), /key "timerInterrupt\.periodCycles": expected a number >= 1000, got 1$/],
    ['a timer interrupt longer than its period', (p: any) => (p.timerInterrupt = { periodCycles: 1000, cycles: 1000 }), /key "timerInterrupt\.cycles": expected at most half of timerInterrupt\.periodCycles \(500\), got 1000$/],
    ['a time slice every cycle', (p: any) => (p.timeSlice.periodCycles = 1), /key "timeSlice\.periodCycles": expected a number >= 10000, got 1$/],
    // zod's own safe-integer bound was named instead of the key's (">= -9007199254740991" for a buffer).
    ['a default machine of 1e300 nodes', (p: any) => (p.defaultNodes = 1e300), /key "defaultNodes": expected a number <= 4096, got 1e\+300$/],
    ['a buffer of -1e300 packets', (p: any) => (p.network.bufferPackets = -1e300), /key "network\.bufferPackets": expected a number >= 1, got -1e\+300$/],
    ['a time slice of 1e300 cycles per packet', (p: any) => (p.timeSlice.cyclesPerPacketPerNode = 1e300), /key "timeSlice\.cyclesPerPacketPerNode": expected a number <= 1000000, got 1e\+300$/],
  ])('refuses %s, naming the key and the range', (_what, edit, message) => {
    const text = problem(editedPlatformText('cm5', edit));
    expect(text).toMatch(message);
    expect(text).not.toContain('\n');
  });

  // one-line.ts: the C0 controls and DEL, C1, the line and paragraph separators, and the
  // direction overrides and isolates, each class at both ends; the characters beside them pass.
  it.each([
    ['NUL', '\u0000'], ['a unit separator', '\u001f'], ['DEL', '\u007f'], ['U+009F', '\u009f'],
    ['a line separator', '\u2028'], ['a paragraph separator', '\u2029'],
    ['a left-to-right embedding', '\u202a'], ['a pop directional formatting', '\u202c'], ['a left-to-right isolate', '\u2066'], ['a pop directional isolate', '\u2069'],
  ])('refuses a title with %s in it', (_what, c) => {
    expect(problem(editedPlatformText('cm5', (p) => (p.title = `CM-5${c}x`)))).toMatch(/^bad\.json: key "title": expected one line of text, without control characters/);
  });

  it('takes a title with characters beside the refused ones: a space, a no-break space, accents, dashes, U+202F and U+206A', () => {
    const title = 'CM-5 \u00a0Zürich \u2014 \u2027\u202f\u2065\u206a 33 MHz ~';
    expect(parsePlatform(editedPlatformText('cm5', (p) => (p.title = title)), 'cm5.json').title).toBe(title);
  });

  // Each cross-key rule and range at its bound: the bound itself is taken, one step past it refused.
  it.each([
    ['an injection at the end of the send', 'cm5', (p: any) => (p.messaging.sendInjectionCycles = p.messaging.sendOverheadCycles)],
    ['a timer interrupt of exactly half its period', 'cm5', (p: any) => (p.timerInterrupt = { periodCycles: 2000, cycles: 1000 })],
    ['a default machine as large as the network', 'cm5', (p: any) => (p.defaultNodes = p.network.maxNodes)],
    ['4 argument words without a control network', 'cm5', (p: any) => ((p.controlNetwork = null), (p.messaging.packetWords = 5), (p.messaging.handlerArgWords = 4))],
    ['packets wider than an active message with DMA', 'cm5', (p: any) => ((p.messaging.packetWords = 16), (p.messaging.dma = { dataWordsPerPacket: 15, sendCycles: 10, receiveCycles: 0 }))],
    ['the smallest packets, arity and level growth', 'cm5', (p: any) => ((p.messaging.packetWords = 2), (p.messaging.handlerArgWords = 1), (p.controlNetwork.barrierCycles = 16), (p.network.arity = 2), (p.network.upperLevelGrowth = 1))],
  ])('takes %s', (_what, name, edit) => {
    expect(() => parsePlatform(editedPlatformText(name as 'cm5', edit), 'edge.json')).not.toThrow();
  });

  it.each([
    ['a control-network barrier no longer than its start and query', (p: any) => (p.controlNetwork.barrierCycles = 15), /key "controlNetwork\.barrierCycles": expected more than startCycles \+ queryCycles \(15\), got 15$/],
    ['a control-network broadcast no longer than its start and query', (p: any) => (p.controlNetwork.broadcastCycles = 15), /key "controlNetwork\.broadcastCycles": expected more than startCycles \+ queryCycles \(15\), got 15$/],
    ['a packet one word wider than an active message without DMA', (p: any) => (p.messaging.packetWords = 6), /key "messaging\.handlerArgWords": expected messaging\.packetWords - 1 \(5\) without DMA/],
    ['packets of 1 word', (p: any) => (p.messaging.packetWords = 1), /key "messaging\.packetWords": expected a number >= 2, got 1$/],
    ['no argument words', (p: any) => (p.messaging.handlerArgWords = 0), /key "messaging\.handlerArgWords": expected a number >= 1, got 0$/],
    ['a network of 4097 nodes', (p: any) => (p.network.maxNodes = 4097), /key "network\.maxNodes": expected a number <= 4096, got 4097$/],
    ['a fat tree of arity 1', (p: any) => (p.network.arity = 1), /key "network\.arity": expected a number >= 2, got 1$/],
    ['upper levels that shrink', (p: any) => (p.network.upperLevelGrowth = 0.5), /key "network\.upperLevelGrowth": expected a number >= 1, got 0\.5$/],
    ['an empty title', (p: any) => (p.title = ''), /key "title": expected a string with length >= 1, got ""$/],
    ['a default machine of 0 nodes', (p: any) => (p.defaultNodes = 0), /key "defaultNodes": expected a number >= 1, got 0$/],
    ['an operation of negative cycles', (p: any) => (p.cpu.intOpCycles = -1), /key "cpu\.intOpCycles": expected a number >= 0, got -1$/],
    ['a time slice that costs nothing per packet', (p: any) => (p.timeSlice.cyclesPerPacketPerNode = 0), /key "timeSlice\.cyclesPerPacketPerNode": expected a number > 0, got 0$/],
    ['an interface latency of a fraction of a cycle', (p: any) => (p.network.interfaceLatencyCycles = 1.5), /key "network\.interfaceLatencyCycles": expected an integer, got 1\.5$/],
    ['DMA packets of no data', (p: any) => (p.messaging.dma = { dataWordsPerPacket: 0, sendCycles: 10, receiveCycles: 0 }), /key "messaging\.dma\.dataWordsPerPacket": expected a number >= 1, got 0$/],
    ['a name starting with a dash', (p: any) => (p.name = '-cm5'), /key "name": expected lowercase letters, digits and dashes, got "-cm5"$/],
  ])('refuses %s', (_what, edit, message) => {
    expect(problem(editedPlatformText('cm5', edit))).toMatch(message);
  });

  it.each([
    ['a switch serving 1 host', 'atm', (p: any) => (p.network.hostsPerSwitch = 1), /key "network\.hostsPerSwitch": expected a number >= 2, got 1$/],
    ['a mesh hop of negative cycles', 'alewife', (p: any) => (p.network.hopLatencyCycles = -1), /key "network\.hopLatencyCycles": expected a number >= 0, got -1$/],
  ])('refuses %s', (_what, name, edit, message) => {
    expect(problem(editedPlatformText(name as 'cm5', edit))).toMatch(message);
  });

  it('refuses a key given twice when one is spelled with an escape (JSON reads both as one key)', () => {
    const text = platformText('cm5').replace('"hopLatencyCycles": 7,', '"hopLatencyCycles": 7,\n    "hop\\u004catencyCycles": 9,');
    expect(problem(text)).toMatch(/^bad\.json: key "network\.hopLatencyCycles" is given twice \(lines 32 and 33\)/);
  });

  it('takes a value that reads as a key of its object (a title "name" is no second name)', () => {
    expect(parsePlatform(editedPlatformText('cm5', (p) => (p.title = 'name')), 'cm5.json').title).toBe('name');
  });

  it("says a mesh's fractional hop latency is a number, as its own schema has it (a fat tree's is an integer)", () => {
    expect(problem(editedPlatformText('alewife', (p) => (p.network.hopLatencyCycles = 'x')))).toBe('bad.json: key "network.hopLatencyCycles": expected a number, got "x"');
  });

  it("prices a DMA word at 4 bytes over a fat tree's node link, its lowest level", () => {
    const p = parsePlatform(editedPlatformText('cm5', (q) => ((q.messaging.packetWords = 16), (q.messaging.dma = { dataWordsPerPacket: 15, sendCycles: 10, receiveCycles: 3 }))), 'dma.json');
    expect(packetFacts(p)).toMatchObject({ xferWords: 15, dmaWordCycles: 4 / 0.758, dmaReceiveCycles: p.messaging.receiveOverheadCycles + 3 });
  });

  it('refuses a key given twice, naming it and both lines (JSON.parse would keep the second)', () => {
    const text = platformText('cm5').replace('"hopLatencyCycles": 7,', '"hopLatencyCycles": 7,\n    "hopLatencyCycles": 9,');
    expect(problem(text)).toMatch(/^bad\.json: key "network\.hopLatencyCycles" is given twice \(lines 32 and 33\); expected each key once$/);
    // The same name in two objects is no duplicate.
    expect(() => parsePlatform(platformText('cm5'), 'cm5.json')).not.toThrow();
  });

  it('says what a number too large for JSON and a byte-order mark are', () => {
    // 1e400 was reported as "got null" (JSON.parse reads Infinity, JSON.stringify writes null).
    expect(problem(platformText('cm5').replace(/"clockMHz": [0-9.]+/, '"clockMHz": 1e400'))).toBe('bad.json: key "clockMHz": expected a number, got a number too large for a double (read as Infinity)');
    // An invisible character, and no position: "Unexpected token '﻿'".
    expect(problem(`\ufeff${platformText('cm5')}`)).toBe('bad.json: starts with a byte-order mark (U+FEFF); expected JSON without one (save the file as UTF-8 without a BOM)');
  });

  it('rejects a file that is not an object', () => {
    expect(problem('[1, 2]')).toBe('bad.json: expected a JSON object at the top level, got [1,2]');
  });
});
