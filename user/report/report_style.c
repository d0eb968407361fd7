// SPDX-License-Identifier: GPL-2.0
/* The report's only style sheet, inlined in the page: system fonts, no
 * web fonts, nothing fetched. */
#include "report/report_style.h"

const char report_css[] =
	"body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:1400px;padding:0 1em;color:#222;background:#fff}\n"
	"h1{font-size:1.6em}h2{border-bottom:2px solid #0072b2;padding-bottom:.2em;margin-top:2em}\n"
	"h3{font-size:1.05em;margin:.8em 0 .3em}\n"
	".question{color:#555;margin-top:-.5em}\n"
	"table{border-collapse:collapse;font-size:.85em;margin:.5em 0}\n"
	"caption{text-align:left;font-weight:600;padding:.3em 0}\n"
	"th,td{border:1px solid #ccc;padding:.2em .5em;vertical-align:top}\n"
	"th{background:#f0f4f8;text-align:left}td.num{text-align:right;white-space:nowrap}\n"
	"td.params{font-family:ui-monospace,monospace;font-size:.9em}\n"
	".tablewrap{overflow-x:auto}\n"
	"table.kv th{width:14em}\n"
	"table.summary{font-size:1em;width:100%;max-width:1100px}table.summary th:first-child{width:11em}\n"
	"table.summary td:last-child{white-space:nowrap}tr.unmeasured td{color:#777}\n"
	".modes{display:grid;grid-template-columns:repeat(auto-fit,minmax(560px,1fr));gap:1.5em}\n"
	".mode{min-width:0}\n"
	".warn{background:#fff4e5;border-left:4px solid #d55e00;padding:.5em 1em}\n"
	".banner{background:#fde2e2;border-left:4px solid #b00;padding:.5em 1em;font-weight:600}\n"
	"svg.chart{width:100%;max-width:760px;height:auto;display:block;margin:.5em 0;font-size:11px}\n"
	"svg .title{font-size:13px;font-weight:600}svg .label{font-size:12px}\n"
	"svg .tick,svg .legend,svg .markerlabel{fill:#333}svg .markerlabel{font-size:10px}\n"
	"svg .grid{stroke:#e4e4e4}svg .axis{stroke:#444}\n"
	"svg .marker{stroke:#b00;stroke-dasharray:4 3}svg .markerlabel{fill:#b00}svg .floorlabel{fill:#555;font-size:10px}\n"
	"svg .line{fill:none;stroke-width:1.6}svg .errorbar{stroke-width:1;fill:none}\n"
	"svg .nodata{fill:#888;font-size:14px}\n"
	"footer{margin-top:3em;color:#666;font-size:.85em}\n";
