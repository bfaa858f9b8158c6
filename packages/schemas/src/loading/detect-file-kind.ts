import path from 'node:path';
import { parseYamlSource } from './yaml-source.js';

export type FileKind = 'task' | 'scenario' | 'matrix';

/** `task.yaml`, `*.task.yaml`, `*.scenario.yaml`, `*.matrix.yaml` (`.yml` too), else undefined. */
export function detectFileKindByName(file: string): FileKind | undefined {
  const name = path.basename(file).toLowerCase();
  if (/^task\.ya?ml$/.test(name) || /\.task\.ya?ml$/.test(name)) return 'task';
  if (/\.scenario\.ya?ml$/.test(name)) return 'scenario';
  if (/\.matrix\.ya?ml$/.test(name)) return 'matrix';
  return undefined;
}

/** The kind of a parsed file by its top-level keys, or undefined. */
export function fileKindOfData(data: unknown): FileKind | undefined {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const keys = new Set(Object.keys(data));
  if (keys.has('task_spec_version') || (keys.has('repo') && keys.has('environment') && keys.has('run') && keys.has('id'))) return 'task';
  if (keys.has('base_scenario') || (keys.has('matrix') && !keys.has('run'))) return 'matrix';
  if (keys.has('run') || keys.has('judgment') || keys.has('environment')) return 'scenario';
  return undefined;
}

/** Tells a task, scenario or matrix file apart: by name first (`task.yaml`, `*.scenario.yaml`, `*.matrix.yaml`), then by content. */
export function detectFileKind(file: string, text: string): FileKind | undefined {
  return detectFileKindByName(file) ?? fileKindOfData(parseYamlSource(text, file).data);
}
