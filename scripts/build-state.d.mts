// Types of build-state.mjs (plain JavaScript so that bin/sim.mjs can use it before
// anything can compile TypeScript).
export declare const SOURCE_DIRS: string[];
export declare function sourceState(root: string): Record<string, [number, number]>;
export declare function isBuildCurrent(root: string): boolean;
export declare function loadCliMain(root: string): Promise<(argv: readonly string[]) => Promise<number>>;
