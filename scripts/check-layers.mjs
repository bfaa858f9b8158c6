#!/usr/bin/env node
// The layering check: fails when a workspace package imports (or lists in its package.json) one at
// its own layer or above it, imports a workspace package it does not declare, reaches into another
// package by a relative path (only a development file may, and only into a lower layer: a test using
// a lower package's test helpers), a shipped file imports a file outside its package, when a cycle
// of file imports appears, or when the folders inside a package import each other in a loop (a folder
// arrow running back up: `attempt/` imports `run/` while `run/` imports `attempt/`).
//
// Usage: node scripts/check-layers.mjs [--root DIR]
// Run by `pnpm test` through scripts/check-layers.test.mjs (`pnpm test:scripts`).
//
// How it reads the tree: the workspace packages are the folders named by pnpm-workspace.yaml that
// hold a package.json; every .ts/.tsx/.mts/.cts/.js/.jsx/.mjs/.cjs file in them (not node_modules,
// dist, or a folder starting with a dot) is parsed with the repository's TypeScript, and every module
// specifier is read: import and export declarations (`import type` too: a type-only cycle is still a
// tangle), `import x = require()`, `import('x')` in code and in types, and `require('x')`.
// Files under test/, bench/ or fixtures/, `*.test.*`, `*.bench.*` and `*.config.*` files are
// development files: they may import the package's devDependencies; every other file ships and may
// import only dependencies, peerDependencies and optionalDependencies.
// No dependencies beyond the repository's TypeScript: Node 20.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

/**
 * The layers, bottom first. A package may import (and declare) only packages of a lower layer,
 * never one of its own layer or above. A new workspace package must be placed here.
 */
export const LAYERS = [
  // The ground floor: small helpers several packages share (isRecord, file checks, record writes); imports none of ours.
  ['@agentbench/helpers'],
  // The formats and the error base every package's errors extend; depends only on the helpers.
  ['@agentbench/schemas'],
  // The scripted LLM server for tests and the one scheduler sit here because their errors extend schemas' AgentBenchError.
  // The installed agents' stream formats and ATIF: pure readers of data, beside the other formats' users.
  ['@agentbench/sandbox', '@agentbench/scoring', '@agentbench/fake-llm-server', '@agentbench/scheduler', '@agentbench/trajectories'],
  // The cassette (record and replay of model exchanges) sits above the fake LLM server its tests drive.
  ['@agentbench/tools', '@agentbench/cassette'],
  // Installed CLI agents (definitions, the host cache, read-only mounts) sit on the sandbox; their tests drive the cassette's gateway.
  ['@agentbench/agent-loop', '@agentbench/evaluators', '@agentbench/installed-agents'],
  // Beside each other under the CLI, as ../shared/DESIGN.md draws them (plugins included).
  ['@agentbench/harness', '@agentbench/scenario-runner', '@agentbench/evaluator-example', '@agentbench/scanner-example', '@agentbench/broken-plugin-fixture'],
  ['@agentbench/report', '@agentbench/swebench'],
  ['@agentbench/cli'],
];

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'coverage']);
const DEVELOPMENT_FOLDER = /(^|\/)(test|tests|__tests__|bench|fixtures)\//;
const DEVELOPMENT_FILE = /\.(test|spec|bench|config)\.[cm]?[jt]sx?$/;
const SHIPPED_DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies'];
const ALL_DEPENDENCY_FIELDS = [...SHIPPED_DEPENDENCY_FIELDS, 'devDependencies'];

export const REPOSITORY_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The workspace packages: folders matched by pnpm-workspace.yaml (`dir/*` or `dir`) with a package.json. */
export function listWorkspacePackages(root) {
  const text = readFileSync(path.join(root, 'pnpm-workspace.yaml'), 'utf8');
  const patterns = [];
  let isInPackages = false;
  for (const line of text.split('\n')) {
    if (/^packages:\s*$/.test(line)) {
      isInPackages = true;
      continue;
    }
    if (/^\S/.test(line)) isInPackages = false;
    const item = isInPackages ? /^\s+-\s+['"]?([^'"#\s]+)['"]?/.exec(line) : null;
    if (item) patterns.push(item[1]);
  }
  const folders = [];
  for (const pattern of patterns) {
    if (pattern.startsWith('!')) continue;
    if (pattern.endsWith('/*')) {
      const parent = path.join(root, pattern.slice(0, -2));
      if (!existsSync(parent)) continue;
      for (const entry of readdirSync(parent, { withFileTypes: true })) {
        if (entry.isDirectory()) folders.push(path.join(parent, entry.name));
      }
    } else if (!pattern.includes('*')) {
      folders.push(path.join(root, pattern));
    } else {
      throw new Error(`pnpm-workspace.yaml: the layering check reads only "dir/*" and "dir" patterns, found ${JSON.stringify(pattern)}`);
    }
  }
  const packages = [];
  for (const folder of folders.sort()) {
    const manifestPath = path.join(folder, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    packages.push({ name: manifest.name, folder, manifest });
  }
  return packages;
}

function listSourceFiles(folder) {
  const files = [];
  const visit = (current) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_FOLDERS.has(entry.name)) visit(full);
      } else if (entry.isFile() && SOURCE_EXTENSIONS.some((extension) => entry.name.endsWith(extension))) {
        files.push(full);
      }
    }
  };
  visit(folder);
  return files.sort();
}

