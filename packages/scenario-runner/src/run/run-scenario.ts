import path from 'node:path';
import { createLlmClient, type LlmClient } from '@agentbench/agent-loop';
import {
  createEvaluationContext,
  createEvaluatorRegistry,
  createJudgeClient,
  toEvaluationOutcome,
  type EvaluationContext,
  type EvaluationReport,
  type EvaluatorRegistry,
  type LoadedPluginSet,
} from '@agentbench/evaluators';
import type { NetworkHolderPool } from '@agentbench/sandbox';
import { FileValidationError, hasErrors, loadScenario, sortIssues, type LoadedScenario, type RunStep } from '@agentbench/schemas';
import { judge, type EvaluationOutcome } from '@agentbench/scoring';
import { createToolSet } from '@agentbench/tools';
import { ulid } from 'ulid';
import { DEFAULT_AGENT_SPEC, type AgentSpec, type AgentUnderTest, type ChatMessage } from '../agents/agent-under-test.js';
import { CommandAgentUnderTest } from '../agents/command-agent.js';
import { HttpAgentUnderTest } from '../agents/http-agent.js';
import { LlmAgentUnderTest } from '../agents/llm-agent.js';
import { runCode } from '../code/run-code.js';
import { ConversationManager } from '../conversation/conversation-manager.js';
import type { ConversationResult, ConversationTurnRecord } from '../conversation/conversation-types.js';
import { scenarioContentIssues } from '../check/scenario-content-issues.js';
import { TERMINATION_JUDGE_SCHEMA, type TerminationJudge } from '../conversation/termination.js';
import { UserSimulator } from '../conversation/user-simulator.js';
import { NotInstalledError } from '../errors/not-installed-error.js';
import { ScenarioRunnerError } from '../errors/scenario-runner-error.js';
import { judgeClientOptions, roleClientOptions, type LlmSettings } from '../llm/llm-settings.js';
import { judgeUsageOf, UsageMeter } from '../llm/usage-meter.js';
import { IsolatedScriptRunner } from '../mocks/isolated-script-runner.js';
import { MockEngine } from '../mocks/mock-engine.js';
import { customTerminationConditions, createPluginProvider, instantiatePluginServices, loadRunnerPlugins } from '../plugins/runner-plugins.js';
import { BUILTIN_PROVIDERS, KNOWN_PROVIDER_PLUGINS } from '../providers/builtin-providers.js';
import type { EnvironmentProvider } from '../providers/environment-provider.js';
import { checkSeed, createSeededRandom, randomSeed } from '../random/seeded-random.js';
import { createDatabaseService, ScenarioDatabase } from '../services/database-service.js';
import { ServiceGateway, TOOLS_SERVICE_NAME } from '../services/service-gateway.js';
import { ServiceRegistry } from '../services/service-registry.js';
import { SERVICES_URL_VARIABLE, startServicesEndpoint, type ServicesEndpoint } from '../services/services-endpoint.js';
import { createToolsService } from '../services/tools-service.js';
import { TrajectoryRecorder } from '../trajectory/trajectory-recorder.js';
import { writeJsonAtomic } from '@agentbench/schemas';
import { timestampForPath } from '@agentbench/schemas/internal';
import { slugForPath } from './result-files.js';
import {
  SCENARIO_RESULT_SCHEMA_VERSION,
  type EvaluationRecord,
  type RunError,
  type ScenarioRunResult,
  type StepResult,
} from './scenario-result.js';

/** Progress of a run, for a command line or a log. */
export type ScenarioRunEvent =
  | { type: 'note' | 'warning'; message: string }
  | { type: 'debug'; message: string }
  | { type: 'step-started'; step: number; name: string; kind: StepResult['kind'] }
  | { type: 'step-finished'; step: number; status: StepResult['status']; durationMs: number };

