// Tinypool worker for `sim calibrate --workers`: registers tsx in this thread, then
// exposes the TypeScript unit runner as the worker's function.
import { register } from 'tsx/esm/api';

register();
const { default: runUnitRequest } = await import('./calibrate-unit.ts');
export default runUnitRequest;
