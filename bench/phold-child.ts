/**
 * Runs PHOLD in this process (one mode only, as a real simulation runs one model
 * per process): `warmups` runs to let V8 tier the loop up, then one measured run,
 * printed as JSON. Usage: phold-child.ts <handler|generator> <warmups>
 */
import { runPhold } from './phold.ts';
import { PHOLD_MODEL } from './phold.ts';

const mode = process.argv[2];
if (mode !== 'handler' && mode !== 'generator') throw new Error(`mode must be handler or generator, got ${mode}`);
const warmups = Number(process.argv[3] ?? 2);
for (let i = 0; i < warmups; i++) runPhold({ ...PHOLD_MODEL, mode });
console.log(JSON.stringify(runPhold({ ...PHOLD_MODEL, mode })));
