import { quoteShellWord } from '@agentbench/helpers';
import { transform } from 'esbuild';
import { ScenarioRunnerError } from '../errors/scenario-runner-error.js';
import type { EnvironmentProvider, ExecutionResult, ProviderRunOptions } from '../providers/environment-provider.js';
import { knownLanguageNames, resolveCodeLanguage } from './code-languages.js';

/** Code with top-level `import`/`export` runs as an ES module, anything else as CommonJS. */
function isModuleCode(code: string): boolean {
  return /^\s*(import\s*[\w{*'"]|export\s)/m.test(code) || /^\s*await\s/m.test(code);
}

/** TypeScript to JavaScript with esbuild (types stripped, syntax kept), so it runs wherever node does. */
export async function stripTypes(code: string, label: string): Promise<string> {
  try {
    const result = await transform(code, { loader: 'ts', target: 'node20', sourcefile: label });
    return result.code;
  } catch (error) {
    throw new ScenarioRunnerError('code_step', `${label}: TypeScript does not compile: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/**
 * Runs a `code` step in the environment: the program goes in on stdin (so it leaves no file behind),
 * run by python3, bash, sh, or node (TypeScript after stripping types). `field` names the step in errors.
 */
export async function runCode(
  provider: EnvironmentProvider,
  step: { lang?: string | undefined; code: string },
  options: ProviderRunOptions & { field: string },
): Promise<ExecutionResult> {
  const language = resolveCodeLanguage(step.lang);
  if (language === undefined) {
    throw new ScenarioRunnerError('code_step', `${options.field}.lang: expected one of ${knownLanguageNames().join(', ')}, found ${JSON.stringify(step.lang)}`);
  }
  const { field, ...runOptions } = options;
  switch (language) {
    case 'python':
      return provider.run('python3 -', { ...runOptions, stdin: step.code });
    case 'bash':
      return provider.run('bash -s', { ...runOptions, stdin: step.code });
    case 'sh':
      return provider.run('sh -s', { ...runOptions, stdin: step.code });
    case 'javascript':
    case 'typescript': {
      const node = provider.nodeCommand === undefined ? 'node' : await provider.nodeCommand();
      if (node === undefined) {
        throw new ScenarioRunnerError('code_step', `${field}: the ${provider.type} environment cannot run ${language} (no node); use an image with node or environment type local`);
      }
      const program = language === 'typescript' ? await stripTypes(step.code, `${field}.code`) : step.code;
      const inputType = isModuleCode(program) ? 'module' : 'commonjs';
      return provider.run(`${quoteShellWord(node, { isAlwaysQuoted: true })} --input-type=${inputType} -`, { ...runOptions, stdin: program });
    }
  }
}