export interface RunScenarioOptions {
  /** `--live`: ignore every mock. */
  isLive?: boolean;
  /** Seed of the run's randomness (mock probabilities, `Math.random` in mock scripts). Default: a random one, recorded. */
  seed?: number;
  /** The agent under test; wins over the scenario's `agent:` block. Default: our LLM agent. */
  agent?: AgentSpec;
  llm?: LlmSettings;
  /** Variables for this run only (an env file); read instead of, and over, `process.env`. */
  env?: Readonly<Record<string, string>>;
  /** Recorded in the result. */
  envFile?: string;
  /** Folder for result.json. Default `<artifactsDir>/scenarios/<timestamp>__<scenario>__<ulid>/`. */
  outDir?: string;
  /** Default `artifacts` (relative to the working folder). */
  artifactsDir?: string;
  /** Default true. */
  writeResult?: boolean;
  /** Plugin references from `--plugin`, where they and `agentbench.config.*` resolve, or a config file. */
  plugins?: { fromCli?: readonly string[]; cwd?: string; configFile?: string | false };
  /** Time limit of a single-turn step (agent reply or code). Default 300 000 ms. */
  stepTimeoutMs?: number;
  /** CPU time a mock matcher or response function may take. Default 1000 ms. */
  scriptTimeoutMs?: number;
  /** Matrix runs: which combination and repeat this is (also keeps judge samples independent). */
  matrix?: { combination: string; parameters: Record<string, unknown>; repeat: number };
  runId?: string;
  /** Started network holders for `docker` environments to join (a faster container start); `runMatrix` makes one pool per run. */
  networkHolders?: NetworkHolderPool;
  signal?: AbortSignal;
  onEvent?: (event: ScenarioRunEvent) => void;
}

const DEFAULT_STEP_TIMEOUT_MS = 300_000;

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function errorKind(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'kind' in error && typeof (error as { kind: unknown }).kind === 'string') return (error as { kind: string }).kind;
  return error instanceof Error ? error.name : undefined;
}

/** The model the llm_judge evaluator says answered (`details.questions[0].votes[0].model`). */
function judgeModelOf(details: unknown): string | undefined {
  const questions = (details as { questions?: { votes?: { model?: unknown }[] }[] } | undefined)?.questions;
  const model = Array.isArray(questions) ? questions[0]?.votes?.[0]?.model : undefined;
  return typeof model === 'string' ? model : undefined;
}

function stepKind(step: RunStep): StepResult['kind'] {
  if (step.conversation !== undefined) return 'conversation';
  return step.code !== undefined ? 'code' : 'input';
}

function stepName(step: RunStep, index: number): string {
  return step.name ?? `run[${index}]`;
}

/** The agent a run will use and where the choice came from. */
export function chooseAgentSpec(loaded: LoadedScenario, override: AgentSpec | undefined): { spec: AgentSpec; source: '--agent' | 'scenario' | 'default' } {
  if (override !== undefined) return { spec: override, source: '--agent' };
  // The schema validated the file's `agent:` block when the scenario was loaded.
  const fromFile = loaded.scenario.agent;
  return fromFile === undefined ? { spec: DEFAULT_AGENT_SPEC, source: 'default' } : { spec: fromFile, source: 'scenario' };
}

/** Throws a `FileValidationError` for evaluations the registry rejects (unknown types, bad parameters). */
export function validateEvaluations(registry: EvaluatorRegistry, loaded: LoadedScenario): void {
  const issues = registry.validateScenario(loaded);
  if (issues.some((issue) => issue.severity === 'error')) throw new FileValidationError(issues);
}

/** The provider error for a type nobody provides, naming the plugin to install. */
export function providerNotInstalledError(type: string, file: string): NotInstalledError {
  const known = KNOWN_PROVIDER_PLUGINS[type];
  const packageName = known ?? `a plugin that provides environment type "${type}"`;
  const message =
    known === undefined
      ? `${file}: environment.type "${type}" is not a built-in provider (${Object.keys(BUILTIN_PROVIDERS).join(', ')}) and no loaded plugin provides it: install a plugin that registers environment provider "${type}" and list it under \`plugins:\``
      : `${file}: environment.type "${type}" needs the provider plugin ${known}, which is not installed: install it (pnpm add ${known}) and list it under \`plugins:\``;
  return new NotInstalledError('provider_not_installed', message, packageName);
}

