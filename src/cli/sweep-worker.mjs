// Tinypool worker for `sim sweep --workers`: exposes the sweep run (failures come back
// as result lines) from sweep-unit, built or through tsx (load-sibling.mjs).
import { importSibling } from './load-sibling.mjs';

const unit = await importSibling(import.meta.url, 'sweep-unit');
export const runSweepRun = unit.runSweepRun;
