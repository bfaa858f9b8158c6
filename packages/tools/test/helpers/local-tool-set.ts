import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { LocalSandbox } from '@agentbench/sandbox';
import type { ToolName, ToolResult } from '@agentbench/schemas';
import { ToolResultSchema } from '../../../schemas/src/records/tool-result.js';
import * as v from 'valibot';
import { createToolSet, type ToolContext, type ToolSet } from '../../src/index.js';

let requestCounter = 0;

export interface LocalToolSet {
  sandbox: LocalSandbox;
  tools: ToolSet;
  /** Host folder of the workspace (the tool root). */
  root: string;
  artifactsDir: string;
  call(tool: ToolName, params: Record<string, unknown>): Promise<ToolResult>;
  read(path: string): Promise<string>;
  write(path: string, content: string | Uint8Array): Promise<void>;
  link(path: string, target: string): Promise<void>;
  dispose(): Promise<void>;
}

/** A real LocalSandbox over a temporary folder holding `files`, with a tool set and an artifacts folder (command logs in its `logs/`). */
export async function createLocalToolSet(files: Record<string, string | Uint8Array> = {}, context: Partial<ToolContext> = {}): Promise<LocalToolSet> {
  const artifactsDir = await mkdtemp(join(tmpdir(), 'agentbench-tools-artifacts-'));
  // Command logs go where the harness puts them: `logs/` of the artifacts folder.
  const sandbox = await LocalSandbox.create({ files, logDir: join(artifactsDir, 'logs') }, { isWarningSilenced: true });
  const tools = createToolSet({ sandbox, artifactsDir, ...context });
  const root = sandbox.workdir;
  return {
    sandbox,
    tools,
    root,
    artifactsDir,
    async call(tool, params) {
      requestCounter += 1;
      return expectValidToolResult(await tools.execute({ tool, params, request_id: `request-${requestCounter}`, requested_at: new Date().toISOString() }));
    },
    read: (path) => readFile(join(root, path), 'utf8'),
    async write(path, content) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), content);
    },
    async link(path, target) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await symlink(target, join(root, path));
    },
    async dispose() {
      await sandbox.dispose();
      await rm(artifactsDir, { recursive: true, force: true });
    },
  };
}

/** Asserts a result is a valid ToolResult record (the schemas package's shape). */
export function expectValidToolResult(result: ToolResult): ToolResult {
  const parsed = v.safeParse(ToolResultSchema, result);
  if (!parsed.success) throw new Error(`not a valid ToolResult: ${parsed.issues.map((issue) => `${v.getDotPath(issue)}: ${issue.message}`).join('; ')}`);
  return result;
}
