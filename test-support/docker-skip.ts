import { execFileSync } from 'node:child_process';
import { skipUnlessRequired } from './skip-unless-required.js';

// Test helpers shared by the packages' tests (like vitest.shared.ts); not part of any package.

export const RUNNER_IMAGE = process.env['AGENTBENCH_RUNNER_IMAGE'] ?? 'agentbench/py-runner:0.1.0';

/**
 * Why a Docker test file cannot run (no engine, no runner image), or undefined when it can;
 * the reason is printed. With AGENTBENCH_REQUIRE_DOCKER=1 (CI) a missing engine or image
 * fails the run instead of skipping.
 */
export function dockerSkipReason(fileName: string, image: string = RUNNER_IMAGE): string | undefined {
  let reason: string | undefined;
  try {
    execFileSync('docker', ['version', '--format', '{{.Server.Version}}'], { stdio: 'pipe', timeout: 20_000 });
  } catch {
    reason = 'Docker engine not reachable';
  }
  if (reason === undefined) {
    try {
      execFileSync('docker', ['image', 'inspect', image], { stdio: 'pipe', timeout: 20_000 });
    } catch {
      reason = `runner image ${image} is missing (build it with docker/py-runner/build-offline.sh)`;
    }
  }
  return skipUnlessRequired(fileName, reason, 'AGENTBENCH_REQUIRE_DOCKER');
}
