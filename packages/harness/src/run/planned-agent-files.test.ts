import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SandboxError } from '@agentbench/sandbox';
import { loadTask, type AttemptRecord, type LoadedTask, type RunPlan } from '@agentbench/schemas';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeTemporaryDirectory } from '../../test/helpers/git-repository.js';
import { plannedAgentFiles } from './planned-agent-files.js';
import { runAgentRun } from './run-agent-run.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const toyTask = path.resolve(here, '../../../../tasks/custom-dev/toy_fail_pytest/task.yaml');
// An installed agent of the user's with nothing to install: its attempts never get as far as running it here.
const DEFINITION = 'name: my-agent\ndescription: mine\nwire_api: chat\ncommand: ["sh", "-c", "cat \\"$AGENTBENCH_INSTRUCTION_FILE\\""]\noutput: { format: text }\n';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

let root: string;
let tasks: LoadedTask[];
beforeAll(async () => {
  tasks = [await loadTask(toyTask)];
});
beforeEach(() => {
  root = makeTemporaryDirectory('planned-agent-files');
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(root, { recursive: true, force: true });
});

async function write(name: string, text: string): Promise<string> {
  const file = path.join(root, name);
  await writeFile(file, text);
  return file;
}

describe('plannedAgentFiles', () => {
  it('records the definition file and the template by absolute path and the sha256 of their text', async () => {
    const definition = await write('my-agent.yaml', DEFINITION);
    const template = await write('instruction.md', 'Fix {{task_id}}.\n');
    expect(await plannedAgentFiles(definition, template, undefined)).toEqual({
      agent_definition: { file: definition, sha256: sha256(DEFINITION) },
      instruction_template: { file: template, sha256: sha256('Fix {{task_id}}.\n') },
    });
    expect(await plannedAgentFiles('codex', undefined, undefined)).toEqual({});
    expect(await plannedAgentFiles(null, undefined, undefined)).toEqual({});
  });

  it("on a resume without the flag, reads the run's own template again (so an edit shows), but not another agent's", async () => {
    const template = await write('instruction.md', 'Fix {{task_id}}.\n');
    const recorded = { agent: 'codex', instruction_template: { file: template, sha256: sha256('Fix {{task_id}}.\n') } } as RunPlan;
    await writeFile(template, 'Fix {{task_id}} now.\n');
    expect(await plannedAgentFiles('codex', undefined, recorded)).toEqual({ instruction_template: { file: template, sha256: sha256('Fix {{task_id}} now.\n') } });
    expect(await plannedAgentFiles('claude-code', undefined, recorded)).toEqual({});
  });

  it('names the flag and the file it cannot read, and refuses a template for one of our agents', async () => {
    const missing = path.join(root, 'gone.md');
    await expect(plannedAgentFiles('codex', missing, undefined)).rejects.toThrow(`--instruction-template: cannot read the instruction template ${missing}: file not found`);
    const recorded = { agent: 'codex', instruction_template: { file: missing, sha256: sha256('x') } } as RunPlan;
    await expect(plannedAgentFiles('codex', undefined, recorded)).rejects.toThrow(`--instruction-template: cannot read the run's instruction template ${missing}: file not found`);
    await expect(plannedAgentFiles(path.join(root, 'nope.yaml'), undefined, undefined)).rejects.toThrow(`--agent: cannot read the agent definition ${path.join(root, 'nope.yaml')}: file not found`);
    await expect(plannedAgentFiles(null, missing, undefined)).rejects.toThrow('--instruction-template: it is the instruction of an installed agent');
  });
});

