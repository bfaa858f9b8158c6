export { isStandardSchema, type StandardSchemaV1 } from './standard-schema.js';
export { parameterIssues, validateParameters, type ParameterIssueOptions, type ParameterValidation } from './validate-parameters.js';
