import type { FileEntry } from '@agentbench/sandbox';
import { editDistance } from '@agentbench/helpers';
import type { ResolvedToolContext } from './tool-context.js';
import { compareText, walkFiles } from './walk-files.js';
import { joinRelative, type ToolPath } from './workspace-paths.js';

/**
 * Names close to a missing path, for the `file_not_found` message: entries of the nearest
 * existing folder within a small edit distance of the missing name, then files of the same
 * name elsewhere in the repository. At most `count`, closest first.
 */
export async function suggestNearNames(
  context: ResolvedToolContext,
  path: ToolPath,
  options: { count: number; signal: AbortSignal; timeoutSec: number },
): Promise<string[]> {
  const segments = path.relative === '.' ? [] : path.relative.split('/');
  const suggestions: string[] = [];
  for (let depth = segments.length - 1; depth >= 0; depth -= 1) {
    const folderRelative = depth === 0 ? '.' : segments.slice(0, depth).join('/');
    const folderAbsolute = depth === 0 ? context.root : `${context.root}/${folderRelative}`;
    let entries: FileEntry[];
    try {
      entries = await context.sandbox.listFiles(folderAbsolute);
    } catch {
      continue;
    }
    const missing = (segments[depth] as string).toLowerCase();
    const limit = Math.max(2, Math.floor(missing.length * 0.4));
    const scored = entries
      .map((entry) => ({ entry, distance: nameDistance(missing, entry.path.toLowerCase(), limit) }))
      .filter((candidate) => candidate.distance <= limit)
      .sort((left, right) => left.distance - right.distance || compareText(left.entry.path, right.entry.path));
    for (const { entry } of scored) {
      suggestions.push(joinRelative(folderRelative, entry.path) + (entry.type === 'directory' ? '/' : ''));
    }
    break;
  }
  if (suggestions.length < options.count && segments.length > 0) {
    const name = (segments[segments.length - 1] as string).toLowerCase();
    try {
      const walk = await walkFiles(context, { absolute: context.root, relative: '.' }, { signal: options.signal, timeoutSec: options.timeoutSec });
      for (const file of walk.files) {
        if (file.slice(file.lastIndexOf('/') + 1).toLowerCase() === name && !suggestions.includes(file)) suggestions.push(file);
        if (suggestions.length >= options.count) break;
      }
    } catch {
      // Suggestions are a courtesy: a failed walk leaves the message without them.
    }
  }
  return suggestions.slice(0, options.count);
}

/** Edit distance, also comparing names without their extension (`utils.js` for `utils.py`). */
function nameDistance(missing: string, candidate: string, limit: number): number {
  const whole = editDistance(missing, candidate, limit);
  const stem = (name: string): string => (name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : name);
  const missingStem = stem(missing);
  if (missingStem !== '' && missingStem === stem(candidate)) return Math.min(whole, 1);
  return whole;
}
