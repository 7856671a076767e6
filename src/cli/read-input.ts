import { readFile } from 'node:fs/promises';
import { CliError, EXIT } from './errors.js';

/** The text of a file, or of standard input for `-`; a missing or unreadable file is a CliError. */
export async function readText(path: string): Promise<string> {
  if (path === '-') return readStdin();
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (code ?? (err as Error).message);
    throw new CliError(`cannot read ${path}: ${why}`, EXIT.file);
  }
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses JSON text; an error names the file with the line and column of the fault. */
export function parseJsonFile(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const message = (err as Error).message;
    const match = /at position (\d+)/.exec(message);
    const offset = match ? Number(match[1]) : text.length;
    const { line, column } = lineColumn(text, offset);
    const what = message.replace(/\s*in JSON at position \d+.*$/, '').replace(/^JSON\.parse: /, '');
    const name = path === '-' ? 'standard input' : path;
    throw new CliError(`${name} is not valid JSON: ${what} at line ${line}, column ${column}`, EXIT.file);
  }
}

export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}
