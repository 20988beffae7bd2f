import { html, SafeHtml } from './markup/html.js';

/**
 * The pages run no script at all and load nothing: styles are inline, and this policy says so to
 * the browser, as a second line of defence behind escaping.
 */
export const PROFILER_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const STYLE = `
:root { --fg:#1d2433; --muted:#5b6577; --line:#dfe3ea; --bg:#f6f7f9; --card:#fff; --accent:#2458c6; --ok:#1f7a3d; --warn:#a45a00; --bad:#b3261e; --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); text-decoration: none; } a:hover { text-decoration: underline; }
code, pre, .mono { font-family: var(--mono); font-size: 13px; }
pre { margin: 0; white-space: pre-wrap; word-break: break-all; }
.top { background: #1d2433; color: #fff; padding: 10px 24px; display: flex; gap: 24px; align-items: center; }
.top a { color: #c9d6ff; } .top .brand { font-weight: 700; letter-spacing: .02em; color: #fff; }
.summary { display: flex; gap: 18px; align-items: stretch; padding: 18px 24px; background: var(--card); border-bottom: 1px solid var(--line); }
.status { min-width: 84px; display: flex; align-items: center; justify-content: center; font-size: 28px; font-weight: 700; color: #fff; border-radius: 6px; background: var(--ok); }
.status.s3 { background: #52606d; } .status.s4 { background: var(--warn); } .status.s5, .status.s0 { background: var(--bad); }
.summary h1 { margin: 0 0 4px; font-size: 18px; font-weight: 600; word-break: break-all; }
.meta { color: var(--muted); display: flex; flex-wrap: wrap; gap: 4px 18px; }
.meta b { color: var(--fg); font-weight: 600; }
.layout { display: flex; align-items: flex-start; }
nav.panels { width: 230px; flex: none; padding: 16px 0; }
nav.panels a { display: flex; justify-content: space-between; align-items: center; gap: 8px; padding: 7px 24px; color: var(--fg); border-left: 3px solid transparent; }
nav.panels a.active { background: var(--card); border-left-color: var(--accent); font-weight: 600; }
nav.panels a:hover { background: #eceff4; text-decoration: none; }
.badge { display: inline-block; white-space: nowrap; min-width: 20px; padding: 0 6px; border-radius: 10px; background: #e4e8ef; color: var(--fg); font-size: 12px; text-align: center; }
.badge.bad { background: var(--bad); color: #fff; } .badge.warn { background: var(--warn); color: #fff; }
main { flex: 1; min-width: 0; padding: 16px 24px 48px; }
h2 { font-size: 20px; margin: 4px 0 14px; } h3 { font-size: 15px; margin: 22px 0 8px; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 6px; margin-bottom: 16px; overflow: hidden; }
.card > h3 { margin: 0; padding: 10px 14px; border-bottom: 1px solid var(--line); background: #fafbfc; }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; vertical-align: top; padding: 6px 14px; border-bottom: 1px solid var(--line); }
tr:last-child > td, tr:last-child > th { border-bottom: none; }
th { width: 220px; color: var(--muted); font-weight: 600; word-break: break-all; }
thead th { width: auto; background: #fafbfc; white-space: nowrap; word-break: normal; }
td.nowrap { white-space: nowrap; word-break: normal; }
td { word-break: break-word; }
.empty { color: var(--muted); font-style: italic; padding: 10px 14px; }
.muted { color: var(--muted); }
.error-title { font-size: 18px; font-weight: 600; color: var(--bad); margin: 0 0 6px; word-break: break-word; }
.error-class { font-family: var(--mono); color: var(--muted); }
.frame { border-top: 1px solid var(--line); padding: 8px 14px; }
.frame .where { font-family: var(--mono); font-size: 13px; }
.frame.vendor { color: var(--muted); }
.excerpt { margin-top: 6px; background: #f3f5f8; border-radius: 4px; overflow: auto; }
.excerpt div { font-family: var(--mono); font-size: 12.5px; white-space: pre; padding: 0 8px; }
.excerpt div.hl { background: #ffe9a8; }
.excerpt span.ln { display: inline-block; width: 48px; color: var(--muted); user-select: none; }
.cause { border-left: 3px solid var(--bad); }
.threw { color: var(--bad); font-weight: 600; }
.skipped td { color: var(--muted); text-decoration: line-through; }
.tag { display: inline-block; padding: 0 6px; border-radius: 4px; font-size: 12px; background: #e4e8ef; }
.tag.sub { background: #e8defa; } .tag.s2 { background: #dcf1e2; color: var(--ok); } .tag.s4 { background: #fdebd2; color: var(--warn); } .tag.s5 { background: #fbe1de; color: var(--bad); } .tag.ERROR, .tag.CRITICAL, .tag.none { background: #fbe1de; color: var(--bad); } .tag.WARNING, .tag.almost { background: #fdebd2; color: var(--warn); } .tag.match { background: #dcf1e2; color: var(--ok); }
.bar { position: relative; height: 14px; background: #eef1f5; border-radius: 3px; min-width: 120px; }
.bar span { position: absolute; top: 0; bottom: 0; background: var(--accent); border-radius: 3px; min-width: 2px; }
.bar span.sub { background: #7b52c9; }
form.search { display: flex; gap: 10px; flex-wrap: wrap; align-items: flex-end; padding: 12px 14px; }
form.search label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); }
form.search input, form.search select { font: inherit; padding: 4px 8px; border: 1px solid var(--line); border-radius: 4px; min-width: 110px; }
form.search button { font: inherit; padding: 5px 14px; border: 0; border-radius: 4px; background: var(--accent); color: #fff; }
.outage { margin: 0 0 16px; padding: 10px 14px; border-radius: 6px; background: #fbe1de; color: var(--bad); }
.notice { max-width: 760px; margin: 40px auto; }
.notice h1 { font-size: 22px; }
`;

/** The HTML document around a page's content. */
export function layout(title: string, content: SafeHtml, base: string): string {
  return html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex,nofollow">
<title>${title}</title>
<style>${new SafeHtml(STYLE)}</style>
</head>
<body>
<div class="top"><a class="brand" href="${base}/">Switchboard profiler</a><a href="${base}/">Last profiles</a><a href="${base}/latest">Latest</a></div>
${content}
</body>
</html>
`.value;
}
