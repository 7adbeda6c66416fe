/*
 * report.h: the 0-day style report of a comparison (spec lkp-compare.md
 * §6, the seed in ../shared/seed/): as e-mail text (report/email.c) and as
 * one self-contained HTML page (report/html.c).
 *
 * The renderers take a struct report that holds everything already
 * decided -- the headline KPI, the ranked stats that explain it, the
 * charts, the comparison table rendered by compare.h -- so they are pure
 * formatting; report.c builds it from compare.h's result.
 */
#ifndef PERFSIFT_REPORT_H
#define PERFSIFT_REPORT_H

#include "util/compat.h"

struct strbuf;

/*
 * The Content-Security-Policy of perfsift's HTML pages (the report, the
 * site): nothing but the page's own inline style and script, so the
 * browser itself guarantees that a page makes no request.
 */
#define REPORT_HTML_CSP "default-src 'none'; style-src 'unsafe-inline'; " \
			"script-src 'unsafe-inline'; img-src data:"

/* how many ranked stats go above the table, and how many charts */
#define REPORT_MAX_EXPLAIN 10
#define REPORT_MAX_CHARTS 4

/* one stat of the comparison, as the report shows it */
struct report_stat {
	const char *name;
	double base_mean, head_mean;
	double base_sd, head_sd;   /* population stddev, -1 when unknown */
	double change;             /* the table's change (% or absolute) */
	bool absolute;             /* change is an absolute difference */
	bool is_function;          /* a failure stat (change = %reproduction) */
	bool changed;              /* selected by the comparison */
	bool undecided;            /* a KPI neither changed nor the same yet */
	const char *effect;        /* "improvement", "regression" or NULL */
	double q;                  /* BH q-value, NAN when not computed */
	/* how well the stat tells the bad runs from the good ones,
	 * report_separation(); NAN when not judged (fewer than 3 runs) */
	double separation;
	const double *base_v, *head_v; /* per-run samples, for the charts */
	size_t nbase, nhead;
};

/* the test box, from the head runs' job.yaml (machine facts) */
struct report_box {
	const char *host;      /* testbox */
	const char *cpu_model; /* model */
	const char *nr_cpu;
	const char *memory;    /* "24G" */
	/* the environment fingerprint (NULL when unknown) */
	const char *thp_enabled, *thp_defrag, *governor, *cmdline;
	/*
	 * the settings the job applied (its setup programs' values,
	 * "transparent_hugepage.thp_enabled=always, ..."), NULL: none -- the
	 * env_* facts above are the machine's values before the job
	 */
	const char *settings;
};

/*
 * "To reproduce": what the runs say about how they were made, so the
 * report can give the exact commands (report_repro_text()).  A NULL
 * field is not known, and the report says so rather than guess.
 */
struct report_repro {
	/* the base's job beside the report when it differs from the head's
	 * (the settings of a comparison on one commit), else NULL */
	const char *base_job_file;
	bool no_job;            /* the head runs have no job.yaml (LKP's root) */
	bool no_base_job;       /* the base runs have none: the head's is used */
	/* a mytest job's command: given as `-- CMD` when it is plain words
	 * (cmd_plain), else only in the job file's mytest.cmdline */
	const char *cmd;
	bool cmd_plain;
	const char *base_commit, *head_commit;
	/* the runs' env_build / env_install (run --build-cmd), else the
	 * bisect's or the robot's own, else NULL */
	const char *build, *install;
	size_t base_runs, head_runs;
	/* `perfsift compare BASE HEAD`'s selectors of the two groups */
	const char *base_sel, *head_sel;
};

/* a parameter both sides share (the table's header axes, one by one) */
struct report_param {
	const char *key, *value;
};

