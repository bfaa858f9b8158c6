import { MockedServiceError } from '../errors/mocked-service-error.js';
import { ScenarioRunnerError } from '../errors/scenario-runner-error.js';
import type { MockEngine } from '../mocks/mock-engine.js';
import type { ServiceCall } from '../mocks/mock-matching.js';
import { describeForTrajectory, type TrajectoryRecorder } from '../trajectory/trajectory-recorder.js';
import { parameterNames } from './service-definition.js';
import type { ServiceRegistry } from './service-registry.js';
import { isRecord } from '@agentbench/helpers';

/** A call as a caller writes it: positional `args`, named `input`, or both. */
export interface ServiceCallRequest {
  service: string;
  method: string;
  args?: readonly unknown[];
  input?: Record<string, unknown>;
  context?: Record<string, unknown>;
}

/** The error a failed call returns to the agent. */
export interface ServiceCallError {
  code: string;
  message: string;
  status?: number;
}

export type ServiceCallOutcome = { isOk: true; value: unknown } | { isOk: false; error: ServiceCallError };

/** One call as the result file records it. */
export interface ServiceCallRecord {
  service: string;
  method: string;
  args: unknown[];
  input: Record<string, unknown>;
  context: Record<string, unknown>;
  isMocked: boolean;
  mockIndex?: number;
  delayMs?: number;
  isOk: boolean;
  value?: unknown;
  error?: ServiceCallError;
  startedAt: string;
  durationMs: number;
}

/** The `tools` service's calls appear in trajectories under the bare tool name (`read_file`), as agents know them. */
export const TOOLS_SERVICE_NAME = 'tools';

export function actionName(service: string, method: string): string {
  return service === TOOLS_SERVICE_NAME ? method : `${service}.${method}`;
}

/**
 * The one door to the services for everything the agent under test does: each call goes through the
 * mock engine, then (unmocked) to the real method, and is recorded in the trajectory and the call log.
 * Failures of the service become error outcomes the agent sees; a broken scenario (a runaway mock
 * script) is also reported through `onRunError` so the run cannot pass.
 */
export class ServiceGateway {
  readonly calls: ServiceCallRecord[] = [];
  private readonly registry: ServiceRegistry;
  private readonly mocks: MockEngine;
  private readonly trajectory: TrajectoryRecorder;
  private readonly onRunError: (error: ScenarioRunnerError) => void;
  private readonly onWarning: (message: string) => void;
  /** Added to every call's context (`scenario`, `caller`). */
  baseContext: Record<string, unknown> = {};

  constructor(options: {
    registry: ServiceRegistry;
    mocks: MockEngine;
    trajectory: TrajectoryRecorder;
    onRunError: (error: ScenarioRunnerError) => void;
    onWarning?: (message: string) => void;
  }) {
    this.registry = options.registry;
    this.mocks = options.mocks;
    this.trajectory = options.trajectory;
    this.onRunError = options.onRunError;
    this.onWarning = options.onWarning ?? (() => undefined);
  }

  get services(): ServiceRegistry {
    return this.registry;
  }

  /** Fills in `args` from `input` and the other way round, by the method's declared parameter order. */
  normalize(request: ServiceCallRequest): ServiceCall {
    const method = this.registry.method(request.service, request.method);
    const names = method === undefined ? [] : parameterNames(method);
    let args = request.args === undefined ? undefined : [...request.args];
    let input = request.input === undefined ? undefined : { ...request.input };
    if (args === undefined && input !== undefined) {
      args = names.length > 0 ? names.map((name) => input?.[name]) : Object.values(input);
      while (args.length > 0 && args[args.length - 1] === undefined) args.pop();
    } else if (input === undefined && args !== undefined) {
      const positional = args;
      input = Object.fromEntries(names.flatMap((name, index) => (index < positional.length ? [[name, positional[index]] as const] : [])));
      // A single object argument of a method without declared parameters is its named input.
      if (names.length === 0 && positional.length === 1 && isRecord(positional[0])) input = { ...positional[0] };
    }
    const context = { ...this.baseContext, ...this.trajectory.current, ...(request.context ?? {}) };
    return { service: request.service, method: request.method, args: args ?? [], input: input ?? {}, context };
  }

