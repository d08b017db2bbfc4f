// Downloaded assets (models, test photos): manifest, pull from a mirror or URL, verify, resolve.
export {
  /** @internal */ AssetError,
  defaultAssetsDir,
  defaultManifestFile,
  /** @internal */ encoderManifestFile,
  loadAssetManifest,
  /** @internal */ parseAssetManifest,
  /** @internal */ selectAssets,
  /** @internal */ UNVERIFIED,
  visionModelManifestFile,
  /** @internal */ type AssetManifest,
} from './manifest.js';
export {
  /** @internal */ AssetPullError,
  assetPath,
  pullAssets,
  verifyAssets,
  type AssetLocation,
  type PullResult,
} from './pull.js';
export { /** @internal */ buildEncoderManifest } from './encoders.js';
