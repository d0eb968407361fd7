/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CACHEPROBE_REPORT_STYLE_H
#define CACHEPROBE_REPORT_STYLE_H

/* The CSS of the report page. */
extern const char report_css[];

#endif
