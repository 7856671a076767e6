/** How deeply objects and arrays nest in `value`, counted without recursion, and no further than `stop`. */
export function jsonDepth(value: unknown, stop: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [item, level] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    deepest = Math.max(deepest, level);
    if (deepest > stop) break;
    for (const child of Object.values(item)) stack.push([child, level + 1]);
  }
  return deepest;
}
