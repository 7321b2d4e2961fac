/* See LICENSE file for copyright and license details. */
#include "render/chartlist.h"

const struct tl_chart tl_charts[TL_CHART_N] = {
	[TL_CHART_ROOFLINE] = { "roofline.svg",
	    "Roofline of the op signatures" },
	[TL_CHART_BREAKDOWN] = { "breakdown.svg", "GPU time breakdown" },
	[TL_CHART_RANKS] = { "ranks.svg", "GPU time per rank" },
	[TL_CHART_TIMELINE] = { "timeline.svg", "GPU busy and idle over time" },
	[TL_CHART_GAPS] = { "gaps.svg", "Lengths of the idle gaps" },
};

const struct tl_chart tl_cmpchart = { "comparison.svg",
    "Reference against target" };

int
tl_chart_wanted(const struct tl_findings *f, int i)
{
	return i != TL_CHART_RANKS || f->ntr > 1;
}
