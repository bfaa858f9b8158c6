import { packageBuild } from '../../tsup.shared.ts';

export default packageBuild({
  // The library, and the `fake-llm-server` command (bin) as a separate entry.
  entry: { index: 'src/index.ts', cli: 'src/cli/bin.ts' },
  dts: { entry: { index: 'src/index.ts' } },
});
