import type { Cassette, Divergence } from '@agentbench/cassette';
import type { DockerSandboxPool, NetworkHolderPool } from '@agentbench/sandbox';
import type { AgentSpec } from '../agents/agent-under-test.js';
import type { LlmSettings } from '../llm/llm-settings.js';
import type { StepResult } from './scenario-result.js';

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
  /** Warm sandboxes `docker` environments are taken from (the workspace is empty; env set at hand-out); `runMatrix` makes one per matrix. */
  sandboxPool?: DockerSandboxPool;
  signal?: AbortSignal;
  onEvent?: (event: ScenarioRunEvent) => void;
  /**
   * Serve every role's model answers from a recorded cassette (`replayScenarioRun` sets it): the
   * judge's disk cache is not read, and `replay-then-live` forwards from the first request the
   * cassette does not hold. Default: record live answers.
   */
  replay?: { mode: 'replay' | 'replay-then-live'; cassette: Cassette; onDivergence?: (divergence: Divergence) => void };
}
