// The report's one stylesheet, inlined so the file works offline and as a CI artifact. Its
// sha256 goes into the page's CSP, so no other style can apply. Outcome colours are keyed on
// data-outcome, which every badge, matrix cell and count carries.
export const REPORT_STYLE = `
:root {
  --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg: #ffffff; --panel: #f6f8fa; --accent: #0969da;
  --PASS: #1a7f37; --PASS-bg: #dafbe1; --FAIL: #cf222e; --FAIL-bg: #ffebe9; --WARN: #9a6700; --WARN-bg: #fff8c5;
  --SKIP: #59636e; --SKIP-bg: #eff2f5; --ERROR: #8250df; --ERROR-bg: #fbefff; --XFAIL: #0969da; --XFAIL-bg: #ddf4ff;
  --UNTESTED: #bc4c00; --UNTESTED-bg: #fff1e5;
  --mono: ui-monospace, SFMono-Regular, "DejaVu Sans Mono", Menlo, Consolas, monospace;
}
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "Noto Sans", "DejaVu Sans", sans-serif; color: var(--fg); background: var(--bg); }
main { max-width: 1280px; margin: 0 auto; padding: 0 24px 64px; }
h2 { font-size: 20px; margin: 40px 0 12px; padding-bottom: 6px; border-bottom: 1px solid var(--line); }
h4 { font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); margin: 18px 0 6px; }
code, pre { font-family: var(--mono); font-size: 13px; }
pre { margin: 0; padding: 10px 12px; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 32em; overflow: auto; }
a { color: var(--accent); }
.note { color: var(--muted); font-size: 13px; margin: 6px 0; }
[hidden] { display: none !important; }

.verdict-banner { display: flex; gap: 20px; align-items: center; padding: 28px max(24px, calc((100% - 1232px) / 2)); color: #fff; }
.verdict-banner[data-verdict="conforming"] { background: linear-gradient(120deg, #116329, #1a7f37); }
.verdict-banner[data-verdict="non-conforming"] { background: linear-gradient(120deg, #a40e26, #cf222e); }
.verdict-banner[data-verdict="incomplete"] { background: linear-gradient(120deg, #9a4d00, #d4a72c); }
.verdict-headline { margin: 0 0 8px; font-size: 15px; opacity: .95; }
.gaps { margin-top: 24px; padding: 4px 18px 8px; border: 1px solid #d4a72c; border-left: 4px solid #bf8700; border-radius: 6px; background: var(--WARN-bg); }
.gaps h2 { margin: 12px 0 6px; border: 0; font-size: 17px; }
.gaps li { margin: 4px 0; }
.verdict-mark { font-size: 44px; line-height: 1; width: 72px; height: 72px; display: grid; place-items: center; border-radius: 50%; background: rgba(255,255,255,.18); flex: none; }
.eyebrow { margin: 0; font-size: 13px; text-transform: uppercase; letter-spacing: .08em; opacity: .85; }
.verdict-banner h1 { margin: 2px 0 8px; font-size: 34px; line-height: 1.1; }
.facts { display: flex; flex-wrap: wrap; gap: 4px 22px; margin: 0; font-size: 14px; }
.facts div { display: flex; gap: 6px; }
.facts dt { opacity: .8; }
.facts dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }

.counts { list-style: none; display: flex; flex-wrap: wrap; gap: 10px; padding: 0; margin: 20px 0 0; }
.counts a { display: flex; flex-direction: column; min-width: 96px; padding: 8px 14px; border-radius: 8px; text-decoration: none; border: 1px solid var(--line); color: var(--fg); background: var(--bg); }
.counts .n { font-size: 26px; font-weight: 700; line-height: 1.2; }
.counts .label { font-size: 12px; font-weight: 600; letter-spacing: .05em; }
.counts a[data-count="0"] { opacity: .55; }
nav.sections { position: sticky; top: 0; z-index: 2; background: rgba(255,255,255,.95); border-bottom: 1px solid var(--line); }
nav.sections ul { list-style: none; display: flex; flex-wrap: wrap; gap: 4px 22px; margin: 0 auto; padding: 10px 24px; max-width: 1280px; }
nav.sections a { text-decoration: none; font-weight: 600; }

.badge, .level { display: inline-block; padding: 1px 7px; border-radius: 999px; font-size: 11px; font-weight: 700; letter-spacing: .04em; white-space: nowrap; vertical-align: 1px; }
.level { border: 1px solid var(--line); color: var(--muted); }
.level[data-level="MUST"] { color: var(--fg); border-color: var(--fg); }
.basis { display: inline-block; padding: 0 6px; border-radius: 4px; font-size: 11px; color: var(--muted); border: 1px dashed var(--line); white-space: nowrap; }
.basis[data-basis="choice"] { color: var(--WARN); border-color: var(--WARN); }
${['PASS', 'FAIL', 'WARN', 'SKIP', 'ERROR', 'XFAIL', 'UNTESTED']
  .map(
    (o) => `[data-outcome="${o}"] .label, .badge[data-outcome="${o}"], .counts a[data-outcome="${o}"] .n { color: var(--${o}); }
