/**
 * The files `sim` writes for a user (-o, --record, --trace, --log, --fit <dir>):
 * checked before any work starts (the folder exists and takes a new file, the name
 * is not a folder), then written atomically: into a temporary file beside the target,
 * renamed over it when complete, so a reader never sees half a file and a run that
 * dies leaves the previous file as it was. A symbolic link's target is the target; a
 * device or FIFO (/dev/null, /dev/stdout) is written directly.
 */
import { accessSync, closeSync, constants, existsSync, fstatSync, openSync, readlinkSync, realpathSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, dirname, extname, join, resolve, sep } from 'node:path';
import { InputError } from '../kernel/errors.ts';
import { isPartFile } from '../sweep/part-names.ts';
import { writeAll } from '../sweep/write-all.ts';

function code(e: unknown): string {
  return (e as { code?: string }).code ?? String(e);
}

/** Checks that `dir` is an existing folder in which this process can create a file. */
function checkWritableFolder(option: string, shown: string, dir: string): void {
  if (!existsSync(dir)) throw new InputError(`${option} ${shown}: no such folder ${dir}; expected an existing folder`);
  if (!statSync(dir).isDirectory()) throw new InputError(`${option} ${shown}: ${dir} is not a folder`);
  // Permission bits do not tell (read-only mounts, root, ACLs): create a file and remove it.
  const probe = join(dir, `.sim-write-check-${process.pid}`);
  try {
    closeSync(openSync(probe, 'wx'));
    unlinkSync(probe);
  } catch (e) {
    throw new InputError(`${option} ${shown}: cannot create files in ${dir} (${code(e)}); expected a writable folder`);
  }
}

/**
 * Checks, before the work, that `path` can be written as a file.
 * @throws InputError naming `option` when the path is a folder, its folder does not
 *   exist, or nothing can be created there
 */
export function checkOutputFile(option: string, path: string): void {
  if (path === '') throw new InputError(`${option}: an empty name; expected a file name`);
  const full = resolve(path);
  if (existsSync(full) && statSync(full).isDirectory()) throw new InputError(`${option} ${path}: is a folder; expected a file name`);
  // resolve() drops a final slash: `--log out/` wrote a file named out.
  if (path.endsWith('/') || path.endsWith(sep)) throw new InputError(`${option} ${path}: ends with a slash, which names a folder; expected a file name`);
  // A part holds a sweep's recorded runs (sim sweep export -o r.jsonl.part-1-of-1 wrote CSV over them).
  if (isPartFile(full)) throw new InputError(`${option} ${path}: the name of a sweep's results part, which only the sweep writes; expected another file name`);
  // Where the writing goes, not the name given: a device or FIFO is written directly, so
  // its folder need not take new files (to anyone but root, --log /dev/null was "cannot
  // create files in /dev"; to root, -o /proc/self/fd/1 was so for /proc/self/fd), and
  // a file behind a symbolic link gets its temporary file beside it, not the link.
  const target = destination(path, `${option} ${path}`);
  if (target.special) {
    try {
      accessSync(target.full, constants.W_OK);
    } catch (e) {
      throw new InputError(`${option} ${path}: cannot write to it (${code(e)}); expected a writable file or device`);
    }
  } else {
    checkNameLength(option, path, basename(target.full));
    checkWritableFolder(option, path, dirname(target.full));
  }
}

/**
 * A name longer than a file system takes was refused only when written, after the work
 * (`--record` of a 300-character name, ENAMETOOLONG once the run had ended).
 * @throws InputError naming `option`
 */
function checkNameLength(option: string, path: string, name: string): void {
  const bytes = Buffer.byteLength(name);
  if (bytes > NAME_MAX) throw new InputError(`${option} ${path}: a name of ${bytes} bytes; expected at most ${NAME_MAX} (the longest a file system takes)`);
}

/**
 * Checks, before the work, that `path` is not a special file (a device, a FIFO): for an
 * output patched after it is written (a trace's fingerprint, at its end), which a pipe
 * cannot take, or read back (a sweep's results), `why` saying so. Call after checkOutputFile.
 * @throws InputError naming `option`
 */
export function checkSeekableOutput(option: string, path: string, why = 'its header is completed when the run ends, which a device or pipe cannot take'): void {
  if (isSpecialOutput(path)) throw new InputError(`${option} ${path}: not a regular file; expected a file name (${why})`);
}

/**
 * Where a command says what it wrote: stdout, unless the output is stdout itself
 * (`sim export ... -o /dev/stdout | jq` got the status line after the JSON, which no
 * longer parsed): then stderr.
 */
export function reportStream(io: { out(text: string): void; err(text: string): void }, out: string): (text: string) => void {
  return isStdout(out) ? io.err : io.out;
}

/** Whether `path` is this process's standard output (the same file: /dev/stdout, /proc/self/fd/1, the FIFO it writes to). */
function isStdout(path: string): boolean {
  try {
    const stdout = fstatSync(1);
    const file = statSync(path);
    return stdout.dev === file.dev && stdout.ino === file.ino;
  } catch {
    return false; // no standard output, or no such file
  }
}

