import * as v from 'valibot';
import { AgentSpecSchema } from './scenario-agent-schema.js';
import { NonNegativeIntegerSchema, PositiveIntegerSchema } from '../shared/primitives.js';

/** The `format` of `run-settings.json`; a file without it is not a scenario run's settings. */
export const SCENARIO_RUN_SETTINGS_FORMAT = 'agentbench.scenario-run-settings';
export const SCENARIO_RUN_SETTINGS_VERSION = 1;

/** One role's model as the run resolved it (settings, then environment, then defaults): never a key. */
const RoleModelSettingsSchema = v.object({
  base_url: v.string(),
  /** Null for a judge whose model each evaluation chooses (its `model` or `model_type`, else the default). */
  model: v.nullable(v.string()),
  timeout_ms: v.optional(PositiveIntegerSchema),
  max_retries: v.optional(NonNegativeIntegerSchema),
});

/**
 * `run-settings.json` of a scenario run, written when the run starts: what `replayScenarioRun` needs
 * to run it again with its models served from `cassette.jsonl`. API keys and other secrets are never
 * part of it; the environment a replay runs in supplies them when it goes live.
 */
export const ScenarioRunSettingsSchema = v.object({
  format: v.literal(SCENARIO_RUN_SETTINGS_FORMAT),
  version: v.literal(SCENARIO_RUN_SETTINGS_VERSION),
  run_id: v.string(),
  scenario: v.object({
    name: v.string(),
    /** The scenario file as given to the run (absolute); relative paths in it resolve from its folder. */
    file: v.string(),
    /** The copy of the file's text in the run folder, as run (`scenario.yaml`). */
    copy: v.string(),
    /** sha256 (hex) of that text. */
    sha256: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/, 'expected a sha256 in hex')),
  }),
  /** The matrix cell this run was: its parameters are set on the scenario again by a replay. */
  matrix: v.nullable(v.object({ combination: v.string(), parameters: v.record(v.string(), v.unknown()), repeat: NonNegativeIntegerSchema })),
  /** Part of every cassette key. */
  repeat_index: NonNegativeIntegerSchema,
  seed: v.pipe(v.number(), v.integer()),
  is_live: v.boolean(),
  agent: v.object({ source: v.picklist(['--agent', 'scenario', 'default']), spec: AgentSpecSchema }),
  llm: v.object({
    agent: RoleModelSettingsSchema,
    simulator: RoleModelSettingsSchema,
    judge: v.object({
      ...RoleModelSettingsSchema.entries,
      /** Models per `model_type` the run's environment set (`AGENTBENCH_JUDGE_MODEL_SMALL`...). */
      model_types: v.record(v.string(), v.string()),
      /** Whether judge answers could come from the disk cache while recording (they are in the cassette either way). */
      is_cache_enabled: v.boolean(),
    }),
  }),
  step_timeout_ms: PositiveIntegerSchema,
  script_timeout_ms: v.optional(PositiveIntegerSchema),
  plugins: v.nullable(v.object({ from_cli: v.array(v.string()), cwd: v.nullable(v.string()), config_file: v.union([v.string(), v.literal(false), v.null()]) })),
  /** The env file the run read (its values are not copied: they may be secrets). */
  env_file: v.nullable(v.string()),
});
export type ScenarioRunSettings = v.InferOutput<typeof ScenarioRunSettingsSchema>;
