import { errorBody } from './openai-error-body.js';
import { sendError, sendJson } from '../send-response.js';
import type { EndpointHandler } from './endpoint-context.js';

export const MODELS_PATH = '/v1/models';

function modelObject(id: string): Record<string, unknown> {
  return { id, object: 'model', created: 0, owned_by: 'fake-llm-server' };
}

/** `GET /v1/models`: the `models` option as a model list. */
export const handleModelList: EndpointHandler = (response, { record }, context) => {
  record.outcome = 'listed_models';
  sendJson(response, record, 200, { object: 'list', data: context.models.map(modelObject) });
};

/** `GET /v1/models/{id}`: one of the `models`, or a 404 listing them. */
export const handleModel: EndpointHandler = (response, { record }, context) => {
  const id = decodeURIComponent(record.path.slice(MODELS_PATH.length + 1));
  if (context.models.includes(id)) {
    record.outcome = 'listed_models';
    sendJson(response, record, 200, modelObject(id));
  } else {
    const message = `fake-llm-server: the model ${JSON.stringify(id)} does not exist; served: ${context.models.join(', ')}`;
    sendError(response, record, 'not_found', 404, errorBody(message, 'invalid_request_error', 'model_not_found'));
  }
};