/** Why a sweep's --out must be a regular file (checkSeekableOutput). */
export const RESULTS_READ_BACK = "a sweep's results file, read back by every rerun, with its parts beside it";

/** Whether `path` is a device or FIFO (/dev/stdout), written directly rather than as a file. */
export function isSpecialOutput(path: string): boolean {
  return destination(path).special;
}

/**
 * Checks that the files a command reads and writes are different files: an output over
 * an input loses the input (sim sweep x.json --out x.json wrote its results over the
 * sweep), and two outputs over each other lose one (they even share the temporary file
 * beside the target: --trace and --log of one name ended in ENOENT after the run).
 * Files are compared as reached (fileIdentity), through symbolic links.
 * @throws InputError naming both
 */
export function checkSeparateFiles(files: readonly (readonly [what: string, path: string | undefined])[]): void {
  const seen = new Map<string, string>();
  for (const [what, path] of files) {
    if (path === undefined) continue;
    const full = fileIdentity(path, `${what} ${path}`);
    const other = seen.get(full);
    if (other !== undefined) throw new InputError(`${what} ${path}: the same file as ${other}; expected a different file`);
    seen.set(full, `${what} ${path}`);
  }
}

const SOURCE_EXTENSIONS = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'];

/**
 * Checks that the outputs are not the app's module or another source file in its
 * folder (one the app may import): the run reads them, and `--log cs/index.ts`
 * replaced an app's source with its log.
 * @throws InputError naming the output and the app
 */
export function checkNotAppSource(outputs: readonly (readonly [what: string, path: string | undefined])[], app: string, appFile: string): void {
  const appModule = fileIdentity(appFile);
  const folder = dirname(appModule) + sep;
  for (const [what, path] of outputs) {
    if (path === undefined) continue;
    const full = fileIdentity(path, `${what} ${path}`);
    if (full === appModule || (full.startsWith(folder) && SOURCE_EXTENSIONS.includes(extname(full)))) {
      throw new InputError(`${what} ${path}: ${full === appModule ? 'the module' : 'a source file in the folder'} of app ${app}; expected a file that is not the app's code`);
    }
  }
}

/**
 * Checks, before the work, that `dir` is a writable folder or can be made one (the
 * nearest folder above it that exists takes new files). Creates nothing.
 * @throws InputError naming `option`
 */
export function checkOutputFolder(option: string, dir: string): void {
  // resolve('') is the working directory, which passed, and mkdir('') failed after the work (--fit '').
  if (dir === '') throw new InputError(`${option}: an empty name; expected a folder`);
  let full = resolve(dir);
  if (existsSync(full) && !statSync(full).isDirectory()) throw new InputError(`${option} ${dir}: is a file; expected a folder`);
  while (!existsSync(full) && dirname(full) !== full) {
    checkNameLength(option, dir, basename(full));
    full = dirname(full);
  }
  if (!statSync(full).isDirectory()) throw new InputError(`${option} ${dir}: ${full} is a file; expected a folder`);
  checkWritableFolder(option, dir, full);
}

/**
 * The file a path names, as reading or writing it reaches it: an existing file by its
 * real path, a name not made yet in its folder's real path (a dangling link followed),
 * anything else (a device, a folder) as named. Compared by name alone, an output that
 * was a symbolic link to an input (`sim export ... t.trace -o e.json` with e.json ->
 * t.trace) passed as another file, and the write renamed the export over the trace.
 */
function fileIdentity(path: string, shown = path): string {
  const full = resolve(path);
  if (existsSync(full)) return statSync(full).isFile() ? realpathSync(full) : full;
  let folder = dirname(full);
  try {
    folder = realpathSync(folder);
  } catch {
    // No such folder: checkOutputFile says so.
  }
  return linkTarget(shown, join(folder, basename(full)));
}

/** The longest name of a file on Linux's file systems, in bytes (NAME_MAX). */
const NAME_MAX = 255;

/**
 * The temporary file written beside `full`. A long name (246 to 255 bytes: a name the
 * checks took, as its folder takes files) made the temporary's name too long, and the
 * command failed with ENAMETOOLONG after its work (`--record`, calibrate's -o); such a
 * target's temporary is named by a hash of its name instead.
 */
function temporaryBeside(full: string): string {
  const name = basename(full);
  const beside = `.${name}.${process.pid}.tmp`;
  if (Buffer.byteLength(beside) <= NAME_MAX) return join(dirname(full), beside);
  return join(dirname(full), `.sim-${createHash('sha256').update(name).digest('hex').slice(0, 16)}.${process.pid}.tmp`);
}

/**
 * Writes `data` to `path` atomically (a temporary file, then a rename).
 * @throws InputError naming `option` when it cannot be written
 */
export function writeFileAtomic(option: string, path: string, data: string | Uint8Array | Iterable<string>): void {
  const file = new AtomicFile(option, path);
  try {
    // In pieces when given so: a sweep's results file is more than one string holds.
    if (typeof data === 'string' || data instanceof Uint8Array) file.append(data);
    else for (const piece of data) file.append(piece);
  } catch (e) {
    file.abandon();
    throw e;
  }
  file.commit();
}

