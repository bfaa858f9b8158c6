import { packageBuild } from '../../tsup.shared.ts';

// Three files: the package, the conformance suite (`@agentbench/sandbox/conformance`, the only one importing vitest),
// and the child process the suite's killed-host check starts with plain node.
export default packageBuild({
  entry: {
    index: 'src/index.ts',
    conformance: 'src/conformance/index.ts',
    'conformance-host': 'src/conformance/conformance-host.ts',
  },
  external: ['vitest'],
});
