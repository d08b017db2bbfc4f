// Downloaded assets (models, test photos): manifest, pull from a mirror or URL, verify, resolve.
export {
  AssetError,
  defaultAssetsDir,
  defaultManifestFile,
  encoderManifestFile,
  loadAssetManifest,
  parseAssetManifest,
  selectAssets,
  UNVERIFIED,
  visionModelManifestFile,
  type AssetManifest,
} from './manifest.js';
export {
  AssetPullError,
  assetPath,
  pullAssets,
  verifyAssets,
  type AssetLocation,
  type PullResult,
} from './pull.js';
export { buildEncoderManifest } from './encoders.js';
