import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { EXECUTOR_SCRIPT } from './executor-script.js';

describe('executor script', () => {
  it('is the exact content of executor.py (regenerate with node src/executor/generate-executor-script.mjs)', async () => {
    const source = await readFile(new URL('./executor.py', import.meta.url), 'utf8');
    expect(EXECUTOR_SCRIPT === source, 'executor-script.ts is stale: run `node src/executor/generate-executor-script.mjs`').toBe(true);
  });
});
