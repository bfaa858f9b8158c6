import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';

export interface CommandLog {
  readonly path: string;
  writeStdout(chunk: Buffer): void;
  writeStderr(chunk: Buffer): void;
  /** Appends stderr after stdout, then `footer`; throws if the log could not be written. */
  close(footer: string | undefined): Promise<void>;
}

/**
 * The full output of one command, in the same layout as the local backend's logs:
 * `$ command`, `--- stdout ---`, all of stdout, `--- stderr ---`, all of stderr, the exit
 * line. stderr waits in a side file while the command runs, so each stream reads in one
 * piece. A write error (disk full) is kept and thrown by `close`.
 */
export async function openCommandLog(path: string, commandText: string): Promise<CommandLog> {
  const stderrPath = `${path}.stderr-partial`;
  const stdout = createWriteStream(path);
  const stderr = createWriteStream(stderrPath);
  let failure: Error | undefined;
  const remember = (error: Error): void => {
    failure ??= error;
  };
  stdout.on('error', remember);
  stderr.on('error', remember);
  await Promise.all([once(stdout, 'open'), once(stderr, 'open')]);
  stdout.write(`$ ${commandText}\n--- stdout ---\n`);
  return {
    path,
    writeStdout: (chunk) => {
      stdout.write(chunk);
    },
    writeStderr: (chunk) => {
      stderr.write(chunk);
    },
    async close(footer) {
      await endStream(stderr).catch(remember);
      if (failure === undefined) {
        stdout.write('\n--- stderr ---\n');
        try {
          for await (const chunk of createReadStream(stderrPath)) {
            if (!stdout.write(chunk)) await once(stdout, 'drain');
          }
        } catch (error) {
          remember(error as Error);
        }
        if (footer !== undefined) stdout.write(`\n${footer}`);
      }
      await endStream(stdout).catch(remember);
      await rm(stderrPath, { force: true });
      if (failure !== undefined) throw new Error(`could not write the command log ${path}: ${failure.message}`);
    },
  };
}

function endStream(stream: WriteStream): Promise<void> {
  return new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
}
