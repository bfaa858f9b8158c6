import { describe, expect, it } from 'vitest';
import { agentArgument } from './agent-option.js';

describe('agentArgument', () => {
  it('names an installed agent by a bare name, and our own agents by theirs or by a path', () => {
    expect(agentArgument('codex', undefined)).toEqual({ agent: 'codex' });
    expect(agentArgument('claude-code@2.1.332', undefined)).toEqual({ agent: 'claude-code@2.1.332' });
    expect(agentArgument('scripted', undefined)).toEqual({ variant: 'scripted' });
    expect(agentArgument('./my-agent.mjs', undefined)).toEqual({ variant: './my-agent.mjs' });
    expect(agentArgument(undefined, 'llm')).toEqual({ variant: 'llm' });
    expect(agentArgument(undefined, undefined)).toEqual({});
  });

  it('refuses an installed agent and a variant together, and two different variants', () => {
    expect(() => agentArgument('codex', 'llm')).toThrow('--agent codex is an installed agent and --variant llm one of ours: give one');
    expect(() => agentArgument('scripted', 'llm')).toThrow('--variant and --agent name the same thing: give one');
  });
});
