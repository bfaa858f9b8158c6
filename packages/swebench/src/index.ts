// Errors
export { SwebenchError } from './errors/swebench-error.js';
export { DatasetFileError } from './errors/dataset-file-error.js';
export { ImportTargetError } from './errors/import-target-error.js';
export { OracleAgentError } from './errors/oracle-agent-error.js';

// Shell quoting
export { quoteShellWord, quoteShellWords, type QuoteShellWordOptions } from '@agentbench/schemas/internal';

// Records
export {
  REQUIRED_RECORD_FIELDS,
  decodeTestList,
  formatRecordProblem,
  parseSwebenchRecord,
  type ParsedRecord,
  type RecordProblem,
  type SwebenchRecord,
} from './records/swebench-record.js';
export { readSwebenchFile, type SwebenchFileContent } from './records/read-swebench-file.js';

// Per-repository recipes
export { REPOSITORY_PROFILES, repositoryProfileFor, repositoryProfilesMarkdown, type RepositoryProfile, type TestRunner } from './repositories/repository-profiles.js';

// Task folders
export { TASK_FOLDER_FILES } from './tasks/task-folder-files.js';
export { changedFilesOfPatch } from './tasks/patch-files.js';
export { DJANGO_COMMAND, PYTEST_COMMAND, buildTestCommand, type TestCommandPlan } from './tasks/test-command.js';
export { MAX_PATCH_CHUNK_CHARACTERS, TEST_PATCH_PATH_IN_CHECKOUT, testPatchCommands } from './tasks/test-patch-commands.js';
export {
  DEFAULT_AGENT_ENTRYPOINT,
  DEFAULT_IMPORTED_TASK_TIMEOUT_SEC,
  DEFAULT_MAX_STEPS,
  buildTaskFolder,
  type TaskBuildSettings,
  type TaskFolderContent,
} from './tasks/build-task-files.js';
export { importSwebench, type ImportSwebenchOptions, type ImportSwebenchResult, type ImportedTask } from './tasks/import-swebench.js';

// The oracle agent
export {
  ORACLE_REQUEST_ID,
  OracleAgent,
  createOracleAgent,
  type OracleAgentOptions,
} from './oracle/oracle-agent.js';
