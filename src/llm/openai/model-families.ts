// What OpenAI's reasoning models refuse, by model family. The o-series (o1, o3, o3-mini,
// o4-mini, ...) rejects `parallel_tool_calls`; every reasoning model (o-series, gpt-5 except the
// gpt-5-chat variants) rejects a non-default `temperature`, and the Responses API gives it
// encrypted reasoning (`include: ["reasoning.encrypted_content"]`), which other models refuse.
// Models this table does not know are still handled: the driver drops a parameter the API
// names as unsupported and retries once (see driver.ts).

export function isReasoningModel(model: string): boolean {
  const name = model.toLowerCase();
  return /^o\d/.test(name) || (/^gpt-5/.test(name) && !/^gpt-5[\w.-]*-chat/.test(name));
}

export function refusesParallelToolCalls(model: string): boolean {
  return /^o\d/.test(model.toLowerCase());
}
