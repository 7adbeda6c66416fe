/*
 * compare.c: `perfsift compare [OPTS] BASE HEAD...` -- resolve the
 * groups (select.h), compare them (compare.h) and print LKP's table, JSON
 * or CSV.  Exit 1 when a KPI (declared, or the benchmark's own stats)
 * changed for the worse, so CI can gate on it.
 */
#include "util/compat.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "builtin.h"
#include "compare/compare.h"
#include "select/select.h"
#include "util/strbuf.h"
#include "util/strnum.h"
#include "util/usage.h"
#include "util/xalloc.h"

static const char usage_text[] =
	"usage: perfsift compare [OPTIONS] BASE HEAD...\n"
	"\n"
	"Compare result groups as LKP's table: mean, ±%stddev, %change.\n"
	"BASE/HEAD: a run, commit or matrix.json directory; a commit id,\n"
	"unique prefix or tag; or key=value[,key=value] over job parameters.\n"
	"\n"
	"  -a, --all             every stat, not only the changed ones\n"
	"  -m, --more            LKP's --more: no bisectable/allow-list filter\n"
	"  -s, --stat REGEX      only stats matching REGEX (POSIX extended)\n"
	"  -k, --kpi             the KPIs only, every one, changed or not\n"
	"      --with-kpis       every KPI, changed or not, and the changed stats\n"
	"                        (the report's table)\n"
	"      --method M        lkp (LKP's rules, default) or stats (Welch,\n"
	"                        Benjamini-Hochberg q, bootstrap interval)\n"
	"      --lkp-exact       LKP's rules alone, without the noise guard\n"
	"                        or the calibrated noise floor\n"
	"      --no-calibration  leave the noise floors `perfsift calibrate`\n"
	"                        stored unused\n"
	"      --floor-k K       a change within K times a stat's calibrated\n"
	"                        noise floor is not flagged (default 2)\n"
	"      --json            JSON (schema perfsift-compare/1) on stdout\n"
	"      --csv             CSV on stdout\n"
	"      --alpha Q         q level for stats mode (default 0.05)\n"
	"      --margin PCT      equivalence margin for `same`, a KPI's default\n"
	"                        minimum effect (default 2)\n"
	"      --bootstrap N     bootstrap resamples (default 1000)\n"
	"      --seed N          bootstrap seed (default fixed)\n"
	"  -h, --help            this text\n"
	"\n"
	"Noise guard (lkp method): when either side has fewer than 10 runs,\n"
	"a stat LKP's rules select must also pass a moderated t-test (each\n"
	"stat's noise shrunk towards the noise of all stats compared) or\n"
	"Welch's at p < 0.001.  LKP's range test alone passes by chance for\n"
	"4.8% of stats at 5 + 5 runs; measured on 1%-noise data at 5 runs:\n"
	"A/A 3.5% flagged by LKP's rules, 0.14% with the guard; a 0.5% shift\n"
	"8.0% vs 0.7%; a 5% shift 99.99% either way.  --lkp-exact reproduces\n"
	"LKP's selection (see docs/lkp-compat.md).\n"
	"\n"
	"Machine state (lkp method, not --lkp-exact): stats of the whole\n"
	"machine -- idle time and CPU shares, the scheduler's state, free\n"
	"memory, page cache, slab, perf-profile's system-wide shares -- move\n"
	"with everything else on it.  Such a stat is flagged only when both\n"
	"sides have it in 3 runs or more, they are further apart than either\n"
	"side spreads, and it changed by 10% or more; perf-profile shares\n"
	"under 1% and sched_debug's curr->pid never are.  KPIs are exempt.\n"
	"--json names the rule that left a stat out (noise_rule).\n"
	"\n"
	"Noise floor: when `perfsift calibrate JOB` ran an A/A of the job on\n"
	"this machine, each stat's measured run-to-run noise is its floor, and\n"
	"a change within K x floor is not flagged; the header says when it was\n"
	"calibrated.\n"
	"\n"
	"KPIs: the job's `kpi:` key (e.g. kpi: {mytest.score: {better: higher,\n"
	"min_effect: 5%}}), else the benchmark's own stats (mytest.*), each\n"
	"judged on its own from its own noise (not with --lkp-exact, where\n"
	"LKP's test alone decides): the 99.9% interval of its %change -- a t\n"
	"interval on the log ratios of head/base runs made beside each other\n"
	"(paired by start time), else Welch's on the logs -- makes it changed\n"
	"when it excludes 0 and the change reaches the minimum effect (the\n"
	"declared one, else 2 x the calibrated floor, else --margin), the same\n"
	"when it lies inside +-the minimum effect, else undecided: its %change\n"
	"is marked `?` and a line under the table gives the interval, the runs\n"
	"it used and how many more runs a side would likely decide it.  LKP's\n"
	"min/max test is in --json's lkp and never vetoes a KPI\n"
	"(docs/detection.md).\n"
	"\n"
	"exit status: 0, or 1 when a KPI with a direction changed for the\n"
	"worse (an undecided KPI never sets it)\n";

