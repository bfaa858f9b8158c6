import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { AttemptDetailsSchema, checkArtifact } from '@agentbench/schemas';
import { emptyDetail, type DiffView, type LogView, type ReadProblem, type RowDetail, type TimelineEntry } from '../model/report-model.js';
import { readAgentRunTimeline, type EventRunSummary } from './agent-run-timeline.js';
import { readLlmTranscript } from './llm-messages.js';
import type { PreviewLimits } from './preview-limits.js';
import { readJsonFile } from './read-jsonl.js';
import { previewFile, previewText } from './text-preview.js';
import { isDirectory, isFile, isRecord } from '@agentbench/helpers';

/** Where an attempt's files are. Every path is absolute; any may be missing. */
export interface AttemptFiles {
  /** The attempt's own folder (an agent run folder), when it has one. */
  runFolder?: string;
  events?: string;
  llmMessages?: string;
  diffsFolder?: string;
  logsFolder?: string;
  /** The harness's per-task details (`logs/<task>/attempt.json` with `stages`). */
  details?: string;
  /** Other `.patch` artifacts (the setup diff, a final diff). */
  patches: string[];
  /** Folder stage logs in the details file are relative to (the run folder). */
  detailsBase?: string;
}

/** The files of an attempt from its record's artifact_paths (relative to `base`) and its folder's usual names. */
export async function locateAttemptFiles(artifactPaths: Record<string, string>, base: string, runFolder: string | undefined): Promise<AttemptFiles> {
  const resolved = Object.entries(artifactPaths).map(([key, value]) => [key, path.isAbsolute(value) ? value : path.resolve(base, value)] as const);
  const byName = (name: string): string | undefined => resolved.find(([, value]) => path.basename(value) === name)?.[1];
  const files: AttemptFiles = { patches: [] };
  if (runFolder !== undefined) files.runFolder = runFolder;
  const candidates = async (name: string, fromRecord: string | undefined): Promise<string | undefined> => {
    if (fromRecord !== undefined && (await isFile(fromRecord))) return fromRecord;
    if (runFolder !== undefined && (await isFile(path.join(runFolder, name)))) return path.join(runFolder, name);
    return undefined;
  };
  const events = await candidates('events.jsonl', byName('events.jsonl'));
  if (events !== undefined) files.events = events;
  const llmMessages = await candidates('llm_messages.jsonl', byName('llm_messages.jsonl'));
  if (llmMessages !== undefined) files.llmMessages = llmMessages;
  const folderOfEvents = events === undefined ? runFolder : path.dirname(events);
  if (folderOfEvents !== undefined && files.runFolder === undefined) files.runFolder = folderOfEvents;
  const diffs = resolved.find(([key]) => key === 'diffs')?.[1] ?? (folderOfEvents === undefined ? undefined : path.join(folderOfEvents, 'diffs'));
  if (diffs !== undefined && (await isDirectory(diffs))) files.diffsFolder = diffs;
  const logs = resolved.find(([key]) => key === 'logs')?.[1] ?? (folderOfEvents === undefined ? undefined : path.join(folderOfEvents, 'logs'));
  if (logs !== undefined && (await isDirectory(logs))) files.logsFolder = logs;
  const details = resolved.find(([key]) => key === 'attempt_details')?.[1];
  if (details !== undefined) {
    files.details = details;
    files.detailsBase = base;
  }
  for (const [, value] of resolved) {
    if (value.endsWith('.patch') && !value.includes(`${path.sep}diffs${path.sep}`) && (await isFile(value))) files.patches.push(value);
  }
  return files;
}

/** Keeps the first and last entries within `limit`, counting those left out. */
function trimTimeline(entries: TimelineEntry[], limit: number): { entries: TimelineEntry[]; omitted: number } {
  if (entries.length <= limit) return { entries, omitted: 0 };
  const head = Math.ceil(limit / 2);
  const tail = limit - head;
  const omitted = entries.length - limit;
  const marker: TimelineEntry = { kind: 'note', step: null, title: `… ${omitted} entries not shown: see events.jsonl …`, links: [] };
  return { entries: [...entries.slice(0, head), marker, ...entries.slice(entries.length - tail)], omitted };
}

