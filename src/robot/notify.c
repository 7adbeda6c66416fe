/*
 * notify.c: the mail of a confirmed culprit (robot/judge.h).  Its body is
 * `perfsift report` of the culprit's parent vs the culprit (report_build
 * and report_text_body, the bisect's KPI as the headline), on the
 * bisect's good and bad runs pooled (pool_sides), and job.yaml is
 * attached, as 0-day mails its job file.  "Once" is kept in the state's
 * mail row: PENDING is written before the first byte goes out, SENT after
 * the last, and a PENDING row found at start is finished without a
 * second copy (the mbox and the maildir find it by its Message-ID).
 */
#include "util/compat.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "bisect/git.h"
#include "report/build.h"
#include "report/bundle.h"
#include "report/report.h"
#include "result/matrix.h"
#include "robot/config.h"
#include "robot/judge.h"
#include "robot/mail.h"
#include "robot/results.h"
#include "robot/state.h"
#include "select/select.h"
#include "util/fault.h"
#include "util/hash.h"
#include "util/short_sha.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/xalloc.h"

/*
 * The runs of group g that began at t0 or later (all of them when their
 * start times are not known), appended to *pool; how many.
 */
static size_t pool_since(struct matrix *pool, const struct result_group *g,
			 double t0)
{
	size_t *cols = xcalloc(g->matrix.nruns + 1, sizeof(*cols));
	size_t r, n = 0;
	struct matrix part, both;

	for (r = 0; r < g->matrix.nruns; r++)
		if (!g->run_start || !(g->run_start[r] < t0))
			cols[n++] = r;
	matrix_columns(&g->matrix, cols, n, &part);
	matrix_concat(pool, &part, &both);
	matrix_release(&part);
	matrix_release(pool);
	*pool = both;
	free(cols);
	return n;
}

/* the earliest start of g's runs, or -INFINITY when none is known */
static double first_start(const struct result_group *g)
{
	double t = INFINITY;
	size_t r;

	for (r = 0; g->run_start && r < g->matrix.nruns; r++)
		if (g->run_start[r] < t)
			t = g->run_start[r];
	return isfinite(t) ? t : -INFINITY;
}

/*
 * The bisect's good runs and its bad ones, pooled, in place of the
 * parent's and the culprit's own (g: base, parent, culprit, head): the
 * good side is the parent's runs (its bisect step's and the
 * confirmation's) and the good endpoint's, the base's, made since the
 * head's first run (the head test's pairs and the bisect's triplets --
 * not the base's runs of other times, for other branches); the bad side
 * the culprit's and the bad endpoint's, the head's.  A side whose commit
 * is the endpoint itself counts it once.  The note says what each side
 * holds.  The groups' run starts go: the pooled runs are of several
 * commits, and pairs of them would pair runs of different commits.
 */
static void pool_sides(struct result_group *g, const char *const *sha,
		       struct strbuf *note)
{
	struct matrix good, bad;
	double t0 = first_start(&g[3]);
	size_t nparent = g[1].matrix.nruns, nculprit = g[2].matrix.nruns;
	size_t nbase = 0, nhead = 0;

	matrix_init(&good);
	matrix_init(&bad);
	pool_since(&good, &g[1], -INFINITY);
	if (strcmp(sha[0], sha[1]))
		nbase = pool_since(&good, &g[0], t0);
	pool_since(&bad, &g[2], -INFINITY);
	if (strcmp(sha[3], sha[2]))
		nhead = pool_since(&bad, &g[3], -INFINITY);
	strbuf_addf(note,
		    "The figures below pool the bisect's runs:\n"
		    "  good: %zu runs (%zu of the parent %.*s",
		    good.nruns, nparent, SHORT_SHA_LEN, sha[1]);
	if (strcmp(sha[0], sha[1]))
		strbuf_addf(note, ", %zu of the base %.*s", nbase,
			    SHORT_SHA_LEN, sha[0]);
	strbuf_addf(note, ")\n  bad:  %zu runs (%zu of the culprit %.*s",
		    bad.nruns, nculprit, SHORT_SHA_LEN, sha[2]);
	if (strcmp(sha[3], sha[2]))
		strbuf_addf(note, ", %zu of the head %.*s", nhead,
			    SHORT_SHA_LEN, sha[3]);
	strbuf_addstr(note, ")\n");
	matrix_release(&g[1].matrix);
	g[1].matrix = good;
	matrix_release(&g[2].matrix);
	g[2].matrix = bad;
	FREE_AND_NULL(g[1].run_start);
	FREE_AND_NULL(g[2].run_start);
}

/*
 * The report of parent vs culprit -- on the bisect's pooled good and bad
 * runs (pool_sides) when the verdict names its base and head: its
 * subject (report_subject(), with the repo and branch in brackets as
 * 0-day's), its text without the Subject: line (the mail has its
 * header) and job.yaml.
 */
