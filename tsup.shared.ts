// Shared tsup settings: every package builds ESM for Node 20 with source maps, libraries
// with declarations. A package's tsup.config.ts passes only what differs.
import { defineConfig, type Options } from 'tsup';

export function packageBuild(overrides: Options = {}): ReturnType<typeof defineConfig> {
  return defineConfig({
    entry: ['src/index.ts'],
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    ...overrides,
  });
}
