import { cp } from 'node:fs/promises';
import { packageBuild } from '../../tsup.shared.ts';

export default packageBuild({
  // `internal` holds helpers other @agentbench packages share (see src/internal.ts); not user API.
  entry: ['src/index.ts', 'src/internal.ts'],
  // The system prompt is read at runtime from next to the module (one source: src/llm/prompts/*.md).
  onSuccess: async () => {
    await cp('src/llm/prompts', 'dist/prompts', { recursive: true });
  },
});