/** Everything a run holds, released in `teardown`. */
class RunResources {
  provider: EnvironmentProvider | undefined;
  endpoint: ServicesEndpoint | undefined;
  agent: AgentUnderTest | undefined;
  readonly services = new ServiceRegistry();
  readonly scripts: IsolatedScriptRunner;

  constructor(scriptTimeoutMs: number | undefined) {
    this.scripts = new IsolatedScriptRunner(scriptTimeoutMs === undefined ? {} : { timeoutMs: scriptTimeoutMs });
  }

  async release(onError: (stage: string, error: unknown) => void): Promise<void> {
    const attempt = async (stage: string, action: (() => Promise<unknown>) | undefined): Promise<void> => {
      if (action === undefined) return;
      try {
        await action();
      } catch (error) {
        onError(stage, error);
      }
    };
    await attempt('teardown.agent', this.agent?.dispose === undefined ? undefined : () => this.agent!.dispose!());
    await attempt('teardown.endpoint', this.endpoint === undefined ? undefined : () => this.endpoint!.close());
    await attempt('teardown.provider', this.provider === undefined ? undefined : () => this.provider!.teardown());
    await attempt('teardown.services', () => this.services.dispose());
    await attempt('teardown.scripts', () => this.scripts.close());
  }
}

/**
 * Runs one scenario through the spec's lifecycle: load and validate, load plugins, initialise the
 * environment provider, setup (virtual files, database, mocks), run the steps (code, agent input,
 * conversations), evaluate, judge, write `result.json`. Input problems found before anything runs
 * (invalid file or evaluations, missing plugin or provider, a mock of an unknown service) throw; what
 * goes wrong once the run started is recorded in the result, whose status is then `errored`.
 */
