#!/usr/bin/env node
// Runs after the whole test run: no container labelled as ours may be left behind.
// Fails the run (and removes them) if any is found, so a hole in a cleanup path shows.
// Each leftover is described (name, image, state, our labels) so the leaking test can be found from the CI log alone.
import { spawnSync } from 'node:child_process';

const probe = spawnSync('docker', ['ps', '-aq', '--filter', 'label=dev.agentbench.managed=true'], { encoding: 'utf8' });
if (probe.error || probe.status !== 0) {
  console.log('[leftovers] docker not reachable: nothing to check');
  process.exit(process.env.AGENTBENCH_REQUIRE_DOCKER === '1' ? 1 : 0);
}
const ids = probe.stdout.split('\n').filter(Boolean);
if (ids.length === 0) {
  console.log('[leftovers] no AgentBench container left');
  process.exit(0);
}
console.error(`[leftovers] ${ids.length} AgentBench container(s) left after the tests: ${ids.join(' ')}; removing them`);
const inspected = spawnSync('docker', ['inspect', ...ids], { encoding: 'utf8' });
if (inspected.status === 0) {
  for (const c of JSON.parse(inspected.stdout)) {
    const labels = Object.entries(c.Config?.Labels ?? {})
      .filter(([k]) => k.startsWith('dev.agentbench.'))
      .map(([k, v]) => `${k.slice('dev.agentbench.'.length)}=${v}`)
      .join(' ');
    const mounts = (c.Mounts ?? []).map((m) => m.Source).join(',');
    console.error(`[leftovers]   ${c.Id.slice(0, 12)} ${c.Name} image=${c.Config?.Image} state=${c.State?.Status} created=${c.Created} ${labels}${mounts ? ` mounts=${mounts}` : ''}`);
  }
}
spawnSync('docker', ['rm', '-f', ...ids], { stdio: 'inherit' });
process.exit(1);
