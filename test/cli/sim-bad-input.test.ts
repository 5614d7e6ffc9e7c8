import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editedPlatformText } from '../support/platforms.ts';
import { sim } from '../support/sim-cli.ts';

/** Each case: arguments, and the one line expected on stderr. */
const CASES: [string, string[], RegExp][] = [
  ['unknown platform', ['--platform', 'cray', 'apps/ping-pong'], /^sim: --platform cray: unknown platform \(expected one of: alewife, atm, cm5, paragon, or a path to a platform \.json file\)$/],
  ['missing platform file', ['--platform', 'nowhere/x.json', 'apps/ping-pong'], /^sim: --platform nowhere\/x\.json: no such file$/],
  // Both said "no such file", of paths that exist.
  ['platform path that is a folder', ['--platform', 'test/fixtures/empty-folder', 'apps/ping-pong'], /^sim: --platform test\/fixtures\/empty-folder: is a folder; expected a platform \.json file$/],
  ['platform path that is a device', ['--platform', '/dev/null', 'apps/ping-pong'], /^sim: --platform \/dev\/null: is not a regular file; expected a platform \.json file$/],
  ['malformed platform file', ['--platform', 'test/fixtures/bad-platform.json', 'apps/ping-pong'], /^sim: test\/fixtures\/bad-platform\.json: missing key "defaultNodes" \(expected an integer\)$/],
  ['no arguments at all', [], /^sim: expected a run, sim --platform <name\|file> <app> \(e\.g\. sim --platform alewife apps\/stencil\), or a command \(sim --help lists them\)$/],
  ['missing --platform', ['apps/ping-pong'], /^sim: missing --platform: expected a platform name/],
  ['missing app', ['--platform', 'cm5'], /^sim: missing app: expected sim --platform <name\|file> <app-folder\|app-file>$/],
  ['app that does not exist', ['--platform', 'cm5', 'apps/nothing'], /^sim: app apps\/nothing: no such file or folder \(here or among the simulator's apps\)$/],
  ['folder that is not an app', ['--platform', 'cm5', 'test/fixtures/empty-folder'], /^sim: app test\/fixtures\/empty-folder: the folder has no index\.ts, index\.mts, index\.js, index\.mjs \(an app folder holds one, whose default export is defineApp\(\{\.\.\.\}\)\)$/],
  ['file that is not an app', ['--platform', 'cm5', 'test/fixtures/not-an-app.ts'], /^sim: app test\/fixtures\/not-an-app\.ts: is not an app: it has no name \(expected a default export made with defineApp/],
  ['file that does not compile (with its file, line and column)', ['--platform', 'cm5', 'test/fixtures/broken-syntax.ts'], /^sim: app test\/fixtures\/broken-syntax\.ts: cannot be compiled: test\/fixtures\/broken-syntax\.ts:2:43: Expected identifier but found "\("$/],
  ['main that is not a generator function (case 71)', ['--platform', 'cm5', '--nodes', '4', 'test/fixtures/main-not-generator.ts'], /^sim: app not-generator: main must be a function\* \(a generator function, whose runtime calls are made with yield\*\); it returned number$/],
  // It failed as a run, exit 1 with a repro: "outside any node: RangeError: event delay must be ...".
  ['main that is an async function*', ['--platform', 'cm5', '--nodes', '4', 'test/fixtures/async-main.ts'], /^sim: app test\/fixtures\/async-main\.ts: its main is an async function\*; expected a function\* \(a generator function: .*\)$/],
  // It failed as a run ("app.globals is not a function"), exit 1 with a repro.
  ['globals that is not a function', ['--platform', 'cm5', '--nodes', '4', 'test/fixtures/globals-not-function.ts'], /^sim: app test\/fixtures\/globals-not-function\.ts: is not an app: its globals is number; expected a function or none$/],
  // Its failed run's repro went to ../escaped-cm5-s1.json.
  ['an app named with a path', ['--platform', 'cm5', '--nodes', '4', 'test/fixtures/bad-app-name.ts'], /^sim: app test\/fixtures\/bad-app-name\.ts: is named "\.\.\/escaped"; expected a name of letters, digits, '\.', '_' and '-', starting with a letter or digit, at most 64 characters$/],
  // It passed as verified ("verified":"yes" in --json), exit 0.
  ['verify returning a truthy ok that is not a boolean', ['--platform', 'cm5', '--nodes', '4', 'test/fixtures/verify-not-boolean.ts'], /^sim: app verify-not-boolean: verify must return \{ ok: true or false, .*; its ok is "yes", not true or false$/],
  ['top-level await that never settles (case 77)', ['--platform', 'cm5', 'test/fixtures/top-level-await.ts'], /^sim: app test\/fixtures\/top-level-await\.ts: its module never finished loading: a top-level await in it never settles$/],
  ['a stencil grid the host cannot hold (case 205)', ['--platform', 'cm5', '--nodes', '16', 'apps/stencil', '--param', 'width=65536', '--param', 'height=65536', '--param', 'iters=1'], /^sim: app stencil: a 65536 x 65536 grid has 4294967296 points; .*expected width x height at most 67108864 \(2\^26, 2 GiB\)$/],
  ['sample sort of four key values in less than 2 n\/p of room (case 209)', ['--platform', 'cm5', '--nodes', '16', 'apps/sample-sort', '--param', 'keys=200', '--param', 'dist=few', '--param', 'memory=1.5'], /^sim: app sample-sort: dist=few with memory 1\.5: .*expected memory >= 2 for dist=few$/],
  // 4096 nodes x 1,048,576 words grew to 21 GB in 107 s, then V8's heap ran out (signal 6, a native stack trace).
  // It failed at the first combine, exit 1 and a repro: "a vector combine of 524288 elements; at most 524287 here".
  ['a CombineVector longer than a combining tree takes', ['--platform', 'alewife', '--nodes', '2', 'apps/microbench', '--param', 'model=CombineVector', '--param', 'reps=1', '--param', 'length=524288'], /^sim: app microbench: CombineVector of 524288 words: this machine combines over a tree of messages, which takes vectors of at most 524287 words; expected length at most that$/],
  // V8's heap ran out after 20 s: a native abort, exit 134.
  ['a radix sort whose digit table the host cannot hold', ['--platform', 'cm5', '--nodes', '4096', 'apps/radix-sort', '--param', 'keys=1', '--param', 'digitBits=16'], /^sim: app radix-sort: digits of 16 bits on 4096 nodes scan 4096 x 2\^16 = 268435456 counters a pass; .*expected nodes x 2\^digitBits at most 67108864 \(2\^26\): narrower digits or fewer nodes$/],
  // It failed after the whole run, every seed: "sample sort found no splitters that fit in 32 passes".
  ['sample sort of 2-bit keys in less than 2 n/p of room', ['--platform', 'cm5', '--nodes', '16', 'apps/sample-sort', '--param', 'keys=100', '--param', 'keyBits=2', '--param', 'memory=1.5'], /^sim: app sample-sort: keys of 2 bits with memory 1\.5: they take at most 4 values, .*expected memory >= 2, or keys of more bits$/],
  // Both failed at the block past the port's end, exit 1 and a repro.
  ['random targets on one node past a port', ['--platform', 'cm5', '--nodes', '1', 'apps/patterns', '--param', 'pattern=random', '--param', 'rounds=4096', '--param', 'blockBytes=516'], /^sim: app patterns: 4096 blocks of 516 bytes from each sender to one target \(pattern random\) take 528384 words of the target's port; .*expected fewer rounds or bytes$/],
  ['random targets that drew more blocks for one port than it addresses', ['--platform', 'cm5', '--nodes', '2', 'apps/patterns', '--param', 'pattern=random', '--param', 'rounds=4096', '--param', 'blockBytes=1024'], /^sim: app patterns: the random targets drew \d+ blocks of 1024 bytes from node \d to node \d, \d+ words of its port; block transfers address at most 524287, so expected fewer rounds or bytes$/],
  ['a CombineVector the host cannot hold', ['--platform', 'cm5', '--nodes', '128', 'apps/microbench', '--param', 'model=CombineVector', '--param', 'length=1048576'], /^sim: app microbench: CombineVector of 1048576 words on 128 nodes is 134217728 words; .*expected nodes x length at most 67108864 \(2\^26, 2 to 4 GB\)$/],
  ['negative --seed (checked as a value)', ['--platform', 'cm5', 'apps/ping-pong', '--seed', '-1'], /^sim: --seed -1: expected an integer from 0 to 4294967295$/],
  ['platform with a key given twice (case 87)', ['--platform', 'test/fixtures/duplicate-key-platform.json', 'apps/ping-pong'], /^sim: test\/fixtures\/duplicate-key-platform\.json: key "clockMHz" is given twice \(lines 4 and 5\); expected each key once$/],
  ['platform with a hop latency of 2^52 cycles (case 94)', ['--platform', 'test/fixtures/huge-latency-platform.json', 'apps/ping-pong'], /^sim: test\/fixtures\/huge-latency-platform\.json: key "network\.hopLatencyCycles": expected a number <= 1000000, got 4503599627370496$/],
  ['non-module file', ['--platform', 'cm5', 'package.json'], /^sim: app package\.json: expected an app folder or a \.ts\/\.js module, got a \.json$/],
  ['--nodes 0', ['--platform', 'cm5', 'apps/ping-pong', '--nodes', '0'], /^sim: --nodes 0: expected a positive integer$/],
  // It "verified" 0 round trips, measuring nothing.
  ['ping-pong on one node', ['--platform', 'cm5', 'apps/ping-pong', '--nodes', '1'], /^sim: app ping-pong: round trips need a partner for node 0: expected at least 2 nodes, got 1$/],
  // It printed the version, the word passed over.
  ['--version with a word after it', ['--version', 'foo'], /^sim: --version takes nothing else; got foo$/],
  ['negative --nodes', ['--platform', 'cm5', 'apps/ping-pong', '--nodes=-4'], /^sim: --nodes -4: expected a positive integer$/],
  ['non-integer --nodes', ['--platform', 'cm5', 'apps/ping-pong', '--nodes', '2.5'], /^sim: --nodes 2\.5: expected a positive integer$/],
  ['--nodes the fat tree cannot build', ['--platform', 'cm5', 'apps/ping-pong', '--nodes', '48'], /^sim: --nodes 48: expected a power of two for a fat-tree network \(platform cm5\)$/],
  ['--nodes the mesh cannot build', ['--platform', 'alewife', 'apps/ping-pong', '--nodes', '7'], /^sim: --nodes 7: expected a near-square mesh size.*\(e\.g\. 6 or 8\) \(platform alewife\)$/],
  ['--nodes above the network size', ['--platform', 'atm', 'apps/ping-pong', '--nodes', '5000'], /^sim: --nodes 5000: expected at most 1024 nodes for this switch network \(platform atm\)$/],
  ['malformed --param', ['--platform', 'cm5', 'apps/ping-pong', '--param', 'rounds'], /^sim: --param rounds: expected key=value$/],
  ['--param with no key', ['--platform', 'cm5', 'apps/ping-pong', '--param', '=5'], /^sim: --param =5: expected key=value$/],
  ['--param with no key, and no app', ['--platform', 'cm5', '--param', '=5'], /^sim: --param =5: expected key=value \(is it the app\? --param takes the word after it\)$/],
  ['--max-cycles 0', ['--platform', 'cm5', 'apps/ping-pong', '--max-cycles', '0'], /^sim: --max-cycles 0: expected a positive integer \(e\.g\. 1000000 or 1e6\) up to 2\^53$/],
  ['--max-events 0', ['--platform', 'cm5', 'apps/ping-pong', '--max-events', '0'], /^sim: --max-events 0: expected a positive integer \(e\.g\. 1000000 or 1e6\) up to 2\^53$/],
  ['--seed past 2^32 - 1', ['--platform', 'cm5', 'apps/ping-pong', '--seed', '4294967296'], /^sim: --seed 4294967296: expected an integer from 0 to 4294967295$/],
  ['--trace-network without --trace', ['--platform', 'cm5', 'apps/ping-pong', '--trace-network'], /^sim: --trace-network: adds network counters to a trace; expected --trace <file> too$/],
  ['--trace-messages without --trace', ['--platform', 'cm5', 'apps/ping-pong', '--trace-messages'], /^sim: --trace-messages: adds messages to a trace; expected --trace <file> too$/],
  ['unknown --param', ['--platform', 'cm5', 'apps/ping-pong', '--param', 'speed=3'], /^sim: --param speed=3: app ping-pong has no parameter "speed" \(expected one of: rounds\)$/],
  ['--param of the wrong type', ['--platform', 'cm5', 'apps/ping-pong', '--param', 'rounds=many'], /^sim: --param rounds=many: expected an integer from 1 to 100000$/],
  ['--param out of range', ['--platform', 'cm5', 'apps/cshift', '--param', 'messages=0'], /^sim: --param messages=0: expected an integer from 1 to 1000000$/],
  ['bad --seed', ['--platform', 'cm5', 'apps/ping-pong', '--seed', 'abc'], /^sim: --seed abc: expected an integer from 0 to 4294967295$/],
  ['unknown --network', ['--platform', 'cm5', 'apps/ping-pong', '--network', 'wormhole'], /^sim: --network wormhole: expected packet or analytic$/],
  ['unknown option', ['--platform', 'cm5', 'apps/ping-pong', '--fast'], /^sim: unknown option --fast \(see sim --help\)$/],
  ['option without its value', ['--platform', 'cm5', 'apps/ping-pong', '--nodes'], /^sim: --nodes: expected a value$/],
  // Both said "takes no value", of options that take one: the next word was another option.
  ['option followed by another option', ['--platform', 'cm5', 'apps/ping-pong', '--trace', '--json'], /^sim: --trace: expected a value, but the next word is an option \(a value that starts with a dash is written --trace=-VALUE\)$/],
  ['short option followed by another option', ['--platform', 'cm5', '-n', '--json', 'apps/ping-pong'], /^sim: -n: expected a value, but the next word is an option \(a value that starts with a dash is written -n-VALUE\)$/],
  ['flag given a value', ['--platform', 'cm5', 'apps/ping-pong', '--json=yes'], /^sim: --json: takes no value$/],
  ['--hybrid-models without --communication', ['--platform', 'cm5', 'apps/ping-pong', '--hybrid-models', 'models'], /^sim: --hybrid-models models: the hybrid models are used only with --communication hybrid$/],
  ['--hybrid-models with --communication chain', ['--platform', 'cm5', 'apps/ping-pong', '--communication', 'chain', '--hybrid-models', 'models'], /^sim: --hybrid-models models: the hybrid models are used only with --communication hybrid$/],
  // A name with a newline, a tab or an escape split the line or steered the terminal: written as \u escapes.
  ['a --log name with a newline', ['--platform', 'cm5', 'apps/ping-pong', '--log', 'no\ndir/x.log'], /^sim: --log no\\u000adir\/x\.log: no such folder .*\/no\\u000adir; expected an existing folder$/],
  ['an app name with a tab and an escape', ['--platform', 'cm5', 'apps/x\ty\u001b[2J'], /^sim: app apps\/x\\u0009y\\u001b\[2J: no such file or folder \(here or among the simulator's apps\)$/],
  ['--param of no such key set to auto', ['--platform', 'cm5', 'apps/ping-pong', '--param', 'speed=auto'], /^sim: --param speed=auto: app ping-pong has no parameter speed \(it has: rounds\)$/],
  ['two apps', ['--platform', 'cm5', 'apps/ping-pong', 'apps/cshift'], /^sim: unexpected argument "apps\/cshift": a run takes one app$/],
];

describe.concurrent('bad input gives one line on stderr and exit code 2', () => {
  it.each(CASES)('%s', async (_name, args, message) => {
    const r = await sim(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});

describe('a platform whose buffers the simulator cannot hold', () => {
  it('is refused at the machine size asked for, in one line, before the run', async () => {
    // Each key in range (at most 2^16 packets a buffer), but 64 nodes then need 37.7 million
    // slots, made before the run: V8 died with "FATAL ERROR: invalid table size" (signal 6).
    const dir = mkdtempSync(join(tmpdir(), 'sim-deep-buffers-'));
    const file = join(dir, 'deep.json');
    writeFileSync(file, editedPlatformText('cm5', (p) => Object.assign(p.network, { bufferPackets: 65536, injectionBufferPackets: 65536, receiveBufferPackets: 65536 })));
    const r = await sim(['--platform', file, 'apps/patterns', '--nodes', '64']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'sim: network buffers of 37,748,736 packets in all on 64 nodes (2 networks x (64 nodes x (injectionBufferPackets 65536 + receiveBufferPackets 65536) + 160 router inputs x bufferPackets 65536)); expected at most 16,777,216, which the simulator holds from the start: lower the platform\'s network buffer sizes\n',
    );
    // The same file at 4 nodes fits, and runs.
    const small = await sim(['--platform', file, 'apps/patterns', '--nodes', '4']);
    expect(small.code).toBe(0);
  });
});

describe('a platform file too large to read', () => {
  it('is refused in one line', async () => {
    // 600 MB (sparse: it takes no disk) is past V8's longest string: "internal error ... Cannot create a string longer than 0x1fffffe8 characters".
    const file = join(mkdtempSync(join(tmpdir(), 'sim-huge-platform-')), 'huge.json');
    writeFileSync(file, '');
    truncateSync(file, 600 * 2 ** 20);
    const r = await sim(['--platform', file, 'apps/patterns']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`sim: --platform ${file}: cannot read the platform file (ERR_STRING_TOO_LONG)\n`);
  });
});
