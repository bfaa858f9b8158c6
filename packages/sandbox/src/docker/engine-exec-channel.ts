import { posix } from 'node:path';
import type Dockerode from 'dockerode';
import { SandboxError, SymlinkBlockedError } from '../contract/sandbox-error.js';
import type { ExecSinks, PathStatus, RunningCommand } from '../core/executor/executor-client.js';
import type { ExecRequest, ExitMessage } from '../core/executor/protocol.js';
import type { FileEntry } from '../contract/sandbox.js';
import type { CommandChannel } from '../core/executor/command-channel.js';
import { toSandboxError } from './docker-errors.js';
import { execExitCode, startAttachedExec } from './engine-exec.js';
import { packTar } from './tar-archive.js';

const markerName = 'AGENTBENCH_COMMAND_ID';

// Runs the command in place of the shell (exec), after raising its OOM score so the
// memory limit kills it rather than anything else.
const commandWrapper = 'echo 1000 > /proc/self/oom_score_adj 2>/dev/null; exec "$@"';

// Kills every process carrying the command's marker (a docker exec is its own session,
// and the marker also catches what left it), in rounds until none is left.
const killScript = `marker="$1"
round=0
while [ "$round" -lt 50 ]; do
  found=0
  for entry in /proc/[0-9]*; do
    pid="\${entry#/proc/}"
    [ "$pid" = "$$" ] && continue
    if tr '\\000' '\\n' < "$entry/environ" 2>/dev/null | grep -qxF "$marker"; then
      found=1
      kill -9 "$pid" 2>/dev/null
    fi
  done
  [ "$found" = 0 ] && exit 0
  round=$((round + 1))
done`;

// realpath -m resolves every link, even in missing components; then type, size and mode.
const statScript = `real="$(realpath -m -- "$1")" || exit 3
printf '%s\\n' "$real"
if [ -e "$real" ] || [ -L "$real" ]; then stat -c '%F|%s|%a' -- "$real"; fi`;

/**
 * The slow path for images without python3: one Engine API exec per command, with the
 * same semantics as the executor (timeout kills the whole tree and reports 124, abort
 * 137) using only sh and coreutils in the image. File operations use `realpath`, `cat`,
 * `find -printf` (GNU findutils) and the archive API.
 */
export class EngineExecChannel implements CommandChannel {
  private closedError: Error | undefined;
  private nextId = 1;
  private readonly running = new Map<number, { abort(): void; fail(error: Error): void }>();
  private readonly token = `${process.pid}-${Date.now().toString(36)}`;
  private user: Promise<{ uid: number; gid: number }> | undefined;

  constructor(
    private readonly docker: Dockerode,
    private readonly container: Dockerode.Container,
    private readonly workdir: string,
  ) {}

  get isClosed(): boolean {
    return this.closedError !== undefined;
  }

  exec(request: Omit<ExecRequest, 'op'>, sinks: ExecSinks): RunningCommand {
    const id = this.nextId++;
    let abortRequested = false;
    let onAbort: (() => void) | undefined;
    let fail: (error: Error) => void = () => undefined;
    this.running.set(id, {
      abort: () => {
        abortRequested = true;
        onAbort?.();
      },
      fail: (error) => fail(error),
    });
    const exit = new Promise<ExitMessage>((resolve, reject) => {
      fail = reject;
      this.runCommand(id, request, sinks, (callback) => {
        onAbort = callback;
        if (abortRequested) callback();
      }).then(resolve, reject);
    }).finally(() => this.running.delete(id));
    return { id, exit };
  }

  kill(commandId: number): void {
    this.running.get(commandId)?.abort();
  }

  async readFile(path: string): Promise<Buffer> {
    const status = await this.stat(path);
    if (!status.exists) throw new SandboxError('file_not_found', `no such file or directory: ${path}`, { subject: path });
    if (status.type !== 'file') throw new SandboxError('file_not_found', `${path} is a ${status.type === 'directory' ? 'directory' : 'special file'}, not a file`, { subject: path });
    const output = await this.run(['cat', '--', status.realPath]);
    if (output.exitCode !== 0) throw new SandboxError('internal', `reading ${path} failed: ${output.stderr.toString('utf8').trim()}`, { subject: path });
    return output.stdout;
  }

  async writeFile(path: string, data: Uint8Array): Promise<void> {
    const status = await this.stat(path);
    if (status.exists && status.type === 'directory') throw new SandboxError('file_not_found', `${path} is a directory, not a file`, { subject: path });
    const parent = await this.makeDirectory(posix.dirname(path));
    try {
      const owner = await this.commandUser();
      await this.container.putArchive(packTar([{ files: [{ path: posix.basename(status.realPath), data, mode: 0o644 }] }], owner), { path: parent });
    } catch (error) {
      throw toSandboxError(this.docker, error, { action: `write ${path}` });
    }
  }

