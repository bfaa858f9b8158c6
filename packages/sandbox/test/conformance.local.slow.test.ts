import { describeSandboxConformance } from '../src/conformance/index.js';
import { bundledConformanceHost } from './helpers/conformance-host-script.js';

// The local backend keeps no isolation promise: the suite checks what local documents instead
// (the host's network, files and engine are there; limits are ignored; a killed host leaves its commands running).
describeSandboxConformance({
  backend: 'local',
  backendOptions: { isWarningSilenced: true },
  hostScript: await bundledConformanceHost('local'),
});
