import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// The house's rules (docs/architecture.md), read from the sources' own imports. TypeScript's
// preProcessFile finds every import the compiler would (type-only and dynamic ones included)
// without type-checking, so the whole tree is read in well under a second.

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const MAX_FILES = 15;
const MAX_LINES = 300;

type Module = { file: string; wing: string; lines: number; imports: string[] };

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const wingOf = (file: string) => dirname(file).replace(/^\.$/, '');

function readModules(): Module[] {
  return sources(SRC).map((path) => {
    const text = readFileSync(path, 'utf8');
    const file = relative(SRC, path);
    const imports = ts
      .preProcessFile(text, true, true)
      .importedFiles.map((entry) => entry.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => relative(SRC, resolve(dirname(path), name)).replace(/\.js$/, '.ts'));
    return { file, wing: wingOf(file), lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0), imports };
  });
}

/** Strongly connected groups of more than one node (Tarjan): each is an import circle. */
function circles(edges: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of edges.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) found.push(group.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

function graph(pairs: [string, string][]): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const [from, to] of pairs) {
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from)!.add(to);
  }
  return edges;
}

/** The wings a wing's README.md says it may import: `May import: a, b/*, c` ("b/*": b's sub-wings). */
function allowedOf(wing: string): string[] | undefined {
  let text: string;
  try {
    text = readFileSync(join(SRC, wing, 'README.md'), 'utf8');
  } catch {
    return undefined;
  }
  const line = /^May import: (.*)$/m.exec(text)?.[1];
  if (line === undefined) return undefined;
  return line.startsWith('(') ? [] : line.split(',').map((entry) => entry.trim());
}

function mayImport(allowed: string[], wing: string): boolean {
  return allowed.some((entry) =>
    entry.endsWith('/*') ? wing.startsWith(entry.slice(0, -1)) : wing === entry || wing.startsWith(`${entry}/`),
  );
}

/** Rules no README can loosen: which wings stay below which. */
const FORBIDDEN: { from: RegExp; to: RegExp; why: string }[] = [
  { from: /^(bins\/engines|mocks\/engines|store)(\/|$)/, to: /^(http|bins\/(?!engines)|mocks\/(?!engines|log|record))/, why: 'engines know no HTTP' },
  // The record's sub-wings (record/expects) are the record too: held to the rule, and free to be imported by it.
  // Templates and GraphQL schemas are checked at save, so the record uses those wings; neither knows a server either.
  { from: /^mocks\/record(\/|$)/, to: /^(server|mocks\/(?!templates$|graphql$|record(\/|$)))/, why: 'the record knows no server' },
  { from: /^mocks\/serve$/, to: /^(mocks\/engines|store)(\/|$)/, why: 'serving knows no engine' },
  { from: /^client(\/|$)/, to: /^(?!client(\/|$)|shared$)/, why: 'browser code imports only client/ and shared/' },
  { from: /^shared$/, to: /^(?!shared$)/, why: 'shared code runs in the browser too' },
];

describe('the layout of src/ (docs/architecture.md)', () => {
  const modules = readModules();

  it('has no import circle between files, type-only and dynamic imports included', () => {
    const edges = graph(modules.flatMap((m) => m.imports.map((to): [string, string] => [m.file, to])));
    expect(circles(edges)).to.deep.equal([]);
  });

  it('has no import circle between wings (each folder and its own files)', () => {
    const pairs = modules.flatMap((m) =>
      m.imports.map((to): [string, string] => [m.wing, wingOf(to)]).filter(([from, to]) => from !== to),
    );
    expect(circles(graph(pairs))).to.deep.equal([]);
  });

  it('gives every wing a README.md saying what it is for and what it may import', () => {
    const wings = [...new Set(modules.map((m) => m.wing))].filter((wing) => wing !== '');
    expect(wings.filter((wing) => allowedOf(wing) === undefined)).to.deep.equal([]);
  });

  it('imports from another wing only what its README allows', () => {
    const stray = modules.flatMap((m) => {
      const allowed = allowedOf(m.wing) ?? [];
      return m.imports.filter((to) => wingOf(to) !== m.wing && !mayImport(allowed, wingOf(to))).map((to) => `${m.file} -> ${to}`);
    });
    expect(stray).to.deep.equal([]);
  });

  it('keeps engines, the record, serving, the browser and shared code below what they must not know', () => {
    const broken = modules.flatMap((m) =>
      m.imports.flatMap((to) => {
        const rule = FORBIDDEN.find((r) => r.from.test(m.wing) && wingOf(to) !== m.wing && r.to.test(wingOf(to)));
        return rule ? [`${m.file} -> ${to}: ${rule.why}`] : [];
      }),
    );
    expect(broken).to.deep.equal([]);
  });

  it(`holds at most ${MAX_FILES} modules in a folder`, () => {
    const counts = new Map<string, number>();
    for (const m of modules) counts.set(m.wing, (counts.get(m.wing) ?? 0) + 1);
    expect([...counts].filter(([, n]) => n > MAX_FILES).map(([wing, n]) => `${wing}: ${n}`)).to.deep.equal([]);
  });

  it(`holds no file over ${MAX_LINES} lines`, () => {
    expect(modules.filter((m) => m.lines > MAX_LINES).map((m) => `${m.file}: ${m.lines}`)).to.deep.equal([]);
  });
});
