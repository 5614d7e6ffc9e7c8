#!/usr/bin/env node
// The `sim` command. The simulator is TypeScript run directly: tsx compiles each
// module once on load (and caches it), after which V8 optimizes it like any JS.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
