export { McpHost, defaultCallTimeoutMs, defaultStartupTimeoutMs, type HostOptions } from './host.js';
export { FunctionNameTable, toBaseFunctionName, isValidFunctionName, maxFunctionNameLength } from './function-names.js';
export { normalizeContent, toResultText, describeContent } from './normalize-content.js';
export { createChildEnv, baseEnvNames } from './child-env.js';
export { defaultRestartPolicy, type RestartPolicy } from './server-connection.js';
export * from './types.js';
export { smokeTests, runSmokeTest, type SmokeTest, type SmokeResult } from './smoke-tests.js';
