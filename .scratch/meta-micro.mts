import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { fileTypeFromBuffer } from 'file-type';
import { decodeForLetterbox } from '/work/wt-perf/servers/yolo/preprocess.js';
sharp.cache(false);
for (const name of ['stop_sign.jpg', 'dog_bowl.jpg', 'classic_cars.jpg', 'freight_train.jpg']) {
  const bytes = readFileSync(`/work/shared/assets/images/detection/${name}`);
  const t = { meta: 0, ft: 0, decode: 0 };
  for (let r = 0; r < 3; r++) for (let i = 0; i < 10; i++) {
    let a = performance.now(); await sharp(bytes).metadata(); t.meta += performance.now() - a;
    a = performance.now(); await fileTypeFromBuffer(bytes); t.ft += performance.now() - a;
    a = performance.now(); await decodeForLetterbox(bytes); t.decode += performance.now() - a;
  }
  console.log(name, Object.entries(t).map(([k, v]) => `${k} ${(v / 30).toFixed(2)} ms`).join(', '));
}