/**
 * Where writing `path` goes: a symbolic link's target (renaming over the link replaced
 * it with a file), and whether that is a special file (a device, a FIFO: --log
 * /dev/null, -o /dev/stdout), which is written directly; renaming over /dev/null, as
 * root, replaced the device with a plain file.
 */
function destination(path: string, shown = path): { full: string; special: boolean } {
  const full = resolve(path);
  // The process's own streams by name, whatever they lead to: /dev/stdout under `> out.json`
  // is a regular file by stat, so it was refused for its name (-o /dev/stdout of an export:
  // "expected a file name ending in .json"), and a temporary file was renamed over the target.
  if (STREAM_NAME.test(full)) return { full, special: true };
  if (!existsSync(full)) return { full: linkTarget(shown, full), special: false };
  // stat follows links; a special file is opened by its own name (/dev/stdout's target, pipe:[n], is no path).
  if (!statSync(full).isFile()) return { full, special: true };
  return { full: realpathSync(full), special: false };
}

/**
 * Where a name that does not exist yet is written: itself, or, for a symbolic link to
 * a file not made yet, its target, followed by hand (realpath refuses a dangling link;
 * renaming over the link replaced it with a file).
 * @throws InputError for links that go round in a loop
 */
function linkTarget(path: string, full: string): string {
  let at = full;
  for (let hops = 0; hops < MAX_LINKS; hops++) {
    let target: string;
    try {
      target = readlinkSync(at);
    } catch {
      return at; // not a link (EINVAL), or nothing there (ENOENT)
    }
    at = resolve(dirname(at), target);
  }
  throw new InputError(`${path}: more than ${MAX_LINKS} symbolic links in a row (a loop?); expected a file name`);
}

/** Names of the process's open files: written directly, as the devices they usually are. */
const STREAM_NAME = /^\/(dev\/(stdout|stderr|fd\/\d+)|proc\/(self|thread-self|\d+)\/fd\/\d+)$/;

/** Links followed before giving up, as Linux's own limit (ELOOP). */
const MAX_LINKS = 40;

/**
 * A file written in pieces into a temporary file beside `path`, renamed into place by
 * commit(); a special file (destination) is written directly, and commit only closes it.
 */
export class AtomicFile {
  private readonly fd: number;
  /** The temporary file, or null when writing a special file directly. */
  private readonly temporary: string | null;
  private readonly full: string;
  private readonly option: string;
  private readonly path: string;
  private open = true;
  /** A pipe's reader has closed it (EPIPE): the rest is dropped, as `| head` drops it. */
  private readerGone = false;

  /** @throws InputError naming `option` when the file cannot be created */
  constructor(option: string, path: string) {
    this.option = option;
    this.path = path;
    const { full, special } = destination(path);
    this.full = full;
    this.temporary = special ? null : temporaryBeside(full);
    try {
      this.fd = openSync(this.temporary ?? full, 'w');
    } catch (e) {
      throw new InputError(`${option} ${path}: cannot write the file (${code(e)}); expected a writable path`);
    }
  }

  /**
   * Writes all of `data`. A write may write less than it was given (a disk that fills,
   * a file size limit): it took the first bytes and said nothing, and the rest went
   * missing — `sim ... --record r.json` under a 100 kB file size limit left a 100,000-byte
   * r.json and exited 0. The rest is written on, so the disk's error (ENOSPC, EFBIG)
   * comes out, and the file is refused.
   */
  append(data: string | Uint8Array): void {
    if (this.readerGone) return;
    try {
      writeAll(this.fd, data, null);
    } catch (e) {
      // -o /dev/stdout | head: the reader has what it wanted; it was "cannot write the file (EPIPE)", exit 2.
      if (this.temporary === null && code(e) === 'EPIPE') this.readerGone = true;
      else throw new InputError(`${this.option} ${this.path}: cannot write the file (${code(e)})`);
    }
  }

  /** Overwrites bytes already written at `position`. */
  overwrite(position: number, bytes: Uint8Array): void {
    this.guard(() => writeAll(this.fd, bytes, position));
  }

  /** Closes the file and renames it over `path`. */
  commit(): void {
    if (!this.open) return;
    this.open = false;
    this.guard(() => {
      closeSync(this.fd);
      if (this.temporary !== null) renameSync(this.temporary, this.full);
    });
  }

  /** Closes and removes the temporary file; `path` keeps what it held. */
  abandon(): void {
    if (!this.open) return;
    this.open = false;
    try {
      closeSync(this.fd);
      if (this.temporary !== null) unlinkSync(this.temporary);
    } catch {
      // Already gone: nothing to clean.
    }
  }

  private guard(action: () => void): void {
    try {
      action();
    } catch (e) {
      throw new InputError(`${this.option} ${this.path}: cannot write the file (${code(e)})`);
    }
  }
}
