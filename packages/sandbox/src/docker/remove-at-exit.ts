import { spawnSync } from 'node:child_process';
import type { ExitCleanup } from '../core/live-sandboxes.js';
import type { EngineEndpoint } from './engine-endpoint.js';


/** A container to remove at process exit, and the image made for it alone (a gVisor move's), removed after it. */
export type ExitRemovalTarget = { id: string; image?: string } & EngineEndpoint;

/** The live-sandbox tracker's exit cleanup of one container (a sandbox's or a network holder's). */
export function containerExitCleanup(target: ExitRemovalTarget): ExitCleanup<ExitRemovalTarget> {
  return { target, run: removeContainersSynchronously };
}

// Each target's image (if any) is removed once its container is: an image in use cannot be.
const removerScript = `
const http = require('node:http');
const targets = JSON.parse(process.argv[1]);
let pending = targets.length;
function call(target, method, path, then) {
  const options = { method, path, timeout: 8000 };
  if (target.socketPath) options.socketPath = target.socketPath; else { options.host = target.host; options.port = target.port; }
  const request = http.request(options, (response) => { response.resume(); response.on('end', then); });
  request.on('error', then);
  request.on('timeout', () => request.destroy());
  request.end();
}
for (const target of targets) {
  call(target, 'DELETE', '/containers/' + encodeURIComponent(target.id) + '?force=true&v=true', () => {
    if (target.image) call(target, 'DELETE', '/images/' + encodeURIComponent(target.image) + '?force=true', done);
    else done();
  });
}
function done() { pending -= 1; if (pending === 0) process.exit(0); }
`;

function removeContainersSynchronously(targets: ExitRemovalTarget[]): void {
  const reachable = targets.filter((target) => target.socketPath !== undefined || target.host !== undefined);
  if (reachable.length === 0) return;
  try {
    spawnSync(process.execPath, ['-e', removerScript, JSON.stringify(reachable)], { stdio: 'ignore', timeout: 10_000 });
  } catch {
    // Best effort: `ab cleanup` finds what is left by its labels.
  }
}
