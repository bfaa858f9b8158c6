import { lstat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { HarnessError } from '../errors/harness-error.js';
import { defaultWalkSettings, removeTree, walkDirectory, type WalkSettings } from './directory-walk.js';

/**
 * Disk a run may spend on kept workspaces by default: 1 GiB. A sandbox can fill its
 * workspace (a disk-fill probe left 1,025 MB of artifacts), so what is kept is bounded per
 * run; logs are bounded apart (each command's log is capped).
 */
export const DEFAULT_ARTIFACT_BUDGET_BYTES = 1024 ** 3;
/** Folder levels measured by default; anything deeper makes a measurement incomplete. */
export const DEFAULT_MEASURE_MAX_DEPTH = 512;
// Hard-linked inodes remembered so each is counted once; beyond this they count per name.
const rememberedInodes = 100_000;

export interface DiskUse {
  /** Bytes allocated on disk (`lstat` blocks × 512), links not followed. */
  bytes: number;
  /** Entries counted, the measured folder included. */
  entries: number;
  /** False when something was too deep or could not be read: `bytes` is then a lower bound. */
  isComplete: boolean;
}

export interface MeasureDiskUseOptions {
  /** Deepest level measured (the folder's own entries are level 1); anything deeper makes the measurement incomplete. Default 512. */
  maxDepth?: number;
}

/**
 * Disk use of a file or folder, by `lstat` blocks (what the files really take, sparse
 * files and folders included), never following a link; a missing path uses nothing.
 * Walks like `sanitizeKeptWorkspace` (bounded memory, `O_NOFOLLOW` folders).
 */
export async function measureDiskUse(path: string, options: MeasureDiskUseOptions = {}, settings: WalkSettings = defaultWalkSettings): Promise<DiskUse> {
  const maxDepth = options.maxDepth ?? DEFAULT_MEASURE_MAX_DEPTH;
  let stats;
  try {
    stats = await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { bytes: 0, entries: 0, isComplete: true };
    throw error;
  }
  const use: DiskUse = { bytes: stats.blocks * 512, entries: 1, isComplete: true };
  if (!stats.isDirectory()) return use;
  const seen = new Set<string>();
  await walkDirectory(
    path,
    {
      async onEntry(entry) {
        const { stats: entryStats } = entry;
        if (entry.depth > maxDepth) {
          use.isComplete = false;
          return false;
        }
        use.entries += 1;
        if (!entryStats.isDirectory() && entryStats.nlink > 1) {
          const key = `${entryStats.dev}:${entryStats.ino}`;
          if (seen.has(key)) return false;
          if (seen.size < rememberedInodes) seen.add(key);
        }
        use.bytes += entryStats.blocks * 512;
        return entryStats.isDirectory();
      },
      async onOpenFailed() {
        use.isComplete = false;
      },
    },
    settings,
  );
  return use;
}

export interface ArtifactBudgetOptions {
  /**
   * Bytes the run may spend on kept workspaces. Default `DEFAULT_ARTIFACT_BUDGET_BYTES`
   * (1 GiB); 0: never keep a workspace; `Infinity`: no limit.
   */
  budgetBytes?: number;
  /** Deepest folder level measured. Default 512. */
  maxDepth?: number;
}

export interface KeepWorkspaceResult {
  /** Whether the workspace stays; when false it has been removed. */
  isKept: boolean;
  /** What the workspace took (0 when it was not measured: a budget of 0). */
  bytes: number;
  /** Bytes of the budget spent once this decision is made. */
  spentBytes: number;
  budgetBytes: number;
  /** Why it was not kept, one line for the record and the terminal. */
  note?: string;
}

export interface ArtifactBudgetSummary {
  budgetBytes: number;
  spentBytes: number;
  keptWorkspaces: number;
  removedWorkspaces: number;
}

/**
 * The run's budget for kept workspaces. Each workspace is measured when it would be kept:
 * it stays while the run's total fits the budget, and is removed (with a note saying so)
 * once it would not. Safe for attempts finishing side by side: the check and the
 * reservation happen together, after the measurement.
 */
export class ArtifactBudget {
  readonly budgetBytes: number;
  private readonly maxDepth: number;
  private spent = 0;
  private kept = 0;
  private removed = 0;

  constructor(options: ArtifactBudgetOptions = {}) {
    const budget = options.budgetBytes ?? DEFAULT_ARTIFACT_BUDGET_BYTES;
    if (!(budget >= 0) || (!Number.isFinite(budget) && budget !== Number.POSITIVE_INFINITY)) {
      throw new HarnessError(`artifact budget: expected a number of bytes ≥ 0, found ${String(options.budgetBytes)}`);
    }
    this.budgetBytes = budget;
    this.maxDepth = options.maxDepth ?? DEFAULT_MEASURE_MAX_DEPTH;
  }

  get spentBytes(): number {
    return this.spent;
  }

  /**
   * Keeps the workspace if it fits what is left of the budget; otherwise removes it. `label` names
   * it in the note (e.g. the task id). `measured`: its disk use as a walk the caller made anyway
   * found it (the sanitizer's, `SanitizeSummary.bytes`), so it is not walked a second time; its
   * deepest level is held to this budget's `maxDepth` as a measurement here would be.
   */
  async keepWorkspace(workspaceDir: string, options: { label?: string; measured?: { bytes: number; deepestLevel: number } } = {}): Promise<KeepWorkspaceResult> {
    const path = resolve(workspaceDir);
    const name = options.label === undefined ? 'workspace' : `workspace of ${options.label}`;
    if (this.budgetBytes === 0) {
      await this.remove(path);
      return this.result(false, 0, `${name} not kept: the artifact budget is 0 (workspaces are never kept)`);
    }
    const { measured } = options;
    const use: DiskUse =
      measured === undefined ? await measureDiskUse(path, { maxDepth: this.maxDepth }) : { bytes: measured.bytes, entries: 0, isComplete: measured.deepestLevel <= this.maxDepth };
    if (!use.isComplete) {
      await this.remove(path);
      return this.result(false, use.bytes, `${name} not kept: it could not be measured whole (deeper than ${this.maxDepth} levels, or unreadable), at least ${formatByteSize(use.bytes)}`);
    }
    // No await between the check and the reservation: attempts finishing together cannot both take the last bytes.
    const left = this.budgetBytes - this.spent;
    if (use.bytes <= left) {
      this.spent += use.bytes;
      this.kept += 1;
      return this.result(true, use.bytes);
    }
    await this.remove(path);
    return this.result(
      false,
      use.bytes,
      `${name} not kept: it takes ${formatByteSize(use.bytes)} and ${formatByteSize(Math.max(0, left))} of the run's ${formatByteSize(this.budgetBytes)} artifact budget is left`,
    );
  }

  summary(): ArtifactBudgetSummary {
    return { budgetBytes: this.budgetBytes, spentBytes: this.spent, keptWorkspaces: this.kept, removedWorkspaces: this.removed };
  }

  private async remove(path: string): Promise<void> {
    try {
      await removeTree(path);
    } catch (error) {
      throw new HarnessError(`could not remove the workspace ${path} (over the artifact budget): ${(error as Error).message}`, { cause: error });
    }
    this.removed += 1;
  }

  private result(isKept: boolean, bytes: number, note?: string): KeepWorkspaceResult {
    return { isKept, bytes, spentBytes: this.spent, budgetBytes: this.budgetBytes, ...(note === undefined ? {} : { note }) };
  }
}

/**
 * The end-of-run line: `Disk use: 52.6 MiB in artifacts/run-… (workspaces: 2 kept, 40.1 MiB
 * of the 1.0 GiB budget; 1 not kept)`. With an incomplete measurement it says "at least".
 */
export function formatRunDiskUse(input: { runDir: string; diskUse: DiskUse; budget?: ArtifactBudgetSummary | ArtifactBudget }): string {
  const { diskUse } = input;
  const amount = `${diskUse.isComplete ? '' : 'at least '}${formatByteSize(diskUse.bytes)}`;
  let line = `Disk use: ${amount} in ${input.runDir}`;
  if (input.budget !== undefined) {
    const budget = input.budget instanceof ArtifactBudget ? input.budget.summary() : input.budget;
    const limit = budget.budgetBytes === Number.POSITIVE_INFINITY ? 'no budget' : `the ${formatByteSize(budget.budgetBytes)} budget`;
    const notKept = budget.removedWorkspaces > 0 ? `; ${budget.removedWorkspaces} not kept` : '';
    line += ` (workspaces: ${budget.keptWorkspaces} kept, ${formatByteSize(budget.spentBytes)} of ${limit}${notKept})`;
  }
  return line;
}

/** `1536` → `1.5 KiB`: binary units, one decimal. */
export function formatByteSize(bytes: number): string {
  if (bytes === Number.POSITIVE_INFINITY) return 'unlimited';
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${Math.round(value)} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}

/**
 * A size as a user writes it, for a budget flag or variable: `1073741824`, `500MB`,
 * `2GiB`, `1.5g`, `0`, `unlimited`. `KB`/`MB`/`GB`/`TB` are powers of 1000; `K`/`M`/`G`/`T`
 * and `KiB`/`MiB`/`GiB`/`TiB` powers of 1024 (as Docker's `--memory 1g`). Throws a
 * HarnessError naming what it expected.
 */
export function parseByteSize(text: string): number {
  const trimmed = text.trim();
  if (/^(unlimited|infinity|none)$/i.test(trimmed)) return Number.POSITIVE_INFINITY;
  const match = /^(\d+(?:\.\d+)?)\s*([kmgtp]?)(i?)(b?)$/i.exec(trimmed);
  if (match === null || (match[3] !== '' && match[2] === '')) {
    throw new HarnessError(`invalid size "${text}": expected bytes (1073741824), a size with a unit (500MB, 2GiB, 1.5g) or "unlimited"`);
  }
  const value = Number(match[1]);
  const prefix = (match[2] ?? '').toLowerCase();
  const isDecimal = match[3] === '' && (match[4] ?? '') !== '';
  const power = ' kmgtp'.indexOf(prefix === '' ? ' ' : prefix);
  return Math.round(value * (isDecimal ? 1000 : 1024) ** power);
}
