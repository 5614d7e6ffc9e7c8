/**
 * The sweep layer's view of this checkout: loads platforms (by name or path) and apps
 * (folder or module) once each, with the hashes a run key names — sha256 of the
 * platform file's text and the app folder's content hash (as repro files record it).
 */
import type { AnyApp } from '../runtime/app.ts';
import type { Platform } from '../platform/schema.ts';
import type { InputResolver } from '../sweep/run-model.ts';
import { loadApp, loadPlatform, resolveAppFile } from './load-inputs.ts';
import { simulatorVersion } from './project.ts';
import { appContentHash } from './app-hash.ts';

/** A resolver over this checkout's files, caching what it loaded. */
export function checkoutInputs(): InputResolver {
  const platforms = new Map<string, Promise<{ platform: Platform; sha256: string }>>();
  const apps = new Map<string, Promise<{ app: AnyApp; sha256: string }>>();
  return {
    simulator: simulatorVersion(),
    wallMs: () => performance.now(),
    platform(spec) {
      let p = platforms.get(spec);
      if (p === undefined) {
        p = loadPlatform(spec).then((platform) => ({ platform, sha256: platform.contentHash }));
        platforms.set(spec, p);
      }
      return p;
    },
    app(spec) {
      let a = apps.get(spec);
      if (a === undefined) {
        a = loadApp(spec).then((app) => ({ app, sha256: appContentHash(resolveAppFile(spec)) }));
        apps.set(spec, a);
      }
      return a;
    },
  };
}
