import { formatFieldPath, parseFieldPath, showText, showValue } from '@agentbench/schemas';
import { ScenarioRunnerError } from '../errors/scenario-runner-error.js';
import { isRecord } from '@agentbench/helpers';

function describeContainer(value: unknown): string {
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `a ${typeof value} (${showValue(value)})`;
}

/**
 * Returns a copy of `target` with the value at `path` (`run[0].evaluations[0].value`) replaced. Missing
 * object keys are created; list indexes must exist, and a path cannot go through a scalar. `target` is
 * not changed.
 */
export function setPath<T>(target: T, path: string, value: unknown): T {
  const segments = parseFieldPath(path);
  if (segments.length === 0) throw new ScenarioRunnerError('matrix', `parameter ${showValue(path)}: expected a field path such as run[0].input`);
  const copy = structuredClone(target) as unknown;
  let node: unknown = copy;
  for (const [index, segment] of segments.entries()) {
    const isLast = index === segments.length - 1;
    const where = formatFieldPath(segments.slice(0, index)) || 'the scenario';
    if (typeof segment === 'number') {
      if (!Array.isArray(node)) {
        throw new ScenarioRunnerError('matrix', `parameter ${path}: ${where} is ${describeContainer(node)}, not a list, so [${segment}] does not exist`);
      }
      if (segment >= node.length) {
        throw new ScenarioRunnerError('matrix', `parameter ${path}: ${where}[${segment}] does not exist (${where} has ${node.length} ${node.length === 1 ? 'item' : 'items'})`);
      }
      if (isLast) node[segment] = structuredClone(value);
      else node = node[segment];
      continue;
    }
    if (!isRecord(node)) {
      throw new ScenarioRunnerError('matrix', `parameter ${path}: ${where} is ${describeContainer(node)}, not an object, so .${segment} cannot be set`);
    }
    if (isLast) {
      node[segment] = structuredClone(value);
    } else {
      if (node[segment] === undefined || node[segment] === null) node[segment] = typeof segments[index + 1] === 'number' ? [] : {};
      node = node[segment];
    }
  }
  return copy as T;
}

/** The value at `path`, or undefined when any step is missing. */
export function getPath(target: unknown, path: string): unknown {
  let node: unknown = target;
  for (const segment of parseFieldPath(path)) {
    if (typeof segment === 'number') node = Array.isArray(node) ? node[segment] : undefined;
    else node = isRecord(node) ? node[segment] : undefined;
    if (node === undefined) return undefined;
  }
  return node;
}
