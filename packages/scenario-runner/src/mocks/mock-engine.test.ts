import type { Mock } from '@agentbench/schemas';
import { afterAll, describe, expect, it } from 'vitest';
import { MockedServiceError } from '../errors/mocked-service-error.js';
import { createSeededRandom } from '../random/seeded-random.js';
import { IsolatedScriptRunner } from './isolated-script-runner.js';
import { MockEngine, type ServiceCatalog } from './mock-engine.js';
import { mockSpecificity, type ServiceCall } from './mock-matching.js';

const scripts = new IsolatedScriptRunner({ timeoutMs: 1000 }); // wall-clock: room for a loaded CI machine
afterAll(() => scripts.close());

function engine(mocks: Mock[], options: { seed?: number; isLive?: boolean; delays?: number[] } = {}): MockEngine {
  return new MockEngine(mocks, {
    random: createSeededRandom(options.seed ?? 1),
    scripts,
    isLive: options.isLive ?? false,
    wait: async (milliseconds) => {
      options.delays?.push(milliseconds);
    },
  });
}

function call(partial: Partial<ServiceCall> & Pick<ServiceCall, 'service' | 'method'>): ServiceCall {
  return { args: [], input: {}, context: {}, ...partial };
}

async function answer(mockEngine: MockEngine, serviceCall: ServiceCall): Promise<unknown> {
  const interception = await mockEngine.intercept(serviceCall);
  if (!interception.isMocked || interception.outcome === undefined) return 'REAL';
  if ('error' in interception.outcome) throw interception.outcome.error;
  return interception.outcome.value;
}

