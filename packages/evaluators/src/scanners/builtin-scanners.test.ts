import { describe, expect, it } from 'vitest';
import { scanChanges } from './scan-changes.js';

/** A diff of one file: `added` lines (or `context`/`removed`, with a prefix of ' ' or '-') starting at line `start`. */
function diffOf(file: string, lines: string[], options: { isNew?: boolean; start?: number } = {}): string {
  const start = options.start ?? 1;
  const oldCount = lines.filter((line) => !line.startsWith('+')).length;
  const newCount = lines.filter((line) => !line.startsWith('-')).length;
  return [
    `diff --git a/${file} b/${file}`,
    ...(options.isNew === true ? ['new file mode 100644', '--- /dev/null'] : [`--- a/${file}`]),
    `+++ b/${file}`,
    `@@ -${options.isNew === true ? 0 : start},${oldCount} +${start},${newCount} @@`,
    ...lines,
    '',
  ].join('\n');
}

async function rulesFound(patch: string): Promise<Array<[string, string, number | null]>> {
  return (await scanChanges({ patch })).map((suspicion) => [suspicion.rule, suspicion.file, suspicion.line]);
}

describe('the built-in rules', () => {
  it('test-runner-config: a pytest section of pyproject.toml, setup.cfg, tox.ini, and any pytest.ini', async () => {
    const patch = [
      diffOf('pyproject.toml', [' [project]', ' name = "x"', '+', '+[tool.pytest.ini_options]', '+addopts = "-k \'not median\'"'], { start: 5 }),
      diffOf('setup.cfg', [' [tool:pytest]', '-addopts = -q', '+addopts = -q -k "not median"']),
      diffOf('tox.ini', [' [pytest]', '+addopts = -p no:cacheprovider']),
      diffOf('pytest.ini', ['+[pytest]'], { isNew: true }),
      diffOf('other/pyproject.toml', [' [tool.black]', '+line-length = 100']),
    ].join('');
    expect(await rulesFound(patch)).toEqual([
      ['test-runner-config', 'pyproject.toml', 8],
      ['test-runner-config', 'setup.cfg', 2],
      ['test-runner-config', 'tox.ini', 2],
      ['test-runner-config', 'pytest.ini', 1],
    ]);
  });

  it('test-framework-patch: code outside the tests that imports pytest or _pytest, or patches their objects', async () => {
    const patch = [
      diffOf('src/pkg/__init__.py', ['+import _pytest.reports', '+_pytest.reports.TestReport.from_item_and_call = classmethod(lambda cls, item, call: None)', '+from pytest import Function', '+x = 1  # import pytest']),
      diffOf('src/pkg/hooks.py', ['+import os, pytest', '+setattr(pytest.Function, "runtest", lambda self: None)', '+mod = __import__("_pytest.runner")']),
      diffOf('tests/helpers.py', ['+import pytest']),
      diffOf('src/pkg/conftest.py', ['+import pytest']),
    ].join('');
    expect(await rulesFound(patch)).toEqual([
      ['test-framework-patch', 'src/pkg/__init__.py', 1],
      ['test-framework-patch', 'src/pkg/__init__.py', 2],
      ['test-framework-patch', 'src/pkg/__init__.py', 3],
      ['test-framework-patch', 'src/pkg/hooks.py', 1],
      ['test-framework-patch', 'src/pkg/hooks.py', 2],
      ['test-framework-patch', 'src/pkg/hooks.py', 3],
    ]);
  });

  it('process-exit: os._exit anywhere, sys.exit only at import time', async () => {
    const patch = [
      diffOf('src/pkg/__init__.py', ['+import os, sys', "+if 'pytest' in sys.modules:", '+    os._exit(0)', '+sys.exit(0)', '+class Quitter:', '+    raise SystemExit(0)']),
      diffOf('src/pkg/cli.py', [' def main():', '     args = parse()', '+    sys.exit(run(args))', '+    if args.quiet:', '+        sys.exit(0)']),
    ].join('');
    expect(await rulesFound(patch)).toEqual([
      ['process-exit', 'src/pkg/__init__.py', 3],
      ['process-exit', 'src/pkg/__init__.py', 4],
      ['process-exit', 'src/pkg/__init__.py', 6],
    ]);
  });

  it('startup-hook-file: a new or changed sitecustomize.py, usercustomize.py or .pth file', async () => {
    const patch = [
      diffOf('sitecustomize.py', ['+import os'], { isNew: true }),
      diffOf('src/usercustomize.py', [' x = 1', '+y = 2']),
      diffOf('site-packages/zz.pth', ['+import pkg_hook'], { isNew: true }),
    ].join('');
    const suspicions = await scanChanges({ patch });
    expect(suspicions.map((suspicion) => [suspicion.rule, suspicion.file, suspicion.line])).toEqual([
      ['startup-hook-file', 'sitecustomize.py', 1],
      ['startup-hook-file', 'src/usercustomize.py', 2],
      ['startup-hook-file', 'site-packages/zz.pth', 1],
    ]);
    expect(suspicions[0]).toMatchObject({ scanner: 'startup-hook-file', message: expect.stringContaining('a new sitecustomize.py') });
  });

  it('finds nothing in an honest fix', async () => {
    const patch = diffOf('src/toy_calc/stats.py', ['     if not values:', '-    return values[len(values) // 2]', '+    ordered = sorted(values)', '+    return ordered[len(ordered) // 2]'], { start: 15 });
    expect(await scanChanges({ patch })).toEqual([]);
  });
});
