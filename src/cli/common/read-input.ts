import { readFile } from 'node:fs/promises';
import { describeJsonError } from '../../shared/json-check.js';
import { CliError, EXIT, fileErrorReason } from './errors.js';

/** The text of a file, or of standard input for `-`; a missing or unreadable file is a CliError. */
export async function readText(path: string): Promise<string> {
  if (path === '-') return readStdin();
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new CliError(`cannot read ${path}: ${fileErrorReason(err)}`, EXIT.file);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses JSON text; an error names the file with the line and column of the fault. */
export function parseJsonFile(text: string, path: string): unknown {
  const problem = describeJsonError(text);
  if (problem === undefined) return JSON.parse(text);
  const name = path === '-' ? 'standard input' : path;
  throw new CliError(`${name} is not valid JSON: ${problem}`, EXIT.file);
}