export async function runScenario(scenario: string | LoadedScenario, options: RunScenarioOptions = {}): Promise<ScenarioRunResult> {
  const loaded = typeof scenario === 'string' ? await loadScenario(scenario) : scenario;
  const { scenario: definition } = loaded;
  const emit = options.onEvent ?? (() => undefined);
  const env: Readonly<Record<string, string | undefined>> = { ...process.env, ...(options.env ?? {}) };
  const runId = options.runId ?? ulid();
  const seed = options.seed === undefined ? randomSeed() : checkSeed(options.seed, '--seed');
  const random = createSeededRandom(seed);
  const startedAt = new Date();
  const stepTimeoutMs = options.stepTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS;
  const llmSettings = options.llm ?? {};
  const warnings: string[] = loaded.warnings.map((warning) => `${warning.path}: ${warning.message}`);
  const errors: RunError[] = [];
  const warn = (message: string): void => {
    warnings.push(message);
    emit({ type: 'warning', message });
  };
  const recordError = (stage: string, error: unknown): void => {
    errors.push({ stage, message: errorMessage(error), ...(errorKind(error) === undefined ? {} : { kind: errorKind(error) as string }) });
  };

  // Loading phase: plugins, evaluations, agent choice, conditions. Problems here stop before anything runs.
  const plugins: LoadedPluginSet = await loadRunnerPlugins(definition.plugins, {
    scenarioFile: loaded.file,
    scenarioDir: loaded.dir,
    ...options.plugins,
  });
  const evaluators = createEvaluatorRegistry({ plugins });
  const customConditions = customTerminationConditions(plugins);
  // The same checks as the dry-run plan and `ab validate`: evaluators, code languages, plugin conditions.
  const contentIssues = scenarioContentIssues(loaded, { registry: evaluators, customConditions });
  if (hasErrors(contentIssues)) throw new FileValidationError(sortIssues(contentIssues));
  definition.run.forEach((step, index) => {
    if (step.conversation === undefined && step.code !== undefined && step.input !== undefined) warn(`run[${index}] has both code and input: the code runs, the input is not sent`);
  });
  const agentChoice = chooseAgentSpec(loaded, options.agent);
  const providerType = definition.environment.type;
  if (BUILTIN_PROVIDERS[providerType] === undefined && !plugins.environmentProviders.has(providerType)) {
    throw providerNotInstalledError(providerType, loaded.file);
  }

  const resources = new RunResources(options.scriptTimeoutMs);
  const trajectory = new TrajectoryRecorder();
  const meter = new UsageMeter();
  const mocks = new MockEngine(definition.setup?.mocks ?? [], { isLive: options.isLive === true, random, scripts: resources.scripts });
  const gateway = new ServiceGateway({
    registry: resources.services,
    mocks,
    trajectory,
    onRunError: (error) => recordError('services', error),
    onWarning: warn,
  });
  gateway.baseContext = { scenario: definition.name, run_id: runId };
  const steps: StepResult[] = [];
  const evaluationRecords: EvaluationRecord[] = [];
  let files: Record<string, string> = {};
  let finalResponse = '';
  const models: ScenarioRunResult['parameters']['models'] = {};
  const runSignal = options.signal ?? new AbortController().signal;
  if (options.isLive === true && (definition.setup?.mocks?.length ?? 0) > 0) emit({ type: 'note', message: `--live: ignoring ${definition.setup?.mocks?.length} mocks` });

  try {
    // Services: the database, plugin services, then (with the provider) the agent's tools.
    if (definition.setup?.database !== undefined) {
      const database = await ScenarioDatabase.create();
      resources.services.register(createDatabaseService(database));
      database.seed(definition.setup.database);
    }
    for (const { definition: service, origin } of await instantiatePluginServices(plugins)) resources.services.register(service, origin);
    resources.endpoint = await startServicesEndpoint(gateway, { caller: agentChoice.spec.type === 'llm' ? 'external' : `${agentChoice.spec.type}-agent` });

    // Environment provider.
    const providerContext = {
      environment: definition.environment,
      scenarioDir: loaded.dir,
      scenarioName: definition.name,
      runId,
      config: {},
      env: { [SERVICES_URL_VARIABLE]: resources.endpoint.url },
      onNote: (message: string) => emit({ type: 'note', message }),
      ...(options.networkHolders === undefined ? {} : { networkHolders: options.networkHolders }),
    };
    const builtin = BUILTIN_PROVIDERS[providerType];
    resources.provider = builtin !== undefined ? await builtin(providerContext) : await createPluginProvider(plugins, providerType, providerContext);
    if (resources.provider === undefined) throw providerNotInstalledError(providerType, loaded.file);
    const provider = resources.provider;
    if (provider.sandbox !== undefined && !resources.services.hasService(TOOLS_SERVICE_NAME)) {
      resources.services.register(createToolsService(createToolSet({ sandbox: provider.sandbox })));
    }
    const mockProblems = mocks.configurationProblems(resources.services);
    if (mockProblems.length > 0) {
      throw new ScenarioRunnerError('mock_configuration', `${loaded.file}: ${mockProblems.length === 1 ? 'a mock is' : `${mockProblems.length} mocks are`} not valid:\n  ${mockProblems.join('\n  ')}`);
    }

    // Setup: virtual files.
    const virtualFiles = Object.entries(definition.setup?.virtual_fs ?? {}).map(([filePath, content]) => ({ type: 'write' as const, path: filePath, content }));
    await provider.setup(virtualFiles);

    // The agent, when a step talks to one.
    const needsAgent = definition.run.some((step) => stepKind(step) !== 'code');
    if (needsAgent) {
      resources.agent = createAgent(agentChoice.spec, {
        gateway,
        trajectory,
        meter,
        llm: llmSettings,
        env,
        runEnv: { ...(options.env ?? {}), [SERVICES_URL_VARIABLE]: resources.endpoint.url },
        cwd: loaded.dir,
        models,
      });
    }
    const judgeOptions = judgeClientOptions(llmSettings, env, options.matrix?.repeat ?? 0);
    const evaluationBase: Partial<EvaluationContext> = {
      llm: judgeOptions,
      runCommand: (command) => provider.run(command, { captureFiles: false, timeoutMs: stepTimeoutMs }),
      signal: runSignal,
    };
    const evaluate = async (list: readonly unknown[], context: EvaluationContext, where: Pick<EvaluationRecord, 'step' | 'phase' | 'turn'>): Promise<EvaluationReport[]> => {
      const reports = await evaluators.evaluateAll(list, context);
      for (const report of reports) {
        const judgeUsage = judgeUsageOf(report.details);
        if (judgeUsage !== undefined) {
          meter.recordCalls('judge', judgeUsage.calls, judgeUsage.usage);
          models.judge ??= judgeModelOf(report.details) ?? judgeOptions.model ?? 'default';
        }
        evaluationRecords.push({ ...where, ...report } as EvaluationRecord);
        if (report.error !== undefined) recordError(`evaluation run[${where.step}]${where.turn === undefined ? '' : ` turn ${where.turn}`}`, new Error(report.message));
      }
      return reports;
    };
    const terminationJudge: TerminationJudge = async ({ prompt, transcript }, signal) => {
      const client = createJudgeClient(judgeOptions);
      models.judge ??= client.configuration.model ?? 'default';
      const asked = Date.now();
      const answer = await client.ask(
        {
          name: 'termination',
          system: 'You decide whether a conversation between a user and an AI agent should end now. Answer only through the structured output.',
          prompt: `# Question\n${prompt}\n\n# Conversation so far\n${transcript}`,
          schema: TERMINATION_JUDGE_SCHEMA,
        },
        signal === undefined ? {} : { signal },
      );
      if (!answer.isCached) meter.recordCalls('judge', 1, answer.usage, Date.now() - asked);
      return { shouldEnd: answer.value['should_end'] === true, confidence: Number(answer.value['confidence']), reasoning: String(answer.value['reasoning'] ?? '') };
    };

    // Run phase.
    const history: ChatMessage[] = [];
    let isStopped = false;
    for (const [index, step] of definition.run.entries()) {
      const kind = stepKind(step);
      const name = stepName(step, index);
      const stepStarted = Date.now();
      const result: StepResult = { index, name, kind, status: 'completed', response: '', stdout: '', stderr: '', exit_code: null, duration_ms: 0 };
      if (step.lang !== undefined && kind === 'code') result.lang = step.lang;
      if (step.input !== undefined && kind !== 'code') result.input = step.input;
      steps.push(result);
      if (isStopped || runSignal.aborted) {
        result.status = 'skipped';
        continue;
      }
      emit({ type: 'step-started', step: index, name, kind });
      trajectory.current = { step: index };
      const position = trajectory.position;
      let conversation: ConversationResult | undefined;
      try {
        if (kind === 'code') {
          trajectory.action('run_code', step.code ?? '', { lang: step.lang ?? 'bash' });
          const executed = await runCode(provider, { lang: step.lang, code: step.code ?? '' }, { field: `run[${index}]`, timeoutMs: stepTimeoutMs, signal: runSignal });
          trajectory.observation('run_code', `exit ${executed.exitCode}${executed.timedOut ? ' (timed out)' : ''}`, executed.exitCode === 0, { durationMs: executed.durationMs });
          Object.assign(result, { response: executed.stdout, stdout: executed.stdout, stderr: executed.stderr, exit_code: executed.exitCode });
          files = executed.files;
          finalResponse = executed.stdout;
          if (executed.timedOut) throw new ScenarioRunnerError('code_step', `run[${index}]: the ${step.lang ?? 'bash'} code ran past ${stepTimeoutMs} ms and was stopped`);
        } else if (kind === 'input') {
          const agent = resources.agent as AgentUnderTest;
          const signal = AbortSignal.any([runSignal, AbortSignal.timeout(stepTimeoutMs)]);
          let reply: string;
          try {
            reply = (await agent.respond({ input: step.input ?? '', history: [...history], signal, turn: 1 })).response;
          } catch (error) {
            if (signal.aborted && !runSignal.aborted) throw new ScenarioRunnerError('agent_timeout', `run[${index}]: the agent did not answer within ${stepTimeoutMs} ms`, { cause: error });
            throw error;
          }
          history.push({ role: 'user', content: step.input ?? '' }, { role: 'assistant', content: reply });
          Object.assign(result, { response: reply, stdout: reply, exit_code: 0 });
          finalResponse = reply;
          files = await provider.readFiles();
        } else {
          const config = step.conversation!;
          const simulator = new UserSimulator({
            client: createRoleClient('simulator', llmSettings, env, { temperature: config.user_simulator.temperature, maxOutputTokens: config.user_simulator.max_tokens }, models),
            config: config.user_simulator,
            usage: meter,
            log: (message) => emit({ type: 'debug', message }),
          });
          const turnContext = (turn: ConversationTurnRecord, turns: readonly ConversationTurnRecord[]): EvaluationContext =>
            createEvaluationContext({
              ...evaluationBase,
              response: turn.agentResponse,
              files,
              trajectory: turn.trajectory,
              durationMs: turn.durationMs,
              conversation: { turns: turns.map(({ turnNumber, userInput, agentResponse, durationMs }) => ({ turnNumber, userInput, agentResponse, durationMs })), transcript: '', terminationReason: null },
            });
          const manager = new ConversationManager({
            agent: resources.agent as AgentUnderTest,
            simulator,
            trajectory,
            history,
            evaluateTurn: (turn, turns) => evaluate(config.turn_evaluations, turnContext(turn, turns), { step: index, phase: 'turn', turn: turn.turnNumber }),
            termination: { judge: terminationJudge, customConditions },
            log: (message) => emit({ type: 'debug', message }),
            signal: runSignal,
          });
          conversation = await manager.executeConversation(step.input ?? '', config);
          for (const turn of conversation.turns) if (turn.error === undefined) history.push({ role: 'user', content: turn.userInput }, { role: 'assistant', content: turn.agentResponse });
          const last = conversation.turns.filter((turn) => turn.error === undefined).at(-1);
          Object.assign(result, { response: last?.agentResponse ?? '', stdout: conversation.transcript, exit_code: conversation.error === undefined ? 0 : 1 });
          result.conversation = {
            turns: conversation.turns.map((turn) => ({
              turn: turn.turnNumber,
              user_input: turn.userInput,
              agent_response: turn.agentResponse,
              started_at: turn.startedAt,
              duration_ms: turn.durationMs,
              ...(turn.error === undefined ? {} : { error: turn.error }),
            })),
            turn_count: conversation.turns.length,
            terminated_early: conversation.terminatedEarly,
            termination_reason: conversation.terminationReason,
            total_duration_ms: conversation.totalDurationMs,
            ...(config.debug_options.export_full_transcript ? { transcript: conversation.transcript } : {}),
          };
          finalResponse = result.response;
          files = await provider.readFiles();
          if (conversation.error !== undefined) throw new ScenarioRunnerError('conversation', `run[${index}].conversation: ${conversation.error}`);
        }
      } catch (error) {
        if (ScenarioRunnerError.isInstance(error) && error.kind === 'configuration') throw error;
        result.status = 'errored';
        result.error = errorMessage(error);
        recordError(`run[${index}]`, error);
        // Later steps would build on a broken one: they are skipped, and the run cannot pass.
        isStopped = true;
      }
      result.duration_ms = Date.now() - stepStarted;

      // Evaluations of a completed step (an errored step's evaluations would only judge the failure).
      if (result.status === 'completed') {
        const context = createEvaluationContext({
          ...evaluationBase,
          response: result.response,
          stdout: result.stdout,
          stderr: result.stderr,
          exitCode: result.exit_code ?? 0,
          files,
          trajectory: trajectory.since(position),
          durationMs: result.duration_ms,
          ...(conversation === undefined
            ? {}
            : {
                conversation: {
                  turns: conversation.turns.map(({ turnNumber, userInput, agentResponse, durationMs }) => ({ turnNumber, userInput, agentResponse, durationMs })),
                  transcript: conversation.transcript,
                  terminationReason: conversation.terminationReason,
                },
              }),
        });
        if (step.conversation !== undefined) await evaluate(step.conversation.final_evaluations, context, { step: index, phase: 'final' });
        await evaluate(step.evaluations, context, { step: index, phase: 'step' });
      }
      emit({ type: 'step-finished', step: index, status: result.status, durationMs: result.duration_ms });
    }
  } catch (error) {
    await resources.release(recordError);
    // Input problems found while preparing (mocks of unknown services, a conversation condition) are the user's to fix.
    if (ScenarioRunnerError.isInstance(error) && ['mock_configuration', 'configuration', 'provider_not_installed', 'plugin_load_failed'].includes(error.kind)) throw error;
    recordError('setup', error);
    return finishRun();
  }
  await resources.release(recordError);
  return finishRun();

  async function finishRun(): Promise<ScenarioRunResult> {
    // Judgment: every evaluation counts (turn, final and step ones); a step without any is never a vacuous pass.
    const outcomes: EvaluationOutcome[] = evaluationRecords.map((record) => toEvaluationOutcome(record as EvaluationReport));
    const { strategy, threshold, allow_empty: allowEmpty } = definition.judgment;
    for (const step of steps) {
      const source = definition.run[step.index];
      const count = (source?.evaluations.length ?? 0) + (source?.conversation?.turn_evaluations.length ?? 0) + (source?.conversation?.final_evaluations.length ?? 0);
      if (count > 0 || step.status !== 'completed') continue;
      const label = step.name === `run[${step.index}]` ? step.name : `run[${step.index}] (${step.name})`;
      if (allowEmpty) {
        warnings.push(`${label} has no evaluations (allowed by judgment.allow_empty)`);
      } else {
        warnings.push(`${label} has no evaluations: it proves nothing${strategy === 'all_pass' ? ', so all_pass fails (set judgment.allow_empty: true to allow it)' : ''}`);
        if (strategy === 'all_pass') outcomes.push({ success: false, name: `run[${step.index}] has no evaluations`, error: 'a step without evaluations is not a pass' });
      }
    }
    const verdict = judge({ strategy, ...(threshold === undefined ? {} : { threshold }), allowEmpty }, outcomes);
    const status = errors.length > 0 ? 'errored' : verdict.passed ? 'passed' : 'failed';
    const finishedAt = new Date();
    const result: ScenarioRunResult = {
      schema_version: SCENARIO_RESULT_SCHEMA_VERSION,
      run_id: runId,
      status,
      passed: status === 'passed',
      scenario: { name: definition.name, description: definition.description, file: loaded.file },
      parameters: {
        seed,
        is_live: options.isLive === true,
        agent: resources.agent?.description ?? `${agentChoice.spec.type} (not started)`,
        provider: providerType,
        ...(options.envFile === undefined ? {} : { env_file: path.resolve(options.envFile) }),
        models,
        ...(options.matrix === undefined ? {} : { matrix: options.matrix }),
      },
      started_at: startedAt.toISOString(),
      finished_at: finishedAt.toISOString(),
      metrics: {
        execution_time_ms: finishedAt.getTime() - startedAt.getTime(),
        llm_calls: meter.totalCalls,
        total_tokens: meter.totalTokens,
        per_role: meter.snapshot(),
        service_calls: gateway.calls.length,
        mocked_calls: gateway.calls.filter((call) => call.isMocked).length,
        conversation_turns: steps.reduce((sum, step) => sum + (step.conversation?.turn_count ?? 0), 0),
      },
      final_response: finalResponse,
      steps,
      evaluations: evaluationRecords,
      judgment: { strategy, passed: verdict.passed && status !== 'errored', score: verdict.score, reason: errors.length > 0 ? `errored: ${errors[0]?.message}` : verdict.reason },
      trajectory: [...trajectory.entries],
      service_calls: gateway.calls,
      files,
      warnings,
      errors,
    };
    if (options.writeResult !== false) {
      const folder = options.outDir ?? path.join(options.artifactsDir ?? 'artifacts', 'scenarios', `${timestampForPath(startedAt)}__${slugForPath(definition.name)}__${runId}`);
      const file = path.resolve(folder, 'result.json');
      result.result_file = file;
      await writeJsonAtomic(file, result);
    }
    return result;
  }
}

