// Reads a sentence-transformers model folder the way `SentenceTransformer(folder)` does, for the
// in-process encoder (st-encoder.ts):
//   modules.json                 the module pipeline; supported: Transformer (the folder root),
//                                Pooling (its folder's config.json) and Normalize. Anything else
//                                (Dense, ...) is refused by name rather than silently skipped.
//                                Without modules.json: Transformer + mean pooling, no
//                                normalisation (sentence-transformers' default for plain models).
//   sentence_bert_config.json    max_seq_length (truncation) and do_lower_case.
//   <pooling>/config.json        pooling_mode_* flags and word_embedding_dimension.
//   tokenizer.json (+ tokenizer_config.json), onnx/model.onnx (or model.onnx).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { formatIssues } from '../../config/zod-issues.js';
import { ConfigError } from '../../errors/index.js';

const poolingModes = ['cls', 'max', 'mean', 'mean_sqrt_len', 'lasttoken'] as const;
export type PoolingMode = (typeof poolingModes)[number];

export interface SentenceTransformerFolder {
  folder: string;
  modelFile: string;
  tokenizer: object;
  tokenizerConfig: object;
  maxSeqLength: number;
  doLowerCase: boolean;
  /** Modes in sentence-transformers' concatenation order (cls, max, mean, mean_sqrt_len, lasttoken). */
  pooling: PoolingMode[];
  normalize: boolean;
  /** Token embedding width from the pooling config (undefined: learnt from the model output). */
  wordDimension: number | undefined;
}

const moduleSchema = z.array(z.object({ idx: z.number().optional(), name: z.string().optional(), path: z.string(), type: z.string() }).loose());
const bertConfigSchema = z.object({ max_seq_length: z.number().int().positive().optional(), do_lower_case: z.boolean().optional() }).loose();
const poolingSchema = z
  .object({
    word_embedding_dimension: z.number().int().positive().optional(),
    pooling_mode_cls_token: z.boolean().default(false),
    pooling_mode_mean_tokens: z.boolean().default(false),
    pooling_mode_max_tokens: z.boolean().default(false),
    pooling_mode_mean_sqrt_len_tokens: z.boolean().default(false),
    pooling_mode_weightedmean_tokens: z.boolean().default(false),
    pooling_mode_lasttoken: z.boolean().default(false),
  })
  .loose();

function readJson<T extends z.ZodType>(file: string, schema: T): z.output<T> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`${file}: cannot read the sentence-transformers config (${(error as Error).message})`, { cause: error });
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(formatIssues(file, parsed.error.issues));
  return parsed.data;
}

function readOptionalObject(file: string): object {
  if (!existsSync(file)) return {};
  return readJson(file, z.object({}).loose());
}

function poolingFrom(file: string): { modes: PoolingMode[]; wordDimension: number | undefined } {
  const config = readJson(file, poolingSchema);
  if (config.pooling_mode_weightedmean_tokens) throw new ConfigError(`${file}: pooling_mode_weightedmean_tokens is not supported by the in-process encoder`);
  const flags: Record<PoolingMode, boolean> = {
    cls: config.pooling_mode_cls_token,
    max: config.pooling_mode_max_tokens,
    mean: config.pooling_mode_mean_tokens,
    mean_sqrt_len: config.pooling_mode_mean_sqrt_len_tokens,
    lasttoken: config.pooling_mode_lasttoken,
  };
  const modes = poolingModes.filter((mode) => flags[mode]);
  if (modes.length === 0) throw new ConfigError(`${file}: no pooling_mode_* is true`);
  return { modes, wordDimension: config.word_embedding_dimension };
}

function pipelineOf(folder: string): { pooling: PoolingMode[]; normalize: boolean; wordDimension: number | undefined } {
  const modulesFile = path.join(folder, 'modules.json');
  if (!existsSync(modulesFile)) return { pooling: ['mean'], normalize: false, wordDimension: undefined };
  let pooling: PoolingMode[] | undefined;
  let wordDimension: number | undefined;
  let normalize = false;
  for (const module of readJson(modulesFile, moduleSchema)) {
    const type = module.type.replace(/^sentence_transformers\.models\./, '');
    if (type === 'Transformer') continue;
    if (type === 'Pooling') {
      ({ modes: pooling, wordDimension } = poolingFrom(path.join(folder, module.path, 'config.json')));
    } else if (type === 'Normalize') {
      normalize = true;
    } else {
      throw new ConfigError(
        `${modulesFile}: module type ${module.type} is not supported by the in-process encoder (supported: Transformer, Pooling, Normalize)`,
      );
    }
  }
  return { pooling: pooling ?? ['mean'], normalize, wordDimension };
}

/** Loads and checks a folder; errors name the file and what is missing. */
export function loadSentenceTransformerFolder(folder: string): SentenceTransformerFolder {
  const modelFile = [path.join(folder, 'onnx', 'model.onnx'), path.join(folder, 'model.onnx')].find((file) => existsSync(file));
  const tokenizerFile = path.join(folder, 'tokenizer.json');
  if (!modelFile || !existsSync(tokenizerFile)) {
    const missing = [modelFile ? undefined : 'onnx/model.onnx', existsSync(tokenizerFile) ? undefined : 'tokenizer.json'].filter(Boolean).join(' and ');
    throw new ConfigError(`${folder}: not a usable sentence-transformers folder: ${missing} missing (an ONNX export and the tokenizer.json are needed)`);
  }
  const bertConfigFile = path.join(folder, 'sentence_bert_config.json');
  const bertConfig = existsSync(bertConfigFile) ? readJson(bertConfigFile, bertConfigSchema) : {};
  const tokenizerConfig = readOptionalObject(path.join(folder, 'tokenizer_config.json')) as { model_max_length?: unknown };
  const modelConfig = readOptionalObject(path.join(folder, 'config.json')) as { max_position_embeddings?: unknown };
  const fallbackLength = [tokenizerConfig.model_max_length, modelConfig.max_position_embeddings].find(
    (value): value is number => typeof value === 'number' && value > 0 && value < 100_000,
  );
  return {
    folder,
    modelFile,
    tokenizer: readJson(tokenizerFile, z.object({ model: z.object({}).loose() }).loose()),
    tokenizerConfig,
    maxSeqLength: bertConfig.max_seq_length ?? fallbackLength ?? 512,
    doLowerCase: bertConfig.do_lower_case ?? false,
    ...pipelineOf(folder),
  };
}
