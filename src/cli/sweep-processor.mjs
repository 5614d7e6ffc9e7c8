// BullMQ sandboxed processor of `sim worker` (a worker thread per job slot, so a
// CPU-bound run never starves the event loop that renews the job's lock): registers
// tsx in this thread, then runs each job with this checkout's inputs.
import { register } from 'tsx/esm/api';

register();
const { checkoutInputs } = await import('./sweep-inputs.ts');
const { runQueuedJob } = await import('../sweep/queue-job.ts');
const inputs = checkoutInputs();
export default (job) => runQueuedJob(job.data, inputs);
