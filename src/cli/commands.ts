/**
 * Every `sim` command and its options, declared once: the parsers (node:util
 * parseArgs, strict) take their options from here, and `sim --help`, `sim <command>
 * --help` and `sim help <command>` are written from here (help.ts), so the help
 * cannot drift from what is accepted. A command's own file checks the values.
 */

export interface OptionDecl {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  /** The value's name in the help (`<file>`). */
  arg?: string;
  help: string;
  /** Accepted by the parser only to be refused with this reason (an option of another command). */
  refused?: string;
}

export interface CommandDecl {
  /** Usage lines, without the leading `sim `. */
  usage: readonly string[];
  /** One line for `sim --help`'s list. */
  summary: string;
  /** What the command does (a paragraph). */
  about: string;
  options: Readonly<Record<string, OptionDecl>>;
}

const JSON_OUT: OptionDecl = { type: 'boolean', help: 'print one JSON object instead of text' };

/** `--progress`, of every command that can take long (progress.ts). */
const PROGRESS: OptionDecl = {
  type: 'string',
  arg: '<s>',
  help: 'write a line on stderr every s seconds saying how far it is (for the log of a batch job, where no bar is drawn), instead of the bar a terminal shows',
};

/** The options of a run, shared with explore (which varies --perturb itself). */
const RUN_OPTIONS: Record<string, OptionDecl> = {
  platform: { type: 'string', short: 'p', arg: '<p>', help: 'machine to simulate: a name in platforms/ (cm5, alewife, paragon, atm) or a path to a platform .json file' },
  nodes: { type: 'string', short: 'n', arg: '<N>', help: "number of nodes (default: the platform's defaultNodes); fat trees need a power of two, meshes a near-square width x height (height <= width <= 2 x height)" },
  seed: { type: 'string', short: 's', arg: '<S>', help: 'run seed, an integer from 0 to 4294967295 (default 1)' },
  param: { type: 'string', multiple: true, arg: '<k=v>', help: 'set an app parameter; repeat for several, each once (sim params <app> lists them)' },
  network: { type: 'string', arg: '<mode>', help: 'data network model: packet (default; finite buffers, back-pressure, adaptive fat-tree routing) or analytic (contention-free latency)' },
  json: { type: 'boolean', help: "print one JSON object instead of the human summary (the program's Qprintf output then goes to stderr); a failed run prints {verified: false, failure, error, stoppedAtCycle, repro}" },
  log: { type: 'string', arg: '<file>', help: 'write the run\'s log: StrataLog entries and the progress of every global operation, one "cycle C node N: text" line each' },
  loglast: { type: 'boolean', help: "after the run, print each node's last log entry, of its StrataLog calls and global operations as --log writes them (a failed run prints them whenever there are any)" },
  record: { type: 'string', arg: '<file>', help: 'write a repro file: the platform, app, parameters, seed and a digest of every event (of the first 2^27), for `sim replay` (a failed run writes sim-repro-<app>-<platform>-n<nodes>-s<seed>[-p<perturb>][-analytic].json anyway, running the run again to record it)' },
  perturb: { type: 'string', arg: '<S>', help: 'perturb the schedule from seed S: sends and handlers take 0-3 extra cycles and packets 0-8, reordering events that would tie, to expose timing-dependent bugs' },
  trace: { type: 'string', arg: '<file>', help: "record every node's state changes to a trace file (traces/FORMAT.md); `sim graph` draws it" },
  'trace-network': { type: 'boolean', help: 'with --trace: also record the packets in flight to each node (the packet network only)' },
  'trace-messages': { type: 'boolean', help: 'with --trace: also record every message (drawn as arrows by the Perfetto export)' },
  models: { type: 'string', arg: '<dir>', help: 'app models for --param k=auto (default platforms/models/apps/n<nodes>)' },
  communication: { type: 'string', arg: '<how>', help: 'for extraRows=auto and extraCols=auto: chain (default; the shortest critical chain, from the platform file alone), or eq. 40 balanced against factored (eq. 38, from the Strata models) or hybrid (eq. 54, fitted) Communication' },
  'hybrid-models': { type: 'string', arg: '<dir>', help: 'with --communication hybrid: its models (default platforms/models/hybrid/n<nodes>)' },
  'max-cycles': { type: 'string', arg: '<N>', help: "stop a run at simulated cycle N (default 1e10) if it has not finished (5 minutes at 33 MHz): exit 1 with every node's clock and call, and a repro" },
  'max-events': { type: 'string', arg: '<N>', help: 'stop it after N events (default 1e9); a program that keeps ever more memory stops so when the JavaScript heap is nearly full' },
  progress: PROGRESS,
};

