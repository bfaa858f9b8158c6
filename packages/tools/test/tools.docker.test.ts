import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useDockerToolSet, type DockerToolSet } from './helpers/docker-tool-set.js';

const calc = 'def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a + b\n';
const { workspace, skipReason } = await useDockerToolSet('tools.docker.test.ts', {
  'src/calc.py': calc,
  'tests/test_calc.py': 'from src.calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n',
  'README.md': '# Calc\n',
  'big.log': Array.from({ length: 5000 }, (_, index) => `line ${index + 1}`).join('\n') + '\n',
  'logo.png': Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]),
  '.git/HEAD': 'ref: refs/heads/main\n',
  'src/__pycache__/calc.pyc': 'x',
});
const title = skipReason === undefined ? 'the five tools in a DockerSandbox' : `the five tools in a DockerSandbox (skipped: ${skipReason})`;

describe.skipIf(skipReason !== undefined)(title, () => {
  const docker = workspace as DockerToolSet;

  it('list_files walks the repository without hidden folders, caches or links', async () => {
    await docker.shell('ln -s src/calc.py link.py && ln -s /etc etc-link');
    const result = await docker.call('list_files', {});
    expect(result.data?.['files']).toEqual(['README.md', 'big.log', 'logo.png', 'src/calc.py', 'tests/test_calc.py']);
    expect((await docker.call('list_files', { root: '..' })).error?.kind).toBe('path_escape');
    expect((await docker.call('list_files', { root: 'etc-link' })).error?.kind).toBe('symlink_blocked');
  });

  it('read_file reads, truncates, suggests, lists folders and refuses binaries and escapes', async () => {
    expect((await docker.call('read_file', { path: 'src/calc.py', start_line: 2, end_line: 2 })).data?.['content']).toBe('    return a - b');
    const big = await docker.call('read_file', { path: 'big.log' });
    expect(big.data).toMatchObject({ truncated: true, total_lines: 5000, lines_omitted: '1001-4000' });
    const missing = await docker.call('read_file', { path: 'src/calk.py' });
    expect(missing.error).toMatchObject({ kind: 'file_not_found', details: { suggestions: ['src/calc.py'] } });
    expect((await docker.call('read_file', { path: 'src' })).data).toMatchObject({ is_directory: true });
    expect((await docker.call('read_file', { path: 'logo.png' })).error?.kind).toBe('binary_file');
    expect((await docker.call('read_file', { path: '/etc/passwd' })).error?.kind).toBe('path_escape');
    expect((await docker.call('read_file', { path: 'etc-link/passwd' })).error?.kind).toBe('symlink_blocked');
    // A link into the root of a process we may not trace (non-dumpable): following it fails
    // with EACCES, and read_file says symlink_blocked like for any other link out.
    await docker.shell(
      `setsid python3 -c 'import ctypes, os, time; ctypes.CDLL(None).prctl(4, 0, 0, 0, 0); open("/tmp/pid.partial", "w").write(str(os.getpid())); os.rename("/tmp/pid.partial", "/tmp/undumpable.pid"); time.sleep(120)' > /dev/null 2>&1 &
      while [ ! -e /tmp/undumpable.pid ]; do sleep 0.05; done; ln -s "/proc/$(cat /tmp/undumpable.pid)/root/etc/passwd" proc-root-link`,
    );
    expect((await docker.call('read_file', { path: 'proc-root-link' })).error?.kind).toBe('symlink_blocked');
    await docker.shell('rm proc-root-link; kill "$(cat /tmp/undumpable.pid)"');
  });

  it('search uses ripgrep in the image', async () => {
    const result = await docker.call('search', { query: 'def add', context_lines: 1 });
    expect(result.data).toMatchObject({ engine: 'ripgrep', total_matches: 1 });
    expect(result.data?.['matches']).toEqual([{ file: 'src/calc.py', line: 1, content: 'def add(a, b):', context_before: [], context_after: ['    return a - b'] }]);
    expect((await docker.call('search', { query: 'nothing like this' })).data).toMatchObject({ matches: [], total_matches: 0 });
    expect((await docker.call('search', { query: '(', is_regex: true })).error?.kind).toBe('invalid_arguments');
  });

  it('apply_patch applies unified and Begin Patch changes, all or nothing, and saves the diff', async () => {
    const failing = await docker.call('apply_patch', {
      unified_diff: '--- a/src/calc.py\n+++ b/src/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-# Wrong\n+# Calculator\n',
    });
    expect(failing.error?.kind).toBe('patch_failed');
    expect(await docker.shell('cat src/calc.py')).toBe(calc);

    const unified = await docker.tools.execute(
      { tool: 'apply_patch', params: { unified_diff: '--- a/src/calc.py\n+++ b/src/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n' }, request_id: 'p1' },
      { step: 4 },
    );
    expect(unified.data).toMatchObject({ changed_files: ['src/calc.py'], patch_path: 'diffs/step_0004.patch' });
    expect(await readFile(join(docker.artifactsDir, 'diffs/step_0004.patch'), 'utf8')).toContain('+    return a + b');

    const beginPatch = await docker.call('apply_patch', {
      unified_diff: '*** Begin Patch\n*** Update File: src/calc.py\n@@ def mul(a, b):\n-    return a + b\n+    return a * b\n*** Add File: src/util.py\n+X = 1\n*** Delete File: README.md\n*** End Patch\n',
    });
    expect(beginPatch.status, JSON.stringify(beginPatch.error)).toBe('success');
    expect(await docker.shell('cat src/calc.py')).toBe('def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n');
    expect(await docker.shell('cat src/util.py; test ! -e README.md && echo gone')).toBe('X = 1\ngone\n');
    expect((await docker.call('apply_patch', { unified_diff: '--- a/link.py\n+++ b/link.py\n@@ -1 +1 @@\n-x\n+y\n' })).error?.kind).toBe('symlink_blocked');
    expect((await docker.call('apply_patch', { unified_diff: '--- /dev/null\n+++ b/../escape.py\n@@ -0,0 +1 @@\n+x\n' })).error?.kind).toBe('path_escape');
  });

  it('run executes in the repository with logs, and times out with 124', async () => {
    const tests = await docker.call('run', { command: 'python3 -m pytest -q tests 2>&1 | tail -1' });
    expect(tests).toMatchObject({ status: 'success', exit_code: 0 });
    expect(tests.data?.['stdout']).toContain('1 passed');
    expect(await readFile(join(docker.artifactsDir, tests.stdout_path as string), 'utf8')).toContain('1 passed');
    const slow = await docker.call('run', { command: 'sleep 20', timeout_sec: 1 });
    expect(slow.error?.kind).toBe('timeout');
    expect(slow.exit_code).toBe(124);
    expect((await docker.call('run', { command: 'true', network: true })).error?.kind).toBe('invalid_arguments');
  });
});
