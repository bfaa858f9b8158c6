import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What the engine writes as /etc/hosts for a container on `--network none`: a test that resolves
 * `localhost` finds it in an engine-networkless sandbox as it does there.
 */
export const NETWORKLESS_HOSTS = [
  '127.0.0.1\tlocalhost',
  '::1\tlocalhost ip6-localhost ip6-loopback',
  'fe00::0\tip6-localnet',
  'ff00::0\tip6-mcastprefix',
  'ff02::1\tip6-allnodes',
  'ff02::2\tip6-allrouters',
  '',
].join('\n');

let hostsFile: string | undefined;

/**
 * The host file mounted read-only as /etc/hosts into every sandbox the engine makes no network for
 * (the engine writes none then): one per process, written on first use, removed at exit. Read-only
 * in every sandbox, so none can change what another reads.
 */
export function networklessHostsFile(): string {
  if (hostsFile !== undefined) return hostsFile;
  // mkdtemp: a folder of this process's own (0700), so no other local user can put a file in its place.
  const folder = mkdtempSync(join(tmpdir(), 'agentbench-hosts-'));
  const file = join(folder, 'hosts');
  writeFileSync(file, NETWORKLESS_HOSTS, { mode: 0o644 });
  process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  hostsFile = file;
  return file;
}
