import { constants as fsConstants } from 'node:fs';
import { lstat, open, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CommandModule } from 'yargs';
import { parseCassette } from '@agentbench/cassette';
import { isRecord } from '@agentbench/helpers';
import { agentTranscript, attemptToAtif, parseEventLines, parseJsonLines, TrajectoryError, type AtifExportInput } from '@agentbench/trajectories';
import { UsageError } from '../usage-error.js';
import { CLI_VERSION } from '../version.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

const EXPORT_FORMATS = ['atif'] as const;
type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Bytes of `events.jsonl` and `llm_messages.jsonl` read: an attempt folder holds what an agent wrote. */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

interface ExportArguments {
  folder: string;
  format: ExportFormat;
  out?: string;
}

// O_NOFOLLOW: a symlink the agent left is refused by the open itself; O_NONBLOCK: a FIFO does not hang it.
const READ_FLAGS = fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK;

/**
 * A regular file of the folder, or undefined when absent. The folder's files are the agent's: the file is
 * opened without following a link, and its type and size are checked on the opened handle (fstat), so
 * nothing can be swapped in between the check and the read; at most MAX_FILE_BYTES are read.
 */
async function readFolderFile(folder: string, name: string): Promise<string | undefined> {
  const file = path.join(folder, name);
  let handle;
  try {
    handle = await open(file, READ_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw new TrajectoryError(file, null, 'expected a regular file (a symlink or folder is not read)');
    throw new TrajectoryError(file, null, `cannot be opened (${code ?? (error as Error).message})`);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new TrajectoryError(file, null, 'expected a regular file (a symlink or folder is not read)');
    if (stats.size > MAX_FILE_BYTES) throw new TrajectoryError(file, null, `${stats.size} bytes, more than the ${MAX_FILE_BYTES} read`);
    // The cap holds even if the file grows after the fstat: one byte past it is read to tell.
    const buffer = Buffer.alloc(Math.min(stats.size, MAX_FILE_BYTES) + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > MAX_FILE_BYTES) throw new TrajectoryError(file, null, `more than the ${MAX_FILE_BYTES} bytes read`);
    return buffer.subarray(0, length).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** What `ab export` writes for an attempt folder: its ATIF trajectory, from events.jsonl (and llm_messages.jsonl or cassette.jsonl, attempt.json). */
export async function exportAttemptTrajectory(folder: string): Promise<ReturnType<typeof attemptToAtif>> {
  const stats = await lstat(folder).catch(() => undefined);
  if (stats === undefined || !stats.isDirectory()) throw new UsageError(`${folder}: not an attempt folder (expected the folder holding events.jsonl)`, ['export']);
  const eventsFile = path.join(folder, 'events.jsonl');
  const eventsText = await readFolderFile(folder, 'events.jsonl');
  if (eventsText === undefined) throw new UsageError(`${folder}: no events.jsonl: only an agent attempt's folder has a trajectory (a baseline or run-task attempt has none)`, ['export']);
  const events = parseEventLines(eventsText, eventsFile);
  const messagesText = await readFolderFile(folder, 'llm_messages.jsonl');
  const attemptText = await readFolderFile(folder, 'attempt.json');
  let attempt: Record<string, unknown> = {};
  if (attemptText !== undefined) {
    try {
      const value: unknown = JSON.parse(attemptText);
      if (isRecord(value)) attempt = value;
    } catch (error) {
      throw new TrajectoryError(path.join(folder, 'attempt.json'), null, `not JSON (${(error as Error).message})`);
    }
  }
  const started = events.find((event) => event.event_type === 'run_started');
  const startedPayload = (started?.payload ?? {}) as Record<string, unknown>;
  const variant = typeof attempt.variant === 'string' ? attempt.variant : typeof startedPayload.variant === 'string' ? startedPayload.variant : undefined;
  // An installed agent's events name the stream they were read from (run_started.agent_format).
  const isInstalledAgent = typeof startedPayload.agent_format === 'string';
  const agent: AtifExportInput['agent'] = isInstalledAgent
    ? { name: variant ?? String(startedPayload.agent_format), version: typeof startedPayload.agent_version === 'string' ? startedPayload.agent_version : 'unknown', extra: { stream_format: startedPayload.agent_format, harness: 'agentbench', harness_version: CLI_VERSION } }
    : { name: 'agentbench', version: CLI_VERSION, ...(variant === undefined ? {} : { extra: { variant } }) };
  const result = isRecord(attempt.result) ? attempt.result : {};
  const extra: Record<string, unknown> = {};
  for (const [key, value] of [['task_id', attempt.task_id ?? startedPayload.task_id], ['passed', result.passed], ['failure_reason', result.failure_reason], ['stop_reason', result.stop_reason]] as const) {
    if (value !== undefined && value !== null) extra[key] = value;
  }
  // An installed agent has no llm_messages.jsonl: its instruction is in the gateway's first recorded request.
  let transcript = messagesText === undefined ? undefined : agentTranscript(parseJsonLines(messagesText, path.join(folder, 'llm_messages.jsonl')).map((line) => line.value));
  const cassetteText = transcript === undefined ? await readFolderFile(folder, 'cassette.jsonl') : undefined;
  if (cassetteText !== undefined) {
    const first = parseCassette(path.join(folder, 'cassette.jsonl'), cassetteText).exchanges.find((exchange) => exchange.role === 'agent');
    if (first !== undefined) transcript = { ...agentTranscript([{ direction: 'request', body: first.request.body }]), answers: [] };
  }
  const sessionId = typeof attempt.run_id === 'string' ? attempt.run_id : (events[0]?.run_id ?? path.basename(folder));
  return attemptToAtif({
    events,
    agent,
    sessionId,
    ...(transcript === undefined ? {} : { transcript }),
    extra,
  });
}

export const exportCommand: CommandModule<object, ExportArguments> = {
  ...COMMAND_SUMMARIES.export,
  builder: (yargs) =>
    yargs
      .positional('folder', { type: 'string', demandOption: true, describe: 'An agent attempt folder: the one holding events.jsonl (our agent, the scripted agent, or an installed agent such as codex)' })
      .option('format', { choices: EXPORT_FORMATS, demandOption: true, describe: 'atif: ATIF-v1.6 JSON, one agent step per model turn with its tool calls, their output and its token usage' })
      .option('out', { type: 'string', describe: 'Write to this file (replaced whole, never half-written) instead of standard output' })
      .example('$0 export --format atif artifacts/runs/01J…/agent_runs/toy_fail_pytest/01J… --out trajectory.json', 'The attempt as Harbor (and its trajectory viewer) reads it'),
  handler: async (argv) => {
    const trajectory = await exportAttemptTrajectory(argv.folder);
    const text = `${JSON.stringify(trajectory, null, 2)}\n`;
    if (argv.out === undefined) {
      process.stdout.write(text);
      return;
    }
    const temporary = `${argv.out}.${process.pid}.tmp`;
    try {
      await writeFile(temporary, text);
      await rename(temporary, argv.out);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  },
};
