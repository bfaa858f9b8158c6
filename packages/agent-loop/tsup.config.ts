import { cp } from 'node:fs/promises';
import { packageBuild } from '../../tsup.shared.ts';

export default packageBuild({
  // The system prompt is read at runtime from next to the module (one source: src/llm/prompts/*.md).
  onSuccess: async () => {
    await cp('src/llm/prompts', 'dist/prompts', { recursive: true });
  },
});
