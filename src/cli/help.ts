/** The text of `sim --help`; kept in step with run-args.ts and the README. */
export function helpText(platforms: readonly string[]): string {
  return `sim: a deterministic discrete-event multiprocessor simulator (a modern PROTEUS with Strata)

Usage:
  sim --platform <name|file> <app-folder|app-file> [options]
  sim graph <trace> -o <file.svg|file.html> [--kind states|congestion]
  sim export --format perfetto <trace> -o <file.json>
  sim replay <repro-file> [--stop-at <cycle>|event:<n>]
  sim explore <app> --runs <N> --platform <p> [options]
  sim calibrate --platform <p|all> <spec-file> -o <samples> [--nodes N[,N...]] [--seed S]
                [--vcount 20] [--workers K] [--shard i/n] [--noise] [--fit <dir>]
  sim fit <samples> [--relative] -o <models.json>
  sim select --platform <p> <stencil|sort|app-folder> --param k=v ... [--nodes N]
             [--models <dir>] [--run | --all] [--json] [--seed S]
  sim select --map --platform <p> <stencil|sort> --param k=v ... -o <file.svg>
  sim sweep <sweep-file> --out <results.jsonl> [--workers K] [--shard i/n]
            [--queue redis://host:port/db] [--dry-run] [--json]
  sim sweep merge <results.jsonl> [--missing] [--json]
  sim sweep status <sweep-file> --out <results.jsonl> [--queue <url>] [--json]
  sim sweep slurm <sweep-file> --out <results.jsonl> --tasks N [--cpus C]
            [--time T] [--partition P] [--max-running M]
  sim sweep export <results.jsonl> --format csv [--columns c1,c2,...] [-o <file>]
  sim worker --queue redis://host:port/db [--workers K] [--idle-exit <s>] [--lock <s>]
  sim --help | --version

Runs an SPMD app on every node of a simulated machine, verifies its result and
prints a summary. The same inputs and seed always give the same fingerprint.

Arguments:
  <app-folder|app-file>   an app: a folder with index.ts, or a .ts/.js module whose
                          default export is defineApp({...}) (e.g. apps/ping-pong)

Options:
  -p, --platform <p>      machine to simulate: ${platforms.join(', ')}
                          (platforms/<p>.json), or a path to a platform .json file
  -n, --nodes <N>         number of nodes (default: the platform's defaultNodes);
                          fat trees need a power of two, meshes a near-square
                          width x height (height <= width <= 2 x height)
  -s, --seed <S>          run seed, an integer from 0 to 4294967295 (default 1)
      --param <k=v>       set an app parameter; repeat for several
      --network <mode>    data network model: packet (default; finite buffers,
                          back-pressure, adaptive fat-tree routing) or analytic
                          (contention-free latency)
      --json              print one JSON object instead of the human summary
                          (the program's Qprintf output then goes to stderr)
      --log <file>        write the run's log: StrataLog entries and the progress
                          of every global operation, one "cycle C node N: text" line
                          each
      --loglast           after the run, print each node's last log entry (a
                          failed run prints them whenever there are any)
      --record <file>     write a repro file: the platform, app, parameters, seed
                          and a digest of every event, for \`sim replay\` (a failed
                          run writes sim-repro-<app>-<platform>-s<seed>.json anyway)
      --perturb <S>       perturb the schedule from seed S: sends and handlers take
                          0-3 extra cycles and packets 0-8, reordering events
                          that would tie, to expose timing-dependent bugs
      --trace <file>      record every node's state changes to a trace file
                          (traces/FORMAT.md); \`sim graph\` draws it
      --trace-network     with --trace: also record the packets in flight to each
                          node (packet network only)
      --trace-messages    with --trace: also record every message (drawn as arrows
                          by the Perfetto export)
      --models <dir>      app models for --param k=auto (default
                          platforms/models/apps/n<nodes>)
      --max-cycles <N>    stop a run at simulated cycle N (default 1e10)
                          if it has not finished (5 minutes at 33 MHz): exit 1
                          with every node's clock and call, and a repro
      --max-events <N>    stop it after N events (default 1e9)
  -h, --help              print this help
  -v, --version           print the simulator version

sim graph <trace> -o <file.svg|file.html> draws a trace's state graph: state by
processor by time, with a legend and an axis in cycles and microseconds (the HTML
form zooms and pans along time and names the state under the pointer); --kind
congestion draws
the packets in flight to each node instead (thesis Fig. 7-7). sim export --format
perfetto writes Chrome trace-event JSON (one track per node, states as slices, in
microseconds) that ui.perfetto.dev and chrome://tracing open.

sim replay <repro-file> runs a recorded run again and compares it event by event:
it says whether the run was reproduced, or the first event that differs (its
number, cycle and what happened). --stop-at stops at a cycle (or event:<n>) and
prints every node's clock, state, the call it waits in, its waiting packets and
its last log line.

sim explore <app> --runs N [run options] runs the app under perturbation seeds 1..N
(with a progress bar on a terminal) and lists the failing seeds, each with a repro
file and the command that replays it.

sim calibrate runs every model of a spec file (thesis Fig. 3-3's one-line grammar,
e.g. apps/calibration/strata.spec, or a module exporting specs) on the platform(s)
and writes the samples in Fig. 3-7's format: "Model cycles inputs... terms...",
"@Model ..." for the verification samples drawn from the seed. The file is the same
for any --workers; the --shard i/n files concatenate, in order, to the whole. Several
--nodes sizes sample every model on each, so that sim fit can see log P terms.
Each sample is the median of three timings on platforms whose nodes take timer
interrupts (the CM-5; thesis 3.4.1). --noise emulates a real machine's timer
interrupts (where the platform has none) and time slices (thesis 3.4) and takes the
median of three timings per sample. --fit <dir> also fits the samples
(relative error) and writes <dir>/<platform>.json and .ts per platform and
<dir>/fig-6-6.txt, the thesis's Fig. 6-6 models beside the fitted ones.

sim fit fits each model of a samples file (thesis 3.6: least squares by SVD,
relative error with --relative, 95% intervals, irrelevant terms removed one at a
time), checks it on the verification samples (warning above 10% MRE), and writes
models.json, a generated models.ts with one function per model, and
models.residuals; it prints the Fig. 6-6 comparison when the samples hold those
models.

sim select asks a high-level library module (thesis ch. 4-5) which implementation
to run: stencil (inputs width, height, iters; variants square, vstrips, hstrips,
rect, uni) or sort (inputs keys, keyBits; variants radix, sample), named by module
or by an app folder of one (apps/stencil, apps/sort, apps/radix-sort). It prints
each variant's predicted time from the platform's calibrated models (us and
cycles), after optimizing its tunable parameters (square's extraRows/extraCols by
eqs. 38-40, rect's aspect, radix's digitBits by eq. 44), the choice (the minimum;
ties to the variant listed first) and the predicted benefit of tuning. --run runs
the choice and prints predicted against measured; --all runs every variant and
says whether the choice was the fastest and by how much. --map draws the predicted
winner over width x height (stencil, --param iters=N; thesis Fig. 4-7) or the
digit-width curve f(bpd) with g(i) marked (sort; Fig. 5-5) as SVG. Runs take
layout=auto, extraRows=auto, extraCols=auto, aspect=auto (apps/stencil),
algorithm=auto and digitBits=auto (apps/sort, apps/radix-sort): resolved the same
way before the run and shown in the summary.

sim sweep runs every run of a sweep file (JSON, or a .ts/.js module exporting it:
{ name, runs: [{ app, platform, nodes?, params?, seeds?, network?, perturb? }] },
lists expanded in that order) that no part of --out records yet, appending each
result to <out>.part-<i>-of-<n>, then writes <out>: a header line and one canonical
JSON line per run in sweep order (status verified, unverified or failed, the run
summary, the error), the same bytes for any --workers, --shard or queue. Every run's
app, parameters and machine size are checked before anything runs. --shard i/n runs
the runs with index = i-1 mod n; sim sweep merge joins the parts (--missing lists
what is missing and the Slurm --array= to redo it) and fails if a run was recorded
twice with different bytes. sim sweep slurm prints an sbatch job-array script; sim
sweep export --format csv flattens the results (parameters and metrics as columns).
With --queue the sweep runs on sim worker processes through BullMQ on Redis; a worker
runs jobs in worker threads and refuses runs whose simulator, platform or app hash
differ from its checkout. The sweep exits 0 once every run (of its shard) is
recorded, whether the runs verified or not; 1 if runs are missing; 2 for bad input.

A run longer than 2 s shows a progress line on a terminal (simulated cycles,
events, events per second). SIGINT (Ctrl-C) or SIGTERM stops a run with its
--trace (ended with a cut-short mark), --log and --record complete, and a repro.

Exit status: 0 when the app verified its result, 1 when verification or the
simulated program failed (including deadlock and --max-cycles/--max-events),
2 for bad input, 130 / 143 when SIGINT / SIGTERM stopped the run.
`;
}
