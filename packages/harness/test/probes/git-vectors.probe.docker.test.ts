import { describeGitVectorProbes } from './trust-boundary-probes.js';

describeGitVectorProbes('docker', 'git-vectors.probe.docker.test.ts');
