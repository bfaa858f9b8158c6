export { startRun, createScenarioRun, type RunStart, type LoadedRun, type ScenarioRun } from './scenario-run.js';
export { loadStage, chooseAgentSpec, validateEvaluations, providerNotInstalledError } from './load-stage.js';
export { servicesStage } from './services-stage.js';
export { environmentStage } from './environment-stage.js';
export { agentStage } from './agent-stage.js';
export { judgeStage, type RunEvaluation } from './judge-stage.js';
export { stepsStage } from './steps-stage.js';
export { judgmentStage, type RunJudgment } from './judgment-stage.js';
export { resultStage } from './result-stage.js';
