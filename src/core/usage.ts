export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
}

export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cachedTokens: 0 };
}

export function addUsage(total: Usage, more: Usage): Usage {
  return {
    inputTokens: total.inputTokens + more.inputTokens,
    outputTokens: total.outputTokens + more.outputTokens,
    cachedTokens: total.cachedTokens + more.cachedTokens,
  };
}
