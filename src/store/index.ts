// The run store: the only module that speaks SQL. Everything else goes through these typed
// functions, each taking the Store handle that openStore() returns.
export { openStore, inTransaction, /** @internal */ checkIntegrity, committed, isDiskFull, type Store } from './connection.js';
export { /** @internal */ loadMigrations, /** @internal */ defaultMigrationsDir } from './migrations.js';
export { createRun, finishRun, reopenRun, getRun, listRuns, updateRunManifest } from './runs.js';
export {
  startEpisode,
  finishEpisode,
  getEpisode,
  episodesForRun,
  finishedTaskIds,
  closeAbandonedEpisodes,
} from './episodes.js';
export { acquireRunLease, checkRunLease, renewRunLease, releaseRunLease, getRunLease, /** @internal */ type RunLease, type LeaseTakeover } from './leases.js';
export {
  recordModelCall,
  recordToolCall,
  /** @internal */ recordToolCalls,
  modelCallsForEpisode,
  imageTokensForRun,
  toolCallsForEpisode,
  getToolCall,
  /** @internal */ toImageRecord,
} from './calls.js';
export type { EpisodeImageTokens } from './calls.js';
export { runSummary } from './summary.js';
export { fallbackShare } from './fallback-share.js';
export { toolFacetsForRun } from './tool-facets.js';
export {
  openFallbackCache,
  putCacheEntry,
  scrubCacheEntries,
  findCacheEntry,
  cacheEntriesOfTool,
  allCacheEntries,
  cacheStats,
  cacheSourceSchema,
  type CacheEntry,
  type CacheSource,
  type CacheStatsRow,
  type PutOutcome,
} from './fallback-cache.js';
export {
  openResponseCache,
  findResponse,
  putResponse,
  allResponses,
  responseStats,
  type ResponseStatsRow,
} from './response-cache.js';
export type { EpisodeRow, RunRow } from './rows.js';
export { imageAuditOf, type ImageAudit } from './image-audit.js';
export { mergeRunShards, runTaskIds, type TableMergeCount } from './merge-shards.js';
export {
  recordProviderBatch,
  updateProviderBatch,
  settleProviderBatchRequest,
  pendingProviderBatchRequests,
  /** @internal */ providerBatchesOf,
} from './provider-batches.js';
