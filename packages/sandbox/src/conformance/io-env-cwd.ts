import { expect } from 'vitest';
import type { ConformanceContext } from './conformance-context.js';

/** What goes into a command: stdin, environment, working folder; and what comes out as it runs. */
export function registerIoEnvCwdChecks(context: ConformanceContext): void {
  context.check('io.stdin', 'io', 'feeds stdin byte for byte, then end-of-file; none given is end-of-file at once', async () => {
    const sandbox = await context.sandbox();
    expect((await sandbox.exec(['cat'], { stdin: 'line one\nline two\n' })).stdout).toBe('line one\nline two\n');
    const bytes = Uint8Array.from([0, 1, 2, 255, 10]);
    expect((await sandbox.exec(['od', '-An', '-tx1'], { stdin: bytes })).stdout.trim()).toBe('00 01 02 ff 0a');
    expect(await sandbox.exec('cat; echo done')).toMatchObject({ exitCode: 0, stdout: 'done\n' });
  });

  context.check('io.env', 'io', "gives every command the spec's env, overridden and extended by the command's", async () => {
    const sandbox = await context.sandbox({ env: { SHARED: 'spec', ONLY_SPEC: 'yes' } });
    const result = await sandbox.exec('echo "$SHARED $ONLY_SPEC $ONLY_EXEC"', { env: { SHARED: 'exec', ONLY_EXEC: 'also' } });
    expect(result.stdout).toBe('exec yes also\n');
    expect((await sandbox.exec('echo "$SHARED"')).stdout).toBe('spec\n');
  });

  context.check('io.cwd', 'io', 'runs in the workspace and in a cwd relative to it or absolute inside it; refuses a cwd outside or missing', async () => {
    const sandbox = await context.sandbox({ files: { 'sub/dir/file.txt': 'x' } });
    expect((await sandbox.exec(['pwd'])).stdout).toBe(`${sandbox.workdir}\n`);
    expect((await sandbox.exec('pwd; ls', { cwd: 'sub/dir' })).stdout).toBe(`${sandbox.workdir}/sub/dir\nfile.txt\n`);
    expect((await sandbox.exec(['pwd'], { cwd: `${sandbox.workdir}/sub` })).stdout).toBe(`${sandbox.workdir}/sub\n`);
    await expect(sandbox.exec(['pwd'], { cwd: '../etc' })).rejects.toMatchObject({ kind: 'path_escape' });
    await expect(sandbox.exec(['pwd'], { cwd: '/etc' })).rejects.toMatchObject({ kind: 'path_escape' });
    await expect(sandbox.exec(['pwd'], { cwd: 'no/such/folder' })).rejects.toThrow(/no\/such\/folder/);
  });

  context.check('io.streaming', 'io', 'streams stdout and stderr to the callbacks as they come, the same text as the result', async () => {
    const sandbox = await context.sandbox();
    const stdoutChunks: string[] = [];
    const stderrChunks: string[] = [];
    const result = await sandbox.exec('for i in 1 2 3; do echo "o$i"; echo "e$i" >&2; done', {
      onStdout: (chunk) => stdoutChunks.push(chunk),
      onStderr: (chunk) => stderrChunks.push(chunk),
    });
    expect(result.stdout).toBe('o1\no2\no3\n');
    expect(stdoutChunks.join('')).toBe(result.stdout);
    expect(stderrChunks.join('')).toBe('e1\ne2\ne3\n');
  });
}
