/**
 * An app edited while its sweep runs: the worker threads load it afresh, find that it
 * is not what the runs were keyed with, and refuse them, as `sim worker` does. The
 * refusal crossed the thread as an Error without its class, and the sweep stopped
 * with "internal error (a bug in the simulator)" and a stack. Here the app edits
 * itself: each load appends a comment to a module in its folder.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rootImport, sim } from '../support/sim-cli.ts';

const EDITING_APP = `import { appendFileSync } from 'node:fs';
import { defineApp } from ${rootImport('src/runtime/index.ts')};

// Each load edits the app's folder, as a user editing the app in the middle of a sweep.
appendFileSync(new URL('./loads.ts', import.meta.url), '// loaded\\n');

export default defineApp({
  name: 'editing',
  description: 'edits its own folder whenever it is loaded',
  params: { k: { type: 'int', default: 1, doc: 'nothing; several make several runs' } },
  *main(rt) {
    yield* rt.barrier();
  },
  verify: () => ({ ok: true, detail: 'ran' }),
});
`;

describe('sim sweep --workers 2 with an app edited under it', () => {
  it('refuses its runs one line each and records nothing of them, exit 1; run again, the sweep finishes', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-edited-app-'));
    mkdirSync(join(dir, 'app'));
    writeFileSync(join(dir, 'app', 'index.ts'), EDITING_APP);
    writeFileSync(join(dir, 'e.json'), JSON.stringify({ name: 'e', runs: [{ app: 'app', platform: 'cm5', nodes: 2, params: { k: [1, 2] } }] }));
    const r = await sim(['sweep', 'e.json', '--out', 'e.jsonl', '--workers', '2'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('sim sweep e: 2 runs: 0 verified, 0 unverified, 0 failed, 2 missing; ran 2, 0 already recorded; not all runs recorded yet\n');
    const lines = r.stderr.trimEnd().split('\n').sort();
    expect(lines).toHaveLength(2);
    lines.forEach((line, i) =>
      expect(line).toMatch(new RegExp(`^sim sweep: refused: run ${i} \\(run-[0-9a-f]{64}\\): this checkout's app app differs \\(sha256 [0-9a-f]{12}, the run wants [0-9a-f]{12}\\): not the files the sweep was started with \\(edited since\\?\\), so not recorded; run the sweep again$`)),
    );
    expect(readFileSync(join(dir, 'e.jsonl.part-1-of-1'), 'utf8').trimEnd().split('\n')).toHaveLength(1);
    // Started again, the sweep keys the runs with the app as it is now; in this process the app loads once.
    const again = await sim(['sweep', 'e.json', '--out', 'e.jsonl', '--workers', '1'], dir);
    expect(again.code).toBe(0);
    expect(readFileSync(join(dir, 'e.jsonl'), 'utf8').trimEnd().split('\n')).toHaveLength(1 + 2);
  });
});
