import { describeValue } from '@agentbench/helpers';
import { FakeLlmServerError } from '../errors/fake-llm-server-error.js';
import { isRecord } from '@agentbench/helpers';
import type { FakeLlmServerOptions } from './fake-llm-server-options.js';

/** Fails with a FakeLlmServerError naming the first option that has the wrong type. */
export function checkServerOptions(options: FakeLlmServerOptions): void {
  if (!isRecord(options)) throw new FakeLlmServerError(`options: expected an object, found ${describeValue(options)}`);
  const { port, host, script, models, onRequest } = options;
  if (port !== undefined && (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535)) {
    throw new FakeLlmServerError(`options.port: expected an integer from 0 to 65535, found ${describeValue(port)}`);
  }
  if (host !== undefined && (typeof host !== 'string' || host === '')) {
    throw new FakeLlmServerError(`options.host: expected a host name or address, found ${describeValue(host)}`);
  }
  if (script !== undefined && typeof script !== 'function' && !Array.isArray(script)) {
    throw new FakeLlmServerError(`options.script: expected an array of replies or a function (request) => reply, found ${describeValue(script)}`);
  }
  if (models !== undefined && (!Array.isArray(models) || models.some((model) => typeof model !== 'string' || model === ''))) {
    throw new FakeLlmServerError(`options.models: expected an array of model names, found ${describeValue(models)}`);
  }
  if (onRequest !== undefined && typeof onRequest !== 'function') {
    throw new FakeLlmServerError(`options.onRequest: expected a function, found ${describeValue(onRequest)}`);
  }
}
