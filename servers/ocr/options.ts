// The reference `perform_ocr` wraps Tesseract and takes Tesseract's `language` codes and CLI
// `config` string. Our engine is PaddleOCR PP-OCRv4 (Chinese + English in one model), so:
// - `language` is validated against what the model can read and echoed back; recognition always
//   reads both scripts, because the ground truth passes "eng" even for mixed posters. Without a
//   Chinese code, full-width punctuation is folded to ASCII (NFKC).
// - `config` keeps the Tesseract flags that have a meaning here: `--psm` single-line/word modes
//   join the lines with spaces, and `-c tessedit_char_whitelist/blacklist=...` filter characters.
//   `--oem`, `--dpi`, `-l` and `--tessdata-dir` are accepted silently (one engine, DPI-agnostic);
//   other `-c` variables are reported back as ignored. Anything else is refused.

class OcrArgumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OcrArgumentError';
  }
}

export interface SupportedLanguage {
  code: string;
  name: string;
  aliases: string[];
}

export const supportedLanguages: readonly SupportedLanguage[] = [
  { code: 'eng', name: 'English (and other Latin-script text, without accents)', aliases: ['en', 'english'] },
  { code: 'chi_sim', name: 'Chinese, simplified', aliases: ['ch', 'zh', 'zh-cn', 'zh_cn', 'chi', 'chinese', 'chi_sim'] },
  { code: 'chi_tra', name: 'Chinese, traditional (covered by the same dictionary)', aliases: ['zh-tw', 'zh_tw', 'cht', 'chi_tra'] },
];

function toLanguageCode(part: string): string | undefined {
  const key = part.trim().toLowerCase();
  return supportedLanguages.find((language) => language.code === key || language.aliases.includes(key))?.code;
}

/** Validates a Tesseract-style language list ("eng", "eng+chi_sim") and returns it normalised. */
export function parseLanguage(input: string | undefined): string {
  const parts = (input ?? 'eng').split('+').filter((part) => part.trim() !== '');
  if (parts.length === 0) return 'eng';
  const codes: string[] = [];
  for (const part of parts) {
    const code = toLanguageCode(part);
    if (!code) {
      const known = supportedLanguages.map((language) => language.code).join(', ');
      throw new OcrArgumentError(
        `language "${part.trim()}" is not supported: this server reads English and Chinese with PP-OCRv4. ` +
          `Use one of ${known} (combine with "+", e.g. "eng+chi_sim"); for other Latin-script text pass "eng" (accents are dropped).`,
      );
    }
    if (!codes.includes(code)) codes.push(code);
  }
  return codes.join('+');
}

export interface OcrConfig {
  /** How recognised lines are joined into `text`: one per line, or all on one line. */
  layout: 'lines' | 'single_line';
  whitelist?: string;
  blacklist?: string;
  ignored: string[];
}

// Tesseract page segmentation modes that treat the image as one line, word or character.
const singleLinePsm = new Set([7, 8, 10, 13]);
const silentFlags = new Set(['--oem', '--dpi', '-l', '--tessdata-dir']);

function readPsm(value: string | undefined): number {
  const psm = Number(value);
  if (value === undefined || !Number.isInteger(psm) || psm < 0 || psm > 13) {
    throw new OcrArgumentError(`config: --psm expects a page segmentation mode from 0 to 13, got "${value ?? ''}"`);
  }
  return psm;
}

function applyVariable(config: OcrConfig, assignment: string | undefined): void {
  const match = /^([A-Za-z_]+)=(.*)$/s.exec(assignment ?? '');
  if (!match) throw new OcrArgumentError(`config: -c expects name=value (e.g. -c tessedit_char_whitelist=0123456789), got "${assignment ?? ''}"`);
  const [, name = '', value = ''] = match;
  if (name === 'tessedit_char_whitelist') config.whitelist = value;
  else if (name === 'tessedit_char_blacklist') config.blacklist = value;
  else config.ignored.push(`-c ${name}=${value}`);
}

/** Parses a Tesseract CLI config string such as "--oem 3 --psm 6". */
export function parseConfig(input: string | undefined): OcrConfig {
  const config: OcrConfig = { layout: 'lines', ignored: [] };
  const tokens = (input ?? '').trim().split(/\s+/).filter(Boolean);
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index] ?? '';
    const [flag = '', inlineValue] = token.includes('=') && token.startsWith('--') ? token.split('=', 2) : [token, undefined];
    const takeValue = (): string | undefined => inlineValue ?? tokens[++index];
    if (flag === '--psm') {
      config.layout = singleLinePsm.has(readPsm(takeValue())) ? 'single_line' : 'lines';
    } else if (silentFlags.has(flag)) {
      takeValue();
    } else if (flag === '-c') {
      applyVariable(config, takeValue());
    } else {
      throw new OcrArgumentError(
        `config: unknown option "${token}"; accepted are Tesseract-style --psm N, --oem N, --dpi N, -l LANG and -c name=value (e.g. "--oem 3 --psm 6")`,
      );
    }
  }
  return config;
}

/** Applies the character whitelist/blacklist to one recognised line. */
export function filterCharacters(text: string, config: OcrConfig): string {
  let result = text;
  const { whitelist, blacklist } = config;
  if (whitelist) result = [...result].filter((char) => char === ' ' || whitelist.includes(char)).join('');
  if (blacklist) result = [...result].filter((char) => !blacklist.includes(char)).join('');
  return result.replace(/\s+/g, ' ').trim();
}
