/*
 * results.c: `perfsift results [QUERY]` -- the result groups the index
 * holds, with their run counts; QUERY is what compare takes for a side (a
 * directory, a commit id or unique prefix, key=value[,key=value...]).
 * A group whose runs are of different jobs (LKP, or an older perfsift,
 * cut long values out of the group's name) gets a warning naming the
 * parameter they differ in.
 */
#include "util/compat.h"
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include "builtin.h"
#include "result/result.h"
#include "store/store.h"
#include "util/strbuf.h"
#include "util/trust.h"
#include "util/usage.h"

static const char results_usage[] =
	"usage: perfsift results [--params] [--runs] [--json] [QUERY]\n"
	"\n"
	"List the result groups (one per job parameters, machine and commit)\n"
	"with their complete and incomplete run counts.  QUERY narrows the list:\n"
	"  DIR                  a group, a run, or a directory above groups\n"
	"  COMMIT               a commit id or a unique prefix of one\n"
	"  KEY=VALUE[,K=V...]   job parameters, machine facts or path axes\n"
	"                       (testcase, path_params, tbox_group, rootfs,\n"
	"                       kconfig, compiler, commit)\n"
	"\n"
	"  --params     also print every parameter of each group\n"
	"  --runs       also print each run (number, state, directory)\n"
	"  --json       one JSON array of groups instead of text\n"
	"  -h, --help   this text\n"
	"\n"
	"Group directories are shown relative to the result root.  A group\n"
	"holding runs of different jobs (different parameters: LKP and older\n"
	"perfsift cut values to 31 characters in group names) is named in a\n"
	"warning; compare, plot and report refuse it.\n";

/* a group's directory below the root, as the user names it to compare */
static const char *rel_dir(const struct store *st, const char *dir)
{
	const char *rel = store_rel_dir(st, dir);

	return rel ? rel : dir;
}

/*
 * Warn about a group of runs of different jobs; its reason into why (empty
 * when the group is of one job).
 */
static void check_mixed(const struct store *st, const struct store_group *g,
			struct strbuf *why)
{
	if (result_group_mixed(g->dir, why) > 0)
		warning("%s: runs of different jobs in one group: %s",
			rel_dir(st, g->dir), why->buf);
}

/*
 * One group as text: its directory and run counts on one line (what a
 * shell loop or a grep wants), then with --params its parameters and with
 * --runs its runs, indented under it.
 */
static int print_text(struct store *st, const struct store_group *g,
		      bool params, bool runs, struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	size_t i;

	check_mixed(st, g, &why);
	strbuf_release(&why);

	/* a store's text (a shared lab index) is escaped: no ESC on the terminal */
	printf("%s  %zu run%s", trust_shown(rel_dir(st, g->dir)), g->nruns,
	       g->nruns == 1 ? "" : "s");
	if (g->nincomplete)
		printf(", %zu incomplete", g->nincomplete);
	putchar('\n');
	if (params) {
		struct store_param_list l = {0};

		if (store_group_params(st, g->id, &l, err))
			return -1;
		for (i = 0; i < l.n; i++)
			printf("    %s=%s\n", trust_shown(l.items[i].key),
			       trust_shown(l.items[i].value));
		store_param_list_release(&l);
	}
	if (runs) {
		struct store_run_list l = {0};

		if (store_group_runs(st, g->id, &l, err))
			return -1;
		for (i = 0; i < l.n; i++)
			printf("    run %d  %s  %s\n", l.items[i].number,
			       l.items[i].complete ? "complete  " : "incomplete",
			       trust_shown(l.items[i].dir));
		store_run_list_release(&l);
	}
	return 0;
}

/*
 * One group as a JSON object: the directory as the store gives it (the
 * text form shows it below the root), every axis even when empty, so a
 * script sees one fixed set of keys, and "mixed" only for a mixed group.
 */
static int print_json(struct store *st, const struct store_group *g,
		      bool params, bool runs, struct strbuf *out,
		      struct strbuf *err)
{
	struct strbuf why = STRBUF_INIT;
	size_t a, i;

