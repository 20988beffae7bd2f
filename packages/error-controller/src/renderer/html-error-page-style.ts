/**
 * The debug page's whole stylesheet, inlined: the page loads nothing from anywhere, so it works
 * offline, behind a strict CSP for assets, and when the error is in the asset pipeline itself.
 */
export const ERROR_PAGE_CSS = `
:root { color-scheme: light dark; --fg: #1f2328; --bg: #ffffff; --muted: #59636e; --line: #d1d9e0;
  --panel: #f6f8fa; --accent: #b3261e; --mark: #fff1c2; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1; --line: #3d444d;
  --panel: #151b23; --accent: #ff7b72; --mark: #4b3d0a; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 1100px; margin: 0 auto; padding: 24px; }
header { border-bottom: 3px solid var(--accent); padding-bottom: 16px; margin-bottom: 24px; }
.status { color: var(--accent); font-weight: 600; margin: 0; }
h1 { font-size: 1.2rem; margin: 4px 0; color: var(--muted); font-weight: 500; }
.message { font-size: 1.5rem; margin: 8px 0; overflow-wrap: anywhere; white-space: pre-wrap; }
.site, .muted { color: var(--muted); font-size: 0.9rem; overflow-wrap: anywhere; }
h2 { font-size: 1.1rem; margin: 32px 0 8px; }
h3 { font-size: 1rem; margin: 0; overflow-wrap: anywhere; }
article { border: 1px solid var(--line); border-radius: 6px; padding: 16px; margin-bottom: 16px; }
ol.frames { list-style: none; padding: 0; margin: 12px 0 0; }
ol.frames li { border-top: 1px solid var(--line); }
summary { cursor: pointer; padding: 6px 0; overflow-wrap: anywhere; }
summary .fn { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-weight: 600; }
.vendor summary { color: var(--muted); }
pre { margin: 0 0 8px; padding: 8px 0; background: var(--panel); border-radius: 4px; overflow-x: auto;
  font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre span { display: block; padding: 0 12px; white-space: pre; }
pre span.hit { background: var(--mark); }
pre i { display: inline-block; min-width: 4ch; color: var(--muted); font-style: normal; user-select: none; }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
th { width: 28%; color: var(--muted); font-weight: 500; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
`;
