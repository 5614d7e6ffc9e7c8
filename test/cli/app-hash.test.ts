/**
 * An app's content hash (src/cli/app-hash.ts) covers the modules it imports from other
 * folders: apps/sample-sort imports ../radix-sort/radix.ts, whose edits changed no hash
 * (a replay diverged without its note; a resumed sweep took stale results as current).
 */
import { appendFileSync, cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appContentHash } from '../../src/cli/app-hash.ts';
import { ROOT } from '../support/sim-cli.ts';

describe("an app's content hash", () => {
  it('changes with a module it imports from another folder, and not with one it does not import', () => {
    const apps = mkdtempSync(join(tmpdir(), 'sim-app-hash-'));
    for (const app of ['sample-sort', 'radix-sort']) cpSync(join(ROOT, 'apps', app), join(apps, app), { recursive: true });
    const entry = join(apps, 'sample-sort', 'index.ts');
    const before = appContentHash(entry);
    // The same files elsewhere: the same hash (files are named by their paths from the entry's folder).
    expect(appContentHash(join(ROOT, 'apps', 'sample-sort', 'index.ts'))).toBe(before);
    writeFileSync(join(apps, 'unrelated.ts'), 'export const X = 1;\n');
    expect(appContentHash(entry)).toBe(before);
    appendFileSync(join(apps, 'radix-sort', 'radix.ts'), '\n// an edit\n');
    expect(appContentHash(entry)).not.toBe(before);
  });
});
