import { describe, expect, it } from 'vitest';
import { AgentBenchError } from '@agentbench/schemas';
import { ArtifactWriteError, asArtifactWriteError, writingArtifact } from './artifact-write-error.js';

function fsError(code: string, path?: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: failed, write`), { code, ...(path === undefined ? {} : { path }) });
}

describe('ArtifactWriteError', () => {
  it.each([
    ['ENOSPC', 'no space left on device'],
    ['EROFS', 'read-only file system'],
    ['EACCES', 'permission denied'],
    ['EDQUOT', 'disk quota exceeded'],
  ])('turns %s into a user error naming the path and the cause', (code, cause) => {
    const error = asArtifactWriteError(fsError(code), '/out/runs/x/attempts.jsonl');
    expect(ArtifactWriteError.isInstance(error)).toBe(true);
    expect(AgentBenchError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(`could not write /out/runs/x/attempts.jsonl: ${cause}`);
  });

  it('prefers the path the file system error names, and leaves other errors alone', () => {
    expect((asArtifactWriteError(fsError('EROFS', '/out/runs'), '/out') as Error).message).toBe('could not write /out/runs: read-only file system');
    const other = fsError('EBADF');
    expect(asArtifactWriteError(other, '/out')).toBe(other);
  });

  it('wraps a failing write', async () => {
    await expect(writingArtifact('/out/run.json', () => Promise.reject(fsError('ENOSPC')))).rejects.toThrow('could not write /out/run.json: no space left on device');
  });
});
