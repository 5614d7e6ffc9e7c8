/**
 * The baseline checkout of the perf bench: resolves the ref, adds a detached git
 * worktree for it in a temporary directory, installs it with `npm ci`, and removes
 * it again (once, whether the bench finished, failed or was interrupted). Touches
 * no other worktree; knows nothing of workloads.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerfUsageError } from './perf-args.ts';
import { npmCi } from './perf-process.ts';

function git(repoDir: string, args: readonly string[]): string {
  return execFileSync('git', args, { cwd: repoDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** The commit `ref` names in `repoDir` (full hash); PerfUsageError when git cannot resolve it. */
export function resolveCommit(repoDir: string, ref: string): string {
  try {
    return git(repoDir, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  } catch {
    throw new PerfUsageError(`bench perf: --baseline ${ref}: git cannot resolve it to a commit in ${repoDir}`);
  }
}

/** This checkout's commit, short, with "+ uncommitted changes" when its tree differs from it. */
export function describeCheckout(repoDir: string): string {
  const head = git(repoDir, ['rev-parse', '--short', 'HEAD']);
  const dirty = git(repoDir, ['status', '--porcelain', '--untracked-files=no']) !== '';
  return dirty ? `${head} + uncommitted changes` : head;
}

/** A temporary worktree of the baseline commit, installed and ready to run `sim`. */
export class BaselineCheckout {
  readonly dir: string;
  readonly commit: string;
  private readonly repoDir: string;
  private readonly parent: string;
  private isAdded = false;
  private isRemoved = false;

  private constructor(repoDir: string, commit: string) {
    this.repoDir = repoDir;
    this.commit = commit;
    this.parent = mkdtempSync(join(tmpdir(), 'proteus-perf-baseline-'));
    this.dir = join(this.parent, 'checkout');
  }

  /**
   * Adds the worktree (`git worktree add --detach`), synchronously, so that the
   * caller holds it (and can remove it) before anything slow starts. Removes the
   * temporary directory again if git fails.
   */
  static add(repoDir: string, commit: string): BaselineCheckout {
    const checkout = new BaselineCheckout(repoDir, commit);
    try {
      git(repoDir, ['worktree', 'add', '--detach', checkout.dir, commit]);
      checkout.isAdded = true;
      return checkout;
    } catch (e) {
      checkout.remove();
      throw e;
    }
  }

  /**
   * Replaces the worktree's `apps/` with the one committed at `commit` (`git checkout
   * <commit> -- apps`), so the baseline's engine runs the same programs as `commit`.
   */
  useAppsOf(commit: string): void {
    git(this.dir, ['checkout', commit, '--', 'apps']);
  }

  /** Runs `npm ci` in the worktree; `log` gets a line before and after. */
  async install(log: (line: string) => void): Promise<void> {
    log(`baseline: worktree of ${this.commit.slice(0, 12)} at ${this.dir}; npm ci ...`);
    const ms = await npmCi(this.dir);
    log(`baseline: npm ci took ${(ms / 1000).toFixed(1)} s`);
  }

  /**
   * Removes the worktree and its directory; safe to call more than once and from a
   * signal handler (synchronous). Falls back to deleting the directory if git
   * refuses, and says so on stderr.
   */
  remove(): void {
    if (this.isRemoved) return;
    this.isRemoved = true;
    if (this.isAdded) {
      try {
        git(this.repoDir, ['worktree', 'remove', '--force', this.dir]);
      } catch (e) {
        const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
        console.error(`bench perf: git worktree remove ${this.dir} failed (${why}); deleting the directory (run \`git worktree prune\` to drop git's note of it)`);
      }
    }
    rmSync(this.parent, { recursive: true, force: true, maxRetries: 3 });
  }
}
