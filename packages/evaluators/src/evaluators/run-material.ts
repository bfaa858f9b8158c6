import type { EvaluationContext } from '../context/evaluation-context.js';

/** Longest text of one kind shown to a judge; longer texts keep their head and tail. */
export const MATERIAL_SECTION_LIMIT = 12_000;

function clip(text: string, limit = MATERIAL_SECTION_LIMIT): string {
  if (text.length <= limit) return text;
  const half = Math.floor((limit - 40) / 2);
  return `${text.slice(0, half)}\n[… ${text.length - 2 * half} characters left out …]\n${text.slice(-half)}`;
}

function fenced(text: string): string {
  // A fence longer than any backtick run inside, so the material cannot close it.
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${clip(text)}\n${fence}`;
}

/** Transcript of a conversation as the judge reads it: `Turn N` with the user's and the agent's lines. */
export function conversationTranscript(context: EvaluationContext): string | undefined {
  const conversation = context.conversation;
  if (conversation === undefined) return undefined;
  if (conversation.turns.length === 0) return conversation.transcript;
  return conversation.turns.map((turn) => `Turn ${turn.turnNumber}\nUser: ${turn.userInput}\nAgent: ${turn.agentResponse}`).join('\n\n');
}

/**
 * What the agent's run produced, as markdown sections for a judge prompt: the response, output streams
 * when they add something, the exit code, the files, the actions of the trajectory and the conversation.
 */
export function describeRunForJudge(context: EvaluationContext): string {
  const sections: string[] = [];
  const transcript = conversationTranscript(context);
  if (transcript !== undefined) {
    sections.push(`## Conversation\n${fenced(transcript)}`);
    if (context.conversation?.terminationReason) sections.push(`## Conversation ended because\n${context.conversation.terminationReason}`);
  } else {
    sections.push(`## Agent response\n${fenced(context.response)}`);
  }
  if (context.stdout !== '' && context.stdout !== context.response && context.stdout !== transcript) sections.push(`## Standard output\n${fenced(context.stdout)}`);
  if (context.stderr !== '') sections.push(`## Standard error\n${fenced(context.stderr)}`);
  sections.push(`## Exit code\n${context.exitCode}`);
  const files = Object.keys(context.files).sort();
  if (files.length > 0) sections.push(`## Files after the run\n${files.map((file) => `- ${file}`).join('\n')}`);
  const actions = context.trajectory.filter((step) => step.type === 'action');
  if (actions.length > 0) {
    const lines = actions.map((step) => `- ${step.name ?? '(unnamed)'}${step.success === false ? ' (failed)' : ''}`);
    sections.push(`## Actions taken\n${clip(lines.join('\n'), 4000)}`);
  }
  return sections.join('\n\n');
}

export const JUDGE_SYSTEM_PROMPT = [
  "You are a strict, impartial judge of an AI agent's run.",
  'Judge only from the material given; do not assume anything that is not shown.',
  'Answer only through the structured output requested. `confidence` is how sure you are of your answer, from 0 to 1.',
].join(' ');
