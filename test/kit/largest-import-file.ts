/**
 * A JSON Lines file of items just under `maxBytes` (the example host's import limit): short items
 * `item <n>`, n from 0. About 30,000 of them under the default 1 MiB.
 */
export function largestImportFile(maxBytes: number): { text: string; count: number } {
  const lines: string[] = [];
  let bytes = 0;
  for (;;) {
    const line = `${JSON.stringify({ name: `item ${lines.length}`, quantity: lines.length % 7 })}\n`;
    if (bytes + line.length > maxBytes) return { text: lines.join(''), count: lines.length };
    lines.push(line);
    bytes += line.length;
  }
}
