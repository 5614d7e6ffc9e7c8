import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Under scripts/vitest.mjs's link to a checkout whose path has a '#' or '?': keep the link's
  // path, for the files and the working directory (linked-cwd.ts).
  resolve: { preserveSymlinks: process.env.SIM_TEST_LINKED === '1' },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    globalSetup: ['test/support/scratch-root.ts'],
    setupFiles: process.env.SIM_TEST_LINKED === '1' ? ['test/support/linked-cwd.ts'] : [],
  },
});
