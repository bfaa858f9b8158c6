import { CST, isAlias, isCollection, isMap, isScalar, isSeq, Lexer, LineCounter, parseDocument, type Document, type Node, type YAMLError } from 'yaml';
import { showText, showValue } from '../shared/display-value.js';
import { parseFieldPath, type FieldPath } from './field-path.js';
import type { ValidationIssue } from '../errors/validation-issue.js';

export interface SourcePosition {
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
}

export interface LocateOptions {
  /** Point at the key of the last segment rather than at its value (used for unknown keys). */
  target?: 'key' | 'value';
}

/** Finds where a field path sits in a file. A path that does not exist resolves to its nearest existing parent. */
export type Locate = (path: FieldPath, options?: LocateOptions) => SourcePosition;

/** A YAML file parsed with positions. `data` is undefined when the YAML has syntax errors. */
export interface YamlSource {
  file: string;
  data: unknown;
  /** YAML syntax errors and exceeded limits, already as issues. */
  syntaxIssues: ValidationIssue[];
  /** The file holds no YAML content (nothing, or only comments and `---`). */
  isEmpty: boolean;
  locate: Locate;
}

const DOCUMENT_START: SourcePosition = { line: 1, column: 1 };

/**
 * Most YAML tokens (keys, values, list items, brackets, `:` and `-`; not spaces or comments) a file may
 * have, counted before the document is built: the YAML parser needs one to two kilobytes per value, so
 * 50,000 tokens (some 16,000 `key: value` lines) keep `ab validate` under 200 MB and 2 s.
 */
export const MAX_YAML_TOKENS = 50_000;

/** Deepest nesting of mappings and lists (the document's top mapping is level 1), aliases included. */
export const MAX_NESTING_DEPTH = 64;

/** Most values a document may expand to through aliases (`*name`), counting every copy: stops "billion laughs". */
export const MAX_ALIAS_EXPANSION = 100_000;

/** YAML syntax errors reported per file; the rest are counted (they usually follow from the first). */
export const MAX_SYNTAX_ISSUES = 3;

// Lexer tokens that are layout, not content.
const LAYOUT_TOKENS = new Set<string | null>(['space', 'newline', 'comment', 'doc-mode', 'byte-order-mark', 'flow-error-end', null]);

type PositionOf = (offset: number) => SourcePosition;

function issueAt(file: string, position: SourcePosition, message: string): ValidationIssue {
  return { file, ...position, path: '', message, severity: 'error' };
}

/** The offset where the token count first passes `MAX_YAML_TOKENS`, or undefined (tokens are counted without building anything). */
function tokenLimitOffset(text: string): number | undefined {
  let count = 0;
  let offset = 0;
  for (const token of new Lexer().lex(text)) {
    const type = CST.tokenType(token);
    // The scalar marker is zero-width and comes before the scalar's source (type null): count it once.
    if (type === 'scalar' || !LAYOUT_TOKENS.has(type)) count += 1;
    if (count > MAX_YAML_TOKENS) return offset;
    if (type !== 'scalar' && type !== 'doc-mode' && type !== 'flow-error-end') offset += token.length;
  }
  return undefined;
}

function describeYamlError(error: YAMLError): string {
  switch (error.code) {
    case 'RESOURCE_EXHAUSTION':
      // The parser ran out of stack on a collection nested thousands of levels deep.
      return `nesting is too deep: more than ${MAX_NESTING_DEPTH} levels of mappings and lists`;
    case 'MULTIPLE_DOCS':
      return 'the file holds more than one YAML document (a second one starts here); put everything in one document';
    case 'TAB_AS_INDENT':
      return 'YAML syntax error: a tab is used for indentation; indent with spaces';
    default: {
      const message = error.message.split('\n')[0] ?? error.message;
      return `YAML syntax error: ${message}`;
    }
  }
}

interface DocumentProblem {
  node: Node;
  message: string;
}

function childrenOf(node: unknown): unknown[] {
  if (isMap(node)) return node.items.flatMap((pair) => [pair.key, pair.value]);
  if (isSeq(node)) return [...node.items];
  return [];
}

/**
 * Checks a parsed document without recursion: duplicate keys, aliases without an anchor or inside their
 * own anchor, aliases that expand past `MAX_ALIAS_EXPANSION` values, and nesting deeper than
 * `MAX_NESTING_DEPTH`. The problem points at the node causing it.
 */
