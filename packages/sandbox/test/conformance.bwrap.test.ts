import { describeSandboxConformance } from '../src/conformance/index.js';
import { useBwrapTestContext } from './helpers/bwrap-test-context.js';
import { bundledConformanceHost } from './helpers/conformance-host-script.js';

const { skipReason, rootfs } = await useBwrapTestContext('conformance.bwrap.test.ts');

describeSandboxConformance({
  backend: 'bwrap',
  spec: { rootfs },
  skipReason,
  ...(skipReason === undefined ? { hostScript: await bundledConformanceHost('bwrap') } : {}),
});
