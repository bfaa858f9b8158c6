import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A second, real Docker engine for tests: dockerd in a network namespace of its own (never the host's:
 * a dockerd stopping there deletes docker0 for everyone), with its own data and exec roots, listening
 * on TCP with TLS (certificates made here with openssl) at the netns end of a veth pair.
 */
export interface SecondEngine {
  dir: string;
  /** tcp://IP:2376 */
  host: string;
  tls: { ca: string; cert: string; key: string };
  start(): Promise<void>;
  /**
   * SIGTERM, then waits for dockerd to exit; one that has not stopped after 30 s is killed with everything
   * it started (its containerd, the shims, the containers' processes), so a stuck shutdown never hangs a test.
   */
  stop(): Promise<void>;
  /** Stops it and removes the netns, the veth pair and the folder (idempotent; safe at process exit). */
  destroy(): void;
}

/** Why the second engine cannot be made here (not root, a tool missing), or undefined. */
export function secondEngineSkipReason(): string | undefined {
  if (process.getuid?.() !== 0) return 'needs root (network namespace, veth pair, a second dockerd)';
  for (const tool of ['ip', 'nsenter', 'dockerd', 'openssl']) {
    try {
      execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'pipe' });
    } catch {
      return `${tool} is not installed`;
    }
  }
  return undefined;
}

function run(command: string, args: string[]): void {
  execFileSync(command, args, { stdio: 'pipe' });
}

function makeCertificates(dir: string, ip: string): { ca: string; cert: string; key: string } {
  const file = (name: string): string => path.join(dir, name);
  run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=agentbench-test-ca', '-keyout', file('ca-key.pem'), '-out', file('ca.pem')]);
  const sign = (name: string, subject: string, extensions: string): void => {
    run('openssl', ['req', '-newkey', 'rsa:2048', '-nodes', '-subj', subject, '-keyout', file(`${name}-key.pem`), '-out', file(`${name}.csr`)]);
    writeFileSync(file(`${name}.ext`), extensions);
    run('openssl', ['x509', '-req', '-in', file(`${name}.csr`), '-CA', file('ca.pem'), '-CAkey', file('ca-key.pem'), '-CAcreateserial', '-days', '1', '-extfile', file(`${name}.ext`), '-out', file(`${name}.pem`)]);
  };
  sign('server', '/CN=agentbench-second-engine', `subjectAltName=IP:${ip}\nextendedKeyUsage=serverAuth\n`);
  sign('client', '/CN=agentbench-client', 'extendedKeyUsage=clientAuth\n');
  return { ca: file('ca.pem'), cert: file('client.pem'), key: file('client-key.pem') };
}

/** How long a stopping dockerd may take (12 s seen here with containers running) before it is killed. */
const STOP_GRACE_MS = 30_000;

