import { packageBuild } from '../../tsup.shared.ts';

// `internal` holds helpers other @agentbench packages share (see src/internal.ts); not user API.
export default packageBuild({ entry: ['src/index.ts', 'src/internal.ts'] });
