/**
 * An app's content hash (src/cli/app-hash.ts) covers the modules it imports from other
 * folders: apps/sample-sort imports ../radix-sort/radix.ts, whose edits changed no hash
 * (a replay diverged without its note; a resumed sweep took stale results as current).
 */
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
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

  // An import without its extension, or of a folder, was not followed: its edits left the hash as it was.
  it('follows an import written without its extension, and one of a folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sim-app-hash-'));
    mkdirSync(join(dir, 'app'));
    mkdirSync(join(dir, 'lib', 'deep'), { recursive: true });
    writeFileSync(join(dir, 'app', 'index.ts'), "import { K } from '../lib/helper';\nimport { D } from '../lib/deep';\nexport default K + D;\n");
    writeFileSync(join(dir, 'lib', 'helper.ts'), 'export const K = 1;\n');
    writeFileSync(join(dir, 'lib', 'deep', 'index.ts'), 'export const D = 2;\n');
    const entry = join(dir, 'app', 'index.ts');
    const before = appContentHash(entry);
    appendFileSync(join(dir, 'lib', 'helper.ts'), '// edited\n');
    const afterHelper = appContentHash(entry);
    expect(afterHelper).not.toBe(before);
    appendFileSync(join(dir, 'lib', 'deep', 'index.ts'), '// edited\n');
    expect(appContentHash(entry)).not.toBe(afterHelper);
  });

  // Through a link to the checkout, the runtime the app imports was hashed as the app's: another hash, "changed since the recording".
  it('is the same reached through a link to the checkout', () => {
    const link = join(mkdtempSync(join(tmpdir(), 'sim-app-hash-link-')), 'checkout');
    symlinkSync(ROOT, link);
    expect(appContentHash(join(link, 'apps', 'sample-sort', 'index.ts'))).toBe(appContentHash(join(ROOT, 'apps', 'sample-sort', 'index.ts')));
  });
});
