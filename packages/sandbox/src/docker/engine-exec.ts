import type { Duplex } from 'node:stream';
import { Writable } from 'node:stream';
import type Dockerode from 'dockerode';
import { toSandboxError } from './docker-errors.js';

export interface AttachedExecOptions {
  argv: string[];
  env?: string[];
  workingDir?: string;
  user?: string;
  /** Keep stdin open for writing (the stream's write side). */
  hasStdin: boolean;
  onStdout(chunk: Buffer): void;
  onStderr(chunk: Buffer): void;
}

export interface AttachedExec {
  exec: Dockerode.Exec;
  /** The hijacked connection: write to send stdin, `end()` to close it. */
  stream: Duplex;
  /** Settles when the engine closed the connection (the process ended). */
  ended: Promise<void>;
}

/**
 * Starts one Engine API exec with its output attached over a hijacked connection and
 * demultiplexed (no TTY, so stdout and stderr arrive as framed stream 1 and 2).
 */
export async function startAttachedExec(docker: Dockerode, container: Dockerode.Container, options: AttachedExecOptions): Promise<AttachedExec> {
  let exec: Dockerode.Exec;
  let stream: Duplex;
  try {
    const createOptions: Dockerode.ExecCreateOptions = {
      Cmd: options.argv,
      AttachStdin: options.hasStdin,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
    };
    if (options.env !== undefined) createOptions.Env = options.env;
    if (options.workingDir !== undefined) createOptions.WorkingDir = options.workingDir;
    if (options.user !== undefined) createOptions.User = options.user;
    exec = await container.exec(createOptions);
    stream = (await exec.start({ hijack: true, stdin: options.hasStdin })) as Duplex;
  } catch (error) {
    throw toSandboxError(docker, error, { action: 'start a command in the sandbox container' });
  }
  const ended = demultiplex(docker, stream, options);
  return { exec, stream, ended };
}

/**
 * Splits a hijacked, non-TTY connection into stdout and stderr (framed as stream 1 and
 * 2); settles when the engine closes it.
 */
export function demultiplex(docker: Dockerode, stream: Duplex, sinks: Pick<AttachedExecOptions, 'onStdout' | 'onStderr'>): Promise<void> {
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      sinks.onStdout(chunk);
      callback();
    },
  });
  const stderr = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      sinks.onStderr(chunk);
      callback();
    },
  });
  docker.modem.demuxStream(stream, stdout, stderr);
  return new Promise<void>((resolve) => {
    let isDone = false;
    const done = (): void => {
      if (isDone) return;
      isDone = true;
      resolve();
    };
    stream.once('end', done);
    stream.once('close', done);
    stream.once('error', done);
  });
}

/**
 * The exit code of a finished exec. The engine may still report it running for a moment
 * after the connection closed, so this asks again a few times.
 */
export async function execExitCode(docker: Dockerode, exec: Dockerode.Exec): Promise<number | undefined> {
  for (let attempt = 0; attempt < 50; attempt++) {
    let info: Dockerode.ExecInspectInfo;
    try {
      info = await exec.inspect();
    } catch (error) {
      throw toSandboxError(docker, error, { action: 'read the exit code of a command' });
    }
    if (!info.Running && info.ExitCode !== null) return info.ExitCode;
    await new Promise((resolve) => setTimeout(resolve, Math.min(2 * (attempt + 1), 20)));
  }
  return undefined;
}