static int build_report(struct robot_judge *j, const struct robot_verdict *v,
			const char *parent, struct strbuf *subject,
			struct strbuf *body, struct strbuf *job,
			struct strbuf *err)
{
	struct select_ctx ctx = { j->res->result_root, j->res->store_url };
	struct result_group g[4];
	const char *specs[4] = { v->base, parent, v->culprit, v->head };
	bool pooled = v->base && v->head;
	struct report_data d;
	struct strbuf ignored = STRBUF_INIT, tree = STRBUF_INIT,
		      note = STRBUF_INIT;
	size_t i;
	int ret = -1;

	memset(&d, 0, sizeof(d));
	for (i = 0; i < 4; i++)
		result_group_init(&g[i]);
	/* one look at the index for every side */
	if (select_groups(&ctx, pooled ? specs : specs + 1, pooled ? 4 : 2,
			  pooled ? g : g + 1, err))
		goto out;
	if (pooled)
		pool_sides(g, specs, &note);
	if (report_build(&d, &g[1], &g[2], err) ||
	    report_focus(&d, v->stat, err))
		goto out;
	/* best effort: without git the report still names the commit */
	report_git_commit(&d, j->mirror, &ignored);
	d.r.job_file = "job.yaml";
	d.r.runs_note = note.len ? note.buf : NULL;
	strbuf_addf(&tree, "%s/%s", j->repo->name, j->branch);
	d.r.tree = tree.buf;
	/* the lab's workers do not record the build: the config says it */
	if (!d.r.repro.build && !d.r.repro.install) {
		d.r.repro.build = j->repo->build;
		d.r.repro.install = j->repo->install;
	}
	if (report_text_body(&d.r, body, err))
		goto out;
	report_subject(subject, &d.r);
	if (d.head_job)
		report_repro_job(d.head_job, job);
	ret = 0;
out:
	report_data_release(&d);
	for (i = 0; i < 4; i++)
		result_group_release(&g[i]);
	strbuf_release(&ignored);
	strbuf_release(&tree);
	strbuf_release(&note);
	return ret;
}

/* the sender: the config's, else perfsift@<this host> */
static void sender(const struct robot_mail *m, struct strbuf *out)
{
	char host[256] = "localhost";

	if (m->from) {
		strbuf_addstr(out, m->from);
		return;
	}
	gethostname(host, sizeof(host) - 1);
	host[sizeof(host) - 1] = '\0';
	strbuf_addf(out, "perfsift@%s", host);
}

/*
 * One Message-ID per (repo, culprit, job), the same at every try: the
 * maildir finds a delivered copy by it, and a reader sees a re-sent copy
 * (a sendmail retry the robot could not rule out) as the same message.
 */
static void message_id(struct robot_judge *j, const char *culprit,
		       const char *from, struct strbuf *out)
{
	const char *at = strrchr(from, '@');
	uint64_t h = FNV1A64_INIT;
	size_t len;

	h = fnv1a64(h, j->repo->name, strlen(j->repo->name) + 1);
	h = fnv1a64(h, j->job->name, strlen(j->job->name) + 1);
	strbuf_addf(out, "<perfsift-robot.%.*s.%016llx@", SHORT_SHA_LEN,
		    culprit, (unsigned long long)h);
	if (at) {
		len = strcspn(at + 1, "> \t");
		strbuf_add(out, at + 1, len);
	} else {
		strbuf_addstr(out, "localhost");
	}
	strbuf_addch(out, '>');
}

struct offset_ctx {
	struct robot_judge *j;
	const char *culprit;
	struct robot_mail_row *row;
};

/* keep the mbox offset in the PENDING row before the append begins */
static int save_offset(void *data, long long offset)
{
	struct offset_ctx *c = data;
	struct strbuf err = STRBUF_INIT;
	int r;

	c->row->offset = offset;
	r = robot_state_set_mail(c->j->state, c->j->repo->name, c->culprit,
				 c->j->job->name, c->row, &err);
	if (r < 0)
		error("%s", err.buf);
	strbuf_release(&err);
	return r;
}

/*
 * The bisect's undecided commits (its summary's "  undecided SHA ..."
 * lines, v->detail) said in the mail before "To reproduce:": skipped as
 * git bisect skip, never counted good or bad, and the reader should know.
 */
static void add_undecided(const struct robot_verdict *v, struct strbuf *body)
{
	struct strbuf note = STRBUF_INIT;
	const char *p = v->detail ? v->detail : "", *at, *line;

	while ((line = strstr(p, "\n  undecided ")) != NULL) {
		const char *end = strchrnul(line + 1, '\n');

		strbuf_add(&note, line + 1, (size_t)(end - line - 1));
		strbuf_addch(&note, '\n');
		p = end;
	}
	if (note.len) {
		struct strbuf out = STRBUF_INIT;

		at = strstr(body->buf, "\nTo reproduce:");
		if (!at)
			at = body->buf + body->len;
		strbuf_add(&out, body->buf, (size_t)(at - body->buf));
		strbuf_addstr(&out, "\nThe bisect left these commits undecided after "
			      "--max-runs and skipped them (as git bisect skip),\n"
			      "judging them neither good nor bad:\n\n");
		strbuf_addbuf(&out, &note);
		strbuf_addstr(&out, at);
		strbuf_release(body);
		*body = out; /* the body with the note in place */
	}
	strbuf_release(&note);
}

