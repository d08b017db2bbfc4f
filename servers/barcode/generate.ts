// `generate_barcode`: draws a barcode as a PNG (the `qrcode` package for QR codes, bwip-js for
// everything else) on an opaque white background with a quiet zone, because readers need both
// (an EAN-13 without margins does not decode), and saves it inside the allowed folders.
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import bwipjs from 'bwip-js';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { allowedRoots, resolveAllowedPath } from '../shared/allowed-roots.js';
import { callContextOf, workspaceOf } from '../shared/call-context.js';
import { resolveOutputArgument } from '../shared/task-paths.js';
import { BarcodeArgumentError, type GenerationTarget, toGenerationTarget } from './formats.js';

export interface GenerateRequest {
  format: string;
  text: string;
  output_path?: string;
  scale?: number;
}

export interface GeneratedBarcode {
  /** Relative to the repository root when inside it (as tasks write paths), else absolute. */
  path: string;
  format: string;
  text: string;
  width: number;
  height: number;
  png: Buffer;
}

/** Quiet zone in modules on each side: at least the 10 modules linear symbologies require. */
const quietModules = 10;

async function drawWithBwip(target: GenerationTarget, text: string, scale: number): Promise<Buffer> {
  return bwipjs.toBuffer({
    bcid: target.bcid,
    text,
    scale,
    paddingwidth: quietModules,
    paddingheight: quietModules,
    backgroundcolor: 'FFFFFF',
    includetext: target.dimension === 'linear',
    textxalign: 'center',
    ...target.bwipOptions,
  });
}

async function draw(target: GenerationTarget, text: string, scale: number): Promise<Buffer> {
  try {
    if (target.generator === 'qrcode') {
      return await QRCode.toBuffer(text, { type: 'png', margin: 4, scale: scale + 1, errorCorrectionLevel: 'M' });
    }
    return await drawWithBwip(target, text, scale);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new BarcodeArgumentError(`cannot encode "${text.slice(0, 200)}" as ${target.name}: ${reason}`);
  }
}

function defaultOutputPath(target: GenerationTarget, text: string): string {
  const mediaDir = allowedRoots()[0] ?? path.resolve('media');
  const digest = createHash('sha256').update(`${target.name}\n${text}`).digest('hex').slice(0, 12);
  return path.join(mediaDir, 'generated', `${target.name.toLowerCase()}-${digest}.png`);
}

function toReportedPath(absolute: string): string {
  const repoRoot = path.dirname(allowedRoots()[0] ?? path.resolve('media'));
  const relative = path.relative(repoRoot, absolute);
  return relative.startsWith('..') || path.isAbsolute(relative) ? absolute : relative.split(path.sep).join('/');
}

/**
 * With a task context (`call`, the tool call's `extra`) an explicit output_path lands in the
 * task's workspace (servers/shared/task-paths.ts); the default name is content-addressed, so
 * concurrent tasks that draw the same code share identical bytes (a workspace-only call, a demo
 * session, writes it into its own workspace instead).
 */
export async function generateBarcode(request: GenerateRequest, call?: { _meta?: unknown }): Promise<GeneratedBarcode> {
  const target = toGenerationTarget(request.format);
  if (request.output_path !== undefined && !/\.png$/i.test(request.output_path)) {
    throw new BarcodeArgumentError(`output_path "${request.output_path}" must end in .png (barcodes are written as PNG)`);
  }
  const output =
    request.output_path !== undefined
      ? resolveOutputArgument(request.output_path, call, resolveAllowedPath)
      : callContextOf(call)?.workspaceOnly
        ? path.join(workspaceOf(call), path.basename(defaultOutputPath(target, request.text)))
        : resolveAllowedPath(defaultOutputPath(target, request.text));
  const png = await draw(target, request.text, request.scale ?? 3);
  const { width = 0, height = 0 } = await sharp(png).metadata();
  await mkdir(path.dirname(output), { recursive: true });
  await writeFile(output, png);
  return { path: toReportedPath(output), format: target.name, text: request.text, width, height, png };
}