.badge[data-outcome="${o}"], .matrix-cell[data-outcome="${o}"], .filters button[data-outcome="${o}"][aria-pressed="true"] { background: var(--${o}-bg); color: var(--${o}); }
.counts a[data-outcome="${o}"] { border-top: 4px solid var(--${o}); }`,
  )
  .join('\n')}

.table-scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { text-align: left; vertical-align: top; padding: 7px 10px; border-bottom: 1px solid var(--line); }
thead th { font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); background: var(--panel); }
td.num, th.num { text-align: right; white-space: nowrap; }

.matrix { width: auto; min-width: 70%; }
.matrix th[scope="row"] { font-weight: 400; white-space: nowrap; }
.matrix tbody tr:hover th { background: var(--panel); }
.matrix-cell { text-align: center; min-width: 92px; padding: 0; border-left: 2px solid var(--bg); }
.matrix-cell a { display: block; padding: 7px 10px; color: inherit; text-decoration: none; font-weight: 700; font-size: 12px; }
.matrix-cell a:hover, .matrix-cell a:focus { outline: 2px solid currentColor; outline-offset: -2px; }
.matrix-cell.empty { background: repeating-linear-gradient(135deg, var(--bg) 0 6px, var(--panel) 6px 12px); }
.cell-count { font-weight: 400; opacity: .85; }

.failure { border: 1px solid var(--line); border-left: 4px solid var(--line); border-radius: 6px; margin: 10px 0; background: var(--bg); }
.failure[data-outcome="FAIL"] { border-left-color: var(--FAIL); }
.failure[data-outcome="WARN"] { border-left-color: var(--WARN); }
.failure[data-outcome="ERROR"] { border-left-color: var(--ERROR); }
.failure summary { cursor: pointer; padding: 10px 14px; display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 10px; }
.failure[open] summary { border-bottom: 1px solid var(--line); background: var(--panel); }
.failure-title { font-weight: 600; }
.summary-message { flex-basis: 100%; color: var(--muted); font-size: 13px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; padding-left: 2px; }
.failure[open] .summary-message { white-space: normal; overflow-wrap: anywhere; }
.failure-body { padding: 4px 16px 16px; }
.failure-body pre.message { margin-top: 12px; border-color: transparent; }
.auth-matrix, .broken-checks { width: auto; min-width: 60%; font-size: 13px; }
.auth-matrix tr.broken td { background: var(--FAIL-bg); }
.auth-matrix tr.broken[data-outcome="WARN"] td { background: var(--WARN-bg); }
.requirement p { margin: 0; display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 10px; }
.requirement-id { font-weight: 600; }
cite { color: var(--muted); font-size: 13px; }
blockquote { margin: 8px 0 4px; padding: 6px 14px; border-left: 4px solid var(--accent); background: #f0f6ff; font-family: Georgia, "DejaVu Serif", serif; font-size: 15px; }
.expected-actual, .exchange { display: grid; grid-template-columns: 1fr 1fr; gap: 0 16px; }
@media (max-width: 760px) { .expected-actual, .exchange { grid-template-columns: 1fr; } }
[data-testid="expected"] pre { border-left: 4px solid var(--PASS); }
[data-testid="actual"] pre { border-left: 4px solid var(--FAIL); }
.http-message h4 { margin-top: 6px; }
.http-head { border-bottom-left-radius: 0; border-bottom-right-radius: 0; }
.http-head + pre.body, .http-head + .note { margin-top: -1px; }
.start-line { font-weight: 700; }
.header-name { color: var(--muted); }
pre.body { background: var(--bg); border-top-left-radius: 0; border-top-right-radius: 0; }
.reproduce h4 { display: flex; align-items: center; gap: 10px; }
pre.reproduce { background: #0d1117; color: #e6edf3; border-color: #0d1117; }
button { font: inherit; font-size: 13px; cursor: pointer; border: 1px solid var(--line); background: var(--bg); color: var(--fg); border-radius: 6px; padding: 2px 10px; text-transform: none; letter-spacing: 0; }
button:hover { background: var(--panel); }
.case-facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 18px 0 0; font-size: 13px; color: var(--muted); }
.case-facts dd { margin: 0; overflow-wrap: anywhere; }

.search { position: sticky; top: 0; z-index: 2; display: flex; align-items: center; gap: 12px; margin: 0 0 16px; padding: 8px 0; background: var(--bg); }
.search input { flex: 1; max-width: 560px; padding: 6px 10px; font: inherit; border: 1px solid var(--line); border-radius: 6px; }
.filters { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; margin: 0 0 10px; }
.filter-label { color: var(--muted); font-size: 13px; margin-right: 4px; }
.filters button[aria-pressed="true"] { border-color: currentColor; font-weight: 700; background: var(--panel); }
.filters .n { opacity: .75; }
.cell-filter { margin-left: 8px; font-size: 13px; }
.cases .case-title { min-width: 280px; }
.case-facts-inline { color: var(--muted); font-size: 12px; }
.case-facts-inline code { font-size: 12px; }
.cases .endpoints code { display: block; white-space: nowrap; font-size: 12px; }
.cases .aspects { color: var(--muted); font-size: 12px; }
/* Two lines of the message are enough to recognise it; the whole text is in the title tooltip and the failure block. */
.case-message { min-width: 200px; max-width: 360px; color: var(--muted); font-size: 13px; overflow-wrap: anywhere; white-space: pre-line; display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; line-clamp: 2; overflow: hidden; }
.requirements tr.untested { background: var(--UNTESTED-bg); }
.requirements .fault { font-size: 12px; overflow-wrap: anywhere; min-width: 200px; }
.requirements .fault code { font-size: 12px; }
.requirements .fault[data-caught="false"] .note { color: var(--FAIL); font-weight: 700; }
.quote-cell blockquote { margin-top: 0; font-size: 14px; }
footer { color: var(--muted); font-size: 13px; margin-top: 48px; }
@media print { nav.sections, .filters, .search, button { display: none !important; } .failure { break-inside: avoid; } pre { max-height: none; } }
`;
