import type { CommandModule } from 'yargs';

/** What `ab --help` lists of a command: enough to list it and to match it, without loading its module. */
export type CommandSummary = Required<Pick<CommandModule, 'command' | 'describe'>> & Pick<CommandModule, 'aliases'>;

/**
 * Every `ab` command, in the order `--help` lists them. Each command's module spreads its summary into
 * its CommandModule, so the text lives here once; main.ts loads only the module of the command named
 * (a command module imports the packages its handler needs, most of the start-up time).
 */
export const COMMAND_SUMMARIES = {
  run: { command: 'run', describe: 'Agent attempts at scale: tasks × models × runs, retries of infrastructure failures, resumable (--resume), -j auto' },
  'run-agent': { command: 'run-agent', describe: 'Run an agent on a task in a sandbox and record the attempt' },
  'run-task': { command: 'run-task <task>', describe: 'Clone a task\'s repository, run its setup and tests in a sandbox, and keep every artifact' },
  replay: { command: 'replay <runDir>', describe: 'Re-run a recorded agent attempt or scenario run with its models served from its cassette, offline, and compare the two' },
  proxy: { command: 'proxy', describe: 'Serve an OpenAI-compatible endpoint on loopback that records model exchanges to a cassette, or replays them from one' },
  'validate-suite': { command: 'validate-suite <suite>', describe: 'Check that every task\'s tests fail before any change (baseline validation), several tasks at once' },
  'list-tasks': { command: 'list-tasks <suite>', describe: 'List the task ids of a suite' },
  validate: { command: 'validate <files..>', aliases: ['validate-task'], describe: 'Lint task, scenario and matrix files without running anything' },
  schema: { command: 'schema <format>', describe: 'Print the JSON Schema of a file format, for editor autocompletion' },
  scenario: { command: 'scenario <command>', describe: 'Run scenario files (mocks, conversations with a simulated user) and scenario matrices' },
  report: { command: 'report <runDirs..>', describe: 'Build a report (HTML, JUnit XML, JSON or Markdown) from run folders, from their artifacts alone' },
  compare: { command: 'compare <runA> <runB>', describe: 'Compare run B with run A: regressions, fixes, significance, cost deltas and where trajectories diverge' },
  export: { command: 'export <folder>', describe: 'Write an attempt\'s trajectory in a standard format (ATIF: Harbor\'s Agent Trajectory Interchange Format)' },
  view: { command: 'view <runDirs..>', describe: 'Serve the HTML report of run folders on 127.0.0.1 (re-read on every page load) until Ctrl+C' },
  'bench-models': { command: 'bench-models', describe: 'Run the same tasks across several models and compare them (an alias of ab run with --models)' },
  'import-swebench': { command: 'import-swebench <file>', describe: 'Convert SWE-bench instance records (.jsonl or .json) into task folders' },
  doctor: { command: 'doctor', describe: 'List the registered sandbox backends; check the Docker engine, runner image, network isolation, gVisor (runsc), bwrap, local and leftover containers (and the temporary images of gVisor moves and verdict snapshots)' },
  cleanup: { command: 'cleanup', describe: 'Remove containers AgentBench left behind (after a crash or kill -9), and the temporary images of gVisor moves and verdict snapshots' },
  image: { command: 'image <command>', describe: 'Build, export or send the runner image' },
  agents: { command: 'agents <command>', describe: 'List the CLI agents (Claude Code, Codex, Qwen Code, any command) and install them into the host cache' },
} as const satisfies Record<string, CommandSummary>;

export type CommandName = keyof typeof COMMAND_SUMMARIES;
