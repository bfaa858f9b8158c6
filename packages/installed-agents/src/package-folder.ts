import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A folder shipped at the package's top (`agents/`, `templates/`), found from this module whether it
 * runs from `src/` (tests, the source condition) or from the built `dist/`.
 */
export function shippedFolder(name: 'agents' | 'templates'): string {
  let folder = path.dirname(fileURLToPath(import.meta.url));
  while (path.basename(folder) !== 'src' && path.basename(folder) !== 'dist' && folder !== path.dirname(folder)) folder = path.dirname(folder);
  return path.join(path.dirname(folder), name);
}
