// Entry point of worker threads: imports the module named in workerData.module,
// registering tsx first when it is TypeScript (module hooks are per thread); a
// module of the JavaScript build (dist/) needs nothing.
import { workerData } from 'node:worker_threads';

if (!workerData.module.endsWith('.js')) {
  const { registerTsx } = await import('./register-tsx.mjs');
  await registerTsx();
}
await import(workerData.module);
