// `input_data` of the reference OCR tool may be a path, a file:// URI, a data URL or bare base64.
// Paths and data URLs go through the shared loader (allowed roots, type from magic bytes); bare
// base64 is recognised by its alphabet and accepted only when the decoded bytes are an image.
import { checkImageBytes, ImageInputError, loadImageInput, type LoadedImage } from '../shared/image-input.js';

// Base64 has no "." so a file name with an extension never matches; 32 chars is ~24 bytes,
// shorter than any image header worth decoding.
const bareBase64 = /^[A-Za-z0-9+/\s]{32,}={0,2}$/;

async function fromBareBase64(input: string): Promise<LoadedImage | undefined> {
  const bytes = Buffer.from(input.replace(/\s+/g, ''), 'base64');
  try {
    return await checkImageBytes(bytes, 'base64 input_data');
  } catch {
    return undefined; // not an image once decoded: treat the string as a path instead
  }
}

/** `resolvePath` turns a path into the file to read (see loadImageInput). */
export async function loadOcrInput(inputData: string, resolvePath?: (given: string) => string): Promise<LoadedImage> {
  const input = inputData.trim();
  if (input === '') throw new ImageInputError('input_data is empty: pass an image path under media/, a file:// URI or a data URL');
  if (/^https?:\/\//i.test(input)) {
    throw new ImageInputError(
      `input_data "${input.slice(0, 120)}" is a web URL; this server works offline and does not download images. ` +
        'Save the image under media/ (or a folder in M3_ALLOWED_ROOTS) and pass its path.',
    );
  }
  if (!input.startsWith('data:') && !input.startsWith('file://') && bareBase64.test(input)) {
    const decoded = await fromBareBase64(input);
    if (decoded) return decoded;
  }
  return loadImageInput(input, resolvePath);
}