/** Every module specifier of a file that is a string literal, with its line (1-based) and whether only types are imported. */
export function readImports(fileName, text) {
  const sourceFile = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, scriptKindOf(fileName));
  const imports = [];
  const add = (literal, isTypeOnly) => {
    if (!literal || !ts.isStringLiteralLike(literal)) return;
    const { line } = sourceFile.getLineAndCharacterOfPosition(literal.getStart(sourceFile));
    imports.push({ specifier: literal.text, line: line + 1, isTypeOnly });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      const isTypeOnly = clause !== undefined && (clause.isTypeOnly || (clause.name === undefined && clause.namedBindings !== undefined && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      add(node.moduleSpecifier, isTypeOnly);
    } else if (ts.isExportDeclaration(node)) {
      add(node.moduleSpecifier, node.isTypeOnly);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true);
    } else if (ts.isCallExpression(node) && node.arguments.length >= 1) {
      const isDynamicImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if (isDynamicImport || isRequire) add(node.arguments[0], false);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return imports;
}

function scriptKindOf(fileName) {
  if (/\.[cm]?tsx?$/.test(fileName)) return fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return fileName.endsWith('x') ? ts.ScriptKind.JSX : ts.ScriptKind.JS;
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`), or undefined for a relative or absolute path. */
function packageNameOf(specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The file a relative specifier resolves to, as TypeScript and Node find it (`./x.js` → `./x.ts`), or undefined. */
function resolveRelative(fromFile, specifier) {
  const base = path.resolve(path.dirname(fromFile), specifier);
  const extension = path.extname(base);
  const stem = base.slice(0, base.length - extension.length);
  const candidates = [];
  if (extension === '.js' || extension === '.jsx') candidates.push(`${stem}.ts`, `${stem}.tsx`, base);
  else if (extension === '.mjs') candidates.push(`${stem}.mts`, base);
  else if (extension === '.cjs') candidates.push(`${stem}.cts`, base);
  else if (SOURCE_EXTENSIONS.includes(extension) || extension === '.json') candidates.push(base);
  else candidates.push(...SOURCE_EXTENSIONS.map((each) => `${base}${each}`), ...SOURCE_EXTENSIONS.map((each) => path.join(base, `index${each}`)), base);
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

function isInside(folder, file) {
  const relative = path.relative(folder, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

/** Strongly connected components of the file graph (Tarjan), each with more than one file or a file importing itself. */
function findCycles(graph) {
  let nextIndex = 0;
  const index = new Map();
  const lowLink = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const connect = (start) => {
    // Iterative, so deep import chains cannot overflow the call stack.
    const work = [{ node: start, edges: [...(graph.get(start) ?? [])], position: 0 }];
    index.set(start, nextIndex);
    lowLink.set(start, nextIndex);
    nextIndex += 1;
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work.at(-1);
      if (frame.position < frame.edges.length) {
        const next = frame.edges[frame.position++];
        if (!index.has(next)) {
          index.set(next, nextIndex);
          lowLink.set(next, nextIndex);
          nextIndex += 1;
          stack.push(next);
          onStack.add(next);
          work.push({ node: next, edges: [...(graph.get(next) ?? [])], position: 0 });
        } else if (onStack.has(next)) {
          lowLink.set(frame.node, Math.min(lowLink.get(frame.node), index.get(next)));
        }
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) lowLink.set(parent.node, Math.min(lowLink.get(parent.node), lowLink.get(frame.node)));
      if (lowLink.get(frame.node) === index.get(frame.node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || graph.get(frame.node)?.has(frame.node)) components.push(component.sort());
      }
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) connect(node);
  return components;
}

/** One concrete cycle through the first file of a component, for the message: a → b → a. */
function cycleThrough(component, graph) {
  const members = new Set(component);
  const start = component[0];
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const current = queue.shift();
    for (const next of [...(graph.get(current) ?? [])].sort()) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let node = current; node !== start; node = previous.get(node)) path.splice(1, 0, node);
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, current);
        queue.push(next);
      }
    }
  }
  return [...component, start];
}

/**
 * The folder-level check of one package's shipped files: in every folder, its entries (sub-folders and
 * files) must import each other without a loop. An import from a file under entry A to a file under
 * entry B of the same folder is an arrow A → B; a cycle among the entries of a folder is a folder
 * arrow running back up (an import inside a file cycle draws none: that cycle is reported already).
 * Returns one problem per cycle, naming the entries and one import per arrow.
 */
function checkFolders(files, graph, fileCycleOf, show) {
  const fileSet = new Set(files);
  // folder → (entry → (entry → the first import that draws that arrow))
  const arrowsByFolder = new Map();
  for (const from of files) {
    for (const to of graph.get(from) ?? []) {
      if (!fileSet.has(to) || (fileCycleOf.has(from) && fileCycleOf.get(from) === fileCycleOf.get(to))) continue;
      const fromParts = from.split(path.sep);
      const toParts = to.split(path.sep);
      let shared = 0;
      while (shared < fromParts.length - 1 && shared < toParts.length - 1 && fromParts[shared] === toParts[shared]) shared += 1;
      const folder = fromParts.slice(0, shared).join(path.sep);
      const entryOf = (parts) => (parts.length - 1 > shared ? `${parts[shared]}/` : parts[shared]);
      const fromEntry = entryOf(fromParts);
      const toEntry = entryOf(toParts);
      if (fromEntry === toEntry) continue;
      if (!arrowsByFolder.has(folder)) arrowsByFolder.set(folder, new Map());
      const arrows = arrowsByFolder.get(folder);
      if (!arrows.has(fromEntry)) arrows.set(fromEntry, new Map());
      if (!arrows.get(fromEntry).has(toEntry)) arrows.get(fromEntry).set(toEntry, `${show(from)} imports ${show(to)}`);
    }
  }
  const problems = [];
  for (const folder of [...arrowsByFolder.keys()].sort()) {
    const arrows = arrowsByFolder.get(folder);
    const entryGraph = new Map([...arrows].map(([entry, targets]) => [entry, new Set(targets.keys())]));
    for (const component of findCycles(entryGraph)) {
      const cycle = cycleThrough(component, entryGraph);
      const evidence = cycle.slice(0, -1).map((entry, position) => arrows.get(entry).get(cycle[position + 1]));
      const others = component.length > cycle.length - 1 ? ` (${component.length} entries in this tangle: ${component.join(', ')})` : '';
      problems.push(`folder cycle in ${show(folder)}/: ${cycle.join(' → ')}${others}: ${evidence.join('; ')}`);
    }
  }
  return problems;
}

/**
 * Checks the workspace under `root`. Returns the problems found (empty when the layering holds),
 * each one line naming the file and line, and what was read.
 */
export function checkLayers({ root = REPOSITORY_ROOT, layers = LAYERS } = {}) {
  const problems = [];
  const show = (file) => path.relative(root, file).split(path.sep).join('/');
  const layerOf = new Map();
  layers.forEach((names, layer) => names.forEach((name) => layerOf.set(name, layer)));
  const describe = (name) => (layerOf.has(name) ? `${name} (layer ${layerOf.get(name) + 1}: ${layers[layerOf.get(name)].join(', ')})` : `${name} (no layer)`);

  const packages = listWorkspacePackages(root);
  const byName = new Map(packages.map((workspacePackage) => [workspacePackage.name, workspacePackage]));
  for (const workspacePackage of packages) {
    if (!layerOf.has(workspacePackage.name)) {
      problems.push(`${show(path.join(workspacePackage.folder, 'package.json'))}: package ${workspacePackage.name} has no layer: place it in LAYERS (scripts/check-layers.mjs)`);
    }
  }

  const graph = new Map();
  // Shipped files of each package, for the folder-level check (development files may reach anywhere below them).
  const shippedFilesOf = new Map();
  let fileCount = 0;
  for (const workspacePackage of packages) {
    const { name, folder, manifest } = workspacePackage;
    const layer = layerOf.get(name);
    const manifestFile = show(path.join(folder, 'package.json'));
    const declared = (fields) => new Set(fields.flatMap((field) => Object.keys(manifest[field] ?? {})));
    const shipped = declared(SHIPPED_DEPENDENCY_FIELDS);
    const all = declared(ALL_DEPENDENCY_FIELDS);

    for (const field of ALL_DEPENDENCY_FIELDS) {
      for (const dependency of Object.keys(manifest[field] ?? {})) {
        if (dependency === name || !byName.has(dependency) || layer === undefined || !layerOf.has(dependency)) continue;
        if (layerOf.get(dependency) >= layer) {
          problems.push(`${manifestFile}: ${describe(name)} lists ${describe(dependency)} in ${field}: a package may depend only on layers below its own`);
        }
      }
    }

    const shippedFiles = [];
    shippedFilesOf.set(workspacePackage, shippedFiles);
    for (const file of listSourceFiles(folder)) {
      fileCount += 1;
      const inPackage = path.relative(folder, file).split(path.sep).join('/');
      const isDevelopmentFile = DEVELOPMENT_FOLDER.test(inPackage) || DEVELOPMENT_FILE.test(inPackage);
      if (!isDevelopmentFile) shippedFiles.push(file);
      const edges = new Set();
      graph.set(file, edges);
      let imports;
      try {
        imports = readImports(file, readFileSync(file, 'utf8'));
      } catch (error) {
        problems.push(`${show(file)}: cannot be read: ${error.message}`);
        continue;
      }
      for (const { specifier, line } of imports) {
        const where = `${show(file)}:${line}`;
        const target = packageNameOf(specifier);
        if (target !== undefined) {
          if (target === name || !byName.has(target)) continue;
          if (layer !== undefined && layerOf.has(target) && layerOf.get(target) >= layer) {
            problems.push(`${where}: ${describe(name)} imports ${JSON.stringify(specifier)} from ${describe(target)}: a package may import only layers below its own`);
          } else if (!(isDevelopmentFile ? all : shipped).has(target)) {
            const fields = isDevelopmentFile ? 'dependencies or devDependencies' : 'dependencies (a shipped file may not use a devDependency)';
            problems.push(`${where}: imports ${JSON.stringify(specifier)}, but ${manifestFile} does not list ${target} in its ${fields}`);
          }
          continue;
        }
        if (!specifier.startsWith('.')) continue;
        const resolved = resolveRelative(file, specifier);
        if (resolved === undefined) continue;
        const owner = packages.find((other) => other !== workspacePackage && isInside(other.folder, resolved));
        const isOwnerNested = owner !== undefined && isInside(folder, owner.folder);
        if (owner !== undefined && !isOwnerNested && (!isDevelopmentFile || layer === undefined || !layerOf.has(owner.name) || layerOf.get(owner.name) >= layer)) {
          problems.push(`${where}: ${describe(name)} reaches into ${describe(owner.name)} by a path (${JSON.stringify(specifier)}): a package may import only layers below its own, by name (a test may use a lower package's test helpers by path)`);
        } else if (!isDevelopmentFile && !isInside(folder, resolved)) {
          problems.push(`${where}: a shipped file imports ${JSON.stringify(specifier)}, outside its package ${name}`);
        } else if (SOURCE_EXTENSIONS.some((extension) => resolved.endsWith(extension))) {
          edges.add(resolved);
        }
      }
    }
  }

  const fileCycles = findCycles(graph);
  // A file cycle is reported once, as such: its imports draw no folder arrow.
  const fileCycleOf = new Map(fileCycles.flatMap((component, position) => component.map((file) => [file, position])));
  for (const component of fileCycles) {
    const cycle = cycleThrough(component, graph).map(show);
    const others = component.length > cycle.length - 1 ? ` (${component.length} files in this tangle)` : '';
    problems.push(`import cycle: ${cycle.join(' → ')}${others}`);
  }

  for (const workspacePackage of packages) {
    problems.push(...checkFolders(shippedFilesOf.get(workspacePackage) ?? [], graph, fileCycleOf, show));
  }

  return { problems, packageCount: packages.length, fileCount };
}

