import { expect } from 'vitest';
import { EXIT_CODE_KILLED } from '../contract/sandbox.js';
import type { ConformanceContext } from './conformance-context.js';

/** Exit codes as a shell reports them: the command's own, 128 + n for signal n, 126 and 127 for what could not run. */
export function registerExitAndSignalChecks(context: ConformanceContext): void {
  context.check('exit.codes', 'exec', "reports the command's exit code, stdout and stderr apart; a string runs through /bin/sh, an argv array as is", async () => {
    const sandbox = await context.sandbox();
    const shell = await sandbox.exec('echo out; echo err >&2; exit 3');
    expect(shell).toMatchObject({ exitCode: 3, stdout: 'out\n', stderr: 'err\n', timedOut: false, truncated: false });
    expect(shell.killedBy).toBeUndefined();
    expect(await sandbox.exec(['printf', '%s|', 'a b', '$HOME', "it's", '*'])).toMatchObject({ exitCode: 0, stdout: "a b|$HOME|it's|*|" });
    expect((await sandbox.exec(['true'])).exitCode).toBe(0);
    expect((await sandbox.exec(['false'])).exitCode).toBe(1);
  });

  context.check('exit.signals', 'exec', 'reports death by signal n as 128 + n with killedBy signal (137 for SIGKILL, 143 for SIGTERM)', async () => {
    const sandbox = await context.sandbox();
    expect(await sandbox.exec(['sh', '-c', 'kill -KILL $$'])).toMatchObject({ exitCode: EXIT_CODE_KILLED, killedBy: 'signal', signal: 9, timedOut: false });
    expect(await sandbox.exec(['sh', '-c', 'kill -TERM $$'])).toMatchObject({ exitCode: 143, killedBy: 'signal', signal: 15, timedOut: false });
  });

  context.check('exit.not-runnable', 'exec', 'reports a missing program as 127 and one that may not run as 126, as a shell does', async () => {
    const sandbox = await context.sandbox();
    const missing = await sandbox.exec(['no-such-program-4711']);
    expect(missing.exitCode).toBe(127);
    expect(missing.stderr).toContain('no-such-program-4711');
    expect((await sandbox.exec('no-such-program-4711')).exitCode).toBe(127);
    await sandbox.writeFile('not-executable.sh', 'echo ran\n');
    expect((await sandbox.exec(['./not-executable.sh'])).exitCode).toBe(126);
    expect((await sandbox.exec('./not-executable.sh')).exitCode).toBe(126);
  });
}
