import { describeSandboxConformance } from '../src/conformance/index.js';
import { useBwrapTestContext } from './helpers/bwrap-test-context.js';
import { bundledConformanceHost } from './helpers/conformance-host-script.js';

const { skipReason, rootfs } = await useBwrapTestContext('conformance.bwrap.test.ts');

describeSandboxConformance({
  backend: 'bwrap',
  spec: { rootfs },
  skipReason,
  notKept: {
    absoluteLinksInsideFollowed: {
      why: "the file methods resolve links on the host, where an absolute target names the host's path, not the workspace's",
    },
  },
  ...(skipReason === undefined ? { hostScript: await bundledConformanceHost('bwrap') } : {}),
});
