import * as v from 'valibot';

/** The wire APIs an agent can speak to its model; the gateway serves all three. */
export const WIRE_APIS = ['chat', 'responses', 'anthropic'] as const;

/**
 * What a definition's command line, env and files may name, substituted at run time (`{model}`):
 * - `instruction`: the instruction text; `instruction_file`: a file in the sandbox holding it
 * - `model`, `base_url` (the model endpoint inside the sandbox, without `/v1`), `api_key` (a stand-in: the gateway adds the real key)
 * - `home` (a writable HOME for the agent), `workspace` (the task's folder)
 * - `agent` (the read-only install folder), `binary` (the agent's executable), `runtime` (the runtime's bin folder)
 * - `command` (the command line the user gives the generic `command` agent)
 */
export const PLACEHOLDERS = [
  'instruction',
  'instruction_file',
  'model',
  'base_url',
  'api_key',
  'home',
  'workspace',
  'agent',
  'binary',
  'runtime',
  'command',
] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];

const PLACEHOLDER = /\{([a-z_]+)\}/g;

/** The placeholders `text` names that are not in `PLACEHOLDERS`. */
export function unknownPlaceholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((match) => match[1] ?? '').filter((name) => !(PLACEHOLDERS as readonly string[]).includes(name));
}

/** `{name}` replaced by its value; a name without a value is left as written (the load already refused unknown names). */
export function fillPlaceholders(text: string, values: Partial<Record<Placeholder, string>>): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => values[name as Placeholder] ?? whole);
}

const KnownPlaceholders = v.check(
  (text: string) => unknownPlaceholders(text).length === 0,
  (issue: v.CheckIssue<string>) => `unknown placeholder {${unknownPlaceholders(String(issue.input))[0] ?? ''}}; expected one of ${PLACEHOLDERS.map((name) => `{${name}}`).join(', ')}`,
);
const TemplateString = v.pipe(v.string(), KnownPlaceholders);

const NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;
const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;
const NPM_PACKAGE = /^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;
const SHA512_INTEGRITY = /^sha512-[A-Za-z0-9+/]{86}==$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const RelativeInstallPath = v.pipe(
  v.string(),
  v.check((path) => path !== '' && !path.startsWith('/') && !path.split('/').includes('..'), 'expected a path inside the install folder, such as "node_modules/pkg/bin/tool" (relative, no "..")'),
);

/** An npm package at an exact version; `integrity` is npm's sha512 of its tarball, checked after the install. */
const NpmPackageFields = {
  package: v.pipe(v.string(), v.regex(NPM_PACKAGE, 'expected an npm package name such as "@openai/codex"')),
  version: v.pipe(v.string(), v.regex(EXACT_VERSION, 'expected an exact version such as "0.171.0" (no range: a definition pins what it runs)')),
  integrity: v.optional(v.pipe(v.string(), v.regex(SHA512_INTEGRITY, 'expected npm\'s integrity of the tarball, "sha512-" and 88 base64 characters (`npm view PACKAGE@VERSION dist.integrity`)'))),
};

export const RuntimeSchema = v.strictObject({
  ...NpmPackageFields,
  /** The folder (inside the runtime's install) holding its executables, put first on the agent's PATH. */
  bin: RelativeInstallPath,
});

export const AgentDefinitionSchema = v.strictObject({
  name: v.pipe(v.string(), v.regex(NAME, 'expected a lower-case name of letters, digits and "-" (the file name without its extension)')),
  description: v.pipe(v.string(), v.minLength(1, 'expected a one-line description')),
  /** The npm package the agent ships in; absent for an agent already in the image (the generic `command` agent). */
  package: v.optional(NpmPackageFields.package),
  version: v.optional(NpmPackageFields.version),
  integrity: NpmPackageFields.integrity,
  /** The executable inside the install folder (the platform binary, never npm's wrapper script). */
  binary: v.optional(RelativeInstallPath),
  /** Absent or `none`: the binary runs by itself; else the runtime installed beside it (Node from npm). */
  runtime: v.optional(v.union([v.literal('none'), RuntimeSchema]), 'none'),
  wire_api: v.picklist(WIRE_APIS, `expected the model API the agent speaks: ${WIRE_APIS.join(', ')}`),
  /** The command line, one word per item (no shell); `{instruction}` and the other placeholders are filled in. */
  command: v.pipe(v.array(TemplateString), v.minLength(1, 'expected the command line as a list of words, such as ["{binary}", "exec", "{instruction}"]')),
  env: v.optional(v.record(v.pipe(v.string(), v.regex(ENV_NAME, 'expected an environment variable name')), TemplateString), {}),
  /** Files written in the sandbox before the command runs (config files), keyed by absolute path (`{home}/.codex/config.toml`). */
  files: v.optional(v.record(TemplateString, TemplateString), {}),
  output: v.strictObject({
    /** How the agent's stdout reads (`codex-json`, `claude-stream-json`, `qwen-json`, `text`): the trajectory reader picks its parser by it. */
    format: v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]*$/, 'expected a format name such as "codex-json" or "text"')),
  }),
});

export type AgentDefinitionInput = v.InferInput<typeof AgentDefinitionSchema>;
export type ParsedAgentDefinition = v.InferOutput<typeof AgentDefinitionSchema>;
