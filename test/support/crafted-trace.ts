/**
 * Test helper: real traces (radix sorts on the CM-5), and a trace with its header
 * edited — the crafted files a trace reader must treat as data.
 */
import radixSortApp from '../../apps/radix-sort/index.ts';
import { runApp } from '../../src/runtime/run-app.ts';
import { runConfig } from '../../src/runtime/run-config.ts';
import { MAGIC, traceHeader } from '../../src/trace/format.ts';
import { MemoryTraceOutput, TraceWriter } from '../../src/trace/writer.ts';
import { loadTestPlatform } from './platforms.ts';

/** The bytes of a finished trace of a radix sort on the CM-5 (4-bit digits; states 0-10 used). */
export function radixSortTrace(nodes: number, keys: number, keyBits: number): Uint8Array {
  const config = runConfig(loadTestPlatform('cm5'), radixSortApp, { params: [`keys=${keys}`, `keyBits=${keyBits}`, 'digitBits=4'], nodes, seed: 1, network: 'packet' });
  const { platform, params } = config;
  const output = new MemoryTraceOutput();
  const writer = new TraceWriter(traceHeader({ simulatorVersion: 'test', platform, nodes, network: 'packet', app: radixSortApp, params, seed: 1, networkCounters: false }), output);
  const s = runApp({ ...config, trace: writer });
  writer.finish(s.fingerprint, s.simulatedCycles);
  return output.bytes();
}

/** A small real trace: 4 nodes, 50 keys of 16 bits. */
export const smallTrace = (): Uint8Array => radixSortTrace(4, 50, 16);

/** `trace` with its header replaced by what `edit` makes of the parsed one; the records stay. */
export function withHeader(trace: Uint8Array, edit: (header: Record<string, any>) => void): Buffer {
  const bytes = Buffer.from(trace);
  const end = bytes.indexOf(0x0a, MAGIC.length);
  const header = JSON.parse(bytes.subarray(MAGIC.length, end).toString('utf8')) as Record<string, any>;
  edit(header);
  return Buffer.concat([Buffer.from(MAGIC), Buffer.from(JSON.stringify(header)), bytes.subarray(end)]);
}

/** A state name that runs script if it ever reaches HTML as markup. */
export const SCRIPT_NAME = `<img src=x onerror="document.title='PWNED'">"'&`;
