/** One segment of an endpoint's path: `users`, `:id`, `:id?` or a final `*`. */
export type PathSegment =
  | { kind: 'static'; text: string }
  | { kind: 'param'; name: string; optional: boolean }
  | { kind: 'rest'; name: '*' };

export function parsePath(path: string): PathSegment[] {
  return path
    .split('/')
    .filter((part) => part !== '')
    .map((part): PathSegment => {
      if (part === '*') return { kind: 'rest', name: '*' };
      if (part.startsWith(':')) {
        const optional = part.endsWith('?');
        return { kind: 'param', name: part.slice(1, optional ? -1 : undefined), optional };
      }
      return { kind: 'static', text: part };
    });
}

/**
 * The path with the user's values in place of its parameters, each value percent-encoded (the rest
 * of a `*` keeps its slashes). An optional parameter left empty drops out; a required one left
 * empty is kept as written, so the call shows the route did not match rather than guessing.
 */
export function fillPath(segments: readonly PathSegment[], values: ReadonlyMap<string, string>): string {
  const parts: string[] = [];
  for (const segment of segments) {
    if (segment.kind === 'static') {
      parts.push(segment.text);
      continue;
    }
    const value = values.get(segment.name) ?? '';
    if (segment.kind === 'rest') {
      if (value !== '') parts.push(value.split('/').map(encodeURIComponent).join('/'));
    } else if (value !== '') parts.push(encodeURIComponent(value));
    else if (!segment.optional) parts.push(`:${segment.name}`);
  }
  return parts.join('/');
}
