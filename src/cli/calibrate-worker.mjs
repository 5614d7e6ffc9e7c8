// Tinypool worker for `sim calibrate --workers`: exposes the unit runner (failures
// returned as data) from calibrate-unit, built or through tsx (load-sibling.mjs).
import { importSibling } from './load-sibling.mjs';

const unit = await importSibling(import.meta.url, 'calibrate-unit');
export const runUnitInWorker = unit.runUnitInWorker;