function checkDocument(document: Document, lineOf: (offset: number) => number): DocumentProblem | undefined {
  const root = document.contents;
  if (root === null || root === undefined) return undefined;
  // Post-order: a node's height (levels of collections from it down) and expanded size (values, with
  // every alias counted as a copy of its anchor). Pre-order (document order) records the anchors.
  const height = new Map<unknown, number>();
  const size = new Map<unknown, number>();
  const anchors = new Map<string, Node>();
  const resolved = new Map<unknown, unknown>();
  const stack: { node: unknown; isExpanded: boolean }[] = [{ node: root, isExpanded: false }];
  let expandedTotal = 0;
  while (stack.length > 0) {
    const { node, isExpanded } = stack.pop() as { node: unknown; isExpanded: boolean };
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (target === undefined) return { node, message: `alias *${showText(node.source)} has no anchor &${showText(node.source)} before it` };
      if (isCollection(target) && !height.has(target)) return { node, message: `alias *${showText(node.source)} is inside the value it refers to (a recursive alias)` };
      resolved.set(node, target);
      const targetSize = size.get(target) ?? 1;
      height.set(node, height.get(target) ?? 0);
      size.set(node, targetSize);
      expandedTotal += targetSize;
      if (expandedTotal > MAX_ALIAS_EXPANSION) {
        return {
          node,
          message: `aliases expand the document to more than ${MAX_ALIAS_EXPANSION.toLocaleString('en-US')} values (at this alias *${showText(node.source)}; an alias bomb?)`,
        };
      }
      continue;
    }
    if (!isExpanded && (isScalar(node) || isCollection(node)) && node.anchor) anchors.set(node.anchor, node);
    if (!isCollection(node)) {
      height.set(node, 0);
      size.set(node, 1);
      expandedTotal += 1;
      continue;
    }
    const children = childrenOf(node);
    if (!isExpanded) {
      if (isMap(node)) {
        const seen = new Map<string, Node>();
        for (const pair of node.items) {
          if (!isScalar(pair.key)) continue;
          const key = String(pair.key.value);
          const first = seen.get(key);
          if (first !== undefined) {
            const where = first.range ? `line ${lineOf(first.range[0])}` : 'earlier';
            return { node: pair.key, message: `duplicate key ${showValue(key)} (first at ${where}); a key may appear once in a mapping` };
          }
          seen.set(key, pair.key);
        }
      }
      stack.push({ node, isExpanded: true });
      for (let index = children.length - 1; index >= 0; index -= 1) {
        const child = children[index];
        if (child !== null && child !== undefined) stack.push({ node: child, isExpanded: false });
      }
      continue;
    }
    let childHeight = 0;
    let childSize = 0;
    for (const child of children) {
      if (child === null || child === undefined) continue;
      childHeight = Math.max(childHeight, height.get(child) ?? 0);
      childSize += size.get(child) ?? 1;
    }
    height.set(node, childHeight + 1);
    size.set(node, Math.min(childSize + 1, MAX_ALIAS_EXPANSION + 1));
    expandedTotal += 1;
  }
  if ((height.get(root) ?? 0) <= MAX_NESTING_DEPTH) return undefined;
  // Follow the deepest branch down to the first level past the limit.
  let node: unknown = root;
  for (let level = 1; level <= MAX_NESTING_DEPTH && !isAlias(node); level += 1) {
    let deepest: unknown;
    for (const child of childrenOf(node)) if (child !== null && child !== undefined && (deepest === undefined || (height.get(child) ?? 0) > (height.get(deepest) ?? 0))) deepest = child;
    if (deepest === undefined) break;
    node = deepest;
  }
  const viaAlias = isAlias(node) ? ` (counting what alias *${showText(node.source)} brings in)` : '';
  return { node: node as Node, message: `nesting is too deep: more than ${MAX_NESTING_DEPTH} levels of mappings and lists${viaAlias}` };
}

/**
 * Parses YAML text with positions, within bounds: more than `MAX_YAML_TOKENS` tokens, nesting deeper
 * than `MAX_NESTING_DEPTH`, aliases expanding past `MAX_ALIAS_EXPANSION` values, several documents and
 * duplicate keys are issues at their line and column, like syntax errors (of which the first
 * `MAX_SYNTAX_ISSUES` are kept). `data` is undefined when there is any.
 */
