import { describe, expect, it } from 'vitest';
import type { LlmToolDefinition } from '../contract/llm-types.js';
import { parseToolCall } from './tool-arguments.js';

const definitions: LlmToolDefinition[] = [
  {
    name: 'read_file',
    description: 'Read',
    parameters: { type: 'object', properties: { path: { type: 'string' }, start_line: { type: 'integer' } }, required: ['path'], additionalProperties: false },
  },
];

describe('parseToolCall', () => {
  it('accepts a known tool with arguments that fit its schema (numeric strings too)', () => {
    expect(parseToolCall({ id: 'c', name: 'read_file', arguments: '{"path":"a.py","start_line":"3"}' }, definitions)).toMatchObject({
      isValid: true,
      tool: 'read_file',
      params: { path: 'a.py', start_line: '3' },
    });
  });

  it('explains malformed JSON, a non-object, a missing field, a wrong type and an unknown field', () => {
    const problem = (text: string): string => {
      const parsed = parseToolCall({ id: 'c', name: 'read_file', arguments: text }, definitions);
      return parsed.isValid ? '' : parsed.problem;
    };
    expect(problem('{"path": "a.py"')).toMatch(/not valid JSON/);
    expect(problem('["a.py"]')).toMatch(/must be a JSON object, found array/);
    expect(problem('{}')).toMatch(/path: missing \(required\)/);
    expect(problem('{"path": 3}')).toMatch(/path: expected "string", found integer/);
    expect(problem('{"path": "a", "mode": "x"}')).toMatch(/mode: unknown parameter; expected one of path, start_line/);
  });

  it('rejects a tool that does not exist', () => {
    const parsed = parseToolCall({ id: 'c', name: 'delete_repo', arguments: '{}' }, definitions);
    expect(parsed).toMatchObject({ isValid: false, problem: 'unknown tool "delete_repo"; the tools are read_file' });
  });
});
