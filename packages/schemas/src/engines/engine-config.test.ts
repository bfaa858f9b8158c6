import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseEnginesConfig } from './engine-config.js';
import { loadConfiguredEngines, loadEnginesFile } from './load-engines-file.js';

const file = '/etc/agentbench/engines.json';
const local = { name: 'local', host: 'unix:///var/run/docker.sock', capacity: 2 };
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('engines list', () => {
  it('reads unix, tcp with TLS (paths resolved against the file) and ssh engines', () => {
    const config = parseEnginesConfig(
      {
        engines: [
          local,
          { name: 'second', host: 'tcp://10.250.0.2:2376', tls: { ca: 'certs/ca.pem', cert: '/abs/cert.pem', key: 'certs/key.pem' }, capacity: 3 },
          { name: 'remote', host: 'ssh://bench@build-7', capacity: 1 },
        ],
      },
      file,
    );
    expect(config?.engines.map((engine) => engine.name)).toEqual(['local', 'second', 'remote']);
    expect(config?.engines[1]?.tls).toEqual({ ca: '/etc/agentbench/certs/ca.pem', cert: '/abs/cert.pem', key: '/etc/agentbench/certs/key.pem' });
  });

  it('names the file, the field and a near key for a typo', () => {
    expect(() => parseEnginesConfig({ engines: [{ name: 'local', host: 'unix:///var/run/docker.sock', capcity: 2 }] }, file)).toThrow(
      "/etc/agentbench/engines.json: engines[0]: unknown key 'capcity', did you mean 'capacity'?",
    );
    expect(() => parseEnginesConfig({ engines: [{ ...local, tls: { ca: 'a', cert: 'b', kee: 'c' } }] }, file)).toThrow(/engines\[0\]\.tls: TLS applies to tcp:\/\/ engines only/);
    expect(() => parseEnginesConfig({ engines: [{ ...local, host: 'tcp://h:1', tls: { ca: 'a', cert: 'b', kee: 'c' } }] }, file)).toThrow("engines[0].tls: unknown key 'kee', did you mean 'key'?");
  });

  it('refuses bad hosts, capacities, names and duplicates with what was expected', () => {
    expect(() => parseEnginesConfig({ engines: [{ ...local, host: 'http://x:1' }] }, file)).toThrow(/engines\[0\]\.host: expected unix:\/\/\/absolute\/path, tcp:\/\/host:port or ssh/);
    expect(() => parseEnginesConfig({ engines: [{ ...local, host: 'tcp://x' }] }, file)).toThrow(/engines\[0\]\.host/);
    expect(() => parseEnginesConfig({ engines: [{ ...local, capacity: 0 }] }, file)).toThrow('engines[0].capacity: expected a whole number of at least 1 (attempts at once on this engine), found 0');
    expect(() => parseEnginesConfig({ engines: [{ ...local, name: 'Big Engine' }] }, file)).toThrow(/engines\[0\]\.name: expected a lower-case identifier/);
    expect(() => parseEnginesConfig({ engines: [local, local] }, file)).toThrow("engines[1].name: engine name 'local' is used twice");
    expect(() => parseEnginesConfig({ engines: [] }, file)).toThrow('engines: expected a non-empty list of engines, found []');
    expect(parseEnginesConfig({ git: {} }, file)).toBeUndefined();
  });

  it('loads --engines files and agentbench.config.json, naming the file on bad JSON or a missing list', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'engines-'));
    dirs.push(dir);
    const good = path.join(dir, 'engines.json');
    await writeFile(good, JSON.stringify({ engines: [local] }));
    expect((await loadEnginesFile(good)).engines).toEqual([local]);
    const broken = path.join(dir, 'broken.json');
    await writeFile(broken, '{ "engines": [');
    await expect(loadEnginesFile(broken)).rejects.toThrow(`${broken}: not valid JSON`);
    const empty = path.join(dir, 'empty.json');
    await writeFile(empty, '{}');
    await expect(loadEnginesFile(empty)).rejects.toThrow(`${empty}: has no "engines" list`);
    await expect(loadEnginesFile(path.join(dir, 'missing.json'))).rejects.toThrow(/missing\.json: cannot read the engines file: file not found/);
    expect(await loadConfiguredEngines(dir)).toBeUndefined();
    await writeFile(path.join(dir, 'agentbench.config.json'), JSON.stringify({ git: { mirrors: {} }, engines: [local] }));
    expect((await loadConfiguredEngines(dir))?.engines).toEqual([local]);
  });
});