const ONE_RUN = 'a trace, log or repro is of one run; explore makes many: run a failing seed again with sim --platform <p> <app> --perturb <S> and the option';

export const COMMANDS: Readonly<Record<string, CommandDecl>> = {
  run: {
    usage: ['--platform <name|file> <app-folder|app-file> [options]', 'run --platform <name|file> <app-folder|app-file> [options]'],
    summary: 'run an app on a simulated machine, verify it and summarize the run',
    about:
      'Runs an SPMD app (a folder with index.ts, or a .ts/.js module whose default export is defineApp({...}); sim apps lists them) on every node of a simulated machine, verifies its result and prints a summary. The same inputs and seed always give the same fingerprint. A run longer than 2 s shows a progress line on a terminal (simulated cycles, events, events per second); --progress <s> writes it every s seconds as plain lines instead (for the log of a batch job). SIGINT (Ctrl-C) or SIGTERM stops a run with its --trace (ended with a cut-short mark), --log and --record complete, and a repro; app code in a loop that never yields cannot be stopped so, and on a terminal sim says after 30 s that Ctrl-\\ (SIGQUIT) or kill -9 will. Output files are checked before the run and written through a temporary file.',
    options: { ...RUN_OPTIONS, help: { type: 'boolean', short: 'h', help: 'print this help' }, version: { type: 'boolean', short: 'v', help: 'print the simulator version' } },
  },
  graph: {
    usage: ['graph <trace> -o <file.svg|file.html> [--kind states|congestion] [--json]'],
    summary: "draw a trace's state graph (Fig. 6-5) or congestion graph (Fig. 7-7)",
    about:
      "Draws a trace's state graph: state by processor by time, with a legend and an axis in cycles and microseconds (the HTML form zooms and pans along time and names the state under the pointer); --kind congestion draws the packets in flight to each node instead (thesis Fig. 7-7; the trace needs --trace-network). A trace of a run cut short says so in the title.",
    options: { out: { type: 'string', short: 'o', arg: '<file>', help: 'the graph to write (.svg or .html; a device such as /dev/stdout gets the SVG; the line saying so goes to stderr when it is stdout)' }, kind: { type: 'string', arg: '<kind>', help: 'states (default) or congestion' }, json: JSON_OUT },
  },
  export: {
    usage: ['export --format perfetto <trace> -o <file.json>'],
    summary: 'turn a trace into Chrome trace-event JSON for ui.perfetto.dev',
    about: 'Writes Chrome trace-event JSON (one track per node, states as slices, in microseconds) that ui.perfetto.dev and chrome://tracing open.',
    options: { format: { type: 'string', arg: '<format>', help: 'perfetto' }, out: { type: 'string', short: 'o', arg: '<file.json>', help: 'the file to write (or a device such as /dev/stdout; the line saying so goes to stderr when it is stdout)' } },
  },
  replay: {
    usage: ['replay <repro-file> [--stop-at <cycle>|event:<n>] [--json]'],
    summary: 'run a recorded run again and compare it event by event',
    about:
      "Runs a recorded run again and compares it event by event: it says whether the run was reproduced, or the first event that differs (its number, cycle and what happened). --stop-at stops at a cycle (or event:<n>) and prints every node's clock, state, the call it waits in, its waiting packets and its last log line.",
    options: { 'stop-at': { type: 'string', arg: '<cycle>|event:<n>', help: 'stop there and describe every node' }, json: JSON_OUT },
  },
  explore: {
    usage: ['explore <app> --runs <N> --platform <p> [--repros <K>] [run options] [--json]'],
    summary: 'run an app under N schedule perturbations and list the failing ones',
    about: 'Runs the app under perturbation seeds 1..N (with a progress bar on a terminal) and lists the failing seeds; the first --repros of them (10 by default) get a repro file in the working directory and the command that replays it, the rest only their seed (sim --perturb <S> --record <file> with the same options records one). auto parameters are resolved once, before the first seed, and it says to what. SIGINT or SIGTERM stops it with the seeds tried so far (exit 130 / 143).',
    options: {
      ...Object.fromEntries(Object.entries(RUN_OPTIONS).filter(([k]) => !['perturb', 'trace', 'trace-network', 'trace-messages', 'log', 'loglast', 'record', 'json'].includes(k))),
      runs: { type: 'string', arg: '<N>', help: 'how many perturbation seeds to try (1..N)' },
      repros: { type: 'string', arg: '<K>', help: 'write a repro file for the first K failing seeds only (default 10; 0: none)' },
      json: JSON_OUT,
      perturb: { type: 'string', help: '', refused: 'it is what explore varies (seeds 1..N); leave it out' },
      trace: { type: 'string', help: '', refused: ONE_RUN },
      'trace-network': { type: 'boolean', help: '', refused: ONE_RUN },
      'trace-messages': { type: 'boolean', help: '', refused: ONE_RUN },
      log: { type: 'string', help: '', refused: ONE_RUN },
      loglast: { type: 'boolean', help: '', refused: ONE_RUN },
      record: { type: 'string', help: '', refused: 'explore writes the failing seeds\' repros itself (--repros)' },
    },
  },
  calibrate: {
    usage: ['calibrate --platform <p|all> <spec-file> -o <samples> [--nodes N[,N...]] [--seed S] [--vcount 20] [--workers K] [--shard i/n] [--noise] [--fit <dir>] [--progress <s>] [--json]'],
    summary: 'sample the cost models of a spec file on simulated machines (thesis ch. 3)',
    about:
      'Runs every model of a spec file (thesis Fig. 3-3\'s one-line grammar, e.g. apps/calibration/strata.spec, or a module exporting specs) on the platform(s) and writes the samples in Fig. 3-7\'s format: "Model cycles inputs... terms...", "@Model ..." for the verification samples drawn from the seed. The file is the same for any --workers; the --shard i/n files concatenate, in order, to the whole. Several --nodes sizes sample every model on each, so that sim fit can see log P terms. Each sample is the median of three timings on platforms whose nodes take timer interrupts (the CM-5; thesis 3.4.1). --noise emulates a real machine\'s timer interrupts and time slices (thesis 3.4). --fit <dir> also fits the samples (relative error) and writes <dir>/<platform>.json and .ts per platform and <dir>/fig-6-6.txt. The samples are written only once every model is sampled: Ctrl-C or SIGTERM stops it with nothing written (exit 130 / 143).',
    options: {
      platform: { type: 'string', short: 'p', arg: '<p|all>', help: 'a platform, or all of platforms/' },
      out: { type: 'string', short: 'o', arg: '<samples>', help: 'the samples file to write' },
      nodes: { type: 'string', short: 'n', arg: '<N[,N...]>', help: "machine sizes (default: the platform's)" },
      seed: { type: 'string', short: 's', arg: '<S>', help: 'seed of the verification samples and runs (default 1)' },
      vcount: { type: 'string', arg: '<n>', help: 'verification samples per model (default 20)' },
      workers: { type: 'string', arg: '<K>', help: 'worker threads (default 1)' },
      shard: { type: 'string', arg: '<i/n>', help: 'sample the i-th of n shares of the models' },
      noise: { type: 'boolean', help: "emulate a real machine's timer interrupts and time slices" },
      fit: { type: 'string', arg: '<dir>', help: 'also fit the models into this folder' },
      progress: PROGRESS,
      json: JSON_OUT,
    },
  },
  fit: {
    usage: ['fit <samples> [--relative] -o <models.json> [--json]'],
    summary: 'fit the models of a samples file (thesis 3.6)',
    about:
      'Fits each model of a samples file (thesis 3.6: least squares by SVD, relative error with --relative, 95% intervals, irrelevant terms removed one at a time), checks it on the verification samples (warning above 10% MRE), and writes models.json, a generated models.ts with one function per model, and models.residuals; it prints the Fig. 6-6 comparison when the samples hold those models.',
    options: { out: { type: 'string', short: 'o', arg: '<models.json>', help: 'the models file to write' }, relative: { type: 'boolean', help: 'minimize the relative error' }, json: JSON_OUT },
  },
  select: {
    usage: ['select --platform <p> <stencil|sort|app-folder> --param k=v ... [--nodes N] [--models <dir>] [--communication chain|factored|hybrid] [--run | --all] [--json] [--seed S]', 'select --map --platform <p> <stencil|sort> --param k=v ... -o <file.svg>'],
    summary: 'pick the best implementation of a library module from its models (thesis ch. 4-5)',
    about:
      "Asks a high-level library module (thesis ch. 4-5) which implementation to run: stencil (inputs width, height, iters; variants square, vstrips, hstrips, rect, uni) or sort (inputs keys, keyBits; variants radix, sample). It prints each variant's predicted time from the platform's calibrated models, after optimizing its tunable parameters, the choice and the predicted benefit of tuning. --run runs the choice and prints predicted against measured; --all runs every variant (Ctrl-C or SIGTERM stops the runs: it prints the predictions and what it measured, and exits 130 / 143). --map draws the predicted winner over width x height (stencil; thesis Fig. 4-7) or the digit-width curve (sort; Fig. 5-5) as SVG. Runs take layout=auto, extraRows=auto, extraCols=auto, aspect=auto (apps/stencil), algorithm=auto (apps/sort) and digitBits=auto (apps/sort, apps/radix-sort; on apps/sample-sort the digit width of its samples' radix sort): resolved the same way before the run and shown in the summary.",
    options: {
      platform: { type: 'string', short: 'p', arg: '<p>', help: 'the platform' },
      nodes: { type: 'string', short: 'n', arg: '<N>', help: 'machine size' },
      param: { type: 'string', multiple: true, arg: '<k=v>', help: "the module's inputs" },
      models: { type: 'string', arg: '<dir>', help: 'app models (default platforms/models/apps/n<nodes>)' },
      communication: { type: 'string', arg: '<how>', help: "how the square layout's extra rows and columns are chosen: chain (default; the shortest critical chain), or eq. 40 with factored (eq. 38) or hybrid (eq. 54) Communication" },
      'hybrid-models': { type: 'string', arg: '<dir>', help: 'with --communication hybrid: its models (default platforms/models/hybrid/n<nodes>)' },
      run: { type: 'boolean', help: 'run the choice' },
      all: { type: 'boolean', help: 'run every variant' },
      json: JSON_OUT,
      seed: { type: 'string', short: 's', arg: '<S>', help: 'seed of the runs of --run and --all (default 1)' },
      map: { type: 'boolean', help: 'draw the winner map or digit-width curve' },
      out: { type: 'string', short: 'o', arg: '<file.svg>', help: 'where --map draws' },
    },
  },
  sweep: {
    usage: ['sweep <sweep-file> --out <results.jsonl> [--workers K] [--shard i/n] [--queue redis://host:port/db] [--dry-run] [--progress <s>] [--json]'],
    summary: 'run every run of a sweep file (resumable; local, Slurm or a Redis queue)',
    about:
      'Runs every run of a sweep file (JSON, or a .ts/.js module exporting it) that no part of --out records yet, appending each result to <out>.part-<i>-of-<n>, then writes <out>: a header line and one canonical JSON line per run in sweep order, the same bytes for any --workers, --shard or queue. Every run\'s app, parameters and machine size are checked before anything runs (at most 1,000,000 runs a file). --shard i/n runs the runs with index = i-1 mod n; with --queue the sweep runs on sim worker processes through BullMQ on Redis. It exits 0 once every run (of its shard) is recorded, whether the runs verified or not; 1 if runs are missing; 2 for bad input; 130 / 143 when Ctrl-C or SIGTERM stopped it (what is recorded stays, and a rerun resumes). sim sweep merge, status, slurm and export read and report its results (each has --help).',
    options: {
      out: { type: 'string', short: 'o', arg: '<results.jsonl>', help: 'the results file' },
      workers: { type: 'string', arg: '<K>', help: 'worker threads (default 1)' },
      shard: { type: 'string', arg: '<i/n>', help: 'run the runs with index = i-1 mod n' },
      queue: { type: 'string', arg: '<url>', help: 'run on sim worker processes through BullMQ on Redis' },
      'dry-run': { type: 'boolean', help: 'say what would run' },
      progress: PROGRESS,
      json: JSON_OUT,
    },
  },
  'sweep merge': {
    usage: ['sweep merge <results.jsonl> [--missing] [--json]'],
    summary: "join a sweep's parts into its results file",
    about: 'Joins the parts (--missing lists what is missing and the Slurm --array= to redo it) and fails if a run was recorded twice with different bytes.',
    options: { missing: { type: 'boolean', help: 'list the missing runs and shards' }, json: JSON_OUT },
  },
  'sweep status': {
    usage: ['sweep status <sweep-file> --out <results.jsonl> [--queue <url>] [--json]'],
    summary: "how far a sweep has got",
    about: 'Counts the recorded and missing runs of a sweep, and the jobs on its queue.',
    options: { out: { type: 'string', short: 'o', arg: '<results.jsonl>', help: 'the results file' }, queue: { type: 'string', arg: '<url>', help: 'the Redis queue' }, json: JSON_OUT },
  },
  'sweep slurm': {
    usage: ['sweep slurm <sweep-file> --out <results.jsonl> --tasks N [--cpus C] [--time T] [--partition P] [--max-running M]'],
    summary: 'print an sbatch job-array script for a sweep',
    about: 'Prints an sbatch job-array script whose task k runs shard k/N with --workers $SLURM_CPUS_PER_TASK.',
    options: {
      out: { type: 'string', short: 'o', arg: '<results.jsonl>', help: 'the results file' },
      tasks: { type: 'string', arg: '<N>', help: 'array tasks (shards)' },
      cpus: { type: 'string', arg: '<C>', help: 'CPUs per task' },
      time: { type: 'string', arg: '<T>', help: 'time limit per task' },
      partition: { type: 'string', arg: '<P>', help: 'Slurm partition' },
      'max-running': { type: 'string', arg: '<M>', help: 'tasks running at once' },
    },
  },
  'sweep export': {
    usage: ['sweep export <results.jsonl> --format csv [--columns c1,c2,...] [-o <file>]'],
    summary: 'flatten sweep results to CSV',
    about: 'Flattens the results (parameters and metrics as columns) to CSV.',
    options: { format: { type: 'string', arg: '<format>', help: 'csv' }, columns: { type: 'string', arg: '<c1,c2,...>', help: 'the columns to keep' }, out: { type: 'string', short: 'o', arg: '<file>', help: 'the file (default stdout)' } },
  },
  study: {
    usage: ['study <name> --platform <p|all> --out <dir> [--nodes N[,N...]] [--trials N] [--max-grid N] [--max-keys N] [--seed S] [--models <dir>] [--workers K] [--shard i/n] [--queue redis://host:port/db] [--dry-run] [--progress <s>] [--json]'],
    summary: "reproduce one of the thesis's selection and optimization results (ch. 4-5) as a sweep",
    about:
      "Runs a validation study of the high-level libraries: stencil-selection (Tables 4-1, 4-2, Figs. 4-7, 4-8: is the chosen layout the fastest measured?), stencil-gain (Table 4-3: selection against always-square), sort-selection (Table 4-4, Fig. 4-14: predicted against measured crossovers of 4-, 10-, 14-bit radix and sample sort, found by bisection), extra-rows (Table 5-1: eqs. 38-41's extra rows and columns against the measured optimum) and digit-width (Fig. 5-3: eq. 44's digit width against the measured best). Each round of runs is a sweep in <out>/runs/, so --workers, --shard and --queue work and an interrupted study resumes where it stopped (a study whose later runs depend on earlier results, sort-selection and extra-rows, goes in rounds: with --shard, run every shard, then any again, until it completes). It writes <out>/<name>.jsonl and .csv (one row per measurement, predicted beside measured), <name>.summary.txt and .summary.json (the summary beside the thesis's numbers, computed from the rows) and <name>.svg, the same bytes on every rerun. Models come from platforms/models/apps/n<nodes> (or --models). The results of one full run of each study on all four platforms ship in studies/<name>/ (README, section Reproducing the thesis). --dry-run says what the next round would run, counting what --out holds. On a terminal, a planning of trials longer than a second shows a bar (the stencil studies: minutes for 100,000 trials). Exit 0 when complete, and with --shard also once this shard's runs of the round are recorded (--json then says complete: false); 1 while runs are missing; 2 for bad input; 130 / 143 when Ctrl-C or SIGTERM stopped it (what is recorded stays, and a rerun resumes).",
    options: {
      platform: { type: 'string', short: 'p', arg: '<p|all>', help: 'a platform, or all of platforms/' },
      out: { type: 'string', short: 'o', arg: '<dir>', help: 'the folder for the runs, rows, summary and figure' },
      nodes: { type: 'string', short: 'n', arg: '<N[,N...]>', help: 'machine sizes (default: 16,32,64 for stencil-selection, 64 for the others)' },
      trials: { type: 'string', arg: '<N>', help: 'grid sizes per platform and size (stencil-selection: 300 at 64 nodes, 100 at 16, 32), grids (stencil-gain: 20), extra sizes (extra-rows: 16; 0 runs Table 5-1\'s four configurations alone), trials over all platforms (digit-width: 40), wrong-side points (sort-selection: 32); at most 100,000, and at most 1,000,000 / the most runs of a trial: the stencil studies 5 a platform (15 on the CM-5, each layout the median of three seeds) x sizes, extra-rows 35 a platform (105 on the CM-5) x sizes, digit-width 16 (48 on the CM-5) x sizes' },
      'max-grid': { type: 'string', arg: '<N>', help: 'largest grid dimension, 16 to 8192 (8192 x 8192 is 2^26 points, the most a stencil grid has), of the stencil studies (default 4096) and extra-rows (default 400)' },
      'max-keys': { type: 'string', arg: '<N>', help: 'largest keys per node of the sort studies, at most 262,143 (default 10000; digit-width 20000)' },
      seed: { type: 'string', short: 's', arg: '<S>', help: "seed of the study's random choices (grid sizes, trials; default 1)" },
      models: { type: 'string', arg: '<dir>', help: 'app models (default platforms/models/apps/n<nodes>)' },
      workers: { type: 'string', arg: '<K>', help: 'worker threads (default 1)' },
      shard: { type: 'string', arg: '<i/n>', help: "run the runs of each round with index = i-1 mod n" },
      queue: { type: 'string', arg: '<url>', help: 'run on sim worker processes through BullMQ on Redis' },
      'dry-run': { type: 'boolean', help: 'say how many runs the next round would run' },
      progress: PROGRESS,
      json: JSON_OUT,
    },
  },
  worker: {
    usage: ['worker --queue redis://host:port/db [--workers K] [--idle-exit <s>] [--lock <s>]'],
    summary: "run a sweep queue's jobs",
    about: "Runs jobs from a sweep's Redis queue in worker threads, refusing runs whose simulator, platform or app hash differ from its checkout. Ctrl-C or SIGTERM stops it once the runs under way finish (a second signal stops it at once, and another worker takes them after --lock seconds); with Redis away, it gives them up and stops.",
    options: {
      queue: { type: 'string', arg: '<url>', help: 'the Redis queue' },
      workers: { type: 'string', arg: '<K>', help: 'worker threads (default 1)' },
      'idle-exit': { type: 'string', arg: '<s>', help: 'stop after s seconds without work' },
      lock: { type: 'string', arg: '<s>', help: "seconds before another worker takes a dead worker's job (default 30)" },
    },
  },
  apps: {
    usage: ['apps [--json]'],
    summary: 'list the apps in apps/ with their descriptions',
    about: 'Lists the apps shipped in apps/: their folder, name and description.',
    options: { json: JSON_OUT },
  },
  params: {
    usage: ['params <app-folder|app-file> [--json]'],
    summary: "list an app's parameters: types, defaults, ranges",
    about: 'Lists the parameters an app takes with --param: type, default, range or values, and what each means.',
    options: { json: JSON_OUT },
  },
  help: {
    usage: ['help [<command>]'],
    summary: 'this help, or one command\'s',
    about: 'Prints the help of sim, or of one command (also sim <command> --help).',
    options: {},
  },
};

/** The names of the commands (for `sim help`): `sweep merge` counts as one. */
export const COMMAND_NAMES = Object.keys(COMMANDS);

/** `options` as node:util parseArgs takes them. */
export function parseArgsOptions(options: Readonly<Record<string, OptionDecl>>): Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> {
  const out: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {};
  for (const [name, o] of Object.entries(options)) out[name] = { type: o.type, ...(o.short === undefined ? {} : { short: o.short }), ...(o.multiple === true ? { multiple: true } : {}) };
  return out;
}
