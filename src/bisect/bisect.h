/*
 * bisect.h: perfsift's bisect driver, pure logic.  Finds the first commit
 * on the first-parent path from a good to a bad commit whose samples of one
 * stat (the KPI) match the bad commit's rather than the good one's.
 *
 * Everything that touches the world -- checking out and building a commit,
 * running the job, reading samples back from the index -- goes through
 * struct bisect_ops, so the search, the classifier, confirmation and resume
 * are unit-tested with synthetic samples (tests/unit/test_bisect.c).  The
 * real ops (git worktrees, the runner, the store) are in bisect/exec.c.
 */
#ifndef PERFSIFT_BISECT_H
#define PERFSIFT_BISECT_H

#include "util/compat.h"
#include <sys/types.h> /* ssize_t */

#include "compare/lkp_change.h"
#include "result/stats.h"

struct matrix;
struct strbuf;

/* ---- the classifier, over the compare module's rules and statistics ---- */

/* LKP's distance for bisects (`compare -s`, lkp-compare.md §2.4) */
#define BISECT_DISTANCE 5.0
/* the q level (Benjamini-Hochberg) at which good and bad differ */
#define BISECT_ALPHA 0.01
/* at least one sample trimmed at each end once a side has 6 (lkp_change.h) */
#define BISECT_MIN_MARGIN 1

/* lkp_summarize() with bisect's trimming */
void bisect_summarize(const double *v, size_t n, struct lkp_summary *out);

/*
 * LKP's change test (lkp_changed()) as bisect uses it: in distance mode
 * when distance > 0 (the variant that starts LKP's bisects), else LKP's
 * default test; forced (no ratio floors, no per-stat floors, no run
 * minimum: good and bad already differ) and with bisect's trimming.  a is
 * the new side, b the base, as in LKP.
 */
bool bisect_lkp_changed(const struct stat_rules *r, const char *stat,
			const double *a, size_t na, const double *b, size_t nb,
			double distance);

enum bisect_verdict {
	BISECT_UNTESTED = 0,
	BISECT_GOOD,
	BISECT_BAD,
	BISECT_SKIP,    /* could not build/run, or still unclear at the cap */
	BISECT_UNCLEAR, /* classifier only: needs more samples */
	/* still undecided (bisect_decide) at --max-runs: a skip to the
	 * search, as `git bisect skip`, but never called good or bad */
	BISECT_UNDECIDED,
};

const char *bisect_verdict_name(enum bisect_verdict v);

/*
 * Classify the samples c of a commit against the good and bad references
 * g and b (lkp-compare.md §5 [rec]): bad when c's median lies on the bad
 * side of the midpoint between the good and bad medians and LKP's default
 * test tells c from g (bisect_lkp_changed(), distance 0); good when
 * symmetric; otherwise BISECT_UNCLEAR.  *position (may be NULL) receives
 * where c's median lies on the good (0) -> bad (1) axis.
 */
enum bisect_verdict bisect_classify(const struct stat_rules *r,
				    const char *stat, const double *g,
				    size_t ng, const double *b, size_t nb,
				    const double *c, size_t nc,
				    double *position);

/*
 * The priority of a stat for the automatic KPI choice, after LKP's
 * sort_bisect_stats (lkp-compare.md §5): -1 never (a failure stat, or not
 * bisectable: stat_is_bisectable()); else 2 for the benchmark's own stats
 * (stat_is_kpi()) plus 1 when the stat has a direction
 * (stat_direction()).  Among the significant changes the highest
 * priority wins, then the largest change.
 */
int bisect_kpi_priority(const struct stat_rules *r, const char *stat);

/* a verdict the search steps over: skipped, or undecided at the cap */
static inline bool bisect_verdict_skips(enum bisect_verdict v)
{
	return v == BISECT_SKIP || v == BISECT_UNDECIDED;
}

/* ---- until decided: compare's three-way verdict (step_verdict.c) ---- */

/* one stat of a head's samples against a base's, as compare judges it */
struct bisect_stat_verdict {
	bool judged;               /* compare judged the stat, on enough
				    * pairs (else unknown: it decides nothing) */
	enum stats_verdict verdict; /* changed, same, or VERDICT_UNKNOWN */
	unsigned more_runs;        /* runs a side that would likely decide */
	bool base_limited;         /* more head runs alone would not decide */
	double change;             /* %change of the means */
	/* the verdict's interval of the %change and its centre (the paired
	 * change when pairs), NAN when not judged; the pairs it came from
	 * (0: unpaired, every run) */
	double lo, hi, centre;
	size_t pairs;
};

