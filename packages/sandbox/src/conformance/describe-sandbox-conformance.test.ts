import { describe, expect, it } from 'vitest';
import { describeSandboxConformance } from './describe-sandbox-conformance.js';

describe('describeSandboxConformance', () => {
  it('refuses options without a backend name or with a create that is not a function, saying what it expected', () => {
    expect(() => describeSandboxConformance({ backend: '' })).toThrow('describeSandboxConformance: options.backend: expected a backend name such as "docker", found ""');
    expect(() => describeSandboxConformance({ backend: 'mine', create: 'factory' as never })).toThrow(
      'describeSandboxConformance: options.create: expected a function (spec) => Promise<Sandbox>, found string',
    );
  });
});
