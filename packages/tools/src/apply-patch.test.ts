import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalToolSet, type LocalToolSet } from '../test/helpers/local-tool-set.js';

let workspace: LocalToolSet | undefined;
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

const calc = 'def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a + b\n';
const fixedCalc = 'def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n';
const repository = { 'src/calc.py': calc, 'README.md': '# Calc\n', 'docs/old.md': 'old notes\n' };

const unifiedFix = [
  '--- a/src/calc.py',
  '+++ b/src/calc.py',
  '@@ -1,2 +1,2 @@',
  ' def add(a, b):',
  '-    return a - b',
  '+    return a + b',
  '@@ -5,2 +5,2 @@',
  ' def mul(a, b):',
  '-    return a + b',
  '+    return a * b',
  '',
].join('\n');

async function patch(unifiedDiff: string): Promise<Awaited<ReturnType<LocalToolSet['call']>>> {
  return (workspace as LocalToolSet).call('apply_patch', { unified_diff: unifiedDiff });
}

async function expectUnchanged(): Promise<void> {
  expect(await workspace?.read('src/calc.py')).toBe(calc);
  expect(await workspace?.read('README.md')).toBe('# Calc\n');
  expect(await workspace?.read('docs/old.md')).toBe('old notes\n');
}

describe('apply_patch: formats accepted', () => {
  it('applies a unified diff and saves what it applied as diffs/step_NNNN.patch', async () => {
    workspace = await createLocalToolSet(repository);
    const result = await workspace.tools.execute({ tool: 'apply_patch', params: { unified_diff: unifiedFix }, request_id: 'r1' }, { step: 7 });
    expect(result.status).toBe('success');
    expect(await workspace.read('src/calc.py')).toBe(fixedCalc);
    expect(result.data).toMatchObject({ changed_files: ['src/calc.py'], format: 'unified', hunks: 2, lines_added: 2, lines_removed: 2, patch_path: 'diffs/step_0007.patch', repairs: [] });
    const saved = await readFile(join(workspace.artifactsDir, 'diffs/step_0007.patch'), 'utf8');
    expect(saved).toContain('diff --git a/src/calc.py b/src/calc.py');
    expect(saved).toContain('-    return a - b\n+    return a + b');
  });

  it('never overwrites an artifact: a second patch at the same step gets its own file', async () => {
    workspace = await createLocalToolSet(repository);
    await workspace.tools.execute({ tool: 'apply_patch', params: { unified_diff: unifiedFix }, request_id: 'r1' }, { step: 3 });
    const second = await workspace.tools.execute(
      { tool: 'apply_patch', params: { unified_diff: '--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-# Calc\n+# Calculator\n' }, request_id: 'r2' },
      { step: 3 },
    );
    expect(second.data?.['patch_path']).toBe('diffs/step_0003-2.patch');
    expect((await readdir(join(workspace.artifactsDir, 'diffs'))).sort()).toEqual(['step_0003-2.patch', 'step_0003.patch']);
  });

  it('applies a git diff with a/ b/ prefixes, index lines, a new file, a deleted file and a rename', async () => {
    workspace = await createLocalToolSet(repository);
    const gitPatch = [
      'diff --git a/src/calc.py b/src/calc.py',
      'index 3b18e51..a9c1f2e 100644',
      '--- a/src/calc.py',
      '+++ b/src/calc.py',
      '@@ -1,2 +1,2 @@',
      ' def add(a, b):',
      '-    return a - b',
      '+    return a + b',
      'diff --git a/src/util.py b/src/util.py',
      'new file mode 100644',
      'index 0000000..e69de29',
      '--- /dev/null',
      '+++ b/src/util.py',
      '@@ -0,0 +1,2 @@',
      '+def double(x):',
      '+    return 2 * x',
      'diff --git a/README.md b/README.md',
      'deleted file mode 100644',
      'index 1111111..0000000',
      '--- a/README.md',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-# Calc',
      'diff --git a/docs/old.md b/docs/notes.md',
      'similarity index 60%',
      'rename from docs/old.md',
      'rename to docs/notes.md',
      '--- a/docs/old.md',
      '+++ b/docs/notes.md',
      '@@ -1 +1 @@',
      '-old notes',
      '+new notes',
      '',
    ].join('\n');
    const result = await patch(gitPatch);
    expect(result.status, JSON.stringify(result.error)).toBe('success');
    expect(result.data).toMatchObject({
      format: 'git',
      created_files: ['src/util.py'],
      deleted_files: ['README.md'],
      renamed_files: [{ from: 'docs/old.md', to: 'docs/notes.md' }],
    });
    expect(await workspace.read('src/util.py')).toBe('def double(x):\n    return 2 * x\n');
    expect(await workspace.read('docs/notes.md')).toBe('new notes\n');
    await expect(workspace.read('README.md')).rejects.toThrow(/ENOENT/);
    await expect(workspace.read('docs/old.md')).rejects.toThrow(/ENOENT/);
    const saved = await readFile(join(workspace.artifactsDir, result.data?.['patch_path'] as string), 'utf8');
    expect(saved).toContain('rename from docs/old.md');
    expect(saved).toContain('deleted file mode');
    expect(saved).toContain('new file mode');
  });

  it('applies a "*** Begin Patch" block: add, update with anchor and move, delete', async () => {
    workspace = await createLocalToolSet(repository);
    const result = await patch(
      [
        '*** Begin Patch',
        '*** Add File: src/util.py',
        '+def double(x):',
        '+    return 2 * x',
        '*** Update File: src/calc.py',
        '*** Move to: src/arithmetic.py',
        '@@ def mul(a, b):',
        '-    return a + b',
        '+    return a * b',
        '*** Delete File: docs/old.md',
        '*** End Patch',
      ].join('\n'),
    );
    expect(result.status, JSON.stringify(result.error)).toBe('success');
    expect(result.data).toMatchObject({ format: 'begin-patch', created_files: ['src/util.py'], renamed_files: [{ from: 'src/calc.py', to: 'src/arithmetic.py' }] });
    expect(await workspace.read('src/arithmetic.py')).toBe(calc.replace('return a + b', 'return a * b'));
    expect(await workspace.read('src/util.py')).toBe('def double(x):\n    return 2 * x\n');
    await expect(workspace.read('docs/old.md')).rejects.toThrow(/ENOENT/);
  });

  it('applies a context diff (*** / --- sections)', async () => {
    workspace = await createLocalToolSet(repository);
    const result = await patch(
      [
        '*** a/src/calc.py\t2024-05-01 10:00:00',
        '--- b/src/calc.py\t2024-05-01 10:05:00',
        '***************',
        '*** 1,2 ****',
        '  def add(a, b):',
        '!     return a - b',
        '--- 1,3 ----',
        '  def add(a, b):',
        '!     return a + b',
        '+ # fixed',
      ].join('\n'),
    );
    expect(result.status, JSON.stringify(result.error)).toBe('success');
    expect(result.data?.['format']).toBe('context');
    expect(await workspace.read('src/calc.py')).toBe(calc.replace('    return a - b\n', '    return a + b\n# fixed\n'));
  });

  it('repairs hunk headers with wrong line counts and says so', async () => {
    workspace = await createLocalToolSet(repository);
    const result = await patch(['--- a/src/calc.py', '+++ b/src/calc.py', '@@ -1,9 +1,12 @@', ' def add(a, b):', '-    return a - b', '+    return a + b'].join('\n'));
    expect(result.status).toBe('success');
    expect(result.data?.['repairs']).toContain('recounted hunk headers whose line counts did not match their bodies');
    expect(await workspace.read('src/calc.py')).toBe(calc.replace('a - b', 'a + b'));
  });

  it('applies hunks whose line numbers are wrong', async () => {
    workspace = await createLocalToolSet(repository);
    const result = await patch(['--- a/src/calc.py', '+++ b/src/calc.py', '@@ -40,2 +40,2 @@', ' def mul(a, b):', '-    return a + b', '+    return a * b', ''].join('\n'));
    expect(result.status).toBe('success');
    expect(await workspace.read('src/calc.py')).toBe(calc.replace('return a + b', 'return a * b'));
  });

  it('accepts a patch without a final newline, and keeps a file\'s missing final newline', async () => {
    workspace = await createLocalToolSet({ 'a.txt': 'one\ntwo' });
    const result = await patch('--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2');
    expect(result.status).toBe('success');
    expect(await workspace.read('a.txt')).toBe('one\n2');
  });

  it('honours "\\ No newline at end of file" markers', async () => {
    workspace = await createLocalToolSet({ 'a.txt': 'one\ntwo' });
    const result = await patch('--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n\\ No newline at end of file\n+two\n');
    expect(result.status).toBe('success');
    expect(await workspace.read('a.txt')).toBe('one\ntwo\n');
  });

  it('keeps CRLF files CRLF under an LF patch, and reads a CRLF patch', async () => {
    workspace = await createLocalToolSet({ 'win.txt': 'one\r\ntwo\r\nthree\r\n', 'unix.txt': 'one\ntwo\n' });
    expect((await patch('--- a/win.txt\n+++ b/win.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n')).status).toBe('success');
    expect(await workspace.read('win.txt')).toBe('one\r\n2\r\nthree\r\n');
    const crlfPatch = await patch('--- a/unix.txt\r\n+++ b/unix.txt\r\n@@ -1,2 +1,2 @@\r\n one\r\n-two\r\n+2\r\n');
    expect(crlfPatch.status).toBe('success');
    expect(await workspace.read('unix.txt')).toBe('one\n2\n');
  });

  it('creates a new file from a /dev/null diff, in a new folder', async () => {
    workspace = await createLocalToolSet(repository);
    const result = await patch('--- /dev/null\n+++ b/pkg/sub/new.py\n@@ -0,0 +1,2 @@\n+x = 1\n+y = 2\n');
    expect(result.data).toMatchObject({ created_files: ['pkg/sub/new.py'] });
    expect(await workspace.read('pkg/sub/new.py')).toBe('x = 1\ny = 2\n');
  });

  it('deletes a file from a diff to /dev/null', async () => {
    workspace = await createLocalToolSet(repository);
    const result = await patch('--- a/docs/old.md\n+++ /dev/null\n@@ -1 +0,0 @@\n-old notes\n');
    expect(result.data).toMatchObject({ deleted_files: ['docs/old.md'] });
    await expect(workspace.read('docs/old.md')).rejects.toThrow(/ENOENT/);
  });

  it('strips code fences and reports a patch that changes nothing', async () => {
    workspace = await createLocalToolSet({ 'a.txt': 'x\n' });
    const result = await patch('```diff\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-x\n+x\n```\n');
    expect(result.status).toBe('success');
    expect(result.data).toMatchObject({ changed_files: [], patch_path: null });
    expect(result.data?.['note']).toContain('changes nothing');
  });
});