describe('mock matching', () => {
  it('prefers the conditional mock over the generic one whatever their order', async () => {
    const generic: Mock = { service: 'github', method: 'searchIssues', response: 'generic' };
    const conditional: Mock = { service: 'github', method: 'searchIssues', when: { args: ['elizaos/eliza'] }, response: 'conditional' };
    for (const mocks of [[generic, conditional], [conditional, generic]]) {
      const mockEngine = engine(mocks);
      expect(await answer(mockEngine, call({ service: 'github', method: 'searchIssues', args: ['elizaos/eliza'] }))).toBe('conditional');
      expect(await answer(mockEngine, call({ service: 'github', method: 'searchIssues', args: ['other/repo'] }))).toBe('generic');
    }
  });

  it('matches exact args, input keys, context keys and partial args', async () => {
    const mockEngine = engine([
      { service: 's', method: 'm', when: { args: [10, 20] }, response: 'args' },
      { service: 's', method: 'm', when: { input: { type: 'user', action: 'create' } }, response: 'input' },
      { service: 's', method: 'm', when: { context: { user_id: '123' } }, response: 'context' },
      { service: 's', method: 'm', when: { partialArgs: ['needle'] }, response: 'partial' },
    ]);
    expect(await answer(mockEngine, call({ service: 's', method: 'm', args: [10, 20] }))).toBe('args');
    expect(await answer(mockEngine, call({ service: 's', method: 'm', args: [10, 20, 30] }))).toBe('REAL');
    expect(await answer(mockEngine, call({ service: 's', method: 'm', input: { type: 'user', action: 'create', extra: 1 } }))).toBe('input');
    expect(await answer(mockEngine, call({ service: 's', method: 'm', input: { type: 'user', action: 'delete' } }))).toBe('REAL');
    expect(await answer(mockEngine, call({ service: 's', method: 'm', context: { user_id: '123' } }))).toBe('context');
    expect(await answer(mockEngine, call({ service: 's', method: 'm', args: ['a', 'needle', 'b'] }))).toBe('partial');
  });

  it('ranks by specificity: more constrained values win, then declaration order', () => {
    expect(mockSpecificity({})).toBe(0);
    expect(mockSpecificity({ when: { input: { a: 1 } } })).toBe(1);
    expect(mockSpecificity({ when: { input: { a: 1 }, matcher: 'true' } })).toBe(2);
    expect(mockSpecificity({ when: { args: [1, 2] } })).toBe(3);
  });

  it('evaluates matcher expressions in isolation', async () => {
    const mockEngine = engine([
      { service: 'github', method: 'searchIssues', when: { matcher: "input.labels.includes('bug')" }, response: 'bugs' },
      { service: 'github', method: 'searchIssues', response: 'fallback' },
    ]);
    expect(await answer(mockEngine, call({ service: 'github', method: 'searchIssues', input: { labels: ['bug'] } }))).toBe('bugs');
    // No labels: the matcher throws a TypeError, which counts as no match.
    const interception = await mockEngine.intercept(call({ service: 'github', method: 'searchIssues' }));
    expect(interception.mockIndex).toBe(1);
    expect(interception.matcherErrors[0]?.message).toMatch(/setup.mocks\[0\].when.matcher: TypeError/);
  });

  it('computes responseFn answers from the call', async () => {
    const mockEngine = engine([{ service: 'test', method: 'calculate', when: { args: [10, 20] }, responseFn: 'return { result: args[0] + args[1] }' }]);
    expect(await answer(mockEngine, call({ service: 'test', method: 'calculate', args: [10, 20] }))).toEqual({ result: 30 });
  });

  it('throws the configured error with code, message and status', async () => {
    const mockEngine = engine([{ service: 'github', method: 'readFile', error: { code: 'FILE_NOT_FOUND', message: 'File does not exist', status: 404 } }]);
    const error = await answer(mockEngine, call({ service: 'github', method: 'readFile' })).catch((thrown: unknown) => thrown);
    expect(MockedServiceError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'FILE_NOT_FOUND', message: 'File does not exist', status: 404 });
  });

  it('waits the configured delay before answering', async () => {
    const delays: number[] = [];
    const mockEngine = engine([{ service: 'github', method: 'getRepository', response: { name: 'slow' }, metadata: { delay: 2000 } }], { delays });
    const interception = await mockEngine.intercept(call({ service: 'github', method: 'getRepository' }));
    expect(delays).toEqual([2000]);
    expect(interception.delayMs).toBe(2000);
  });

  it('applies a mock with a probability according to the seeded draws, reproducibly', async () => {
    const mocks: Mock[] = [{ service: 'evm', method: 'sendTransaction', error: { code: 'TRANSACTION_FAILED', message: 'Random network failure' }, metadata: { probability: 0.3 } }];
    const outcomes = async (seed: number): Promise<boolean[]> => {
      const mockEngine = engine(mocks, { seed });
      const results: boolean[] = [];
      for (let index = 0; index < 200; index += 1) results.push((await mockEngine.intercept(call({ service: 'evm', method: 'sendTransaction' }))).isMocked);
      return results;
    };
    const first = await outcomes(1234);
    expect(await outcomes(1234)).toEqual(first);
    expect(await outcomes(999)).not.toEqual(first);
    const share = first.filter(Boolean).length / first.length;
    expect(share).toBeGreaterThan(0.2);
    expect(share).toBeLessThan(0.4);
  });

  it('ignores every mock in live mode', async () => {
    const mockEngine = engine([{ service: 'github', method: 'searchIssues', response: 'mocked' }], { isLive: true });
    expect(await answer(mockEngine, call({ service: 'github', method: 'searchIssues' }))).toBe('REAL');
  });
});

describe('mock configuration', () => {
  const catalog: ServiceCatalog = {
    hasService: (service) => service === 'database',
    hasMethod: (service, method) => service === 'database' && method === 'query',
    servicesWithMethod: (method) => (method === 'query' ? ['database'] : []),
    serviceNames: () => ['database'],
    methodNames: () => ['query'],
  };

  it('names unknown services, unknown methods and scripts that do not compile', () => {
    const problems = engine([
      { service: 'github-service', method: 'searchIssues', response: [] },
      { service: 'database', method: 'drop', response: [] },
      { method: 'nothing' },
      { service: 'database', method: 'query', when: { matcher: 'args[0] ===' } },
    ]).configurationProblems(catalog);
    expect(problems).toEqual([
      'setup.mocks[0].service: unknown service "github-service" (services: database)',
      'setup.mocks[1].method: service "database" has no method "drop" (methods: query)',
      'setup.mocks[2].method: no service has a method "nothing"; name the service with `service:`',
      expect.stringMatching(/^setup.mocks\[3\].when.matcher: does not compile: /),
    ]);
  });
});
