import { packageBuild } from '../../tsup.shared.ts';

// A command, not a library: no declarations.
export default packageBuild({ entry: ['src/bin.ts'], dts: false });
