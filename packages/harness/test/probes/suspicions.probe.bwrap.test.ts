import { describeSuspicionProbes } from './suspicion-probes.js';

describeSuspicionProbes('bwrap', 'suspicions.probe.bwrap.test.ts', { withPassThrough: false });
