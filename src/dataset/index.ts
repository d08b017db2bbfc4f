// The original M3-Bench dataset: pull it from the Hugging Face Hub, verify what is on disk.
export { DatasetError } from './dataset-error.js';
export {
  defaultDatasetRepo,
  defaultImageDir,
  defaultJsonDir,
  lockFileName,
  originalTaskFiles,
  runImageDirFor,
} from './layout.js';
export { /** @internal */ DatasetPullError, pullDataset, /** @internal */ type DatasetPullOptions, type PullEvent } from './pull.js';
export { verifyDataset } from './verify.js';
export { formatVerifyReport } from './verify-report.js';
