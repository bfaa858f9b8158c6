import type { CommandModule } from 'yargs';
import { createOracleAgent } from '@agentbench/swebench';
import {
  EXIT_CODE_INTERRUPTED,
  formatDuration,
  interruptOnSignals,
  runAgentAttempt,
  sandboxFactoryFor,
  withRuntime,
} from '@agentbench/harness';
import { formatIssue, loadTask, type AgentEvent } from '@agentbench/schemas';
import { backendOption } from '../backend-option.js';
import { runtimeArgument, runtimeOption } from '../runtime-option.js';
import { ARTIFACT_BUDGET_OPTION, artifactBudgetArgument, runDiskUseLine } from '../artifact-budget-option.js';
import { MAX_OUTPUT_BYTES_OPTION, maxOutputBytesArgument, terminalMessage } from '../output-options.js';
import { FAIL_ON_SUSPICION_OPTION, SCANNER_OPTION, suspicionLines } from '../scanner-options.js';
import { loadScanners } from '@agentbench/evaluators';
import { AGENT_OPTION, agentArgument, INSTRUCTION_TEMPLATE_OPTION } from '../agent-option.js';
import { jsonOption } from '../json-option.js';
import { artifactsFolderOption } from '../artifacts-folder-option.js';
import { MAX_STEPS_OPTION } from '../max-steps-option.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

// Keys as yargs types them: options keep their kebab-case names.
export interface RunAgentArguments {
  task: string;
  variant: string | undefined;
  agent: string | undefined;
  'agent-command': string | undefined;
  'instruction-template': string | undefined;
  out: string;
  'strict-patch': boolean | undefined;
  'skip-baseline': boolean;
  'log-llm-messages': boolean | undefined;
  'max-steps': number | undefined;
  'max-time': number | undefined;
  model: string | undefined;
  script: string | undefined;
  json: boolean;
  'max-output-bytes': number | undefined;
  'artifact-budget': string | undefined;
  backend: string;
  runtime: string | undefined;
  scanner: string[] | undefined;
  'fail-on-suspicion': boolean;
}

/** One line of progress per step, on stderr. */
function describeEvent(event: AgentEvent): string | undefined {
  const payload = event.payload as Record<string, unknown>;
  switch (event.event_type) {
    case 'tests_finished':
      return `tests ${payload['passed'] === true ? 'passed' : `failed (exit ${String(payload['exit_code'])})`}`;
    case 'tool_call_finished':
      return `step ${event.step ?? '?'}: ${String(payload['tool'])} → ${String(payload['status'])}${payload['error_kind'] ? ` (${String(payload['error_kind'])})` : ''}`;
    case 'llm_request_failed':
      return `model call failed: ${terminalMessage(String(payload['message']))}${payload['will_retry'] === true ? ' (retrying)' : ''}`;
    case 'agent_stopped':
      return `stopped: ${String(payload['stop_reason'])}: ${terminalMessage(String(payload['message'] ?? ''))}`;
    default:
      return undefined;
  }
}