/*
 * A side's runs: its matrix and, when known, when each run began
 * (m->nruns entries, seconds; NAN where unknown), or NULL: unpaired.
 */
struct bisect_runs {
	const struct matrix *m;
	const double *start;
};

/*
 * compare_groups() of base vs head (whole matrices: every stat feeds the
 * noise guard's prior and the q-values) with stat a declared KPI and
 * "same" meaning within +-margin_pct: the verdict `compare --kpi` and
 * `run --until-decided` give, on the pairs the start times make (runs
 * made beside each other) when there are 3 or more.  0, or -1 with err.
 */
int bisect_stat_verdict(const struct bisect_runs *base,
			const struct bisect_runs *head, const char *stat,
			const char *testcase, double margin_pct,
			struct bisect_stat_verdict *out, struct strbuf *err);

/* half the good -> bad step of stat's means, in % of good's (of_bad:
 * bad's) mean; NAN when a side lacks the stat or its mean is 0 */
double bisect_half_step(const struct matrix *good, const struct matrix *bad,
			const char *stat, bool of_bad);

struct bisect_decision {
	struct bisect_stat_verdict vs_good, vs_bad; /* the commit as head */
	unsigned more_runs; /* the most either asks for */
	/* where the commit lies on the good (0) -> bad (1) axis: from the
	 * paired changes when both comparisons are paired, else the means */
	double position;
};

/*
 * Commit c's runs against the good and bad endpoints' (bisect's rule
 * over compare's verdicts, bisect_decide_sides): good or bad when its
 * intervals put it on that side of the midpoint beyond doubt, in logs
 * where they apply, else when the same as one side and not the other;
 * else BISECT_UNCLEAR (undecided: more runs).  The margin of "same" is
 * half the step between ref_good and ref_bad (every run the endpoints
 * have: the step's size is best known from all of them); the verdicts
 * are on good, bad and c as given.  With min_pairs > 0, a comparison
 * made on fewer pairs than that counts as undecided: only runs made
 * beside each other decide (driver.c's steps).  -1 with err.
 */
int bisect_decide(const struct matrix *ref_good, const struct matrix *ref_bad,
		  const struct bisect_runs *good, const struct bisect_runs *bad,
		  const struct bisect_runs *c, const char *stat,
		  const char *testcase, size_t min_pairs,
		  struct bisect_decision *d, struct strbuf *err);
/*
 * bisect_decide()'s rule on its two comparisons, the commit against good
 * and against bad, with rg and rb the references' means of the stat:
 * BISECT_GOOD when the commit lies on good's side of the midpoint beyond
 * doubt, BISECT_BAD on bad's, else BISECT_UNCLEAR.  In logs of the
 * ratio wherever they apply (positive means, intervals above -100%),
 * else within compare's linear "same" of one side and not the other
 * (step_verdict.c says why).  A comparison not judged claims nothing.
 */
int bisect_decide_sides(const struct bisect_stat_verdict *vs_good,
			const struct bisect_stat_verdict *vs_bad, double rg,
			double rb);
/* "vs good same, vs bad changed" */
void bisect_decision_text(const struct bisect_decision *d, struct strbuf *out);

/*
 * The order of a bisect step's runs (driver.c): the three parties good
 * (0), the commit (1) and bad (2) each run once a triplet, G C B in even
 * triplets and B C G in odd ones, so that neither endpoint always runs
 * first and the commit always runs between them.  made[] counts the
 * runs each party has made in this step; the party that runs next.
 */
#define BISECT_PARTY_GOOD 0
#define BISECT_PARTY_COMMIT 1
#define BISECT_PARTY_BAD 2
int bisect_step_next(const size_t made[3]);

/* ---- the search over a linear range ---- */

/*
 * Commits 0..n-1 of the first-parent path: 0 is the good commit, n-1 the
 * bad one.  The first bad commit lies in (lo, hi] where lo is the highest
 * good index below hi, the lowest bad index.
 */
struct bisect_search {
	size_t n;
	enum bisect_verdict *state; /* n entries */
};

