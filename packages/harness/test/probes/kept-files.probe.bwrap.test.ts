import { describeKeptFileProbes } from './trust-boundary-probes.js';

describeKeptFileProbes('bwrap', 'kept-files.probe.bwrap.test.ts');