	strbuf_addstr(out, "{\"dir\": ");
	strbuf_add_json_str(out, g->dir);
	for (a = 0; a < STORE_NAXES; a++) {
		strbuf_addstr(out, ", ");
		strbuf_add_json_str(out, store_axis_name((enum store_axis)a));
		strbuf_addstr(out, ": ");
		strbuf_add_json_str(out, g->axes[a]);
	}
	strbuf_addf(out, ", \"runs\": %zu, \"incomplete\": %zu", g->nruns,
		    g->nincomplete);
	check_mixed(st, g, &why);
	if (why.len) {
		strbuf_addstr(out, ", \"mixed\": ");
		strbuf_add_json_str(out, why.buf);
	}
	strbuf_release(&why);
	if (params) {
		struct store_param_list l = {0};

		if (store_group_params(st, g->id, &l, err))
			return -1;
		strbuf_addstr(out, ", \"params\": {");
		for (i = 0; i < l.n; i++) {
			strbuf_addstr(out, i ? ", " : "");
			strbuf_add_json_str(out, l.items[i].key);
			strbuf_addstr(out, ": ");
			strbuf_add_json_str(out, l.items[i].value);
		}
		strbuf_addch(out, '}');
		store_param_list_release(&l);
	}
	if (runs) {
		struct store_run_list l = {0};

		if (store_group_runs(st, g->id, &l, err))
			return -1;
		strbuf_addstr(out, ", \"run_list\": [");
		for (i = 0; i < l.n; i++) {
			strbuf_addf(out, "%s{\"number\": %d, \"complete\": %s, "
				    "\"dir\": ", i ? ", " : "", l.items[i].number,
				    l.items[i].complete ? "true" : "false");
			strbuf_add_json_str(out, l.items[i].dir);
			strbuf_addch(out, '}');
		}
		strbuf_addch(out, ']');
		store_run_list_release(&l);
	}
	strbuf_addch(out, '}');
	return 0;
}

int cmd_results(int argc, char **argv, struct options *opts)
{
	static const struct option longopts[] = {
		{"params", no_argument, NULL, 'p'},
		{"runs", no_argument, NULL, 'r'},
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct store st;
	struct store_selector sel;
	struct store_group_list l = {0};
	struct strbuf err = STRBUF_INIT, json = STRBUF_INIT;
	const char *query = NULL;
	bool params = false, runs = false, as_json = false;
	size_t i;
	int c, ret = EXIT_RUNTIME;

	while ((c = cmd_getopt(argc, argv, "h", longopts)) != -1) {
		switch (c) {
		case 'p':
			params = true;
			break;
		case 'r':
			runs = true;
			break;
		case 'j':
			as_json = true;
			break;
		case 'h':
			return cmd_usage(results_usage, false);
		default:
			return cmd_usage(results_usage, true);
		}
	}
	if (optind + 1 < argc)
		return cmd_usage(results_usage, true);
	if (optind < argc)
		query = argv[optind];
	if (result_store_open(&st, opts->result_root, opts->store_url, 0, &err)) {
		error("%s", err.buf);
		strbuf_release(&err);
		return EXIT_RUNTIME;
	}
	if (store_selector_parse(&sel, st.root, query, &err)) {
		error("%s", err.buf);
		ret = EXIT_USAGE;
		goto out;
	}
	if (store_find_groups(&st, &sel, &l, &err))
		goto fail;
	/* JSON is built whole and printed at the end: a store error half way
	 * must not leave a truncated array on stdout */
	if (as_json)
		strbuf_addstr(&json, "[");
	for (i = 0; i < l.n; i++) {
		if (as_json) {
			strbuf_addstr(&json, i ? ",\n " : "");
			if (print_json(&st, &l.items[i], params, runs, &json, &err))
				goto fail;
		} else if (print_text(&st, &l.items[i], params, runs, &err)) {
			goto fail;
		}
	}
	if (as_json)
		printf("%s]\n", json.buf);
	else if (!l.n && query)
		note("no result group matches '%s' in '%s'", query, st.root);
	else if (!l.n)
		note("no results in '%s'", st.root);
	ret = EXIT_OK;
	goto out;
fail:
	error("%s", err.buf);
out:
	store_selector_release(&sel);
	store_group_list_release(&l);
	store_close(&st);
	strbuf_release(&err);
	strbuf_release(&json);
	return ret;
}
