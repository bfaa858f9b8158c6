import { quoteShellWord } from '@agentbench/helpers';

/** Where the setup writes the test patch inside the checkout: under .git, so it is never part of the work tree. */
export const TEST_PATCH_PATH_IN_CHECKOUT = '.git/agentbench-test.patch';

/**
 * Each command becomes one `sh -c` argument, which Linux caps at 128 KiB (MAX_ARG_STRLEN);
 * larger patches are written in pieces below this size.
 */
export const MAX_PATCH_CHUNK_CHARACTERS = 96 * 1024;

const GIT = "git -c safe.directory='*'";

function chunksAtLineEnds(text: string, maxCharacters: number): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const line of text.split(/(?<=\n)/)) {
    if (current !== '' && quoteShellWord(current + line).length > maxCharacters) {
      chunks.push(current);
      current = '';
    }
    current += line;
  }
  if (current !== '' || chunks.length === 0) chunks.push(current);
  return chunks;
}

/**
 * Setup commands that apply the test patch and commit it, so the tests exist before the
 * baseline, the work tree is clean for the setup check, and an agent's diff holds only its own
 * change. The patch text is embedded (files beside task.yaml are not in the sandbox).
 */
export function testPatchCommands(testPatch: string, options: { maxChunkCharacters?: number } = {}): string[] {
  const text = testPatch.endsWith('\n') ? testPatch : `${testPatch}\n`;
  const chunks = chunksAtLineEnds(text, options.maxChunkCharacters ?? MAX_PATCH_CHUNK_CHARACTERS);
  const writes = chunks.map((chunk, index) => `printf '%s' ${quoteShellWord(chunk, { isAlwaysQuoted: true })} ${index === 0 ? '>' : '>>'} ${TEST_PATCH_PATH_IN_CHECKOUT}`);
  const apply = [
    `${GIT} apply --index ${TEST_PATCH_PATH_IN_CHECKOUT}`,
    `${GIT} -c user.name=AgentBench -c user.email=agentbench@localhost commit --quiet --no-verify -m 'Apply the SWE-bench test patch'`,
    `rm -f ${TEST_PATCH_PATH_IN_CHECKOUT}`,
  ].join(' && ');
  return [...writes, apply];
}
