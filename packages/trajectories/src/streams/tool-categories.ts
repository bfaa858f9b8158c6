import type { ToolName } from '@agentbench/schemas';

// The agents' own tool names and the tool of ours each amounts to. A name not here has no
// counterpart (todo lists, web fetches, sub-agents): it stays in the trajectory, not in tool events.
const CATEGORIES: Record<string, ToolName> = {
  // Shell commands.
  Bash: 'run',
  run_shell_command: 'run',
  command_execution: 'run',
  shell: 'run',
  shell_command: 'run',
  exec_command: 'run',
  // Edits.
  Write: 'apply_patch',
  Edit: 'apply_patch',
  MultiEdit: 'apply_patch',
  NotebookEdit: 'apply_patch',
  write_file: 'apply_patch',
  edit: 'apply_patch',
  replace: 'apply_patch',
  notebook_edit: 'apply_patch',
  apply_patch: 'apply_patch',
  file_change: 'apply_patch',
  // Reading and looking around.
  Read: 'read_file',
  read_file: 'read_file',
  read_many_files: 'read_file',
  Glob: 'list_files',
  LS: 'list_files',
  glob: 'list_files',
  list_directory: 'list_files',
  Grep: 'search',
  grep_search: 'search',
  search_file_content: 'search',
};

export function toolCategory(agentTool: string): ToolName | null {
  return Object.hasOwn(CATEGORIES, agentTool) ? CATEGORIES[agentTool]! : null;
}

/** The file an edit tool's arguments name (`file_path`, `path`, `notebook_path`), if any. */
export function editedFile(arguments_: Record<string, unknown>): string | undefined {
  for (const field of ['file_path', 'path', 'notebook_path', 'absolute_path']) {
    const value = arguments_[field];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}
