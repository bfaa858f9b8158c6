import * as v from 'valibot';
import { AbsolutePosixPathSchema, NonEmptyStringSchema, RelativeInnerPathSchema } from '../shared/primitives.js';
import { RuntimeNameSchema } from '../task/runtime-name.js';
import { ConversationConfigSchema } from './conversation-schema.js';
import { EvaluationSchema } from './evaluation-schema.js';
import { MockSchema } from './mock-schema.js';
import { PluginReferenceSchema } from './plugin-reference-schema.js';
import { AgentSpecSchema } from './scenario-agent-schema.js';

const SqlIdentifierSchema = v.pipe(v.string(), v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected a table name of letters, digits and "_"'));

export const DatabaseTableSchema = v.strictObject({
  columns: v.optional(
    v.pipe(v.record(SqlIdentifierSchema, NonEmptyStringSchema), v.description('Column name to SQL type, e.g. {id: INTEGER}.')),
  ),
  rows: v.array(v.record(v.string(), v.unknown())),
});
export type DatabaseTable = v.InferOutput<typeof DatabaseTableSchema>;

export const DatabaseSeedSchema = v.strictObject({
  tables: v.optional(v.record(SqlIdentifierSchema, DatabaseTableSchema)),
  sql: v.optional(v.array(NonEmptyStringSchema)),
});
export type DatabaseSeed = v.InferOutput<typeof DatabaseSeedSchema>;

export const ScenarioSetupSchema = v.strictObject({
  mocks: v.optional(v.array(MockSchema)),
  virtual_fs: v.optional(
    v.pipe(v.record(RelativeInnerPathSchema, v.string()), v.description('Files written into the environment before the run: relative path to content.')),
  ),
  database: v.optional(DatabaseSeedSchema),
});
export type ScenarioSetup = v.InferOutput<typeof ScenarioSetupSchema>;

export const SCENARIO_NETWORK_MODES = ['none', 'bridge'] as const;

/**
 * Where the scenario runs. `type` is any provider name (`local`, `docker`, `e2b`, or a plugin's); the
 * runner fails clearly when no provider has that name. `image`, `network`, `workdir` and `runtime` are read
 * by the docker provider. `setup` here is the older location of the top-level `setup` block.
 */
export const ScenarioEnvironmentSchema = v.strictObject({
  type: v.pipe(NonEmptyStringSchema, v.description('Environment provider: local, docker, e2b, or a plugin provider.')),
  image: v.optional(v.pipe(NonEmptyStringSchema, v.description('Docker image (docker provider).'))),
  network: v.optional(v.pipe(v.picklist(SCENARIO_NETWORK_MODES), v.description('Container network (docker provider); none by default.'))),
  workdir: v.optional(v.pipe(AbsolutePosixPathSchema, v.description('Working directory inside the container (docker provider).'))),
  runtime: v.optional(
    v.pipe(RuntimeNameSchema, v.description('OCI runtime of the container (docker provider), e.g. "runsc" for gVisor (`scripts/setup.sh --with-gvisor`); default: the engine\'s default.')),
  ),
  setup: v.optional(v.pipe(ScenarioSetupSchema, v.description('Deprecated location of the top-level setup block.'))),
});

export const RunStepSchema = v.pipe(
  v.strictObject({
    name: v.optional(v.string()),
    lang: v.optional(NonEmptyStringSchema),
    code: v.optional(v.string()),
    input: v.optional(v.string()),
    evaluations: v.optional(v.array(EvaluationSchema), []),
    conversation: v.optional(ConversationConfigSchema),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (dataset.typed && dataset.value.input === undefined && dataset.value.code === undefined) {
      addIssue({ message: 'expected a run step with `input` (a message to the agent) or `code` (a program to run)' });
    }
  }),
);
export type RunStep = v.InferOutput<typeof RunStepSchema>;

export const JUDGMENT_STRATEGIES = ['all_pass', 'any_pass', 'threshold'] as const;

/** A scenario file's `judgment:` block: how its evaluations make one verdict (scoring's `judge` applies it). */
export const JudgmentConfigSchema = v.pipe(
  v.strictObject({
    strategy: v.picklist(JUDGMENT_STRATEGIES),
    threshold: v.optional(
      v.pipe(v.number(), v.minValue(0), v.maxValue(1), v.description('Share (0-1) of weighted evaluations that must pass; strategy threshold only.')),
    ),
    allow_empty: v.optional(
      v.pipe(v.boolean(), v.description('Let a scenario with no evaluations pass; by default it fails.')),
      false,
    ),
  }),
  v.forward(
    v.check((judgment) => judgment.strategy !== 'threshold' || judgment.threshold !== undefined, 'expected a `threshold` (0 to 1) for strategy threshold'),
    ['threshold'],
  ),
  v.forward(
    v.check((judgment) => judgment.strategy === 'threshold' || judgment.threshold === undefined, 'expected no `threshold` unless strategy is threshold'),
    ['threshold'],
  ),
);
export type JudgmentConfig = v.InferOutput<typeof JudgmentConfigSchema>;

/** `*.scenario.yaml` (section 6 of the scenario runner spec). Unknown keys are errors everywhere except evaluation parameters. */
export const ScenarioSchema = v.pipe(
  v.strictObject({
    name: NonEmptyStringSchema,
    description: v.string(),
    plugins: v.optional(v.array(PluginReferenceSchema), []),
    environment: ScenarioEnvironmentSchema,
    setup: v.optional(ScenarioSetupSchema),
    agent: v.optional(AgentSpecSchema),
    run: v.pipe(v.array(RunStepSchema), v.minLength(1, 'expected at least one run step')),
    judgment: JudgmentConfigSchema,
  }),
  v.metadata({ title: 'AgentBench scenario (*.scenario.yaml)' }),
  v.forward(
    v.check(
      (scenario) => scenario.setup === undefined || scenario.environment.setup === undefined,
      'expected `setup` at the top level only (found both `setup` and `environment.setup`)',
    ),
    ['environment', 'setup'],
  ),
  // Older files put setup under environment: move it to the top level so consumers read one place.
  v.transform(({ environment: { setup: legacySetup, ...environment }, setup, ...scenario }) => ({
    ...scenario,
    environment,
    setup: setup ?? legacySetup,
  })),
);
export type Scenario = v.InferOutput<typeof ScenarioSchema>;
export type ScenarioInput = v.InferInput<typeof ScenarioSchema>;
export type ScenarioEnvironment = Scenario['environment'];
