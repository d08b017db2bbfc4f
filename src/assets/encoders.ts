// The reference's text encoders as manifest entries: the sentence-transformers folders (ONNX
// export, tokenizer, pooling and normalisation config) that evaluate_trajectories.py
// (all-MiniLM-L6-v2) and evaluate_cv.sh (bge-small-en-v1.5) load. Each file is pinned to a Hugging
// Face commit; sizes and sha256 values were taken from public repositories that pin the same
// files (several agree on each); the three bge config files for which no public pin was found
// are declared "unverified" (pull reports the hash it received so it can be pinned). They live in
// their own manifest, media/encoders.json (written from this table by
// `npx tsx tools/build-encoder-manifest.ts`), so a plain `m3 assets pull` (CI, npm run bench)
// never needs them: `m3 assets pull --manifest media/encoders.json` fetches them.
import path from 'node:path';
import { defaultAssetsDir, parseAssetManifest, UNVERIFIED, type Asset, type AssetManifest } from './manifest.js';

interface EncoderFile {
  path: string;
  bytes: number | typeof UNVERIFIED;
  sha256: string;
}

export interface ReferenceEncoder {
  /** The name the reference passes to SentenceTransformer(...); also the embedder id. */
  id: string;
  /** Folder under media/assets/models/encoders/. */
  folder: string;
  revision: string;
  license: string;
  usedBy: string;
  files: EncoderFile[];
}

const referenceEncoders: readonly ReferenceEncoder[] = [
  {
    id: 'sentence-transformers/all-MiniLM-L6-v2',
    folder: 'all-MiniLM-L6-v2',
    revision: '1110a243fdf4706b3f48f1d95db1a4f5529b4d41',
    license: 'Apache-2.0 (model card of sentence-transformers/all-MiniLM-L6-v2)',
    usedBy: 'the step evaluator of the reference (evaluate_trajectories.py --model default)',
    files: [
      { path: 'onnx/model.onnx', bytes: 90_405_214, sha256: '6fd5d72fe4589f189f8ebc006442dbb529bb7ce38f8082112682524616046452' },
      { path: 'tokenizer.json', bytes: 466_247, sha256: 'be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037' },
      { path: 'tokenizer_config.json', bytes: 350, sha256: 'acb92769e8195aabd29b7b2137a9e6d6e25c476a4f15aa4355c233426c61576b' },
      { path: 'config.json', bytes: 612, sha256: '953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41' },
      { path: 'modules.json', bytes: 349, sha256: '84e40c8e006c9b1d6c122e02cba9b02458120b5fb0c87b746c41e0207cf642cf' },
      { path: 'sentence_bert_config.json', bytes: 53, sha256: 'fc1993fde0a95c24ec6c022539d41cf6e2f7c9721e5415d6fb6897472a9cd4b7' },
      { path: '1_Pooling/config.json', bytes: 190, sha256: '4be450dde3b0273bb9787637cfbd28fe04a7ba6ab9d36ac48e92b11e350ffc23' },
    ],
  },
  {
    id: 'BAAI/bge-small-en-v1.5',
    folder: 'bge-small-en-v1.5',
    revision: '5c38ec7c405ec4b44b94cc5a9bb96e735b38267a',
    license: 'MIT (model card of BAAI/bge-small-en-v1.5)',
    usedBy: 'the 2026 CV evaluator of the reference (scripts/evaluate_cv.sh --model)',
    files: [
      { path: 'onnx/model.onnx', bytes: 133_093_490, sha256: '828e1496d7fabb79cfa4dcd84fa38625c0d3d21da474a00f08db0f559940cf35' },
      { path: 'tokenizer.json', bytes: 711_396, sha256: 'd241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66' },
      { path: 'tokenizer_config.json', bytes: 366, sha256: '9261e7d79b44c8195c1cada2b453e55b00aeb81e907a6664974b4d7776172ab3' },
      { path: 'config.json', bytes: 743, sha256: '094f8e891b932f2000c92cfc663bac4c62069f5d8af5b5278c4306aef3084750' },
      { path: 'modules.json', bytes: UNVERIFIED, sha256: UNVERIFIED },
      { path: 'sentence_bert_config.json', bytes: UNVERIFIED, sha256: UNVERIFIED },
      { path: '1_Pooling/config.json', bytes: UNVERIFIED, sha256: UNVERIFIED },
    ],
  },
];

const encodersRoot = path.join('models', 'encoders');

/** Manifest entries for every file of every reference encoder. */
function encoderAssets(): Asset[] {
  return referenceEncoders.flatMap((encoder) =>
    encoder.files.map((file) => {
      const relative = path.posix.join('models/encoders', encoder.folder, file.path);
      const unpinned = file.sha256 === UNVERIFIED;
      return {
        name: `encoders/${encoder.folder}/${file.path}`.toLowerCase(),
        kind: 'model' as const,
        path: relative,
        mirrorPath: relative,
        url: `https://huggingface.co/${encoder.id}/resolve/${encoder.revision}/${file.path}`,
        sha256: file.sha256,
        bytes: file.bytes,
        license: encoder.license,
        source: { repo: encoder.id, path: file.path, commit: encoder.revision },
        description: `${file.path} of the sentence-transformers folder ${encoder.id} (Hugging Face), for ${encoder.usedBy}; run in-process with onnxruntime-node.`,
        ...(unpinned
          ? { note: 'No public pin of this file was found: sha256 and size are "unverified"; `m3 assets pull` reports the sha256 it received.' }
          : {}),
      };
    }),
  );
}

/** The content of media/encoders.json. */
export function buildEncoderManifest(): AssetManifest {
  return parseAssetManifest(
    {
      version: 1,
      description:
        'The reference text encoders (sentence-transformers folders with an ONNX export) for the step and CV evaluators, pulled by `m3 assets pull --manifest media/encoders.json` into media/assets/models/encoders/. Generated from src/assets/encoders.ts by tools/build-encoder-manifest.ts.',
      assets: encoderAssets(),
    },
    'media/encoders.json',
  );
}

/** Where the folder of a reference encoder lands (whether or not it was pulled). */
export function encoderDir(encoder: ReferenceEncoder, assetsDir: string = defaultAssetsDir): string {
  return path.join(assetsDir, encodersRoot, encoder.folder);
}

export function findReferenceEncoder(id: string): ReferenceEncoder | undefined {
  return referenceEncoders.find((encoder) => encoder.id.toLowerCase() === id.toLowerCase() || encoder.folder.toLowerCase() === id.toLowerCase());
}
