import { constants } from 'node:fs';
import { cp, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Sandbox } from '@agentbench/sandbox';
import { FinalVerdict, type FinalVerdictOptions } from '../../verdict/final-verdict.js';
import type { AttemptContext } from '../attempt-context.js';

/**
 * Starts the sandbox that judges an agent's diff by setting it up a second time: a fresh clone
 * and the task's setup, beside the agent's own setup and loop. For a backend that cannot snapshot.
 */
export function startVerdictWithSetup(context: AttemptContext): FinalVerdict {
  return startVerdict(context, undefined);
}

/**
 * Starts the sandbox that judges an agent's diff from the attempt's own post-setup state, after
 * setup and before any agent command: the sandbox's snapshot (for Docker, a commit of the
 * container: an immutable image) and a host-side copy of the workspace, so setup runs once.
 * Nothing the agent later writes reaches either: the image cannot change, and the copy is outside
 * every mount of the agent's sandbox. Undefined when the sandbox cannot snapshot, or the
 * workspace cannot be copied (a FIFO, a socket): the caller sets the verdict up again then.
 */
export async function startVerdictFromSnapshot(context: AttemptContext, sandbox: Sandbox, repoPath: string): Promise<FinalVerdict | undefined> {
  if (sandbox.snapshot === undefined) return undefined;
  const image = await context.timed(() => (sandbox.snapshot as NonNullable<Sandbox['snapshot']>)());
  if (image === undefined) return undefined;
  const copy = path.join(context.paths.runDir, 'verdict', 'workspace');
  try {
    // Symlinks are copied as links, never followed: setup's tree is sandbox-written. A reflink where the file system has them.
    await cp(context.paths.workspaceDir, copy, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true, errorOnExist: true, force: false, mode: constants.COPYFILE_FICLONE });
  } catch (error) {
    await rm(copy, { recursive: true, force: true });
    await image.dispose();
    context.notes.push(`the verdict's sandbox runs setup again: the post-setup workspace could not be copied (${error instanceof Error ? error.message : String(error)})`);
    return undefined;
  }
  return startVerdict(context, { image, repoPath });
}

function startVerdict(context: AttemptContext, snapshot: FinalVerdictOptions['snapshot']): FinalVerdict {
  // The agent's mounts (an installed agent and its gateway's socket) are the agent's sandbox's alone.
  const { readOnlyMounts: _agentMounts, ...spec } = context.sandboxSpec();
  const verdict = FinalVerdict.start({
    loaded: context.loaded,
    verdictDir: path.join(context.paths.runDir, 'verdict'),
    spec: { ...spec, labels: { ...spec.labels, role: 'verdict' } },
    // From a snapshot: started by the snapshot's backend on its engine, never by a run's pool (whose refill would keep a warm copy of the image).
    createSandbox: snapshot === undefined ? context.createSandbox : context.truncatedLogs.watch((verdictSpec) => snapshot.image.createSandbox(verdictSpec)),
    ...context.repositoryOptions,
    ...(snapshot === undefined ? {} : { snapshot }),
  });
  context.onCleanup(() => verdict.dispose());
  context.verdictSetup = verdict.setup;
  return verdict;
}
