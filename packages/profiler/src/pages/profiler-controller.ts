import { isIP } from 'node:net';
import { defineController, JsonResponse, Response, type Request } from '@switchboard/http-kernel';
import type { Profile, ProfileSummary } from '../profile/profile.js';
import type { Profiler } from '../profiler.js';
import { DEFAULT_SEARCH_LIMIT, type ProfilerStorageStatus, type ProfileSearch } from '../storage/profiler-storage.js';
import { html, type SafeHtml } from './markup/html.js';
import { PROFILER_CSP } from './layout.js';
import { defaultPanels } from './panels/default-panels.js';
import { jsonPanel } from './panels/json-panel.js';
import type { PanelView } from './panels/panel-view.js';
import type { RouteMatchExplainer } from './panels/route-match-explainer.js';
import { profilePage } from './profile-page.js';
import { messagePage } from './message-page.js';
import { searchPage } from './search-page.js';

export interface ProfilerPagesOptions {
  /** Path the pages are mounted under; links are built from it. Default `/_profiler`. */
  basePath?: string;
  /** Views by panel name; collectors without one are shown as JSON. Default `defaultPanels()`. */
  panels?: readonly PanelView[];
  /** The router's match log, for the router panel. */
  explainRoute?: RouteMatchExplainer;
}

/** Most profiles one search lists. */
const MAX_SEARCH_LIMIT = 100;
const DEFAULT_LIST_LIMIT = 50;
const VIRTUAL_TYPE = /^[a-z][a-z0-9_-]{0,31}$/;

/**
 * The profiler pages: `home` lists and searches profiles, `panel` shows one profile's panel
 * (`/_profiler/{token}?panel=…&type=…&ip=…`, token `latest`). Tokens that are
 * not `latest` and not a token this profiler issues are refused before storage is read.
 * `?format=json` or `Accept: application/json` gives the JSON view.
 */
export class ProfilerController {
  readonly base: string;
  readonly #profiler: Profiler;
  readonly #panels: ReadonlyMap<string, PanelView>;
  readonly #explainRoute: RouteMatchExplainer | null;

  /** Controller functions for the routes, arguments declared. */
  readonly home = defineController(['request'], (request: Request) => this.renderHome(request), 'ProfilerController.home');
  readonly panel = defineController(
    ['request', 'token'],
    (request: Request, token: unknown) => this.renderPanel(request, token),
    'ProfilerController.panel',
  );

  constructor(profiler: Profiler, options: ProfilerPagesOptions = {}) {
    this.#profiler = profiler;
    this.base = `/${(options.basePath ?? '/_profiler').replace(/^\/+|\/+$/g, '')}`;
    this.#panels = new Map((options.panels ?? defaultPanels()).map((view) => [view.name, view]));
    this.#explainRoute = options.explainRoute ?? null;
  }

  async renderHome(request: Request): Promise<Response> {
    const search = parseSearch(request.query);
    if (typeof search === 'string') return this.#message(request, 400, 'Bad search', html`${search}`);
    const profiles = await this.#profiler.find(search);
    const outage = this.#storageOutage();
    if (wantsJson(request)) return json(outage === null ? { profiles } : { profiles, storage: outage }, 200);
    return page(searchPage(search, profiles, this.base, outage), 200);
  }