enum { OPT_METHOD = 256, OPT_JSON, OPT_CSV, OPT_ALPHA, OPT_MARGIN,
       OPT_BOOT, OPT_SEED, OPT_LKP_EXACT, OPT_WITH_KPIS, OPT_NO_CALIB,
       OPT_FLOOR_K };

int cmd_compare(int argc, char **argv, struct options *opts)
{
	static const struct option longopts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "more", no_argument, NULL, 'm' },
		{ "stat", required_argument, NULL, 's' },
		{ "kpi", no_argument, NULL, 'k' },
		{ "method", required_argument, NULL, OPT_METHOD },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "csv", no_argument, NULL, OPT_CSV },
		{ "alpha", required_argument, NULL, OPT_ALPHA },
		{ "margin", required_argument, NULL, OPT_MARGIN },
		{ "bootstrap", required_argument, NULL, OPT_BOOT },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "lkp-exact", no_argument, NULL, OPT_LKP_EXACT },
		{ "with-kpis", no_argument, NULL, OPT_WITH_KPIS },
		{ "no-calibration", no_argument, NULL, OPT_NO_CALIB },
		{ "floor-k", required_argument, NULL, OPT_FLOOR_K },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct compare_options co;
	struct select_ctx ctx = { opts->result_root, opts->store_url };
	struct result_group *groups;
	const struct result_group **gp;
	struct compare_result res;
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	bool json = false, csv = false;
	int c, i, ngroups, status;

	compare_options_init(&co);
	while ((c = cmd_getopt(argc, argv, "ams:kh", longopts)) != -1) {
		switch (c) {
		case 'a': co.all = true; break;
		case 'm': co.more = true; break;
		case 's': co.stat_regex = optarg; break;
		case 'k': co.kpi = true; break;
		case OPT_METHOD:
			if (!strcmp(optarg, "lkp"))
				co.method = COMPARE_LKP;
			else if (!strcmp(optarg, "stats"))
				co.method = COMPARE_STATS;
			else
				die_status(EXIT_USAGE, "--method '%s': expected lkp or stats",
					   optarg);
			break;
		case OPT_JSON: json = true; break;
		case OPT_LKP_EXACT: co.lkp_exact = true; break;
		case OPT_WITH_KPIS: co.kpi_rows = true; break;
		case OPT_NO_CALIB: co.no_calibration = true; break;
		case OPT_FLOOR_K:
			co.floor_k = cmd_double_arg("--floor-k", optarg, 0, 1e6);
			break;
		case OPT_CSV: csv = true; break;
		case OPT_ALPHA:
			co.alpha = cmd_double_arg("--alpha", optarg, 0, 1);
			break;
		case OPT_MARGIN:
			co.margin = cmd_double_arg("--margin", optarg, 0, 1e6);
			break;
		case OPT_BOOT:
			co.boot_iters = (unsigned)cmd_double_arg("--bootstrap",
							       optarg, 0, 1e6);
			break;
		case OPT_SEED: co.seed = cmd_seed_arg(optarg); break;
		case 'h':
			return cmd_usage(usage_text, false);
		default:
			return cmd_usage(usage_text, true);
		}
	}
	if (json && csv)
		die_status(EXIT_USAGE, "--json and --csv exclude each other");
	ngroups = argc - optind;
	if (ngroups < 2)
		return cmd_usage(usage_text, true);
	/* the text table of LKP's method needs no p, q or interval */
	co.no_statistics = !json && !csv && co.method == COMPARE_LKP;

	/*
	 * Every spec resolved before anything is compared: a typo in the
	 * third group must fail at once, not after a long comparison of the
	 * first two.  Bad specs are usage errors (2), as select says why.
	 */
	groups = xcalloc((size_t)ngroups, sizeof(*groups));
	gp = xcalloc((size_t)ngroups, sizeof(*gp));
	/* the index is checked against the disk once, for all of them */
	status = select_groups(&ctx, (const char *const *)&argv[optind],
			       (size_t)ngroups, groups, &err);
	if (status == SELECT_NO_STORE) {
		/* no index to read (a full disk): a runtime error, said so */
		error("%s", err.buf);
		status = EXIT_RUNTIME;
		goto out;
	}
	if (status)
		die_status(EXIT_USAGE, "%s", err.buf);
	for (i = 0; i < ngroups; i++)
		gp[i] = &groups[i];
	if (compare_groups(gp, (size_t)ngroups, &co, &res, &err))
		die_status(EXIT_USAGE, "%s", err.buf);
	if (json)
		compare_render_json(&res, &co, &out);
	else if (csv)
		compare_render_csv(&res, &out);
	else
		compare_render_text(&res, &out);
	/* the whole output at once: a failure above leaves stdout empty */
	fwrite(out.buf, 1, out.len, stdout);
	status = res.kpi_regressed ? EXIT_REGRESSION : EXIT_OK;

	compare_result_release(&res);
out:
	for (i = 0; i < ngroups; i++)
		result_group_release(&groups[i]);
	free(groups);
	free(gp);
	strbuf_release(&out);
	strbuf_release(&err);
	return status;
}
