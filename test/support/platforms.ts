/** Test helpers: load the shipped platforms, or a variant with some keys changed. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePlatform } from '../../src/platform/load-platform.ts';
import type { Platform } from '../../src/platform/schema.ts';

export const PLATFORM_NAMES = ['cm5', 'alewife', 'paragon', 'atm'] as const;
export type PlatformName = (typeof PLATFORM_NAMES)[number];

const ROOT = join(import.meta.dirname, '../..');

export function platformText(name: PlatformName): string {
  return readFileSync(join(ROOT, 'platforms', `${name}.json`), 'utf8');
}

export function loadTestPlatform(name: PlatformName): Platform {
  return parsePlatform(platformText(name), `platforms/${name}.json`);
}

/** The JSON of a shipped platform after `edit` changed its parsed form. */
export function editedPlatformText(name: PlatformName, edit: (p: Record<string, any>) => void): string {
  const data = JSON.parse(platformText(name)) as Record<string, any>;
  edit(data);
  return JSON.stringify(data, null, 2);
}