  async renderPanel(request: Request, token: unknown): Promise<Response> {
    let profile: Profile | null;
    if (token === 'latest') {
      const ip = request.query.get('ip') ?? undefined;
      const type = request.query.get('type') ?? 'request';
      if (ip !== undefined && isIP(ip) === 0) {
        return this.#message(
          request,
          400,
          'Bad ip parameter',
          html`The <code>ip</code> parameter must be an IP address such as 127.0.0.1 or ::1.`,
        );
      }
      if (!VIRTUAL_TYPE.test(type))
        return this.#message(
          request,
          400,
          'Bad type parameter',
          html`The <code>type</code> parameter names a profile type such as <code>request</code>.`,
        );
      const latest = await this.#profiler.latest({ type, ...(ip === undefined ? {} : { ip }) });
      profile = latest === null ? null : await this.#profiler.loadProfile(latest.token);
      if (profile === null) {
        const outage = this.#storageOutage();
        if (outage !== null) return this.#unavailable(request, outage);
        const who = ip === undefined ? '' : ` from ${ip}`;
        return this.#message(
          request,
          404,
          'No profile yet',
          html`No profile of type <code>${type}</code>${who} is stored.`,
          await this.#newest(),
        );
      }
    } else if (!this.#profiler.isValidToken(token)) {
      return this.#message(
        request,
        404,
        'Not a profiler token',
        html`Tokens are ${this.#profiler.tokenLength} lowercase hexadecimal characters (as in the <code>x-debug-token</code> header), or <code>latest</code>.`,
      );
    } else {
      profile = await this.#profiler.loadProfile(token);
      if (profile === null) {
        const outage = this.#storageOutage();
        if (outage !== null) return this.#unavailable(request, outage);
        return this.#message(
          request,
          404,
          'Unknown token',
          html`Token <code>${token}</code> is unknown: it was never issued, or its profile was dropped (storage keeps a bounded number of recent profiles).`,
          await this.#newest(),
        );
      }
    }
    return this.#renderProfile(request, profile);
  }

  async #renderProfile(request: Request, profile: Profile): Promise<Response> {
    const requested = request.query.get('panel');
    const panelName = requested ?? (profile.hasCollector('exception') ? 'exception' : 'request');
    if (!profile.hasCollector(panelName)) {
      return this.#message(request, 404, 'No such panel', html`Panel "${panelName}" is not available for token "${profile.token}".`);
    }
    if (wantsJson(request)) {
      return json(
        { ...profile.toData(), parent: profile.parent?.summary() ?? null, children: profile.children.map((child) => child.summary()) },
        200,
      );
    }
    const panels = profile.collectorNames.map((name) => this.#panels.get(name) ?? jsonPanel(name));
    const view = panels.find((candidate) => candidate.name === panelName)!;
    const content = await view.render(profile.getCollector(panelName), {
      profile,
      base: this.base,
      redactor: this.#profiler.redactor,
      explainRoute: this.#explainRoute,
    });
    // Panels in the order the page lists them: the known ones first, in their declared order.
    const ordered = [...this.#panels.values()].filter((candidate) => profile.hasCollector(candidate.name));
    for (const extra of panels) if (!this.#panels.has(extra.name)) ordered.push(extra);
    return page(profilePage({ profile, panel: panelName, panels: ordered, content, base: this.base }), 200);
  }

  /** The storage's status when it cannot be reached (only a networked storage ever says so). */
  #storageOutage(): ProfilerStorageStatus | null {
    const status = this.#profiler.storage.status;
    return status === undefined || status.available ? null : status;
  }

  /** A profile not found while storage is down may well exist: 503, not "unknown token". */
  #unavailable(request: Request, outage: ProfilerStorageStatus): Response {
    return this.#message(request, 503, 'Profile storage unavailable', html`${outage.message}`);
  }

  #newest(): Promise<ProfileSummary[]> {
    return this.#profiler.find({ limit: DEFAULT_SEARCH_LIMIT });
  }

  #message(request: Request, status: number, title: string, message: SafeHtml, profiles?: readonly ProfileSummary[]): Response {
    if (wantsJson(request)) return json({ status, title, detail: stripTags(message.value) }, status);
    return page(messagePage(title, message, this.base, profiles), status);
  }
}

function page(body: string, status: number): Response {
  return new Response(body, status, {
    'content-type': 'text/html; charset=UTF-8',
    'content-security-policy': PROFILER_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    vary: 'Accept',
  });
}

function json(data: unknown, status: number): Response {
  return new JsonResponse(data, status, { vary: 'Accept', 'x-content-type-options': 'nosniff' }, 'application/json');
}

/** `?format=json`, or an Accept header that asks for JSON and not HTML. */
function wantsJson(request: Request): boolean {
  const format = request.query.get('format');
  if (format !== null) return format === 'json';
  const accept = request.headers.get('accept') ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
}

function stripTags(text: string): string {
  return text
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function parseSearch(params: URLSearchParams): ProfileSearch | string {
  const search: ProfileSearch = {};
  const ip = params.get('ip')?.trim();
  if (ip) {
    if (isIP(ip) === 0) return 'The ip filter must be an IP address.';
    search.ip = ip;
  }
  const method = params.get('method')?.trim();
  if (method) {
    if (!/^[A-Za-z]{1,16}$/.test(method)) return 'The method filter must be an HTTP method name.';
    search.method = method.toUpperCase();
  }
  const url = params.get('url');
  if (url) search.url = url.slice(0, 2000);
  const status = params.get('status')?.trim();
  if (status) {
    if (!/^[1-5]\d\d$/.test(status)) return 'The status filter must be a three-digit HTTP status.';
    search.statusCode = Number(status);
  }
  const limit = params.get('limit')?.trim();
  if (limit) {
    if (!/^\d{1,4}$/.test(limit) || Number(limit) < 1) return `The limit must be a number from 1 to ${MAX_SEARCH_LIMIT}.`;
    search.limit = Math.min(Number(limit), MAX_SEARCH_LIMIT);
  } else {
    search.limit = DEFAULT_LIST_LIMIT;
  }
  return search;
}
