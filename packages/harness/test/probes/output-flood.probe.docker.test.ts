import { describeOutputFloodProbes } from './output-flood-probes.js';

describeOutputFloodProbes('docker', 'output-flood.probe.docker.test.ts');
