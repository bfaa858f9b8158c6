import { describe, expect, it } from 'vitest';
import { readContainerCpuSeconds } from '../src/docker/container-cpu-seconds.js';
import { useDockerTestContext } from './helpers/docker-test-context.js';

const context = await useDockerTestContext('container-cpu-seconds.docker.test.ts');
const title = context.skipReason === undefined ? 'a Docker sandbox’s CPU seconds' : `a Docker sandbox’s CPU seconds (skipped: ${context.skipReason})`;

describe.skipIf(context.skipReason !== undefined)(title, () => {
  it('grows by the CPU a command burns, read from the container’s cgroup before removal', async () => {
    const sandbox = await context.createSandbox({}, 'cpu-seconds');
    try {
      const before = await readContainerCpuSeconds(sandbox.containerId, { docker: context.docker });
      expect(before).toBeTypeOf('number');
      // About half a CPU second of pure Python arithmetic.
      const result = await sandbox.exec(['python3', '-c', 'import time\nend = time.process_time() + 0.5\nwhile time.process_time() < end: pass']);
      expect(result.exitCode).toBe(0);
      const after = await readContainerCpuSeconds(sandbox.containerId, { docker: context.docker });
      expect((after as number) - (before as number)).toBeGreaterThanOrEqual(0.45);
    } finally {
      await sandbox.dispose();
    }
  }, 120_000);
});
