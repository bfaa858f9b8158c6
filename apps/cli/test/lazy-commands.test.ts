import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { repositoryRoot } from '../../../test-support/fixture-repositories.js';
import { useTemporaryDirectory } from '../../../test-support/temporary-directory.js';
import { allCommands, commandsFor } from '../src/commands/index.js';
import { COMMAND_SUMMARIES } from '../src/commands/command-summaries.js';
import { buildParser } from '../src/main.js';
import { abBinSkipReason, runAb } from './run-ab.js';
import { runCli } from './run-cli.js';

// Issue 26 item 3 (CPU outside the sandboxes): `ab` loads only the module of the command it runs, and
// yargs no longer renders the running command's help text unasked.

/** What a parser over `commands` prints for `argv` (help goes through console.log). */
async function printed(argv: string[], commands: Awaited<ReturnType<typeof allCommands>>): Promise<string> {
  let text = '';
  const log = vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => {
    text += `${parts.join(' ')}\n`;
  });
  try {
    await buildParser(argv, commands).fail(() => {}).parseAsync();
  } finally {
    log.mockRestore();
  }
  return text;
}

describe('the command tree loaded lazily', () => {
  it('prints the same --help as the whole tree, at the top and for every command', async () => {
    const whole = await allCommands();
    const top = await runCli(['--help']);
    expect(top.stdout).toBe(await printed(['--help'], whole));
    expect(top.stdout).toContain('ab run ');
    for (const name of Object.keys(COMMAND_SUMMARIES)) {
      const lazy = await runCli([name, '--help']);
      expect(lazy.stdout, name).toBe(await printed([name, '--help'], whole));
      expect(lazy.stdout, name).toContain('Options:');
    }
  });

  it('loads the named command whole (also by an alias) and lists the others by their summary', async () => {
    const byAlias = await commandsFor(['--verbose', 'validate-task', 'task.yaml']);
    const validate = byAlias[Object.keys(COMMAND_SUMMARIES).indexOf('validate')];
    expect(typeof validate?.builder).toBe('function');
    expect(byAlias.filter((command) => typeof command.builder === 'function')).toHaveLength(1);
    expect((await commandsFor(['--help'])).every((command) => typeof command.builder !== 'function')).toBe(true);
  });
});

describe('the running command', () => {
  it('is not followed by a rendering of its help text', async () => {
    const parser = buildParser(['schema', 'task'], await commandsFor(['schema', 'task']));
    const usage = (parser as unknown as { getInternalMethods(): { getUsageInstance(): { help(): string } } }).getInternalMethods().getUsageInstance();
    const help = vi.spyOn(usage, 'help');
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      await parser.parseAsync();
    } finally {
      write.mockRestore();
    }
    expect(help).not.toHaveBeenCalled();
  });
});

const skipReason = abBinSkipReason('lazy-commands.test.ts');

describe.skipIf(skipReason !== undefined)('the built ab', () => {
  const directory = useTemporaryDirectory();

  /** The modules the built `ab` imports for `args` (an ESM resolve hook appends each URL to a file). */
  async function modulesLoadedBy(args: string[]): Promise<string[]> {
    const log = path.join(directory.path, 'modules.log');
    await writeFile(log, '');
    const hooks = path.join(directory.path, 'hooks.mjs');
    await writeFile(hooks, `import { appendFileSync } from 'node:fs';\nexport async function resolve(specifier, context, next) {\n  const result = await next(specifier, context);\n  appendFileSync(${JSON.stringify(log)}, result.url + '\\n');\n  return result;\n}\n`);
    const register = path.join(directory.path, 'register.mjs');
    await writeFile(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    const result = await runAb(args, { env: { NODE_OPTIONS: `--import ${pathToFileURL(register).href}` } });
    expect(result.exitCode, result.stderr).toBe(0);
    return (await readFile(log, 'utf8')).split('\n').filter((line) => line !== '');
  }

  it('loads no harness, sandbox or engine client for --version, --help or a command that needs none', async () => {
    for (const args of [['--version'], ['--help'], ['schema', 'task']]) {
      const modules = await modulesLoadedBy(args);
      expect(modules.some((url) => url.includes('/bin.js')), args.join(' ')).toBe(true);
      expect(modules.filter((url) => /\/(harness|sandbox|scenario-runner|report)\/dist\/|\/dockerode\//.test(url)), args.join(' ')).toEqual([]);
    }
  });

  it('loads the openai package only for a model call (agent-loop and evaluators import it on first use)', async () => {
    const modules = await modulesLoadedBy(['validate', path.join(repositoryRoot, 'tasks/custom-dev/toy_fail_pytest/task.yaml')]);
    expect(modules.some((url) => /\/(agent-loop|evaluators)\/dist\//.test(url))).toBe(true);
    expect(modules.filter((url) => url.includes('/openai/'))).toEqual([]);
  });
});