void bisect_search_init(struct bisect_search *s, size_t n);
void bisect_search_release(struct bisect_search *s);
void bisect_search_mark(struct bisect_search *s, size_t i,
			enum bisect_verdict v);
/*
 * The next index to test: the middle of (lo, hi), or the untested,
 * unskipped index nearest to it; -1 when nothing is left to test.
 */
ssize_t bisect_search_next(const struct bisect_search *s);
/*
 * Where the search ended: *first_bad = hi; *nskipped = the skipped
 * commits in (lo, hi), any of which may be the culprit instead.
 */
void bisect_search_result(const struct bisect_search *s, size_t *lo,
			  size_t *first_bad, size_t *nskipped);

/* ---- the driver ---- */

/*
 * What the driver needs from the world.  Three "slots" (checkouts) exist,
 * so that the candidate, the good and the bad commit can be measured in
 * turn without rebuilding between runs: slot 0 holds the commit under
 * test (and the confirmation's parent), slot 1 the good commit, slot 2 the
 * bad one (and the confirmation's culprit).
 */
#define BISECT_SLOTS 3
struct bisect_ops {
	/*
	 * Check out commit sha in slot (0..2), build and install it.
	 * 0 ready; 1 skip this commit (why says because of what); -1 error.
	 */
	int (*prepare)(void *data, int slot, const char *sha,
		       struct strbuf *why);
	/* run the job once for sha (prepared in slot); 0 or -1 with err */
	int (*measure)(void *data, int slot, const char *sha,
		       struct strbuf *err);
	/*
	 * Every complete sample the index holds for commit sha under this
	 * job: one column per run.  An empty matrix when there is none.
	 */
	int (*samples)(void *data, const char *sha, struct matrix *m,
		       struct strbuf *err);
	/* true once the user interrupted (SIGINT/SIGTERM); may be NULL */
	bool (*interrupted)(void *data);
	/* a progress line (no newline); may be NULL */
	void (*progress)(void *data, const char *line);
	/*
	 * Keep (save) or find (!save) how many samples parent a and culprit
	 * b had when their confirmation began, so that a confirmation cut
	 * short (SIGINT, or the reboot of a kernel bisect) goes on rather
	 * than starting over.  May be NULL; true when found / saved.
	 */
	bool (*confirm_base)(void *data, const char *a, const char *b,
			     size_t *base_a, size_t *base_b, bool save);
	/*
	 * Keep (save) or find (!save) the verdict on commit sha for stat,
	 * like git's BISECT_LOG: a resumed bisect takes the verdicts it had
	 * reached instead of judging again against references that have
	 * grown since.  May be NULL; true when found / saved.
	 */
	bool (*recall)(void *data, const char *sha, const char *stat,
		       enum bisect_verdict *v, char **why, bool save);
	void *data;
	/*
	 * When each run of m (the samples of sha, as samples() gave them)
	 * began, seconds, into t (m->nruns entries; NAN where unknown).
	 * May be NULL: a step's runs are then judged unpaired.  0, or -1
	 * with err.
	 */
	int (*starts)(void *data, const char *sha, const struct matrix *m,
		      double *t, struct strbuf *err);
	/*
	 * Keep (save) or find (!save) the runs good, commit sha and bad had
	 * (base[3], in party order) when the step on sha began, so that a
	 * step cut short (SIGINT, a kernel bisect's reboot, the lab's
	 * queued run) goes on in its order rather than starting over.  May
	 * be NULL; true when found / saved.
	 */
	bool (*step_base)(void *data, const char *sha, size_t base[3],
			  bool save);
	/*
	 * Why the newest run of sha gave no complete run (its last_state,
	 * "vm_timeout: 330, is_incomplete_run: 1"), appended to why; nothing
	 * when it cannot say.  May be NULL.
	 */
	void (*failure)(void *data, const char *sha, struct strbuf *why);
};

/*
 * A failed run (one that gave no complete run: a VM cut at its timeout
 * under load, a crash) of a party -- a tested commit, an endpoint, a
 * side of the confirmation -- that has given complete runs before is
 * retried, up to this many times in a row: one bad run of a kernel that
 * runs well is the machine's, not the commit's.  A party none of whose
 * runs completed is not retried (a kernel that does not boot or panics
 * fails every time): a tested commit is skipped, as `git bisect skip`
 * does, and an endpoint ends the bisect, naming why.  The failed runs
 * stay where the runner put them, failed, with their last_state.
 */
