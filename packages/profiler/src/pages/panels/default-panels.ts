import { eventsPanel } from './events-panel.js';
import { exceptionPanel } from './exception-panel.js';
import { loggerPanel } from './logger-panel.js';
import { memoryPanel } from './memory-panel.js';
import type { PanelView } from './panel-view.js';
import { requestPanel } from './request-panel.js';
import { routerPanel } from './router-panel.js';
import { timePanel } from './time-panel.js';

/** Views of the default collectors, by panel name. */
export function defaultPanels(): PanelView[] {
  return [requestPanel, exceptionPanel, eventsPanel, routerPanel, loggerPanel, timePanel, memoryPanel] as PanelView[];
}
