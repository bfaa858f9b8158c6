import { rm } from 'node:fs/promises';
import { relativeToRun } from './attempt-paths.js';
import { ArtifactBudget } from './artifact-budget.js';
import { removeTree } from './directory-walk.js';
import { sanitizeKeptWorkspace } from './sanitize-kept-workspace.js';

export interface KeptWorkspace {
  isKept: boolean;
  /** The sanitizer's manifest, relative to the run folder. */
  manifest?: string;
  /** Why it is not kept, or what was stripped: for the record and the terminal. */
  note?: string;
}

/**
 * What happens to a sandbox-written workspace once its sandbox is gone: it is made safe to keep
 * (no setuid/setgid bits, device nodes, FIFOs, links out, foreign owners; see
 * sanitizeKeptWorkspace), removed if that cannot be done, and then kept only while the run's
 * artifact budget allows (measured by the same walk). Under a budget of 0 it is removed at once,
 * uncleaned: nothing of it stays to be read. Never throws: a workspace that cannot be cleaned or
 * measured is removed.
 */
export async function keepSandboxWorkspace(input: { workspaceDir: string; runDir: string; budget: ArtifactBudget; label?: string }): Promise<KeptWorkspace> {
  try {
    return await cleanAndKeep(input);
  } catch (error) {
    await rm(input.workspaceDir, { recursive: true, force: true }).catch(() => undefined);
    return { isKept: false, note: `workspace not kept: ${error instanceof Error ? error.message : String(error)}` };
  }
}

async function cleanAndKeep(input: { workspaceDir: string; runDir: string; budget: ArtifactBudget; label?: string }): Promise<KeptWorkspace> {
  const label = input.label === undefined ? {} : { label: input.label };
  // A budget of 0 keeps nothing: what is removed needs no cleaning and no measuring.
  if (input.budget.budgetBytes === 0) {
    const kept = await input.budget.keepWorkspace(input.workspaceDir, label);
    return { isKept: false, ...(kept.note === undefined ? {} : { note: kept.note }) };
  }
  const summary = await sanitizeKeptWorkspace(input.workspaceDir);
  const manifest = summary.manifestPath === undefined ? {} : { manifest: relativeToRun(input.runDir, summary.manifestPath) };
  if (!summary.isSafe) {
    await removeTree(input.workspaceDir);
    return { isKept: false, ...manifest, note: `workspace not kept: ${summary.failures} entr${summary.failures === 1 ? 'y' : 'ies'} could not be made safe to keep` };
  }
  // The sanitizer's walk measured what it kept: the budget does not walk it again.
  const kept = await input.budget.keepWorkspace(input.workspaceDir, { ...label, measured: { bytes: summary.bytes, deepestLevel: summary.deepestLevel } });
  const stripped = summary.privilegeBitsStripped + summary.specialFilesRemoved + summary.symlinksRemoved;
  const strippedNote = stripped > 0 ? `workspace cleaned: ${summary.privilegeBitsStripped} setuid/setgid/sticky bits stripped, ${summary.specialFilesRemoved} special files and ${summary.symlinksRemoved} links out removed` : undefined;
  const note = kept.note ?? strippedNote;
  return { isKept: kept.isKept, ...manifest, ...(note === undefined ? {} : { note }) };
}

/**
 * Removes a sandbox-written workspace nobody keeps, once its sandbox is gone: no sanitizing and
 * no measuring (nothing of it stays to be read). The removal reads no file and follows no link
 * (`rm` lstats each entry and unlinks links as links); the one thing it would not withstand, a
 * folder swapped for a link while it runs, needs a writer, and none is left once the sandbox is
 * gone. It walks a folder's entries side by side, which matters on a loaded host, where each
 * file-system call waits for a thread: the walk of `removeTree` (one call at a time) took 5 to
 * 10 times longer on a toy workspace. A tree it cannot remove (deeper than PATH_MAX, a folder of
 * ours without search permission when not root) goes to `removeTree`, then to the sanitizer
 * (which makes every folder searchable) and `removeTree` again. Never throws: returns what went
 * wrong, for the record's notes.
 */
export async function discardSandboxWorkspace(workspaceDir: string): Promise<string | undefined> {
  const attempts = [
    () => rm(workspaceDir, { recursive: true, force: true }),
    () => removeTree(workspaceDir),
    async () => {
      await sanitizeKeptWorkspace(workspaceDir, { manifestPath: false });
      await removeTree(workspaceDir);
    },
  ];
  let failure: unknown;
  for (const attempt of attempts) {
    try {
      await attempt();
      return undefined;
    } catch (error) {
      failure = error;
    }
  }
  return `workspace could not be removed: ${failure instanceof Error ? failure.message : String(failure)}`;
}
