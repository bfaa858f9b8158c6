#!/usr/bin/env node
// The README example check: every ```ts block of README.md and of each workspace package's README
// is type-checked against the packages as they are, so the docs cannot rot.
//
// Usage: node scripts/check-readme-examples.mjs [--root DIR]
// Run by `pnpm test` through scripts/check-readme-examples.test.mjs (`pnpm test:scripts`).
//
// Each block becomes a module (`.mts`, so top-level await works) in a temporary folder inside the
// package the README belongs to (the root README's blocks go to apps/cli, which depends on every
// package), so `@agentbench/*` and the package's other dependencies resolve from its node_modules,
// to sources through the `@agentbench/source` condition as in the packages' own `tsc`. One program
// of the repository's TypeScript, with tsconfig.base.json's options, checks every block at once;
// only the blocks' own diagnostics are reported (the packages' sources are checked by their
// `typecheck`), each at its README file, line and column. The temporary folders are removed after.
//
// A block is a whole module: it imports what it uses. Fences: ```ts, ```typescript, ```mts
// (indented ones too, e.g. in a list).

import { mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { listWorkspacePackages, REPOSITORY_ROOT } from './check-layers.mjs';

const TYPESCRIPT_FENCE_LANGUAGES = new Set(['ts', 'typescript', 'mts']);
const FENCE_OPEN = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)[^`]*$/;

/** The ```ts blocks of a Markdown text: their code (indentation of the fence removed), and the README line of their first code line. */
export function extractTypeScriptBlocks(markdown) {
  const lines = markdown.split(/\r?\n/);
  const blocks = [];
  for (let index = 0; index < lines.length; index += 1) {
    const open = FENCE_OPEN.exec(lines[index]);
    if (!open) continue;
    const [, indent, fence, language] = open;
    const close = new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
    let end = index + 1;
    while (end < lines.length && !close.test(lines[end])) end += 1;
    if (TYPESCRIPT_FENCE_LANGUAGES.has(language.toLowerCase())) {
      const code = lines.slice(index + 1, end).map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart()));
      blocks.push({ code: code.join('\n'), line: index + 2, indent: indent.length });
    }
    index = end;
  }
  return blocks;
}

/** README.md (checked from apps/cli) and the README of every workspace package (checked from that package). */
export function listReadmes(root = REPOSITORY_ROOT) {
  const packages = listWorkspacePackages(root);
  const cli = packages.find((workspacePackage) => workspacePackage.name === '@agentbench/cli');
  const readmes = [{ readme: path.join(root, 'README.md'), packageFolder: cli?.folder ?? root }];
  for (const { folder } of packages) readmes.push({ readme: path.join(folder, 'README.md'), packageFolder: folder });
  return readmes.filter(({ readme }) => existsSync(readme));
}

function compilerOptions(root) {
  const configPath = path.join(root, 'tsconfig.base.json');
  const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent({ ...config, files: [], include: [] }, ts.sys, root, undefined, configPath);
  const problems = parsed.errors.filter((diagnostic) => diagnostic.code !== 18002); // "files list is empty": ours are given to the program
  if (problems.length > 0) throw new Error(problems.map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')).join('\n'));
  return { ...parsed.options, noEmit: true, declaration: false, sourceMap: false, declarationMap: false, incremental: false, composite: false };
}

/**
 * Type-checks the ```ts blocks of `readmes` (each `{ readme, packageFolder }`) in one program.
 * Returns one problem a line, `README:line:column: error TSnnnn: message`, empty when every block checks.
 */
export function checkReadmeExamples({ root = REPOSITORY_ROOT, readmes = listReadmes(root) } = {}) {
  const show = (file) => path.relative(root, file).split(path.sep).join('/') || file;
  const folderName = `.readme-examples-${process.pid}-${randomBytes(4).toString('hex')}`;
  const examples = new Map();
  const folders = new Set();
  try {
    for (const { readme, packageFolder } of readmes) {
      const blocks = extractTypeScriptBlocks(readFileSync(readme, 'utf8'));
      if (blocks.length === 0) continue;
      const folder = path.join(packageFolder, folderName);
      mkdirSync(folder, { recursive: true });
      folders.add(folder);
      const stem = path.basename(path.dirname(readme)).replace(/[^\w-]/g, '_');
      for (const block of blocks) {
        const file = path.join(folder, `${stem}-readme-line-${block.line}.mts`);
        // `export {}` keeps a block without imports a module; it comes after the code, so lines stay as in the README.
        writeFileSync(file, `${block.code}\nexport {};\n`);
        examples.set(path.resolve(file), { readme, block });
      }
    }
    if (examples.size === 0) return { problems: [], exampleCount: 0, readmeCount: 0 };

    const program = ts.createProgram({ rootNames: [...examples.keys()], options: compilerOptions(root) });
    const problems = [];
    const describe = (diagnostic) => `error TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
    for (const diagnostic of [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()]) problems.push(`TypeScript: ${describe(diagnostic)}`);
    for (const [file, { readme, block }] of examples) {
      const sourceFile = program.getSourceFile(file);
      if (sourceFile === undefined) {
        problems.push(`${show(readme)}:${block.line}: the example was not read by TypeScript`);
        continue;
      }
      for (const diagnostic of [...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile)]) {
        const { line, character } = sourceFile.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
        problems.push(`${show(readme)}:${block.line + line}:${block.indent + character + 1}: ${describe(diagnostic)}`);
      }
    }
    return { problems, exampleCount: examples.size, readmeCount: new Set([...examples.values()].map(({ readme }) => readme)).size };
  } finally {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const argv = process.argv.slice(2);
  let root = REPOSITORY_ROOT;
  if (argv[0] === '--root' && argv[1] !== undefined && argv.length === 2) root = path.resolve(argv[1]);
  else if (argv.length > 0) {
    process.stderr.write('Usage: node scripts/check-readme-examples.mjs [--root DIR]\n');
    process.exit(2);
  }
  const { problems, exampleCount, readmeCount } = checkReadmeExamples({ root });
  if (problems.length > 0) {
    process.stderr.write(`check-readme-examples: ${problems.length} problem(s) in ${exampleCount} examples of ${readmeCount} READMEs:\n`);
    for (const problem of problems) process.stderr.write(`  ${problem}\n`);
    process.exit(1);
  }
  process.stdout.write(`check-readme-examples: ${exampleCount} examples of ${readmeCount} READMEs type-check\n`);
}