describe('apply_patch: broken patches change nothing', () => {
  it('reports a context mismatch as patch_failed, showing the failing hunk and the file\'s closest lines', async () => {
    workspace = await createLocalToolSet(repository);
    const result = await patch(unifiedFix.replace(' def mul(a, b):', ' def multiply(a, b):'));
    expect(result.status).toBe('error');
    expect(result.error?.kind).toBe('patch_failed');
    expect(result.error?.message).toContain('hunk 2 of 2 for src/calc.py (@@ -5,2 +5,2 @@)');
    expect(result.error?.message).toContain('def multiply(a, b):');
    expect(result.error?.message).toContain('at line 5');
    expect(result.error?.details).toMatchObject({ file: 'src/calc.py', hunk_index: 2, actual_lines: ['def mul(a, b):', '    return a + b'] });
    await expectUnchanged();
  });

  it('is atomic across files: one failing file leaves every file unchanged', async () => {
    workspace = await createLocalToolSet(repository);
    const result = await patch(
      ['--- a/README.md', '+++ b/README.md', '@@ -1 +1 @@', '-# Calc', '+# Calculator', '--- a/docs/old.md', '+++ b/docs/old.md', '@@ -1 +1 @@', '-not what it says', '+new'].join('\n'),
    );
    expect(result.error?.kind).toBe('patch_failed');
    await expectUnchanged();
    // No patch artifact is written for a failed patch (`logs/` is the sandbox's command-log folder).
    expect((await readdir(workspace.artifactsDir)).filter((name) => name !== 'logs')).toEqual([]);
  });

  it('rolls written files back when a later write fails', async () => {
    workspace = await createLocalToolSet(repository);
    // README.md is a file, so README.md/inside.txt cannot be created: found only when writing, after src/calc.py was.
    const result = await patch(['--- a/src/calc.py', '+++ b/src/calc.py', '@@ -1,2 +1,2 @@', ' def add(a, b):', '-    return a - b', '+    return a + b', '--- /dev/null', '+++ b/README.md/inside.txt', '@@ -0,0 +1 @@', '+x'].join('\n'));
    expect(result.error?.kind).toBe('file_not_found');
    expect(result.error?.message).toContain('README.md/inside.txt');
    await expectUnchanged();
  });

  it('reports a patch for a missing file as file_not_found with near names', async () => {
    workspace = await createLocalToolSet(repository);
    const result = await patch('--- a/src/calk.py\n+++ b/src/calk.py\n@@ -1 +1 @@\n-x\n+y\n');
    expect(result.error).toMatchObject({ kind: 'file_not_found', details: { path: 'src/calk.py', suggestions: ['src/calc.py'] } });
  });

  it('refuses to create a file that already exists', async () => {
    workspace = await createLocalToolSet(repository);
    const result = await patch('--- /dev/null\n+++ b/README.md\n@@ -0,0 +1 @@\n+# Other\n');
    expect(result.error?.kind).toBe('patch_failed');
    expect(result.error?.message).toContain('already exists');
    await expectUnchanged();
  });

  it('reports a Begin Patch chunk that is not in the file', async () => {
    workspace = await createLocalToolSet(repository);
    const result = await patch('*** Begin Patch\n*** Update File: src/calc.py\n@@\n-    return a / b\n+    return a // b\n*** End Patch\n');
    expect(result.error?.kind).toBe('patch_failed');
    expect(result.error?.message).toContain('was not found in the file');
    await expectUnchanged();
  });

  it('reports a broken context diff', async () => {
    workspace = await createLocalToolSet(repository);
    const result = await patch('*** a/src/calc.py\n--- b/src/calc.py\n***************\n*** 1,2 ****\n  def add(x, y):\n! old\n--- 1,2 ----\n  def add(x, y):\n! new\n');
    expect(result.error?.kind).toBe('patch_failed');
    await expectUnchanged();
  });

  it.each([
    ['a relative path out of the workspace', '--- a/../outside.txt\n+++ b/../outside.txt\n@@ -0,0 +1 @@\n+x\n'],
    ['an absolute path elsewhere', '--- /dev/null\n+++ /etc/agentbench-test\n@@ -0,0 +1 @@\n+x\n'],
    ['a Begin Patch path out of the workspace', '*** Begin Patch\n*** Add File: ../../escape.txt\n+x\n*** End Patch\n'],
  ])('refuses %s as path_escape', async (_name, text) => {
    workspace = await createLocalToolSet(repository);
    const result = await patch(text);
    expect(result.error?.kind).toBe('path_escape');
    await expectUnchanged();
  });

  it('refuses to write through a symbolic link, inside or outside the workspace', async () => {
    workspace = await createLocalToolSet(repository);
    await workspace.link('link.py', 'src/calc.py');
    await workspace.link('outside', '/tmp');
    const inside = await patch('--- a/link.py\n+++ b/link.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n');
    expect(inside.error?.kind).toBe('symlink_blocked');
    const outside = await patch('--- /dev/null\n+++ b/outside/agentbench-escape.txt\n@@ -0,0 +1 @@\n+x\n');
    expect(outside.error?.kind).toBe('symlink_blocked');
    await expectUnchanged();
  });

  it('refuses to patch a binary file', async () => {
    workspace = await createLocalToolSet({ 'image.png': Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x0a]) });
    const result = await patch('--- a/image.png\n+++ b/image.png\n@@ -1 +1 @@\n-x\n+y\n');
    expect(result.error?.kind).toBe('binary_file');
  });

  it('answers text that is no patch with patch_failed', async () => {
    workspace = await createLocalToolSet(repository);
    const result = await patch('I changed return a - b to return a + b.');
    expect(result.error?.kind).toBe('patch_failed');
    expect(result.error?.message).toContain('expected a unified diff');
  });
});