export function createSecondEngine(): SecondEngine {
  // A subnet and names of this process's own, so two test processes never meet.
  const tag = String(process.pid % 100_000);
  const octet = (process.pid % 60) * 4;
  const hostIp = `10.250.${(process.pid >> 6) % 250}.${octet + 1}`;
  const engineIp = `10.250.${(process.pid >> 6) % 250}.${octet + 2}`;
  const netns = `abeng${tag}`;
  const hostVeth = `abeh${tag}`;
  const engineVeth = `abee${tag}`;
  const dir = mkdtempSync(path.join(tmpdir(), 'ab-second-engine-'));
  let dockerd: ChildProcess | undefined;
  let isDestroyed = false;

  /**
   * SIGKILL to this engine's dockerd, its containerd and shims (their command lines name `dir`) and to the
   * processes of its containers (their cgroups, by the container ids of its data root): nothing of it may
   * outlive the test, whatever state its shutdown got stuck in.
   */
  const killEverything = (): void => {
    const script = [
      'for id in $(ls "$ENGINE_DIR/data/containers" 2>/dev/null); do',
      '  for procs in /sys/fs/cgroup/*/docker/$id/cgroup.procs /sys/fs/cgroup/docker/$id/cgroup.procs; do',
      '    [ -f "$procs" ] && xargs -r kill -9 < "$procs" 2>/dev/null',
      '  done',
      'done',
      // The folder comes through the environment: a pattern in this script's own command line would match the shell.
      'pkill -9 -f "$ENGINE_DIR/" 2>/dev/null',
      'exit 0',
    ].join('\n');
    try {
      execFileSync('sh', ['-c', script], { stdio: 'ignore', timeout: 20_000, env: { ...process.env, ENGINE_DIR: dir } });
    } catch {
      // Best effort: what is left shows in the leftover check.
    }
  };

  const destroy = (): void => {
    if (isDestroyed) return;
    isDestroyed = true;
    process.off('exit', destroy);
    if (dockerd?.pid !== undefined && dockerd.exitCode === null) {
      try {
        process.kill(dockerd.pid, 'SIGTERM');
        // Synchronous wait (also used at process exit): up to 20 s for dockerd to stop its containers.
        execFileSync('sh', ['-c', `for i in $(seq 200); do kill -0 ${dockerd.pid} 2>/dev/null || exit 0; sleep 0.1; done`], { stdio: 'ignore' });
      } catch {
        // Gone already.
      }
    }
    // Whatever is still running (a dockerd that did not stop, or what a killed or dead one left) goes now.
    killEverything();
    for (const args of [['link', 'del', hostVeth], ['netns', 'del', netns]]) {
      try {
        run('ip', args);
      } catch {
        // Not made, or gone with the namespace.
      }
    }
    try {
      execFileSync('sh', ['-c', `grep -o " ${dir}[^ ]*" /proc/mounts | sort -r | xargs -r -n1 umount -l`], { stdio: 'ignore' });
    } catch {
      // Nothing mounted.
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', destroy);

  const tls = makeCertificates(dir, engineIp);
  run('ip', ['netns', 'add', netns]);
  run('ip', ['link', 'add', hostVeth, 'type', 'veth', 'peer', 'name', engineVeth]);
  run('ip', ['link', 'set', engineVeth, 'netns', netns]);
  run('ip', ['addr', 'add', `${hostIp}/30`, 'dev', hostVeth]);
  run('ip', ['link', 'set', hostVeth, 'up']);
  run('ip', ['netns', 'exec', netns, 'ip', 'addr', 'add', `${engineIp}/30`, 'dev', engineVeth]);
  run('ip', ['netns', 'exec', netns, 'ip', 'link', 'set', engineVeth, 'up']);
  run('ip', ['netns', 'exec', netns, 'ip', 'link', 'set', 'lo', 'up']);

  const socket = path.join(dir, 'docker.sock');
  const start = async (): Promise<void> => {
    mkdirSync(path.join(dir, 'data'), { recursive: true });
    const log = path.join(dir, 'dockerd.log');
    const args = [
      `--net=/var/run/netns/${netns}`,
      'dockerd',
      '--data-root', path.join(dir, 'data'),
      '--exec-root', path.join(dir, 'exec'),
      '--pidfile', path.join(dir, 'dockerd.pid'),
      // Its own containerd namespaces: the host's containerd may be shared, its containers must not be.
      '--containerd-namespace', `abeng${tag}`,
      '--containerd-plugins-namespace', `abeng${tag}-plugins`,
      '--bip', '172.31.250.1/24',
      '--iptables=false',
      '--ip6tables=false',
      '--shutdown-timeout', '2',
      '-H', `unix://${socket}`,
      '-H', `tcp://${engineIp}:2376`,
      '--tlsverify', '--tlscacert', tls.ca, '--tlscert', path.join(dir, 'server.pem'), '--tlskey', path.join(dir, 'server-key.pem'),
    ];
    const output = openSync(log, 'a');
    dockerd = spawn('nsenter', args, { stdio: ['ignore', output, output] });
    for (let waited = 0; waited < 60_000; waited += 250) {
      if (dockerd.exitCode !== null) throw new Error(`the second dockerd exited with ${dockerd.exitCode}; see ${log}`);
      try {
        execFileSync('docker', ['-H', `unix://${socket}`, 'version', '--format', '{{.Server.Version}}'], { stdio: 'pipe', timeout: 5_000 });
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
    throw new Error(`the second dockerd did not answer within 60 s; see ${log}`);
  };
  const stop = async (): Promise<void> => {
    const child = dockerd;
    if (child?.pid === undefined || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(child.pid, 'SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const isStuck = await Promise.race([
      exited.then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), STOP_GRACE_MS);
      }),
    ]);
    clearTimeout(timer);
    if (!isStuck) return;
    console.warn(`[second-engine] dockerd did not stop within ${STOP_GRACE_MS / 1000} s of SIGTERM: killing it and what it started (see ${path.join(dir, 'dockerd.log')})`);
    killEverything();
    await exited;
  };
  return { dir, host: `tcp://${engineIp}:2376`, tls, start, stop, destroy };
}
