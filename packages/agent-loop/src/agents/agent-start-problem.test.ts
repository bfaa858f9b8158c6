import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTask, type LoadedTask } from '@agentbench/schemas';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentStartProblem } from './agent-start-problem.js';

const customDev = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../tasks/custom-dev');
let scripted: LoadedTask;
let unscripted: LoadedTask;
beforeAll(async () => {
  scripted = await loadTask(path.join(customDev, 'toy_fail_pytest/task.yaml'));
  unscripted = await loadTask(path.join(customDev, 'toy_pass_pytest/task.yaml'));
});

describe('agentStartProblem', () => {
  it('names a task without a script for the scripted agent, and nothing for one with a script or a --script file', async () => {
    expect(await agentStartProblem('scripted', { task: unscripted })).toMatchObject({ reason: 'no script', message: expect.stringContaining('toy_pass_pytest/task.yaml has neither agent.script nor agent.script_file') });
    expect(await agentStartProblem('scripted', { task: scripted })).toBeUndefined();
    expect(await agentStartProblem('scripted', { task: unscripted, scriptFile: 'steps.yaml' })).toBeUndefined();
  });

  it('names a custom agent whose file or package is missing, without loading any agent', async () => {
    expect(await agentStartProblem('./no-such-agent.mjs', { task: scripted, baseDir: customDev })).toMatchObject({ reason: 'agent not found', message: expect.stringMatching(/no-such-agent\.mjs not found/) });
    expect(await agentStartProblem('no-such-agent-package', { task: scripted, baseDir: customDev })).toMatchObject({ reason: 'agent not found' });
    expect(await agentStartProblem('llm', { task: unscripted })).toBeUndefined();
  });
});
