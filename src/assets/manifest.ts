// The asset manifest (media/assets.json): every downloaded file the project uses (the YOLOX
// model, test photos), with where it comes from, where it lands and its sha256. This is the
// seam between the code and the files that are not committed: pull, verify and assetPath all
// read it, and nothing is placed on disk without matching its hash.
// A file that is declared but cannot be pinned yet carries "sha256": "unverified" (and
// "bytes": "unverified" when its size is unknown too): the upstream hash could not be confirmed
// from a public source, so pull accepts whatever arrives and reports the sha256 it saw (to pin
// it), and verify reports the file as "unverified", never as "ok". Besides media/assets.json
// (model and photos, all pinned) there is media/encoders.json, the reference text encoders,
// pulled with `m3 assets pull --manifest media/encoders.json` (see src/assets/encoders.ts), and
// media/vision-models.json, optional detector models (`--manifest media/vision-models.json`).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { fromRepo } from '../config/paths.js';
import { formatIssues } from '../config/zod-issues.js';
import { M3Error } from '../errors/index.js';

/** A missing, corrupted or unknown asset, or a bad manifest. Stops the command that needed it. */
export class AssetError extends M3Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super('asset', message, options);
  }
}

export const defaultManifestFile = fromRepo('media', 'assets.json');
export const defaultAssetsDir = fromRepo('media', 'assets');
export const encoderManifestFile = fromRepo('media', 'encoders.json');
/** Optional detector models for online users (servers/yolo: the pose model). */
export const visionModelManifestFile = fromRepo('media', 'vision-models.json');

const relativePath = z
  .string()
  .min(1, 'expected a non-empty path')
  .refine((value) => !path.isAbsolute(value) && !value.split(/[\\/]/).includes('..'), {
    message: 'expected a relative path without ".." segments',
  });

export const UNVERIFIED = 'unverified';
const sha256 = z.union([z.string().regex(/^[0-9a-f]{64}$/, 'expected a sha256 as 64 lower-case hex digits'), z.literal(UNVERIFIED)]);

const assetSchema = z
  .object({
    name: z.string().regex(/^[a-z0-9][a-z0-9._/-]*$/, 'expected a lower-case name of letters, digits, ".", "_", "-" or "/"'),
    kind: z.enum(['model', 'image']),
    /** Where the file lands, relative to the assets directory (media/assets/). */
    path: relativePath,
    /** Where the file sits inside an offline mirror laid out like ../shared/assets. */
    mirrorPath: relativePath,
    url: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }),
    officialUrl: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
    sha256,
    bytes: z.union([z.number().int().positive(), z.literal(UNVERIFIED)]),
    license: z.string().min(1),
    source: z
      .object({
        repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, 'expected "owner/name"'),
        path: z.string().min(1),
        commit: z.string().regex(/^[0-9a-f]{40}$/, 'expected a 40-digit commit id'),
        gitBlob: z
          .string()
          .regex(/^[0-9a-f]{40}$/, 'expected a 40-digit blob id')
          .optional(),
      })
      .strict(),
    description: z.string().min(1),
    note: z.string().optional(),
    width: z.number().int().positive().optional(),
    height: z.number().int().positive().optional(),
  })
  .strict();

const assetManifestSchema = z
  .object({
    version: z.literal(1),
    description: z.string(),
    assets: z.array(assetSchema),
  })
  .strict()
  .superRefine((manifest, context) => {
    for (const key of ['name', 'path'] as const) {
      const seen = new Set<string>();
      manifest.assets.forEach((asset, index) => {
        if (seen.has(asset[key])) {
          context.addIssue({ code: 'custom', path: ['assets', index, key], message: `duplicate ${key} "${asset[key]}"` });
        }
        seen.add(asset[key]);
      });
    }
  });

export type Asset = z.output<typeof assetSchema>;

/** The size the manifest expects, or undefined when it is not pinned. */
export function expectedBytes(asset: Asset): number | undefined {
  return asset.bytes === UNVERIFIED ? undefined : asset.bytes;
}
export type AssetManifest = z.output<typeof assetManifestSchema>;

export function parseAssetManifest(value: unknown, file: string): AssetManifest {
  const parsed = assetManifestSchema.safeParse(value);
  if (!parsed.success) throw new AssetError(`invalid asset manifest:\n${formatIssues(file, parsed.error.issues)}`);
  return parsed.data;
}

export function loadAssetManifest(file = defaultManifestFile): AssetManifest {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new AssetError(`${file}: cannot read the asset manifest (${(error as NodeJS.ErrnoException).code ?? String(error)})`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AssetError(`${file}: invalid JSON: ${(error as Error).message}`, { cause: error });
  }
  return parseAssetManifest(value, file);
}

/**
 * Picks assets by name. A name ending in "*" is a prefix ("detection/*"); no names means all.
 * Unknown names are an error listing what exists, so a typo does not silently pull nothing.
 */
export function selectAssets(manifest: AssetManifest, names: readonly string[] = []): Asset[] {
  if (names.length === 0) return [...manifest.assets];
  const chosen = new Set<Asset>();
  const unknown: string[] = [];
  for (const name of names) {
    const matches = name.endsWith('*')
      ? manifest.assets.filter((asset) => asset.name.startsWith(name.slice(0, -1)))
      : manifest.assets.filter((asset) => asset.name === name);
    if (matches.length === 0) unknown.push(name);
    for (const asset of matches) chosen.add(asset);
  }
  if (unknown.length > 0) {
    const known = manifest.assets.map((asset) => asset.name);
    const shown = known.slice(0, 12).join(', ') + (known.length > 12 ? `, ... (${known.length} in all; see \`m3 assets list\`)` : '');
    throw new AssetError(`unknown asset${unknown.length > 1 ? 's' : ''} ${unknown.map((name) => `"${name}"`).join(', ')}; known assets: ${shown}`);
  }
  return manifest.assets.filter((asset) => chosen.has(asset));
}
