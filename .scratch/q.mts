import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { recogniseLines } from '../servers/ocr/engine.js';
const norm = (t: string) => t.toLowerCase().replace(/\s+/g, '');
for (const [name, w, h] of [['ocr/priory_galleries.jpg', 0, 0], ['ocr/sports_centre_sign.jpg', 0, 768]] as const) {
  const bytes = readFileSync(`/work/shared/assets/images/${name}`);
  const meta = await sharp(bytes).metadata();
  const orig = (await recogniseLines(bytes)).filter((l) => l.confidence >= 0.8 && norm(l.text).length >= 2);
  console.log(name, meta.width, meta.height, orig.map((l) => l.text));
  for (const q of [75, 85, 90]) {
    let p = sharp(bytes).rotate();
    if (h) p = p.resize({ height: h });
    const out = await p.webp({ quality: q, effort: 4 }).toBuffer();
    const text = norm((await recogniseLines(out)).map((l) => l.text).join(' '));
    console.log(`  q${q} ${out.length} B kept ${orig.filter((l) => text.includes(norm(l.text))).length}/${orig.length}`, orig.filter((l) => !text.includes(norm(l.text))).map((l) => l.text));
  }
}