function parseArguments(argv) {
  const options = {};
  for (let position = 0; position < argv.length; position += 1) {
    const argument = argv[position];
    if (argument === '--root' && argv[position + 1] !== undefined) options.root = path.resolve(argv[++position]);
    else if (argument === '--help' || argument === '-h') options.isHelp = true;
    else throw new Error(`unknown argument ${JSON.stringify(argument)}; usage: node scripts/check-layers.mjs [--root DIR]`);
  }
  return options;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  let options;
  try {
    options = parseArguments(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`check-layers: ${error.message}\n`);
    process.exit(2);
  }
  if (options.isHelp) {
    process.stdout.write('Usage: node scripts/check-layers.mjs [--root DIR]\nFails when a package imports one at its layer or above, a file import cycle appears, or folders inside a package import each other in a loop.\n');
    process.exit(0);
  }
  const { problems, packageCount, fileCount } = checkLayers(options.root === undefined ? {} : { root: options.root });
  if (problems.length > 0) {
    process.stderr.write(`check-layers: ${problems.length} problem(s) in ${packageCount} packages, ${fileCount} files:\n`);
    for (const problem of problems) process.stderr.write(`  ${problem}\n`);
    process.exit(1);
  }
  process.stdout.write(`check-layers: ${packageCount} packages, ${fileCount} files: every import points down, no import cycle, no folder cycle\n`);
}
