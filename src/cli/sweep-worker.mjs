// Tinypool worker for `sim sweep --workers`: registers tsx in this thread, then runs
// sweep runs with this checkout's inputs (src/sweep/run-one.ts; failures come back as lines).
import { register } from 'tsx/esm/api';

register();
const { checkoutInputs } = await import('./sweep-inputs.ts');
const { runOne } = await import('../sweep/run-one.ts');
const inputs = checkoutInputs();
export default (run) => runOne(run, inputs);
