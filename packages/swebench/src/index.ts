// The public surface: the importer with its options and result, the per-repository table it takes,
// the oracle agent, and the errors. Record parsing, test commands and task-folder building are
// internal (no `/internal` entry: no other package needs them).

// Errors
export { SwebenchError } from './errors/swebench-error.js';
export { DatasetFileError } from './errors/dataset-file-error.js';
export { ImportTargetError } from './errors/import-target-error.js';
export { OracleAgentError } from './errors/oracle-agent-error.js';

// Importing a dataset
export { importSwebench, type ImportSwebenchOptions, type ImportSwebenchResult, type ImportedTask } from './tasks/import-swebench.js';
export { formatRecordProblem, type RecordProblem, type SwebenchRecord } from './records/swebench-record.js';
export type { TestCommandPlan } from './tasks/test-command.js';
export { DEFAULT_IMPORTED_TASK_TIMEOUT_SEC, DEFAULT_MAX_STEPS } from './tasks/build-task-files.js';

// Per-repository recipes (the `profiles` option)
export { REPOSITORY_PROFILES, type RepositoryProfile, type TestRunner } from './repositories/repository-profiles.js';

// The oracle agent
export { OracleAgent, createOracleAgent, createOracleAgentIfAny, type OracleAgentOptions } from './oracle/oracle-agent.js';
