import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineClientOptions } from './engine-client.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'engine-client-'));
  // A throw-away self-signed certificate: a real PEM pair to read back.
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=test', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { stdio: 'ignore' });
  await writeFile(path.join(dir, 'garbage.pem'), 'not a certificate\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('engine client options', () => {
  it('maps unix, plain tcp and ssh addresses to dockerode options', async () => {
    expect(await engineClientOptions({ name: 'a', host: 'unix:///run/docker.sock', capacity: 1 })).toEqual({ socketPath: '/run/docker.sock' });
    expect(await engineClientOptions({ name: 'b', host: 'tcp://127.0.0.1:2375', capacity: 1 })).toEqual({ host: '127.0.0.1', port: 2375, protocol: 'http' });
    expect(await engineClientOptions({ name: 'c', host: 'ssh://bench@build-7:2222', capacity: 1 })).toMatchObject({ protocol: 'ssh', host: 'build-7', port: 2222, username: 'bench' });
  });

  it('reads and checks the TLS files of a tcp engine', async () => {
    const tls = { ca: path.join(dir, 'cert.pem'), cert: path.join(dir, 'cert.pem'), key: path.join(dir, 'key.pem') };
    const options = await engineClientOptions({ name: 'second', host: 'tcp://10.250.0.2:2376', tls, capacity: 1 });
    expect(options).toMatchObject({ host: '10.250.0.2', port: 2376, protocol: 'https' });
    expect(String(options.key)).toContain('PRIVATE KEY');
  });

  it('names the engine, the field and the path of unreadable or bad TLS material', async () => {
    const good = path.join(dir, 'cert.pem');
    const missing = path.join(dir, 'missing.pem');
    const garbage = path.join(dir, 'garbage.pem');
    await expect(engineClientOptions({ name: 'second', host: 'tcp://h:2376', tls: { ca: missing, cert: good, key: path.join(dir, 'key.pem') }, capacity: 1 })).rejects.toThrow(
      `engine 'second' tls.ca (${missing}): cannot read the file (ENOENT)`,
    );
    await expect(engineClientOptions({ name: 'second', host: 'tcp://h:2376', tls: { ca: good, cert: garbage, key: path.join(dir, 'key.pem') }, capacity: 1 })).rejects.toThrow(
      `engine 'second' tls.cert (${garbage}): not a PEM certificate (-----BEGIN CERTIFICATE-----)`,
    );
    await expect(engineClientOptions({ name: 'second', host: 'tcp://h:2376', tls: { ca: good, cert: good, key: good }, capacity: 1 })).rejects.toThrow(
      `engine 'second' tls.key (${good}): not a PEM private key`,
    );
  });
});
