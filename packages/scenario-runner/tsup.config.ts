import { packageBuild } from '../../tsup.shared.ts';

// `bench-entry` gives the package's bench an internal it measures (see src/bench-entry.ts); not in the exports map.
export default packageBuild({ entry: ['src/index.ts', 'src/bench-entry.ts'] });
