// Entry point of worker threads: registers tsx (module hooks are per thread) and
// then imports the TypeScript module named in workerData.module.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
