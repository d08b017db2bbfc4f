// The mock LLM server for provider, CLI, script and demo tests (see server.ts).
export { keyFingerprint, startMockLlm, type MockLlm, type MockLlmOptions, type RecordedRequest } from './server.js';
export { loadMockScript, parseMockScript, type MockFault, type MockScript, type MockToolCall, type MockTurn } from './script.js';
export { mockEmbedding } from './wire-openai.js';
