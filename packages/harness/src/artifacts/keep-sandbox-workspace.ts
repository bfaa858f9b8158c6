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
 * no measuring (nothing of it stays to be read), only a removal that never follows a link
 * (`removeTree`). Should that fail (a folder of ours without search permission, when not root),
 * the sanitizer makes the tree removable and the removal runs again. Never throws: returns
 * what went wrong, for the record's notes.
 */
export async function discardSandboxWorkspace(workspaceDir: string): Promise<string | undefined> {
  try {
    await removeTree(workspaceDir);
    return undefined;
  } catch {
    try {
      await sanitizeKeptWorkspace(workspaceDir, { manifestPath: false });
      await removeTree(workspaceDir);
      return undefined;
    } catch (error) {
      return `workspace could not be removed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
}
