// Reads a JSON file and reports syntax errors with file, line and column, so a researcher
// editing a 1 MB ground-truth file by hand can find the broken comma.
import { readFileSync } from 'node:fs';
import { TaskFileError } from '../errors/index.js';

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return { line, column };
}

export function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    if (position?.[1]) {
      const { line, column } = lineAndColumn(text, Number(position[1]));
      throw new TaskFileError(`${file}:${line}:${column}: invalid JSON: ${message}`, { cause: error });
    }
    throw new TaskFileError(`${file}: invalid JSON: ${message}`, { cause: error });
  }
}

export function loadJsonFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new TaskFileError(`${file}: cannot read file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { cause: error });
  }
  return parseJsonText(text.replace(/^\uFEFF/, ''), file);
}
