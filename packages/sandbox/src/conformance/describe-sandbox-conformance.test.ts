import { describe, expect, it } from 'vitest';
import { describeSandboxConformance } from './describe-sandbox-conformance.js';

describe('describeSandboxConformance', () => {
  it('refuses options without a backend name or with a create that is not a function, saying what it expected', () => {
    expect(() => describeSandboxConformance({ backend: '' })).toThrow('describeSandboxConformance: options.backend: expected a backend name such as "docker", found ""');
    expect(() => describeSandboxConformance({ backend: 'mine', create: 'factory' as never })).toThrow(
      'describeSandboxConformance: options.create: expected a function (spec) => Promise<Sandbox>, found string',
    );
  });

  it('refuses a notKept declaration of an unknown promise, without the documented behaviour, or without the error pattern', () => {
    expect(() => describeSandboxConformance({ backend: 'mine', notKept: { isolation: { why: 'x' } } as never })).toThrow(
      'describeSandboxConformance: options.notKept: "isolation" is not a promise that may be declared not kept; expected one of memoryLimitEndsOnlyTheCommand, pidsLimitEndsOnlyTheCommand, networkReconnects, absoluteLinksInsideFollowed',
    );
    expect(() => describeSandboxConformance({ backend: 'mine', notKept: { absoluteLinksInsideFollowed: { why: '' } } })).toThrow(
      'describeSandboxConformance: options.notKept.absoluteLinksInsideFollowed.why: expected the documented behaviour as text',
    );
    expect(() => describeSandboxConformance({ backend: 'mine', notKept: { networkReconnects: { why: 'no network', refusal: 'refused' as never } } })).toThrow(
      'describeSandboxConformance: options.notKept.networkReconnects.refusal: expected a RegExp the error message matches',
    );
  });
});
