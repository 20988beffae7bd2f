import type { MemoryData } from '../../collector/memory-collector.js';
import { card, formatBytes, keyValueTable } from '../markup/components.js';
import { html, type SafeHtml } from '../markup/html.js';
import type { PanelView } from './panel-view.js';

export const memoryPanel: PanelView<MemoryData> = {
  name: 'memory',
  title: 'Memory',
  badge: (data) => ({ text: formatBytes(data.heapUsed) }),
  render(data: MemoryData): SafeHtml {
    return html`<h2>Memory</h2>
<p class="muted">Figures for the whole Node process, read when this request was answered (one reading serves all requests answered within 100 ms); Node does not measure memory per request.</p>
${card(
  'Process memory',
  keyValueTable([
    ['Heap used', formatBytes(data.heapUsed)],
    ['Heap total', formatBytes(data.heapTotal)],
    ['Resident set size', formatBytes(data.rss)],
    ['External (buffers)', formatBytes(data.external)],
  ]),
)}`;
  },
};