struct report {
	const char *commit;     /* HEAD's commit id (or label) */
	/* the tree and branch the commit was found on ("demo/main", the
	 * robot's), shown in the subject's brackets as 0-day's; NULL: none */
	const char *tree;
	const char *subject;    /* its subject line from git, or NULL */
	const char *base_label, *head_label;
	/*
	 * the parameters that differ between the sides ("thp_enabled=always"
	 * for head, "thp_enabled=never" for base), NULL when none: a report
	 * of two settings on one commit says which settings
	 */
	const char *base_setting, *head_setting;
	/*
	 * the column headings: what differs between the sides -- the
	 * commits, or the setting when the commits are the same, or the
	 * groups' names -- never two identical headings
	 */
	const char *base_heading, *head_heading;
	bool bisect;            /* charts of a bisect: bisect-good/bad legend */
	const struct report_param *params; /* common axes but commit, env_* */
	size_t nparams;
	const struct report_stat *kpi;        /* the headline stat, or NULL */
	/*
	 * the runs have no KPI: the headline is the benchmark's time
	 * (`<testcase>.time.*`), not a KPI, and the report says so
	 */
	bool kpi_fallback;
	const struct report_stat *const *explain; /* ranked, <= 10 */
	size_t nexplain;
	const struct report_stat *const *charts;  /* KPI first */
	size_t ncharts;
	const struct report_stat *rows;       /* the table's rows, in order */
	size_t nrows;
	size_t nstats;          /* stats compared */
	const char *table;      /* compare's text table */
	/*
	 * one line per undecided KPI ("undecided: N more runs a side would
	 * likely decide STAT (...)"), each ending in a newline; NULL: none
	 */
	const char *undecided;
	struct report_box box;
	const char *job_file;   /* the job file's name beside the report */
	struct report_repro repro;
};

/* "5f155ea5ab" for a sha, the label itself for anything else; into out */
void report_short_commit(struct strbuf *out, const char *commit);
/* a value as the table shows a mean, without its padding */
void report_format_value(struct strbuf *out, double v);
/* "-51.0%" / "+0.12" as the headline writes a change */
void report_format_change(struct strbuf *out, const struct report_stat *s);
/* the headline's word: "undecided", "unchanged", "improvement", "regression", "change" */
const char *report_effect_word(const struct report_stat *s);
/*
 * "[perfsift] [<tree>] <short sha> (<head setting>): <stat> <change> <word>"
 * (no newline; the tree and the setting when known): the one subject of
 * the text report, the HTML page's title and the robot's mail, the sha
 * cut to 10 characters as 0-day's subjects (spec lkp-compare.md §6)
 */
void report_subject(struct strbuf *out, const struct report *r);

/*
 * The KPI's chart (charts[0] when it draws the headline KPI, perhaps
 * from a bisect's own samples), or NULL: it goes with the KPI's row.
 */
const struct report_stat *report_kpi_chart(const struct report *r);
/* a column heading, a sha shortened as report_short_commit() does */
void report_heading(struct strbuf *out, const char *heading);

/*
 * "To reproduce"'s commands, one a line, each after indent: comments
 * (`# ...`) say what is attached and what is not known; the rest is
 * what to type, in order -- per commit its build and its runs (install
 * after the first build, which may make the job's command), then compare.  Shared by the text and the HTML page.
 */
void report_repro_text(const struct report *r, struct strbuf *out,
		       const char *indent);

/* the e-mail text, its first line "Subject: <report_subject()>"; -1 with
 * err when a chart cannot be drawn */
int report_text(const struct report *r, struct strbuf *out,
		struct strbuf *err);
/* the same without the Subject: line, for a mail that has its header */
int report_text_body(const struct report *r, struct strbuf *out,
		     struct strbuf *err);
/* the HTML page: inline CSS, SVG and a few lines of JS; all text escaped */
int report_html(const struct report *r, struct strbuf *out,
		struct strbuf *err);
/*
 * The start of every perfsift page (the report's, the site's): the
 * doctype, REPORT_HTML_CSP as a meta tag (a page opened from disk has no
 * server to send the header), the title escaped, css inline, up to the
 * opening <body>.  One writer, so the pages cannot drift apart on the CSP.
 */
void report_html_head(struct strbuf *out, const char *title, const char *css);

#endif
