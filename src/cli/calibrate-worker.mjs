// Tinypool worker for `sim calibrate --workers`: registers tsx in this thread, then
// exposes the TypeScript unit runner (failures returned as data) as the worker's function.
import { register } from 'tsx/esm/api';

register();
const unit = await import('./calibrate-unit.ts');
export const runUnitInWorker = unit.runUnitInWorker;
