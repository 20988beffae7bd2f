import { jsonBlock } from '../markup/components.js';
import { html, type SafeHtml } from '../markup/html.js';
import type { PanelView } from './panel-view.js';

/** The view of a collector that brought no view of its own: its data as JSON. */
export function jsonPanel(name: string): PanelView<unknown> {
  return {
    name,
    title: name,
    render(data: unknown): SafeHtml {
      return html`<h2>${name}</h2><section class="card">${jsonBlock(data)}</section>`;
    },
  };
}
