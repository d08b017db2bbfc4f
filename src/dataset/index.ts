// The original M3-Bench dataset: pull it from the Hugging Face Hub, verify what is on disk.
export { DatasetError, type DatasetFailure } from './dataset-error.js';
export {
  defaultDatasetRepo,
  defaultImageDir,
  defaultJsonDir,
  lockFileName,
  originalTaskFiles,
  runImageDirFor,
  type DatasetLayout,
} from './layout.js';
export { DatasetPullError, pullDataset, type DatasetPullOptions, type DatasetPullResult, type FileOutcome, type PullEvent } from './pull.js';
export { verifyDataset, type DatasetVerifyOptions, type DatasetVerifyReport } from './verify.js';
export { formatVerifyReport } from './verify-report.js';