describe('apply_patch: strict mode', () => {
  it('applies a standard unified diff', async () => {
    workspace = await createLocalToolSet(repository, { isStrictPatch: true });
    const result = await patch(unifiedFix);
    expect(result.status).toBe('success');
    expect(result.data).toMatchObject({ is_strict: true, repairs: [] });
    expect(await workspace.read('src/calc.py')).toBe(fixedCalc);
  });

  it.each([
    ['Begin Patch', '*** Begin Patch\n*** Delete File: README.md\n*** End Patch\n', 'Begin Patch'],
    ['a context diff', '*** a/README.md\n--- b/README.md\n***************\n*** 1 ****\n! # Calc\n--- 1 ----\n! # X\n', 'context diff'],
    ['wrong hunk counts', '--- a/README.md\n+++ b/README.md\n@@ -1,4 +1,4 @@\n-# Calc\n+# X\n', 'line counts do not match'],
    ['a code fence', '```diff\n--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-# Calc\n+# X\n```\n', 'code fence'],
    ['trailing whitespace differences', '--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-# Calc  \n+# X\n', 'strict mode'],
    ['an LF patch for a CRLF file', '--- a/win.txt\n+++ b/win.txt\n@@ -1 +1 @@\n-one\n+1\n', 'strict mode'],
  ])('rejects %s', async (_name, text, expected) => {
    workspace = await createLocalToolSet({ ...repository, 'win.txt': 'one\r\n' }, { isStrictPatch: true });
    const result = await patch(text);
    expect(result.error?.kind).toBe('patch_failed');
    expect(result.error?.message).toContain(expected);
    await expectUnchanged();
    expect(await workspace.read('win.txt')).toBe('one\r\n');
  });

  it('applies a CRLF patch to a CRLF file exactly', async () => {
    workspace = await createLocalToolSet({ 'win.txt': 'one\r\ntwo\r\n' }, { isStrictPatch: true });
    const result = await patch('--- a/win.txt\r\n+++ b/win.txt\r\n@@ -1,2 +1,2 @@\r\n one\r\n-two\r\n+2\r\n');
    expect(result.status, JSON.stringify(result.error)).toBe('success');
    expect(await workspace.read('win.txt')).toBe('one\r\n2\r\n');
  });

  it('is read from AGENTBENCH_STRICT_PATCH when the context does not say', async () => {
    const previous = process.env['AGENTBENCH_STRICT_PATCH'];
    process.env['AGENTBENCH_STRICT_PATCH'] = '1';
    try {
      workspace = await createLocalToolSet(repository);
      expect(workspace.tools.context.isStrictPatch).toBe(true);
    } finally {
      if (previous === undefined) delete process.env['AGENTBENCH_STRICT_PATCH'];
      else process.env['AGENTBENCH_STRICT_PATCH'] = previous;
    }
  });
});

describe('apply_patch: artifacts', () => {
  it('writes no diff when the tool set has no artifacts folder', async () => {
    workspace = await createLocalToolSet(repository, { artifactsDir: undefined });
    const result = await patch(unifiedFix);
    expect(result.status).toBe('success');
    expect(result.data?.['patch_path']).toBeNull();
  });
});
