/** Sampling settings sent with every request; unset ones are left to the provider. */
export interface SamplingOptions {
  temperature?: number;
  topP?: number;
  maxOutputTokens?: number;
}
