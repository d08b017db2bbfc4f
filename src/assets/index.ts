// Downloaded assets (models, test photos): manifest, pull from a mirror or URL, verify, resolve.
export {
  AssetError,
  assetManifestSchema,
  defaultAssetsDir,
  defaultManifestFile,
  encoderManifestFile,
  loadAssetManifest,
  parseAssetManifest,
  selectAssets,
  UNVERIFIED,
  type Asset,
  type AssetManifest,
} from './manifest.js';
export {
  AssetPullError,
  assetPath,
  pullAssets,
  verifyAssets,
  type AssetCheck,
  type AssetLocation,
  type AssetStatus,
  type PullAction,
  type PullOptions,
  type PullResult,
} from './pull.js';
export { sha256File } from './transfer.js';
export { buildEncoderManifest } from './encoders.js';
