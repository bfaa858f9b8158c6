import { describeOutputFloodProbes } from './output-flood-probes.js';

describeOutputFloodProbes('bwrap', 'output-flood.probe.bwrap.test.ts');