export const runAgentCommand: CommandModule<object, RunAgentArguments> = {
  ...COMMAND_SUMMARIES['run-agent'],
  builder: (yargs) =>
    yargs
      .option('task', { type: 'string', demandOption: true, describe: 'The task.yaml to attempt' })
      .option('variant', {
        type: 'string',
        describe: "Agent: scripted, llm (alias llm_v0), oracle (applies the task's gold.patch), a ./path/to/agent.js, or a package name. Default: the task's agent.entrypoint",
      })
      .option('agent', AGENT_OPTION)
      .option('agent-command', { type: 'string', describe: 'With --agent command: the command line it runs in the sandbox (the instruction is in $AGENTBENCH_INSTRUCTION_FILE)' })
      .option('instruction-template', INSTRUCTION_TEMPLATE_OPTION)
      .option('out', artifactsFolderOption('the attempt goes to OUT/agent_runs/<task_id>/<ulid>/'))
      .option('strict-patch', { type: 'boolean', describe: 'Reject non-standard patches instead of repairing them (default: AGENTBENCH_STRICT_PATCH)' })
      .option('skip-baseline', { type: 'boolean', default: false, describe: 'Do not check first that the tests fail' })
      .option('log-llm-messages', { type: 'boolean', describe: 'Write llm_messages.jsonl (default: AGENTBENCH_LOG_LLM_MESSAGES, on)' })
      .option('max-steps', MAX_STEPS_OPTION)
      .option('max-time', { type: 'number', describe: 'Seconds allowed for the agent loop (default 1800)' })
      .option('model', { type: 'string', describe: 'LLM model (default: MODEL_NAME, else anthropic/claude-3.5-sonnet)' })
      .option('script', { type: 'string', describe: "Scripted agent: a YAML/JSON list of {tool, args} instead of the task's script" })
      .option('json', jsonOption('Print the run folder and the AttemptRecord as JSON'))
      .option('max-output-bytes', MAX_OUTPUT_BYTES_OPTION)
      .option('artifact-budget', ARTIFACT_BUDGET_OPTION)
      .option('backend', backendOption())
      .option('runtime', runtimeOption())
      .option('scanner', SCANNER_OPTION)
      .option('fail-on-suspicion', FAIL_ON_SUSPICION_OPTION)
      .example('$0 run-agent --task tasks/custom-dev/toy_fail_pytest/task.yaml --variant scripted', 'Fix the toy task with its scripted agent (no LLM)')
      .example('OPENROUTER_API_KEY=... $0 run-agent --task tasks/custom-dev/toy_fail_pytest/task.yaml --variant llm', 'Let an LLM fix it (OpenRouter)')
      .example('OPENAI_API_KEY=... $0 run-agent --task tasks/custom-dev/toy_fail_pytest/task.yaml --agent codex --model gpt-5', 'Let Codex CLI fix it, in the sandbox, through the model gateway')
      .example('$0 run-agent --task TASK.yaml --agent ./my-agent.yaml --instruction-template ./instruction.md --model M', 'Your own CLI agent, from its definition file, told the task by your template'),
  handler: async (argv) => {
    const chosen = agentArgument(argv.agent, argv.variant, argv['instruction-template']);
    const maxOutputBytes = maxOutputBytesArgument(argv['max-output-bytes']);
    const artifactBudget = artifactBudgetArgument(argv['artifact-budget']);
    const runtime = runtimeArgument(argv.runtime, argv.backend);
    const loaded = await loadTask(argv.task);
    // Before anything runs: a scanner plugin that cannot load stops here, with nothing written.
    const scanners = await loadScanners(argv.scanner ?? []);
    for (const warning of loaded.warnings) process.stderr.write(`warning: ${formatIssue(warning)}\n`);
    const controller = new AbortController();
    const removeHandlers = interruptOnSignals(controller);
    const taskId = loaded.task.id;
    const strictPatch = argv['strict-patch'];
    const logLlmMessages = argv['log-llm-messages'];
    const maxSteps = argv['max-steps'];
    const maxTime = argv['max-time'];
    let result;
    try {
      result = await runAgentAttempt({
        task: loaded,
        outDir: argv.out,
        skipBaseline: argv['skip-baseline'],
        signal: controller.signal,
        scanners,
        ...(argv['fail-on-suspicion'] ? { failOnSuspicion: true } : {}),
        ...(maxOutputBytes === undefined ? {} : { maxOutputBytes }),
        artifactBudget,
        createSandbox: withRuntime(sandboxFactoryFor(argv.backend), runtime),
        ...(chosen.variant === undefined ? {} : { variant: chosen.variant }),
        ...(chosen.agent === undefined
          ? {}
          : {
              installedAgent: {
                agent: chosen.agent,
                ...(argv['agent-command'] === undefined ? {} : { command: argv['agent-command'] }),
                ...(chosen.instructionTemplate === undefined ? {} : { instructionTemplate: chosen.instructionTemplate }),
              },
            }),
        // The oracle applies the task's gold patch (SWE-bench imports keep it beside the task).
        ...(chosen.variant === 'oracle' ? { agent: await createOracleAgent({ task: loaded }) } : {}),
        ...(strictPatch === undefined ? {} : { strictPatch }),
        ...(logLlmMessages === undefined ? {} : { logLlmMessages }),
        ...(maxSteps === undefined ? {} : { maxSteps }),
        ...(maxTime === undefined ? {} : { limits: { maxTimeSec: maxTime } }),
        ...(argv.model === undefined ? {} : { model: argv.model }),
        ...(argv.script === undefined ? {} : { scriptFile: argv.script }),
        ...(argv.json
          ? {}
          : {
              onStage: (stage: string) => process.stderr.write(`${taskId}: ${stage}\n`),
              onEvent: (event: AgentEvent) => {
                const line = describeEvent(event);
                if (line !== undefined) process.stderr.write(`${taskId}: ${line}\n`);
              },
            }),
      });
    } finally {
      removeHandlers();
    }
    const { record } = result;
    if (argv.json) {
      process.stdout.write(`${JSON.stringify({ run_dir: result.runDir, record }, null, 2)}\n`);
    } else {
      const verdict = record.result.passed ? 'PASSED' : `FAILED ${record.result.failure_reason ?? ''}`.trim();
      const steps = record.metrics?.steps ?? 0;
      const tokens =
        record.metrics?.input_tokens === null || record.metrics?.input_tokens === undefined
          ? ''
          : `, ${record.metrics.input_tokens} input + ${record.metrics.output_tokens ?? 0} output tokens${record.metrics.cost_usd === null || record.metrics.cost_usd === undefined ? '' : `, $${record.metrics.cost_usd.toFixed(4)}`}`;
      process.stdout.write(`${taskId}: ${verdict} (${record.variant}) in ${formatDuration(record.duration_sec * 1000)}, ${steps} step${steps === 1 ? '' : 's'}${tokens}: ${terminalMessage(result.message)}\n`);
      for (const line of suspicionLines(record.suspicions ?? [])) process.stdout.write(`${line}\n`);
      process.stdout.write(`artifacts: ${result.runDir}\n`);
      process.stdout.write(`${await runDiskUseLine(result.runDir, artifactBudget)}\n`);
    }
    process.exitCode = record.result.failure_reason === 'INTERRUPTED' ? EXIT_CODE_INTERRUPTED : record.result.passed ? 0 : 1;
  },
};
