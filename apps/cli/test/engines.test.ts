import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), 'ab-engines-unit-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function enginesFile(name: string, engines: unknown): string {
  const file = path.join(scratch, name);
  writeFileSync(file, JSON.stringify({ engines }));
  return file;
}

async function validateOn(file: string) {
  const out = path.join(scratch, `out-${path.basename(file, '.json')}`);
  const run = await runCli(['validate-suite', 'custom-dev', '--tasks', path.join(repoRoot, 'tasks'), '--out', out, '--engines', file]);
  return { ...run, out };
}

describe('--engines: bad input is one clear line, exit 1, nothing written', () => {
  it('a typo in the engines file names the file, the field and the key it meant', async () => {
    const file = enginesFile('typo.json', [{ name: 'local', host: 'unix:///var/run/docker.sock', capcity: 2 }]);
    const run = await validateOn(file);
    expect(run.stderr).toBe(`ab: ${file}: engines[0]: unknown key 'capcity', did you mean 'capacity'?\n`);
    expect(run.exitCode).toBe(1);
    expect(existsSync(run.out)).toBe(false);
  });

  it('bad TLS material names the engine, the field and the path', async () => {
    const notPem = path.join(scratch, 'ca.pem');
    writeFileSync(notPem, 'hello\n');
    const missing = path.join(scratch, 'nowhere', 'cert.pem');
    const file = enginesFile('bad-tls.json', [{ name: 'second', host: 'tcp://127.0.0.1:2376', tls: { ca: notPem, cert: missing, key: missing }, capacity: 1 }]);
    const run = await validateOn(file);
    expect(run.stderr).toMatch(new RegExp(`^ab: engine 'second' tls\\.(ca \\(${notPem}\\): not a PEM certificate|cert \\(${missing}\\): cannot read the file \\(ENOENT\\))[^\\n]*\\n$`));
    expect(run.exitCode).toBe(1);
    expect(existsSync(run.out)).toBe(false);
  });

  it('an engine that does not answer stops the run before it starts', async () => {
    const file = enginesFile('unreachable.json', [{ name: 'gone', host: 'tcp://127.0.0.1:1', capacity: 1 }]);
    const run = await validateOn(file);
    expect(run.stderr).toMatch(/^ab: engine 'gone' \(tcp:\/\/127\.0\.0\.1:1\) does not answer: ECONNREFUSED[^\n]*\n$/);
    expect(run.exitCode).toBe(1);
    expect(existsSync(run.out)).toBe(false);
  });

  it('ab image push names the engines it knows for an unknown one, and refuses a dead one', async () => {
    const file = enginesFile('push.json', [{ name: 'gone', host: 'tcp://127.0.0.1:1', capacity: 1 }]);
    const unknown = await runCli(['image', 'push', '--engine', 'secnod', '--engines', file]);
    expect(unknown.stderr).toMatch(/^ab: --engine: no engine named 'secnod'; the engines list has gone\n/);
    expect(unknown.exitCode).toBe(1);
    const dead = await runCli(['image', 'push', '--engine', 'gone', '--engines', file]);
    expect(dead.stderr).toMatch(/^ab: engine 'gone' \(tcp:\/\/127\.0\.0\.1:1\) does not answer: ECONNREFUSED/);
    expect(dead.exitCode).toBe(1);
  });

  it('ab cleanup reports an engine that does not answer and exits 1', async () => {
    const file = enginesFile('cleanup.json', [{ name: 'gone', host: 'tcp://127.0.0.1:1', capacity: 1 }]);
    const run = await runCli(['cleanup', '--engines', file, '--run-id', 'none']);
    expect(run.stderr).toMatch(/^engine gone: not cleaned: cannot reach the Docker engine at http:\/\/127\.0\.0\.1:1 \(ECONNREFUSED\)/);
    expect(run.exitCode).toBe(1);
  });
});