  async call(request: ServiceCallRequest, signal?: AbortSignal): Promise<ServiceCallOutcome> {
    const call = this.normalize(request);
    const name = actionName(call.service, call.method);
    const startedAt = new Date();
    const action = this.trajectory.action(name, describeForTrajectory(Object.keys(call.input).length > 0 ? call.input : call.args), {
      service: call.service,
      method: call.method,
    });
    const record: ServiceCallRecord = {
      service: call.service,
      method: call.method,
      args: [...call.args],
      input: { ...call.input },
      context: { ...call.context },
      isMocked: false,
      isOk: false,
      startedAt: startedAt.toISOString(),
      durationMs: 0,
    };
    const outcome = await this.execute(call, record, signal);
    record.durationMs = Date.now() - startedAt.getTime();
    record.isOk = outcome.isOk;
    if (outcome.isOk) record.value = outcome.value;
    else record.error = outcome.error;
    action.success = outcome.isOk;
    action.details = { ...action.details, isMocked: record.isMocked, ...(record.mockIndex === undefined ? {} : { mockIndex: record.mockIndex }) };
    this.trajectory.observation(name, outcome.isOk ? describeForTrajectory(outcome.value) : `error ${outcome.error.code}: ${outcome.error.message}`, outcome.isOk, {
      isMocked: record.isMocked,
      durationMs: record.durationMs,
      ...(record.delayMs === undefined ? {} : { delayMs: record.delayMs }),
    });
    this.calls.push(record);
    return outcome;
  }

  private async execute(call: ServiceCall, record: ServiceCallRecord, signal?: AbortSignal): Promise<ServiceCallOutcome> {
    const method = this.registry.method(call.service, call.method);
    if (method === undefined) {
      const known = this.registry.hasService(call.service)
        ? `methods of ${call.service}: ${this.registry.methodNames(call.service).join(', ')}`
        : `services: ${this.registry.serviceNames().join(', ') || 'none'}`;
      return { isOk: false, error: { code: 'UNKNOWN_METHOD', message: `no service method ${call.service}.${call.method} (${known})` } };
    }
    try {
      const interception = await this.mocks.intercept(call, signal);
      for (const problem of interception.matcherErrors) this.onWarning(`${problem.message} (counted as no match)`);
      if (interception.isMocked && interception.outcome !== undefined) {
        record.isMocked = true;
        if (interception.mockIndex !== undefined) record.mockIndex = interception.mockIndex;
        if (interception.delayMs !== undefined) record.delayMs = interception.delayMs;
        if ('error' in interception.outcome) {
          const { code, message, status } = interception.outcome.error;
          return { isOk: false, error: status === undefined ? { code, message } : { code, message, status } };
        }
        return { isOk: true, value: interception.outcome.value };
      }
      if (method.handler === undefined) {
        const error = new ScenarioRunnerError(
          'service_call',
          `${call.service}.${call.method} has no implementation here and no mock matched this call (input ${describeForTrajectory(call.input)}); add a mock for it`,
        );
        this.onWarning(error.message);
        return { isOk: false, error: { code: 'NOT_MOCKED', message: error.message } };
      }
      const value = await method.handler(call, signal);
      return { isOk: true, value: value === undefined ? null : value };
    } catch (error) {
      if (MockedServiceError.isInstance(error)) {
        return { isOk: false, error: error.status === undefined ? { code: error.code, message: error.message } : { code: error.code, message: error.message, status: error.status } };
      }
      if (ScenarioRunnerError.isInstance(error) && (error.kind === 'mock_script_timeout' || error.kind === 'mock_script' || error.kind === 'internal')) {
        this.onRunError(error);
        return { isOk: false, error: { code: 'MOCK_FAILED', message: error.message } };
      }
      const message = error instanceof Error ? error.message : String(error);
      const code = isRecord(error) && typeof error['code'] === 'string' ? error['code'] : 'SERVICE_ERROR';
      return { isOk: false, error: { code, message } };
    }
  }
}
