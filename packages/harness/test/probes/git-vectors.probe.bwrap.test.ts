import { describeGitVectorProbes } from './trust-boundary-probes.js';

describeGitVectorProbes('bwrap', 'git-vectors.probe.bwrap.test.ts');
