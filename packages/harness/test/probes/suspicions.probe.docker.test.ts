import { describeSuspicionProbes } from './suspicion-probes.js';

describeSuspicionProbes('docker', 'suspicions.probe.docker.test.ts', { withPassThrough: true });
