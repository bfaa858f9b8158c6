import { LocalSandbox, type Sandbox } from '@agentbench/sandbox';
import { TOOL_NAMES } from '@agentbench/schemas';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocalToolSet, expectValidToolResult, type LocalToolSet } from '../test/helpers/local-tool-set.js';
import { ToolsError } from './errors/tools-error.js';
import { toolDefinitions } from './tool-definitions.js';
import { createToolSet } from './tool-set.js';

let workspace: LocalToolSet | undefined;
afterEach(async () => {
  await workspace?.dispose();
  workspace = undefined;
});

/** The same sandbox, except that file reads never answer: a stuck backend. */
function withStuckReads(sandbox: Sandbox): Sandbox {
  return new Proxy(sandbox, {
    get(target, property, receiver) {
      if (property === 'readFile') return () => new Promise(() => undefined);
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('createToolSet', () => {
  it('returns ToolResult records with timing and the request id', async () => {
    workspace = await createLocalToolSet({ 'a.txt': 'x\n' });
    const result = await workspace.tools.execute({ tool: 'read_file', params: { path: 'a.txt' }, request_id: 'call-1', requested_at: new Date().toISOString() });
    expectValidToolResult(result);
    expect(result).toMatchObject({ request_id: 'call-1', tool: 'read_file', status: 'success', error: null });
    expect(Date.parse(result.ended_at)).toBeGreaterThanOrEqual(Date.parse(result.started_at));
    expect(result.duration_sec).toBeGreaterThanOrEqual(0);
  });

  it('turns invalid params into invalid_arguments naming every bad field, never a throw', async () => {
    workspace = await createLocalToolSet();
    const result = await workspace.call('read_file', { path: 42, start_line: 'first', end_line: -1 });
    expect(result.status).toBe('error');
    expect(result.error?.kind).toBe('invalid_arguments');
    expect(result.error?.message).toContain('read_file: invalid parameters');
    expect(result.error?.details?.['problems']).toEqual([
      'path: expected a string, found 42',
      'start_line: expected a whole number ≥ 1, found "first"',
      'end_line: expected a whole number ≥ 1, found -1',
    ]);
    const missing = await workspace.call('apply_patch', {});
    expect(missing.error?.message).toContain('unified_diff: missing (a required parameter)');
  });

  it('treats null optional params as absent', async () => {
    workspace = await createLocalToolSet({ 'a.txt': 'x\n' });
    const result = await workspace.call('search', { query: 'x', glob: null, max_results: null, context_lines: null, is_regex: null });
    expect(result.status).toBe('success');
    expect(result.data).toMatchObject({ total_matches: 1, is_regex: false });
  });

  it('throws a ToolsError for a request naming no known tool', async () => {
    workspace = await createLocalToolSet();
    await expect(workspace.tools.execute({ tool: 'delete_everything' as never, params: {}, request_id: 'r' })).rejects.toSatisfy((error) => ToolsError.isInstance(error));
    await expect(workspace.tools.execute({ tool: 'toString' as never, params: {}, request_id: 'r' })).rejects.toThrow('unknown tool');
  });

  it('stops a call that runs past its tool\'s time limit with a timeout result', async () => {
    const sandbox = await LocalSandbox.create({ files: { 'a.txt': 'x' } }, { isWarningSilenced: true });
    try {
      const tools = createToolSet({ sandbox: withStuckReads(sandbox), timeoutsSec: { read_file: 0.01 } });
      const result = expectValidToolResult(await tools.execute({ tool: 'read_file', params: { path: 'a.txt' }, request_id: 'slow' }));
      expect(result.error).toMatchObject({ kind: 'timeout', details: { timeout_sec: 0.01 } });
    } finally {
      await sandbox.dispose();
    }
  });

  it('stops a call when the caller aborts it', async () => {
    workspace = await createLocalToolSet();
    const controller = new AbortController();
    const running = workspace.tools.execute({ tool: 'run', params: { command: 'sleep 30' }, request_id: 'abort' }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const result = expectValidToolResult(await running);
    expect(result.status).toBe('error');
    expect(result.error?.details).toMatchObject({ aborted: true });
  });

  it('numbers steps itself unless the caller gives the step', async () => {
    workspace = await createLocalToolSet();
    const first = await workspace.call('run', { command: 'true' });
    const second = await workspace.call('run', { command: 'true' });
    expect([first.stdout_path, second.stdout_path]).toEqual(['logs/tool_step_0001_run.log', 'logs/tool_step_0002_run.log']);
  });

  it.each([
    [{ root: 'relative/path' }, 'ToolContext.root: expected an absolute path'],
    [{ limits: { listFilesMaxEntries: 0 } }, 'ToolContext.limits.listFilesMaxEntries: expected a whole number ≥ 1, found 0'],
    [{ limits: { maxEverything: 3 } }, 'ToolContext.limits.maxEverything: unknown limit'],
    [{ timeoutsSec: { run: 5 } }, 'ToolContext.timeoutsSec.run: unknown tool'],
    [{ defaultRunTimeoutSec: -1 }, 'ToolContext.defaultRunTimeoutSec: expected a positive number'],
  ])('rejects a bad context %j with a ToolsError naming the field', async (overrides, expected) => {
    workspace = await createLocalToolSet();
    expect(() => createToolSet({ sandbox: (workspace as LocalToolSet).sandbox, ...(overrides as object) })).toThrow(expected);
  });
});

describe('toolDefinitions', () => {
  it('describes the five tools in OpenAI function-calling shape', () => {
    const definitions = toolDefinitions();
    expect(definitions.map((definition) => definition.function.name)).toEqual([...TOOL_NAMES]);
    for (const definition of definitions) {
      expect(definition.type).toBe('function');
      expect(definition.function.description.length).toBeGreaterThan(40);
      expect(definition.function.parameters).toMatchObject({ type: 'object', additionalProperties: false });
      expect(JSON.parse(JSON.stringify(definition))).toEqual(definition);
    }
  });

  it('derives each parameter schema from the validating schema', () => {
    const byName = Object.fromEntries(toolDefinitions().map((definition) => [definition.function.name, definition.function.parameters]));
    expect(byName['read_file']).toMatchObject({
      required: ['path'],
      properties: { path: { type: 'string', minLength: 1 }, start_line: { type: 'integer', minimum: 1 }, end_line: { type: 'integer', minimum: 1 } },
    });
    expect(byName['search']).toMatchObject({
      required: ['query'],
      properties: {
        max_results: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
        context_lines: { type: 'integer', minimum: 0, maximum: 10, default: 2 },
        is_regex: { type: 'boolean', default: false },
      },
    });
    expect(byName['list_files']).toMatchObject({ properties: { root: { type: 'string', default: '.' }, glob: { type: 'string' } } });
    expect(byName['list_files']?.['required']).toBeUndefined();
    expect(byName['apply_patch']).toMatchObject({ required: ['unified_diff'], properties: { unified_diff: { type: 'string' } } });
    expect(byName['run']).toMatchObject({
      required: ['command'],
      properties: { timeout_sec: { type: 'integer', minimum: 1 }, env: { type: 'object' }, network: { type: 'boolean', default: false } },
    });
  });
});
