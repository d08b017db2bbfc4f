// Reads `.env` without touching process.env: the merged view is passed down explicitly,
// so drivers and servers only see what config hands them.
import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'dotenv';
import { fromRepo } from './paths.js';

export type EnvMap = Record<string, string | undefined>;

/** Variables from `.env` (if present) overlaid by the real environment, which wins. */
export function loadEnvironment(envFile = fromRepo('.env'), processEnv: EnvMap = process.env): EnvMap {
  const fileValues = existsSync(envFile) ? parse(readFileSync(envFile)) : {};
  return { ...fileValues, ...processEnv };
}
