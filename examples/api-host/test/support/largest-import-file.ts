import { itemImportMaxBytes } from '../../src/wiring/item-import.js';

/** A JSON Lines file just under the default import limit: about 30,000 short items (`item <n>`, n from 0). */
export function largestImportFile(): { text: string; count: number } {
  const limit = itemImportMaxBytes({});
  const lines: string[] = [];
  let bytes = 0;
  for (;;) {
    const line = `${JSON.stringify({ name: `item ${lines.length}`, quantity: lines.length % 7 })}\n`;
    if (bytes + line.length > limit) return { text: lines.join(''), count: lines.length };
    lines.push(line);
    bytes += line.length;
  }
}
