// BullMQ sandboxed processor of `sim worker` (a worker thread per job slot, so a
// CPU-bound run never starves the event loop that renews the job's lock): runs each
// job with this checkout's inputs, from sweep-unit built or through tsx (load-sibling.mjs).
import { importSibling } from './load-sibling.mjs';

const unit = await importSibling(import.meta.url, 'sweep-unit');
export default unit.processSweepJob;