describe('ab run --resume keeps the instruction (issue 25)', () => {
  it('records the template in the plan, resumes under it when the flag is left out, and refuses another or an edited one', async () => {
    // The gateway's upstream for a chat agent; nothing is sent to it (the sandbox is never made).
    vi.stubEnv('OPENAI_BASE_URL', 'http://127.0.0.1:9/v1');
    vi.stubEnv('OPENAI_API_KEY', 'sk-unused');
    const agent = await write('my-agent.yaml', DEFINITION);
    const template = await write('mine.md', 'Fix {{task_id}}: run {{test_command}}.\n');
    const runDir = path.join(root, 'run');
    const common = { tasks, models: ['fake-model'], retries: 0, validityRunsDir: path.join(root, 'no-runs') };
    // The first start stops before its attempt has a record (a bug of ours records nothing): the resume runs it.
    const started = await runAgentRun({ ...common, agent, instructionTemplate: template, outDir: runDir, runAttempt: async () => Promise.reject(new Error('stopped before the attempt')) });
    expect(started.isComplete).toBe(false);
    const runJson = JSON.parse(await readFile(path.join(runDir, 'run.json'), 'utf8')) as { plan: RunPlan };
    expect(runJson.plan).toMatchObject({ agent, agent_definition: { file: agent, sha256: sha256(DEFINITION) }, instruction_template: { file: template, sha256: sha256('Fix {{task_id}}: run {{test_command}}.\n') } });

    const other = await write('other.md', 'Fix {{task_id}}.\n');
    await expect(runAgentRun({ resume: runDir, instructionTemplate: other })).rejects.toThrow(`(--instruction-template: the run has ${template}, this command asks for ${other})`);

    // The default try, left out of the flag: its instruction is the run's template (its version names it), up to a sandbox that cannot be made.
    const resumed = await runAgentRun({
      resume: runDir,
      validityRunsDir: common.validityRunsDir,
      createSandbox: async () => Promise.reject(new SandboxError('engine_unavailable', 'no engine in this test')),
    });
    expect(resumed.isComplete).toBe(true);
    const records = (await readFile(path.join(runDir, 'attempts.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as AttemptRecord);
    expect(records).toHaveLength(1);
    expect(records[0]?.model?.prompt_version).toBe(`mine@${sha256('Fix {{task_id}}: run {{test_command}}.\n').slice(0, 12)}`);

    await writeFile(template, 'Fix {{task_id}} any way you can.\n');
    await writeFile(agent, `${DEFINITION}# edited\n`);
    await expect(runAgentRun({ resume: runDir })).rejects.toThrow(`(--agent: ${agent} changed since the run started (sha256 ${sha256(DEFINITION).slice(0, 12)}… then, `);
  });
});

describe('ab run keeps one instruction for all its attempts', () => {
  it('refuses an attempt whose template was edited after the run started, instead of mixing two instructions', async () => {
    vi.stubEnv('OPENAI_BASE_URL', 'http://127.0.0.1:9/v1');
    vi.stubEnv('OPENAI_API_KEY', 'sk-unused');
    const agent = await write('my-agent.yaml', DEFINITION);
    const planned = 'Fix {{task_id}}.\n';
    const template = await write('mine.md', planned);
    const runDir = path.join(root, 'run');
    let creates = 0;
    // The first attempt edits the template while it runs (as a user iterating on it would), then stops at its sandbox.
    const result = await runAgentRun({
      tasks,
      runs: 2,
      concurrency: 1,
      models: ['fake-model'],
      retries: 0,
      validityRunsDir: path.join(root, 'no-runs'),
      agent,
      instructionTemplate: template,
      outDir: runDir,
      createSandbox: async () => {
        creates += 1;
        await writeFile(template, 'Fix {{task_id}} any way you can.\n');
        throw new SandboxError('engine_unavailable', 'no engine in this test');
      },
    });
    const records = (await readFile(path.join(runDir, 'attempts.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as AttemptRecord);
    expect(result.isComplete).toBe(true);
    expect(records).toHaveLength(2);
    expect(records[0]?.model?.prompt_version).toBe(`mine@${sha256(planned).slice(0, 12)}`);
    // The second attempt never ran under the edited template: it made no sandbox, and says why it could not start.
    expect(creates).toBe(1);
    expect(records[1]).toMatchObject({ errored: true, not_started: { reason: 'could not start' }, result: { passed: false } });
    expect(records[1]?.failure_cause).toContain(`--instruction-template: ${template} changed since the run started (sha256 ${sha256(planned).slice(0, 12)}… then, `);
  });

  it('refuses an attempt whose agent definition file was edited after the run started', async () => {
    vi.stubEnv('OPENAI_BASE_URL', 'http://127.0.0.1:9/v1');
    vi.stubEnv('OPENAI_API_KEY', 'sk-unused');
    const agent = await write('my-agent.yaml', DEFINITION);
    const runDir = path.join(root, 'run');
    let creates = 0;
    await runAgentRun({
      tasks,
      runs: 2,
      concurrency: 1,
      models: ['fake-model'],
      retries: 0,
      validityRunsDir: path.join(root, 'no-runs'),
      agent,
      outDir: runDir,
      createSandbox: async () => {
        creates += 1;
        await writeFile(agent, `${DEFINITION}env: { MY_FLAG: "1" }\n`);
        throw new SandboxError('engine_unavailable', 'no engine in this test');
      },
    });
    const records = (await readFile(path.join(runDir, 'attempts.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as AttemptRecord);
    expect(records).toHaveLength(2);
    expect(creates).toBe(1);
    expect(records[1]).toMatchObject({ errored: true, not_started: { reason: 'could not start' } });
    expect(records[1]?.failure_cause).toContain(`--agent: ${agent} changed since the run started (sha256 ${sha256(DEFINITION).slice(0, 12)}… then, `);
  });
});