  async listFiles(path: string, isRecursive: boolean): Promise<FileEntry[]> {
    const status = await this.stat(path);
    if (!status.exists) throw new SandboxError('file_not_found', `no such file or directory: ${path}`, { subject: path });
    if (status.type !== 'directory') throw new SandboxError('not_a_directory', `${path} is not a directory`, { subject: path });
    const depth = isRecursive ? [] : ['-maxdepth', '1'];
    const output = await this.run(['find', status.realPath, '-mindepth', '1', ...depth, '-printf', '%y\\t%s\\t%P\\0']);
    if (output.exitCode !== 0) throw new SandboxError('internal', `listing ${path} failed: ${output.stderr.toString('utf8').trim()}`, { subject: path });
    const entries: FileEntry[] = [];
    for (const record of output.stdout.toString('utf8').split('\0')) {
      if (record === '') continue;
      const [kind = '', size = '0', ...rest] = record.split('\t');
      const type: FileEntry['type'] = kind === 'f' ? 'file' : kind === 'd' ? 'directory' : kind === 'l' ? 'symlink' : 'other';
      entries.push({ path: rest.join('\t'), type, size: type === 'file' ? Number(size) : 0 });
    }
    return entries.sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0));
  }

  async stat(path: string): Promise<PathStatus> {
    const output = await this.run(['/bin/sh', '-c', statScript, 'agentbench-stat', path]);
    if (output.exitCode !== 0) throw new SandboxError('internal', `checking ${path} failed: ${output.stderr.toString('utf8').trim()}`, { subject: path });
    const [realPath = path, details] = output.stdout.toString('utf8').split('\n');
    const root = this.workdir;
    if (realPath !== root && !realPath.startsWith(`${root}/`)) throw new SymlinkBlockedError(path, realPath);
    const status: PathStatus = { exists: details !== undefined && details !== '', realPath };
    if (status.exists && details !== undefined) {
      const [kind = '', size = '0', mode = '0'] = details.split('|');
      status.type = kind === 'regular file' || kind === 'regular empty file' ? 'file' : kind === 'directory' ? 'directory' : kind === 'symbolic link' ? 'symlink' : 'other';
      status.size = Number(size);
      status.mode = Number.parseInt(mode, 8);
    }
    return status;
  }

  async makeDirectory(path: string): Promise<string> {
    const status = await this.stat(path);
    if (status.exists && status.type !== 'directory') {
      throw new SandboxError('not_a_directory', `${path} (or a parent of it) exists and is not a directory`, { subject: path });
    }
    const output = await this.run(['mkdir', '-p', '--', status.realPath]);
    if (output.exitCode !== 0) throw new SandboxError('not_a_directory', `cannot create the folder ${path}: ${output.stderr.toString('utf8').trim()}`, { subject: path });
    return status.realPath;
  }

  commandUser(): Promise<{ uid: number; gid: number }> {
    this.user ??= this.run(['id', '-u']).then(async (uid) => {
      const gid = await this.run(['id', '-g']);
      return { uid: Number(uid.stdout.toString().trim()) || 0, gid: Number(gid.stdout.toString().trim()) || 0 };
    });
    return this.user;
  }

  close(error: Error): void {
    if (this.closedError !== undefined) return;
    this.closedError = error;
    for (const command of this.running.values()) command.fail(error);
    this.running.clear();
  }

  private async runCommand(id: number, request: Omit<ExecRequest, 'op'>, sinks: ExecSinks, setAbort: (callback: () => void) => void): Promise<ExitMessage> {
    this.assertOpen();
    const marker = `${markerName}=engine-${this.token}-${id}`;
    const argv = request.argv ?? ['/bin/sh', '-c', request.shell ?? ''];
    const environment = Object.entries(request.env ?? {}).map(([name, value]) => `${name}=${value}`);
    const stdin = request.stdin_b64 === undefined ? undefined : Buffer.from(request.stdin_b64, 'base64');
    let startupOutput = '';
    const attached = await startAttachedExec(this.docker, this.container, {
      argv: ['/bin/sh', '-c', commandWrapper, 'agentbench-command', ...argv],
      env: [...environment, marker],
      workingDir: request.cwd ?? this.workdir,
      hasStdin: stdin !== undefined,
      onStdout: (chunk) => {
        if (startupOutput.length < 4096) startupOutput += chunk.toString('utf8');
        sinks.onStdout(chunk);
      },
      onStderr: (chunk) => sinks.onStderr(chunk),
    });
    if (stdin !== undefined) {
      attached.stream.write(stdin);
      attached.stream.end();
    }
    let killedBy: 'timeout' | 'abort' | undefined;
    const killTree = (reason: 'timeout' | 'abort'): void => {
      if (killedBy !== undefined) return;
      killedBy = reason;
      void this.run(['/bin/sh', '-c', killScript, 'agentbench-kill', marker]).catch(() => undefined);
    };
    const timer = request.timeout_ms ? setTimeout(() => killTree('timeout'), request.timeout_ms) : undefined;
    setAbort(() => killTree('abort'));
    try {
      await attached.ended;
    } finally {
      clearTimeout(timer);
    }
    const code = (await execExitCode(this.docker, attached.exec)) ?? 1;
    if (code === 126 && /chdir to cwd/i.test(startupOutput)) {
      throw new SandboxError('file_not_found', `working directory ${request.cwd ?? this.workdir} does not exist`, { subject: request.cwd ?? this.workdir });
    }
    if (killedBy === 'timeout') return exitMessage(id, 124, 9, 'timeout');
    if (killedBy === 'abort') return exitMessage(id, 137, 9, 'abort');
    return exitMessage(id, code, null, null);
  }

  /** One exec with its output collected. */
  private async run(argv: string[]): Promise<{ exitCode: number; stdout: Buffer; stderr: Buffer }> {
    this.assertOpen();
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    const attached = await startAttachedExec(this.docker, this.container, {
      argv,
      hasStdin: false,
      onStdout: (chunk) => stdout.push(chunk),
      onStderr: (chunk) => stderr.push(chunk),
    });
    await attached.ended;
    const exitCode = (await execExitCode(this.docker, attached.exec)) ?? 1;
    return { exitCode, stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr) };
  }

  private assertOpen(): void {
    if (this.closedError !== undefined) throw this.closedError;
  }
}

function exitMessage(id: number, code: number, signal: number | null, killedBy: ExitMessage['killed_by']): ExitMessage {
  return { id, type: 'exit', code, signal, timed_out: killedBy === 'timeout', oom: false, killed_by: killedBy };
}