export function parseYamlSource(text: string, file: string): YamlSource {
  const lineCounter = new LineCounter();
  const position: PositionOf = (offset) => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const overLimit = tokenLimitOffset(text);
  if (overLimit !== undefined) {
    // Only the lines up to the limit are counted.
    const counter = new LineCounter();
    counter.addNewLine(0);
    for (let at = text.indexOf('\n'); at !== -1 && at < overLimit; at = text.indexOf('\n', at + 1)) counter.addNewLine(at + 1);
    const { line, col } = counter.linePos(overLimit);
    const message = `the file has more than ${MAX_YAML_TOKENS.toLocaleString('en-US')} YAML tokens (keys, values, list items, brackets, \`:\` and \`-\`); input files are limited to that to keep loading fast and small`;
    return { file, data: undefined, syntaxIssues: [issueAt(file, { line, column: col }, message)], isEmpty: false, locate: () => DOCUMENT_START };
  }
  // Duplicate keys are found by `checkDocument` in linear time (the parser's own check is quadratic).
  const document = parseDocument(text, { lineCounter, prettyErrors: false, stringKeys: true, keepSourceTokens: false, uniqueKeys: false });
  const locate: Locate = (path, options) => locateInDocument(document, parseFieldPath(path), position, options?.target ?? 'value');
  // Running out of stack on deep nesting leaves an error at each level it unwinds through: one says it.
  const exhausted = document.errors.find((error) => error.code === 'RESOURCE_EXHAUSTION');
  const errors = exhausted === undefined ? document.errors : [exhausted];
  const syntaxIssues: ValidationIssue[] = errors.slice(0, MAX_SYNTAX_ISSUES).map((error) => issueAt(file, position(error.pos[0]), describeYamlError(error)));
  const more = errors.length - MAX_SYNTAX_ISSUES;
  if (more > 0) {
    const next = errors[MAX_SYNTAX_ISSUES] as YAMLError;
    syntaxIssues.push(issueAt(file, position(next.pos[0]), `${more.toLocaleString('en-US')} more YAML ${more === 1 ? 'error' : 'errors'} from here on, not shown (fix the ones above first)`));
  }
  const isEmpty = document.contents === null;
  if (syntaxIssues.length > 0) return { file, data: undefined, syntaxIssues, isEmpty, locate };
  const problem = checkDocument(document, (offset) => position(offset).line);
  if (problem !== undefined) {
    const range = problem.node.range;
    return { file, data: undefined, syntaxIssues: [issueAt(file, range ? position(range[0]) : DOCUMENT_START, problem.message)], isEmpty, locate };
  }
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: -1 });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { file, data: undefined, syntaxIssues: [issueAt(file, DOCUMENT_START, `cannot read the YAML: ${message}`)], isEmpty, locate };
  }
  return { file, data, syntaxIssues, isEmpty, locate };
}

function nodeStart(node: Node | null | undefined, position: (offset: number) => SourcePosition): SourcePosition | undefined {
  return node?.range ? position(node.range[0]) : undefined;
}

function resolveAlias(node: unknown, document: Document): unknown {
  return isAlias(node) ? node.resolve(document) : node;
}

function locateInDocument(
  document: Document,
  segments: (string | number)[],
  position: (offset: number) => SourcePosition,
  target: 'key' | 'value',
): SourcePosition {
  let node = resolveAlias(document.contents, document);
  let found = nodeStart(node as Node | null, position) ?? DOCUMENT_START;
  for (const [index, segment] of segments.entries()) {
    const isLast = index === segments.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
      if (!pair) return found;
      const keyPosition = nodeStart(pair.key as Node, position) ?? found;
      const value = resolveAlias(pair.value, document) as Node | null;
      if (isLast && target === 'key') return keyPosition;
      // Point at a scalar or flow value itself; a block value starts on a later line, so its key reads better.
      const isInlineValue =
        value !== null &&
        ((isScalar(value) && !(value.value === null && (value.source === '' || value.source === undefined))) ||
          (isCollection(value) && value.flow === true));
      found = isInlineValue ? (nodeStart(value, position) ?? keyPosition) : keyPosition;
      node = value;
    } else if (isSeq(node) && typeof segment === 'number') {
      const item = resolveAlias(node.items[segment], document) as Node | undefined;
      if (item === undefined || item === null) return found;
      found = nodeStart(item, position) ?? found;
      node = item;
    } else {
      return found;
    }
  }
  return found;
}