async function stageTimeline(file: string, base: string, limits: PreviewLimits, problems: ReadProblem[]): Promise<{ entries: TimelineEntry[]; message?: string; notes: string[] }> {
  const value = await readJsonFile(file, problems);
  if (value === undefined) return { entries: [], notes: [] };
  const checked = checkArtifact(AttemptDetailsSchema, value, "the harness's attempt details");
  if (!checked.success) {
    problems.push({ file, message: `${checked.message}; its stages are not shown` });
    return { entries: [], notes: [] };
  }
  const details = checked.output;
  const entries: TimelineEntry[] = [];
  for (const stage of details.stages) {
    const exit = stage.exitCode === undefined ? '' : ` (exit ${stage.exitCode}${stage.timedOut === true ? ', timed out' : ''})`;
    const reason = typeof stage.failureReason === 'string' ? `: ${stage.failureReason}` : '';
    const entry: TimelineEntry = {
      kind: 'stage',
      step: null,
      title: `${stage.stage.replaceAll('_', ' ')}${exit}${reason}`,
      durationSec: stage.durationMs / 1000,
      isError: typeof stage.failureReason === 'string',
      links: [],
    };
    if (stage.command !== undefined) entry.input = previewText(stage.command, limits.inputCharacters);
    if (stage.log !== undefined) {
      const log = path.isAbsolute(stage.log) ? stage.log : path.resolve(base, stage.log);
      entry.links.push({ label: path.basename(log), file: log });
      const preview = await previewFile(log, limits.outputCharacters);
      if (preview !== undefined) entry.output = preview;
    }
    entries.push(entry);
  }
  const notes = details.mismatches.map((mismatch) => `${mismatch.field}: ${mismatch.message}`);
  const failing = details.failing_tests;
  if (failing.length > 0) notes.push(`failing tests: ${failing.slice(0, 20).join(', ')}${failing.length > 20 ? ` and ${failing.length - 20} more` : ''}`);
  const result: { entries: TimelineEntry[]; message?: string; notes: string[] } = { entries, notes };
  if (details.message !== undefined) result.message = details.message;
  return result;
}

// The logs worth a preview: the test runs first, then whatever comes last.
function previewPriority(name: string): number {
  if (/^(run|final|agent_tests)/.test(name)) return 0;
  if (/test/.test(name)) return 1;
  if (/^setup/.test(name)) return 2;
  return 3;
}

async function listLogs(folder: string, limits: PreviewLimits, exclude: ReadonlySet<string>): Promise<LogView[]> {
  const names = (await readdir(folder, { withFileTypes: true }).catch(() => []))
    .filter((entry) => entry.isFile() && !exclude.has(path.join(folder, entry.name)) && entry.name !== 'attempt.json' && !entry.name.startsWith('tool_step_'))
    .map((entry) => entry.name)
    .sort();
  const previewed = new Set([...names].sort((left, right) => previewPriority(left) - previewPriority(right)).slice(0, limits.previewedLogs));
  const logs: LogView[] = [];
  for (const name of names.slice(0, 60)) {
    const file = path.join(folder, name);
    const view: LogView = { label: name, file };
    if (previewed.has(name)) {
      const preview = await previewFile(file, limits.logCharacters);
      if (preview !== undefined) view.preview = preview;
    }
    logs.push(view);
  }
  return logs;
}

async function readDiffs(files: AttemptFiles, limits: PreviewLimits): Promise<DiffView[]> {
  const diffs: DiffView[] = [];
  const stepPatches = files.diffsFolder === undefined ? [] : (await readdir(files.diffsFolder).catch(() => [] as string[])).filter((name) => name.endsWith('.patch') || name.endsWith('.diff')).sort();
  // The last patches describe the final state best; earlier ones stay one click away in the folder.
  for (const name of stepPatches.slice(-limits.diffs)) {
    const file = path.join(files.diffsFolder as string, name);
    const preview = await previewFile(file, limits.diffCharacters);
    if (preview !== undefined) diffs.push({ label: name, diff: preview });
  }
  for (const file of files.patches) {
    const preview = await previewFile(file, limits.diffCharacters);
    if (preview !== undefined && preview.totalLength > 0 && preview.text.includes('@@')) diffs.push({ label: path.basename(file), diff: preview });
  }
  return diffs;
}

/** The detail of an attempt: timeline (events, or the harness's stages), diffs and logs. */
export async function readAttemptDetail(
  files: AttemptFiles,
  limits: PreviewLimits,
  problems: ReadProblem[],
): Promise<{ detail: RowDetail; summary?: EventRunSummary }> {
  const detail = emptyDetail();
  let summary: EventRunSummary | undefined;
  const linkedLogs = new Set<string>();
  if (files.events !== undefined) {
    const transcript = files.llmMessages === undefined ? undefined : await readLlmTranscript(files.llmMessages, problems);
    const timeline = await readAgentRunTimeline(files.events, {
      runFolder: files.runFolder ?? path.dirname(files.events),
      ...(transcript === undefined ? {} : { transcript }),
      limits,
      problems,
    });
    if (timeline !== undefined) {
      const trimmed = trimTimeline(timeline.entries, limits.timelineEntries);
      detail.timeline = trimmed.entries;
      detail.omittedTimelineEntries = trimmed.omitted;
      summary = timeline.summary;
      for (const entry of timeline.entries) for (const link of entry.links) linkedLogs.add(link.file);
    }
  } else if (files.details !== undefined) {
    const stages = await stageTimeline(files.details, files.detailsBase ?? path.dirname(files.details), limits, problems);
    detail.timeline = stages.entries;
    if (stages.message !== undefined) detail.message = stages.message;
    detail.notes.push(...stages.notes.filter((note) => note.startsWith('failing tests:')));
    detail.errors.push(...stages.notes.filter((note) => !note.startsWith('failing tests:')));
    for (const entry of stages.entries) for (const link of entry.links) linkedLogs.add(link.file);
  }
  detail.diffs = await readDiffs(files, limits);
  if (files.logsFolder !== undefined) detail.logs = await listLogs(files.logsFolder, limits, linkedLogs);
  const result: { detail: RowDetail; summary?: EventRunSummary } = { detail };
  if (summary !== undefined) result.summary = summary;
  return result;
}
