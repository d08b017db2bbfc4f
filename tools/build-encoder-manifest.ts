// Writes media/encoders.json from the reference-encoder table in src/assets/encoders.ts:
//   npx tsx tools/build-encoder-manifest.ts [--out media/encoders.json]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { buildEncoderManifest } from '../src/assets/encoders.js';
import { encoderManifestFile } from '../src/assets/manifest.js';

const { values } = parseArgs({ args: process.argv.slice(2), options: { out: { type: 'string' } } });
const out = values.out ?? encoderManifestFile;
const manifest = buildEncoderManifest();
writeFileSync(out, `${JSON.stringify(manifest, null, 2)}\n`);
process.stderr.write(`wrote ${manifest.assets.length} assets to ${out}\n`);
