/**
 * Vitest set-up file under scripts/vitest.mjs's link to a checkout whose path has a '#'
 * or '?' (SIM_TEST_LINK names the link): the working directory reads as the link, as
 * the files do, so that a path a test resolves against it (apps/cshift) is one Vite can
 * load. The operating system gives the real path, the very one Vite cannot.
 */
const link = process.env.SIM_TEST_LINK;
if (link !== undefined) process.cwd = () => link;
