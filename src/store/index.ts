// The run store: the only module that speaks SQL. Everything else goes through these typed
// functions, each taking the Store handle that openStore() returns.
export { openStore, inTransaction, checkIntegrity, defaultBusyTimeoutMs, type Store, type OpenStoreOptions } from './connection.js';
export { loadMigrations, defaultMigrationsDir, type Migration } from './migrations.js';
export { createRun, finishRun, reopenRun, getRun, listRuns, updateRunManifest, type ListRunsOptions } from './runs.js';
export { startEpisode, finishEpisode, getEpisode, episodesForRun, finishedTaskIds, failureKindOf, closeAbandonedEpisodes, type EpisodeFilter } from './episodes.js';
export { acquireRunLease, checkRunLease, renewRunLease, releaseRunLease, getRunLease, type LeaseOwner, type RunLease, type LeaseTakeover } from './leases.js';
export { recordModelCall, recordToolCall, recordToolCalls, modelCallsForEpisode, toolCallsForEpisode, getToolCall, toImageRecord } from './calls.js';
export { runSummary, type RunSummary, type EpisodeTotals, type StatusCounts } from './summary.js';
export { fallbackShare, type FallbackShare } from './fallback-share.js';
export {
  openFallbackCache,
  putCacheEntry,
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
export type { EpisodeRow, ModelCallRow, RunRow, ToolCallRow } from './rows.js';
export type {
  EpisodeFinish,
  EpisodeStart,
  EpisodeStatus,
  FailureKind,
  FinalEpisodeStatus,
  ImageRecord,
  ModelCallInput,
  RunInput,
  RunStatus,
  ToolCallInput,
} from './schemas.js';