#define BISECT_RUN_RETRIES 2

struct bisect_commit {
	char *sha;
	char *subject;
	enum bisect_verdict verdict;
	double *kpi;      /* the KPI's samples (after classification) */
	size_t nkpi;
	size_t runs;      /* runs spent on it by this invocation */
	bool reused;      /* its samples came from the index, no run needed */
	char *why;        /* reason of a skip */
};

/*
 * Bisect's default --max-runs until decided (cmd/bisect.c) and the
 * robot's bisect_max_runs (robot/config.c): runs of an unclear commit.
 * 120: a step is decided "the same as one side within half the step" at
 * 99%, and at 5% per-run noise a 10% step needs about 60 paired runs for
 * it (bench/detection, docs/detection.md: 28.3% found at 20, 98.3% at
 * 60, 99.3% at 120); a commit decided early costs no more.
 */
#define BISECT_DEFAULT_MAX_RUNS 120

struct bisect_options {
	size_t runs;      /* per commit, default 3 */
	size_t max_runs;  /* cap for unclear commits (see above) */
	const char *stat; /* the KPI, or NULL to choose one */
	bool no_confirm;  /* leave out the ABAB confirmation */
	const char *testcase; /* the job's testcase: its stats are KPIs */
	/* the job's declared KPIs (kpi_format()'s line, kpi.h), or NULL:
	 * without --stat, a changed declared KPI is bisected first */
	const char *kpi;
	/*
	 * Judge each commit (and the confirmation) by compare's three-way
	 * verdict, one more run while undecided (bisect_decide), instead
	 * of LKP's classifier (bisect_classify) -runs at a time.
	 */
	bool no_until_decided;
};

enum bisect_outcome {
	BISECT_FOUND,        /* first bad commit found */
	BISECT_RANGE,        /* skipped commits leave several candidates */
	BISECT_NO_CHANGE,    /* good and bad do not differ: refused */
	BISECT_ERROR,        /* a runtime error (err says) */
	BISECT_INTERRUPTED,  /* stopped by the user; resumable */
};

enum bisect_confirm {
	BISECT_CONFIRM_NONE,  /* not run */
	BISECT_CONFIRMED,
	BISECT_NOT_REPRODUCIBLE,
	BISECT_CONFIRM_UNDECIDED, /* still undecided at --max-runs each */
};

struct bisect_state {
	/* in: the path, good first, bad last (bisect_state_add_commit) */
	struct bisect_commit *commits;
	size_t ncommits, alloc;

	/* out */
	char *stat;               /* the KPI used */
	bool stat_chosen;         /* chosen automatically */
	size_t lo, first_bad, nskipped;
	size_t measured;          /* commits between good and bad measured now */
	size_t reused;            /* ... whose samples the index already had */
	size_t tested;            /* ... classified (measured + reused) */
	size_t runs;              /* every run this invocation spent */
	enum bisect_confirm confirm;
	double *confirm_a, *confirm_b; /* parent / culprit samples, ABAB */
	size_t nconfirm_a, nconfirm_b;
};

void bisect_state_init(struct bisect_state *st);
void bisect_state_release(struct bisect_state *st);
void bisect_state_add_commit(struct bisect_state *st, const char *sha,
			     const char *subject);

/*
 * Run the bisect: measure what the index lacks for the endpoints, pick or
 * check the KPI, refuse when good and bad do not differ (BISECT_NO_CHANGE,
 * err holding the numbers), search, confirm.  A commit whose samples the
 * index already holds is not run again (resume).  Needs >= 2 commits.
 */
enum bisect_outcome bisect_run(struct bisect_state *st,
			       const struct bisect_options *opt,
			       const struct bisect_ops *ops, struct strbuf *err);

/* "  LABEL SHA: median M [MIN - MAX] (N runs)" of samples v (no newline) */
void bisect_describe(struct strbuf *sb, const char *label,
		     const struct bisect_commit *c, const double *v, size_t n);

/* the human summary of a finished bisect, appended to out */
void bisect_format_result(const struct bisect_state *st,
			  enum bisect_outcome outcome, struct strbuf *out);

#endif