static int compose(struct robot_judge *j, const struct robot_verdict *v,
		   const char *from, const char *msgid, time_t now,
		   struct strbuf *msg, struct strbuf *err)
{
	struct strbuf body = STRBUF_INIT, job = STRBUF_INIT,
		      subject = STRBUF_INIT, parent = STRBUF_INIT;
	const char *args[] = { "rev-parse", "--verify", "--end-of-options",
			       NULL, NULL };
	char *rev = xasprintf("%s^1", v->culprit);
	struct robot_message m;
	int ret = -1;

	args[3] = rev;
	if (bisect_git(j->mirror, &parent, err, args) < 0 ||
	    build_report(j, v, parent.buf, &subject, &body, &job, err) < 0)
		goto out;
	add_undecided(v, &body);
	memset(&m, 0, sizeof(m));
	m.from = from;
	m.to = j->cfg->mail.to;
	m.subject = subject.buf;
	m.message_id = msgid;
	m.date = now;
	m.body = body.buf;
	m.attachment = job.len ? job.buf : NULL;
	m.attachment_name = "job.yaml";
	robot_mail_compose(&m, msg);
	ret = 0;
out:
	free(rev);
	strbuf_release(&body);
	strbuf_release(&job);
	strbuf_release(&subject);
	strbuf_release(&parent);
	return ret;
}

int robot_notify(struct robot_judge *j, const struct robot_verdict *v,
		 struct strbuf *err)
{
	struct strbuf from = STRBUF_INIT, msgid = STRBUF_INIT, msg = STRBUF_INIT;
	struct robot_mail_row row = { ROBOT_MAIL_NONE, NULL, -1 };
	struct offset_ctx oc = { j, v->culprit, &row };
	time_t now = time(NULL);
	int ret = -1, found, delivered;

	found = robot_state_mail(j->state, j->repo->name, v->culprit,
				 j->job->name, &row, err);
	if (found < 0)
		goto out;
	if (row.state == ROBOT_MAIL_SENT) {
		ret = 0;
		goto out;
	}
	/*
	 * A sendmail command that was started may have sent the mail: no
	 * way to ask it, and twice is worse than once lost, so a PENDING
	 * row of sendmail counts as sent (and says so).
	 */
	if (row.state == ROBOT_MAIL_PENDING && j->cfg->mail.sendmail) {
		warning("%.*s: a previous robot was sending its mail when it "
			"stopped; not sending again (check the mail log)",
			SHORT_SHA_LEN, v->culprit);
		row.state = ROBOT_MAIL_SENT;
		ret = robot_state_set_mail(j->state, j->repo->name, v->culprit,
					   j->job->name, &row, err);
		goto out;
	}
	sender(&j->cfg->mail, &from);
	message_id(j, v->culprit, from.buf, &msgid);
	if (compose(j, v, from.buf, msgid.buf, now, &msg, err) < 0)
		goto out;
	if (row.state == ROBOT_MAIL_NONE) {
		row.state = ROBOT_MAIL_PENDING;
		free(row.message_id);
		row.message_id = xstrdup(msgid.buf);
		if (robot_state_set_mail(j->state, j->repo->name, v->culprit,
					 j->job->name, &row, err) < 0)
			goto out;
	}
	delivered = robot_mail_deliver(&j->cfg->mail, msg.buf, msgid.buf, now,
				       &row.offset, save_offset, &oc, err);
	if (delivered < 0) {
		/*
		 * A sendmail command that said no did not send: back to NONE,
		 * so the next pass tries again (PENDING would count as sent).
		 */
		if (j->cfg->mail.sendmail) {
			struct strbuf ignored = STRBUF_INIT;

			row.state = ROBOT_MAIL_NONE;
			robot_state_set_mail(j->state, j->repo->name, v->culprit,
					     j->job->name, &row, &ignored);
			strbuf_release(&ignored);
		}
		goto out;
	}
	fault_point("robot-mail-delivered");
	row.state = ROBOT_MAIL_SENT;
	if (robot_state_set_mail(j->state, j->repo->name, v->culprit,
				 j->job->name, &row, err) < 0)
		goto out;
	if (delivered) {
		/* a robot killed after delivering: found, not sent again */
		note("%s/%s: the mail about %.*s was delivered before; "
		     "recorded as sent",
		     j->repo->name, j->branch, SHORT_SHA_LEN, v->culprit);
		ret = 0;
	} else {
		note("%s/%s: mailed %s about %.*s", j->repo->name, j->branch,
		     j->cfg->mail.to, SHORT_SHA_LEN, v->culprit);
		ret = 1;
	}
out:
	free(row.message_id);
	strbuf_release(&from);
	strbuf_release(&msgid);
	strbuf_release(&msg);
	return ret;
}
