// The public surface: the importer with its options and result, the per-repository table it takes,
// the oracle agent, and the errors. Record parsing, test commands and task-folder building are
// internal (no `/internal` entry: no other package needs them).

// Errors (DatasetFileError, ImportTargetError and OracleAgentError are SwebenchErrors: tell them by their `name`)
export { SwebenchError } from './errors/swebench-error.js';

// Importing a dataset
export { importSwebench, type ImportSwebenchOptions, type ImportSwebenchResult } from './tasks/import-swebench.js';
export { formatRecordProblem, type RecordProblem } from './records/swebench-record.js';
export { DEFAULT_IMPORTED_TASK_TIMEOUT_SEC, DEFAULT_MAX_STEPS } from './tasks/build-task-files.js';

// Per-repository recipes (the `profiles` option)
export { REPOSITORY_PROFILES, type RepositoryProfile } from './repositories/repository-profiles.js';

// The oracle agent
export { createOracleAgent, createOracleAgentIfAny, type OracleAgentOptions } from './oracle/oracle-agent.js';