interface AgentDependencies {
  gateway: ServiceGateway;
  trajectory: TrajectoryRecorder;
  meter: UsageMeter;
  llm: LlmSettings;
  env: Readonly<Record<string, string | undefined>>;
  /** Variables the command agent gets on top of the process environment. */
  runEnv: Record<string, string>;
  cwd: string;
  models: ScenarioRunResult['parameters']['models'];
}

function createRoleClient(
  role: 'agent' | 'simulator',
  settings: LlmSettings,
  env: Readonly<Record<string, string | undefined>>,
  sampling: { temperature?: number; maxOutputTokens?: number } | undefined,
  models: ScenarioRunResult['parameters']['models'],
  headers?: Record<string, string>,
): LlmClient {
  const options = roleClientOptions(role, settings, env);
  if (sampling !== undefined) options.sampling = sampling;
  if (headers !== undefined) options.headers = headers;
  models[role] ??= options.model;
  return createLlmClient(options);
}

function createAgent(spec: AgentSpec, dependencies: AgentDependencies): AgentUnderTest {
  const { gateway, trajectory, meter, llm, env, models } = dependencies;
  switch (spec.type) {
    case 'llm': {
      const settings: LlmSettings = { ...llm, agent: { ...llm.agent, ...(spec.model === undefined ? {} : { model: spec.model }), ...(spec.base_url === undefined ? {} : { baseURL: spec.base_url }) } };
      return new LlmAgentUnderTest({
        client: createRoleClient('agent', settings, env, undefined, models),
        gateway,
        trajectory,
        usage: meter,
        ...(spec.system_prompt === undefined ? {} : { systemPrompt: spec.system_prompt }),
        ...(spec.max_tool_rounds === undefined ? {} : { maxToolRounds: spec.max_tool_rounds }),
        ...(spec.services === undefined ? {} : { services: spec.services }),
      });
    }
    case 'http': {
      const apiKey = spec.api_key_env === undefined ? undefined : env[spec.api_key_env];
      if (spec.api_key_env !== undefined && (apiKey === undefined || apiKey === '')) {
        throw new ScenarioRunnerError('configuration', `agent.api_key_env: the variable ${spec.api_key_env} is not set`);
      }
      const settings: LlmSettings = { ...llm, agent: { ...llm.agent, baseURL: spec.base_url, ...(spec.model === undefined ? {} : { model: spec.model }), ...(apiKey === undefined ? {} : { apiKey }) } };
      const client = createRoleClient('agent', settings, env, undefined, models, { 'X-AgentBench-Services-URL': dependencies.runEnv[SERVICES_URL_VARIABLE] ?? '' });
      return new HttpAgentUnderTest(client, meter, trajectory, spec.system_prompt);
    }
    case 'command':
      return new CommandAgentUnderTest({
        command: spec.command,
        cwd: spec.cwd === undefined ? dependencies.cwd : path.resolve(dependencies.cwd, spec.cwd),
        env: dependencies.runEnv,
        trajectory,
        ...(spec.timeout_ms === undefined ? {} : { timeoutMs: spec.timeout_ms }),
      });
  }
}
