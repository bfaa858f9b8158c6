import { describeKeptFileProbes } from './trust-boundary-probes.js';

describeKeptFileProbes('docker', 'kept-files.probe.docker.test.ts');
