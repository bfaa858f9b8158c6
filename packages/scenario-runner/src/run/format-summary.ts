import { MESSAGE_EXCERPT_CHARACTERS, outputExcerpt } from '@agentbench/sandbox';
import type { ScenarioRunResult } from './scenario-result.js';

const STATUS_LABEL = { passed: 'PASS', failed: 'FAIL', errored: 'ERROR' } as const;

function seconds(milliseconds: number): string {
  return `${(milliseconds / 1000).toFixed(milliseconds < 10_000 ? 2 : 1)} s`;
}

function indent(text: string, prefix = '    '): string {
  return text
    .split('\n')
    .map((line) => `${prefix}${line}`)
    .join('\n');
}

/** A message that may quote what ran (a command's output, an agent's reply): one escaped line, bounded. */
function message(text: string): string {
  return outputExcerpt(text, { maxCharacters: MESSAGE_EXCERPT_CHARACTERS });
}

/**
 * The console summary of a run (spec step 9): verdict, the transcript of each conversation, failed
 * evaluations with their messages, errors, warnings and the counted metrics.
 */
export function formatRunSummary(result: ScenarioRunResult, options: { isVerbose?: boolean } = {}): string {
  const lines: string[] = [];
  const passedCount = result.evaluations.filter((evaluation) => evaluation.success).length;
  lines.push(
    `${STATUS_LABEL[result.status]}  ${result.scenario.name}  (${passedCount}/${result.evaluations.length} evaluations passed; ${result.judgment.strategy}; seed ${result.parameters.seed}; ${seconds(result.metrics.execution_time_ms)})`,
  );
  lines.push(`  judgment: ${result.judgment.reason}`);
  for (const step of result.steps) {
    const status = step.status === 'completed' ? '' : ` [${step.status}]`;
    lines.push(`  run[${step.index}]${step.name === `run[${step.index}]` ? '' : ` ${step.name}`} (${step.kind}${step.lang === undefined ? '' : ` ${step.lang}`})${status}`);
    if (step.conversation !== undefined) {
      lines.push(`    ${step.conversation.turn_count} turns; ended: ${step.conversation.termination_reason ?? 'unknown'}`);
      if (step.conversation.transcript !== undefined) lines.push(indent(step.conversation.transcript, '    | '));
    } else if (step.kind === 'input' && step.response !== '') {
      // The reply is the agent's output (a command agent's stdout): one escaped line unless --verbose.
      lines.push(options.isVerbose === true ? indent(`Agent: ${step.response}`, '    | ') : `    | Agent: ${outputExcerpt(step.response)}`);
    }
    if (step.error !== undefined) lines.push(`    error: ${message(step.error)}`);
  }
  const failed = result.evaluations.filter((evaluation) => !evaluation.success);
  if (failed.length > 0) {
    lines.push('  Failed evaluations:');
    for (const evaluation of failed) {
      const where = `run[${evaluation.step}]${evaluation.phase === 'turn' ? ` turn ${evaluation.turn}` : evaluation.phase === 'final' ? ' final' : ''}`;
      const label = evaluation.description === undefined ? evaluation.type : `${evaluation.type} (${evaluation.description})`;
      lines.push(`    ${where} ${label}: ${message(evaluation.message)}`);
    }
  }
  if (result.errors.length > 0) {
    lines.push('  Errors:');
    for (const error of result.errors) lines.push(`    ${error.stage}: ${message(error.message)}`);
  }
  if (result.warnings.length > 0) {
    lines.push('  Warnings:');
    for (const warning of result.warnings) lines.push(`    ${message(warning)}`);
  }
  const roles = result.metrics.per_role;
  const role = (name: keyof typeof roles): string => `${name} ${roles[name].calls} calls/${roles[name].total_tokens} tokens`;
  lines.push(
    `  metrics: LLM ${result.metrics.llm_calls} calls, ${result.metrics.total_tokens} tokens (${role('agent')}, ${role('simulator')}, ${role('judge')}); service calls ${result.metrics.service_calls} (${result.metrics.mocked_calls} mocked)`,
  );
  if (result.result_file !== undefined) lines.push(`  result: ${result.result_file}`);
  return lines.join('\n');
}
