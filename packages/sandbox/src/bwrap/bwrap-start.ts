/**
 * How every bwrap of one sandbox is started from the host, the executor's and the
 * per-command launcher's alike: a small `/bin/sh` that, still as the host user, joins the
 * sandbox's cgroups, makes the staged bind mounts and sets the address-space limit, then
 * runs `command` (bwrap, or setpriv dropping to the sandbox's user and then bwrap).
 */
export interface BwrapStart {
  /**
   * The argv that starts bwrap, before bwrap's own options: `[bwrap]`, or, when we run as
   * root, `[setpriv, --reuid=65534, --regid=65534, --clear-groups, --, bwrap]`.
   */
  command: readonly string[];
  /** `cgroup.procs` files joined before anything else (writing them needs the host user's rights); empty without cgroups. */
  procsFiles: readonly string[];
  /** RLIMIT_AS (KiB) for everything in the sandbox, when memory has no cgroup. */
  addressSpaceKb?: number;
  /**
   * Folders (or files) the sandbox's user cannot reach on the host (under a 0700 home),
   * bind-mounted by the starter onto `target`, a path it can reach, in a private mount
   * namespace of its own (`unshare --mount`), so bwrap mounts `target` instead. Nothing of
   * it is visible outside that namespace, and it ends with the sandbox's processes.
   */
  stagedMounts: readonly StagedMount[];
  /** `unshare` and `mount`, needed when there are staged mounts. */
  stagingPrograms?: { unsharePath: string; mountPath: string };
}

export interface StagedMount {
  source: string;
  target: string;
}

/**
 * The shell lines every starter begins with. Positional parameters: the address-space
 * limit in KiB (or ''), the mount program (or ''), the `cgroup.procs` files, `--`, the
 * staged mounts as source/target pairs, `--`, then whatever the caller uses next.
 */
export const STARTER_PROLOGUE = `address_space_kb=$1; mount_program=$2; shift 2
while [ "$1" != -- ]; do echo $$ > "$1" || exit 97; shift; done; shift
while [ "$1" != -- ]; do "$mount_program" -n --rbind "$1" "$2" || exit 96; shift 2; done; shift
if [ -n "$address_space_kb" ]; then ulimit -v "$address_space_kb" || exit 98; fi`;

/** Exit codes of the prologue, and what they mean. */
export const STARTER_FAILURES: Readonly<Record<number, string>> = {
  96: 'could not stage a bind mount for the sandbox user',
  97: 'could not join the sandbox cgroup',
  98: 'could not set the address-space limit',
};

/**
 * The program and arguments that run `script` with the prologue's parameters for `start`,
 * followed by `rest`: `/bin/sh -c SCRIPT NAME …`, inside `unshare --mount` when mounts are staged.
 */
export function starterArgv(start: BwrapStart, script: string, name: string, before: readonly string[], rest: readonly string[]): string[] {
  const staging = start.stagedMounts.length > 0 ? start.stagingPrograms : undefined;
  if (start.stagedMounts.length > 0 && staging === undefined) throw new Error('staged mounts need the unshare and mount programs');
  return [
    ...(staging === undefined ? [] : [staging.unsharePath, '--mount', '--propagation', 'private', '--']),
    '/bin/sh',
    '-c',
    script,
    name,
    ...before,
    start.addressSpaceKb === undefined ? '' : String(start.addressSpaceKb),
    staging?.mountPath ?? '',
    ...start.procsFiles,
    '--',
    ...start.stagedMounts.flatMap((mount) => [mount.source, mount.target]),
    '--',
    ...rest,
  ];
}
