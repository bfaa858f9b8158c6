import path from 'node:path';
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

describe('agentArgument with files of the user', () => {
  it('reads a definition file as an installed agent, and resolves it and the instruction template against the working folder', () => {
    expect(agentArgument('./agents/my-agent.yaml', undefined)).toEqual({ agent: path.resolve('agents/my-agent.yaml') });
    expect(agentArgument('/defs/mine.yml', undefined, 'instruction.md')).toEqual({ agent: '/defs/mine.yml', instructionTemplate: path.resolve('instruction.md') });
    expect(agentArgument('codex', undefined, '/t/instruction.md')).toEqual({ agent: 'codex', instructionTemplate: '/t/instruction.md' });
  });

  it('refuses an instruction template without an installed agent, and a definition file beside a variant', () => {
    expect(() => agentArgument(undefined, undefined, 'instruction.md')).toThrow('--instruction-template is the instruction of an installed agent: give --agent NAME or --agent ./my-agent.yaml with it');
    expect(() => agentArgument('scripted', undefined, 'instruction.md')).toThrow('--agent scripted is one of ours (its prompt is its own)');
    expect(() => agentArgument('./my-agent.yaml', 'llm')).toThrow('--agent ./my-agent.yaml is an installed agent and --variant llm one of ours: give one');
  });

  it("on a resume takes a template without --agent (the run's agent), resolved; the harness checks it against the run", () => {
    expect(agentArgument(undefined, undefined, 'instruction.md', { isResume: true })).toEqual({ instructionTemplate: path.resolve('instruction.md') });
    expect(agentArgument(undefined, undefined, undefined, { isResume: true })).toEqual({});
    expect(() => agentArgument(undefined, 'llm', 'instruction.md', { isResume: true })).toThrow('--instruction-template is the instruction of an installed agent');
  });
});
