import type { EvaluatorRegistry, LoadedPluginSet } from '@agentbench/evaluators';
import type { LoadedScenario, Scenario } from '@agentbench/schemas';
import { ulid } from 'ulid';
import type { AgentSpec } from '../../agents/agent-under-test.js';
import type { CustomTerminationCondition } from '../../conversation/termination.js';
import type { LlmSettings } from '../../llm/llm-settings.js';
import { UsageMeter } from '../../llm/usage-meter.js';
import { MockEngine } from '../../mocks/mock-engine.js';
import { checkSeed, createSeededRandom, randomSeed } from '../../random/seeded-random.js';
import { ServiceGateway } from '../../services/service-gateway.js';
import { TrajectoryRecorder } from '../../trajectory/trajectory-recorder.js';
import type { RunScenarioOptions, ScenarioRunEvent } from '../run-options.js';
import type { EvaluationRecord, RunError, ScenarioRunResult, StepResult } from '../scenario-result.js';
import { RunResources } from './run-resources.js';

const DEFAULT_STEP_TIMEOUT_MS = 300_000;

/** What a run is and what it has noted so far: its identity, warnings and errors. Made before anything loads. */
export interface RunStart {
  runId: string;
  seed: number;
  startedAt: Date;
  emit: (event: ScenarioRunEvent) => void;
  warnings: string[];
  errors: RunError[];
  /** A warning: kept for the result and shown now. */
  warn(message: string): void;
  /** An error of the run (its status becomes `errored`), with the stage it happened in. */
  recordError(stage: string, error: unknown): void;
}

/** What the load stage found; the run refuses to start without it. */
export interface LoadedRun {
  plugins: LoadedPluginSet;
  evaluators: EvaluatorRegistry;
  customConditions: ReadonlyMap<string, CustomTerminationCondition>;
  agentChoice: { spec: AgentSpec; source: '--agent' | 'scenario' | 'default' };
  providerType: string;
}

/** The state the stages share: what was loaded, what the run holds, what it has recorded. */
export interface ScenarioRun extends RunStart, LoadedRun {
  loaded: LoadedScenario;
  definition: Scenario;
  options: RunScenarioOptions;
  env: Readonly<Record<string, string | undefined>>;
  stepTimeoutMs: number;
  llmSettings: LlmSettings;
  runSignal: AbortSignal;
  resources: RunResources;
  trajectory: TrajectoryRecorder;
  meter: UsageMeter;
  mocks: MockEngine;
  gateway: ServiceGateway;
  steps: StepResult[];
  evaluationRecords: EvaluationRecord[];
  /** The workspace's files after the last step that ran. */
  files: Record<string, string>;
  finalResponse: string;
  models: ScenarioRunResult['parameters']['models'];
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function errorKind(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'kind' in error && typeof (error as { kind: unknown }).kind === 'string') return (error as { kind: string }).kind;
  return error instanceof Error ? error.name : undefined;
}

/** The run's identity (id, seed, start time) and its notes; the scenario's own warnings come first. */
export function startRun(loaded: LoadedScenario, options: RunScenarioOptions): RunStart {
  const emit = options.onEvent ?? (() => undefined);
  const warnings: string[] = loaded.warnings.map((warning) => `${warning.path}: ${warning.message}`);
  const errors: RunError[] = [];
  return {
    runId: options.runId ?? ulid(),
    seed: options.seed === undefined ? randomSeed() : checkSeed(options.seed, '--seed'),
    startedAt: new Date(),
    emit,
    warnings,
    errors,
    warn: (message) => {
      warnings.push(message);
      emit({ type: 'warning', message });
    },
    recordError: (stage, error) => {
      const kind = errorKind(error);
      errors.push({ stage, message: errorMessage(error), ...(kind === undefined ? {} : { kind }) });
    },
  };
}

/** The shared state, with the mocks, the service gateway and the recorders made; nothing started yet. */
export function createScenarioRun(loaded: LoadedScenario, options: RunScenarioOptions, start: RunStart, loadedRun: LoadedRun): ScenarioRun {
  const definition = loaded.scenario;
  const resources = new RunResources(options.scriptTimeoutMs);
  const trajectory = new TrajectoryRecorder();
  const mocks = new MockEngine(definition.setup?.mocks ?? [], { isLive: options.isLive === true, random: createSeededRandom(start.seed), scripts: resources.scripts });
  const gateway = new ServiceGateway({
    registry: resources.services,
    mocks,
    trajectory,
    onRunError: (error) => start.recordError('services', error),
    onWarning: start.warn,
  });
  gateway.baseContext = { scenario: definition.name, run_id: start.runId };
  const mockCount = definition.setup?.mocks?.length ?? 0;
  if (options.isLive === true && mockCount > 0) start.emit({ type: 'note', message: `--live: ignoring ${mockCount} mocks` });
  return {
    ...start,
    ...loadedRun,
    loaded,
    definition,
    options,
    env: { ...process.env, ...(options.env ?? {}) },
    stepTimeoutMs: options.stepTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS,
    llmSettings: options.llm ?? {},
    runSignal: options.signal ?? new AbortController().signal,
    resources,
    trajectory,
    meter: new UsageMeter(),
    mocks,
    gateway,
    steps: [],
    evaluationRecords: [],
    files: {},
    finalResponse: '',
    models: {},
  };
}
