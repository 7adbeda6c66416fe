/*
 * bench/queue.c: how fast the lab's queue is (docs/performance.md, "The
 * lab's queue"), against a PostgreSQL server the bench starts itself
 * (initdb + pg_ctl on a unix socket in a private directory, as the
 * postgres user when run as root; max_connections raised), with the
 * server's default durability (fsync on).
 *
 *  1. 10,000 tasks queued (one transaction);
 *  2. claim latency: one worker claims them one by one (lab_claim, the
 *     worker's own statement), beside the reference in the same run: a
 *     `SELECT 1` round trip on the same connection, the floor any claim
 *     pays; and a heartbeat (lab_heartbeat);
 *  3. 200 simulated workers (processes, a connection each) claim, beat
 *     twice and finish tasks until the queue is empty: claims per second
 *     and the server's CPU time per claim (its processes' utime + stime
 *     from /proc).
 *
 *   build/bench/queue [--tasks N] [--workers N] [--repeat K]
 */
#include "util/compat.h"
#include <dirent.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "lab/lab.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

static char pgdir[] = "/tmp/perfsift-bench-pg.XXXXXX";
static char pgbin[512], as[64];

/* for the medians */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* median, 10th and 90th percentile of t (sorted here), in ms */
static void report_ms(const char *what, double *t, size_t n)
{
	qsort(t, n, sizeof(*t), cmp_double);
	printf("%-34s median %.3f ms (p10 %.3f, p90 %.3f, max %.3f; %zu)\n",
	       what, t[n / 2] * 1e3, t[n / 10] * 1e3, t[n * 9 / 10] * 1e3,
	       t[n - 1] * 1e3, n);
	fflush(stdout);
}

/* the server is driven by its own programs, as tests/e2e/lib-pg.sh does */
static int sh(const char *cmd)
{
	int r = system(cmd);

	return r == 0 ? 0 : -1;
}

/* the newest server programs installed, and who runs them */
/*
 * Debian installs each major version under /usr/lib/postgresql/N; the
 * highest is the one a lab would run.  initdb refuses to run as root.
 */
static int find_pg(void)
{
	DIR *d = opendir("/usr/lib/postgresql");
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char p[600];

		snprintf(p, sizeof(p), "/usr/lib/postgresql/%s/bin/initdb",
			 e->d_name);
		if (e->d_name[0] != '.' && !access(p, X_OK) &&
		    strcmp(e->d_name, pgbin + 20) > 0)
			snprintf(pgbin, sizeof(pgbin), "/usr/lib/postgresql/%s/bin",
				 e->d_name);
	}
	if (d)
		closedir(d);
	if (!getuid())
		snprintf(as, sizeof(as), "runuser -u postgres --");
	return pgbin[0] ? 0 : -1;
}

/*
 * A private server on a unix socket: no port to collide with another
 * helper's, max_connections above the simulated workers, fsync left on
 * (a claim is a committed write: its latency is mostly the WAL flush).
 */
static int start_server(int max_conn)
{
	char cmd[2048];

	if (!mkdtemp(pgdir))
		return -1;
	snprintf(cmd, sizeof(cmd), "chmod 755 %s && %s %s/initdb -D %s/data -A "
		 "trust -U postgres >%s/initdb.log 2>&1 && %s %s/pg_ctl -D %s/data "
		 "-l %s/log -w -o \"-k %s -c listen_addresses= -c max_connections=%d"
		 "\" start >/dev/null && psql -q -h %s -U postgres -d postgres -c "
		 "'CREATE DATABASE ps'", pgdir, as, pgbin, pgdir, pgdir, as, pgbin,
		 pgdir, pgdir, pgdir, max_conn, pgdir);
	if (!getuid()) {
		char own[700];

		snprintf(own, sizeof(own), "chown postgres %s", pgdir);
		if (sh(own) < 0)
			return -1;
	}
	return sh(cmd);
}

static void stop_server(void)
{
	char cmd[1200];

	snprintf(cmd, sizeof(cmd), "%s %s/pg_ctl -D %s/data -m fast stop "
		 ">/dev/null 2>&1; rm -rf %s", as, pgbin, pgdir, pgdir);
	if (sh(cmd) < 0)
		fprintf(stderr, "bench: stopping the server failed\n");
}

/*
 * CPU seconds of the server: the postmaster and every child of it, and
 * the children it reaped already (backends of workers that left).
 */
static double server_cpu(void)
{
	char path[600], line[1024];
	long pm = 0, tck = sysconf(_SC_CLK_TCK);
	double total = 0;
	DIR *d;
	struct dirent *e;
	FILE *fp;

	snprintf(path, sizeof(path), "%s/data/postmaster.pid", pgdir);
	fp = fopen(path, "r");
	if (!fp || fscanf(fp, "%ld", &pm) != 1)
		pm = 0;
	if (fp)
		fclose(fp);
	d = opendir("/proc");
	while (pm && d && (e = readdir(d))) {
		long pid = atol(e->d_name), ppid, cut, cst;
		unsigned long ut, st;
		char *p;

		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
		fp = fopen(path, "r");
		if (!fp)
			continue;
		if (fgets(line, sizeof(line), fp) && (p = strrchr(line, ')')) &&
		    sscanf(p + 2, "%*c %ld %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu"
			   " %ld %ld", &ppid, &ut, &st, &cut, &cst) == 5 &&
		    (pid == pm || ppid == pm))
			/* the postmaster's children that ended: its cutime */
			total += (double)(ut + st + (pid == pm ? (unsigned long)
						     (cut + cst) : 0)) /
				(double)tck;
		fclose(fp);
	}
	if (d)
		closedir(d);
	return total;
}

/* the lab's own open: the tables are made as a real lab makes them */
static int open_lab(struct lab *lab, const char *url)
{
	struct strbuf err = STRBUF_INIT;
	int r = lab_open(lab, pgdir, url, &err);

	if (r < 0)
		fprintf(stderr, "bench: %s\n", err.buf);
	strbuf_release(&err);
	return r;
}

/*
 * The queue of the measurement: three priorities, so the claim's ORDER BY
 * has work to do, as it has in a lab.
 */
static int enqueue(struct lab *lab, int ntasks)
{
	struct lab_new_task *t = xcalloc((size_t)ntasks, sizeof(*t));
	int64_t *ids = xcalloc((size_t)ntasks, sizeof(*ids));
	struct strbuf err = STRBUF_INIT;
	double t0 = time_mono_s();
	int i, r;

	for (i = 0; i < ntasks; i++) {
		t[i].group = "box";
		t[i].job_name = "bench-job.yaml";
		t[i].job_yaml = "testcase: mytest\nmytest: \"echo score: 1\"\n";
		t[i].runs = 1;
		t[i].priority = i % 3;
		t[i].max_attempts = 3;
	}
	r = lab_add_tasks(lab, t, (size_t)ntasks, ids, &err);
	if (r < 0)
		fprintf(stderr, "bench: %s\n", err.buf);
	else
		printf("%d tasks queued in %.2f s (one transaction)\n", ntasks,
		       time_mono_s() - t0);
	free(t);
	free(ids);
	strbuf_release(&err);
	return r;
}

/* claims (and SELECT 1, heartbeats) one at a time on one connection */
/*
 * The same connection measures the reference round trip first, so the
 * claim's figure can be read against what the connection itself costs.
 */
static void bench_claims(struct lab *lab, int n)
{
	double *tc = xcalloc((size_t)n, sizeof(double));
	double *tr = xcalloc((size_t)n, sizeof(double));
	double *th = xcalloc((size_t)n, sizeof(double));
	struct strbuf err = STRBUF_INIT;
	int i, k = 0;

	for (i = 0; i < n; i++) {
		struct lab_task t = {0};
		struct lab_lease l;
		double t0 = time_mono_s(), t1, t2;

		if (lab_exec(lab, "SELECT 1", 0, NULL, &err) < 0)
			break;
		t1 = time_mono_s();
		if (lab_claim(lab, "bench-0", "box", 30, false, &t, &err) != 1)
			break;
		t2 = time_mono_s();
		l.task = t.id;
		l.worker = "bench-0";
		l.attempt = t.attempts;
		if (lab_heartbeat(lab, &l, &err) != 0)
			break;
		th[k] = time_mono_s() - t2;
		tr[k] = t1 - t0;
		tc[k++] = t2 - t1;
		lab_task_release(&t);
	}
	if (err.len)
		fprintf(stderr, "bench: %s\n", err.buf);
	if (k) {
		report_ms("SELECT 1 (the reference)", tr, (size_t)k);
		report_ms("claim (lab_claim)", tc, (size_t)k);
		report_ms("heartbeat (lab_heartbeat)", th, (size_t)k);
	}
	free(tc);
	free(tr);
	free(th);
	strbuf_release(&err);
}

/* one simulated worker: claim, beat twice, finish, until none is left */
/*
 * What a real worker does per task, minus the benchmark: put back
 * expired leases, claim, renew the lease, finish.
 */
static int sim_worker(const char *url, int id, int wfd)
{
	struct lab lab;
	struct strbuf err = STRBUF_INIT;
	char name[32];
	int claims = 0, r;

	snprintf(name, sizeof(name), "sim-%d", id);
	if (open_lab(&lab, url) < 0)
		return 1;
	/* ready; then wait for the start (the pipe's end closing) */
	if (write(wfd, "r", 1) != 1)
		return 1;
	for (;;) {
		struct lab_task t = {0};
		struct lab_lease l;

		if (lab_reap(&lab, "box", &err) < 0)
			break;
		r = lab_claim(&lab, name, "box", 30, false, &t, &err);
		if (r <= 0)
			break;
		l.task = t.id;
		l.worker = name;
		l.attempt = t.attempts;
		if (lab_heartbeat(&lab, &l, &err) < 0 ||
		    lab_heartbeat(&lab, &l, &err) < 0 ||
		    lab_finish(&lab, &l, &err) < 0)
			break;
		claims++;
		lab_task_release(&t);
	}
	if (err.len)
		fprintf(stderr, "bench: worker %d: %s\n", id, err.buf);
	lab_close(&lab);
	return claims > 0 ? 0 : 2;
}

/*
 * The workers connect first and say so through a pipe; the clock starts
 * when all are connected, so connection set-up is not in the figure.
 */
static void bench_workers(const char *url, struct lab *lab, int nworkers,
			  int ntasks)
{
	pid_t *pids = xcalloc((size_t)nworkers, sizeof(*pids));
	int ready[2], i, ok = 0;
	double t0, cpu0, dt, cpu;
	char c;

	if (pipe(ready) < 0)
		return;
	for (i = 0; i < nworkers; i++) {
		pids[i] = fork();
		if (!pids[i]) {
			close(ready[0]);
			_exit(sim_worker(url, i, ready[1]));
		}
	}
	close(ready[1]);
	/* every worker connected: the clock starts at the first claim */
	for (i = 0; i < nworkers && read(ready[0], &c, 1) == 1; i++)
		;
	close(ready[0]);
	cpu0 = server_cpu();
	t0 = time_mono_s();
	(void)lab;
	for (i = 0; i < nworkers; i++) {
		int st;

		if (waitpid(pids[i], &st, 0) == pids[i] && WIFEXITED(st) &&
		    WEXITSTATUS(st) == 0)
			ok++;
	}
	dt = time_mono_s() - t0;
	cpu = server_cpu() - cpu0;
	printf("%d workers (%d claimed), %d tasks: %.2f s, %.0f claims/s "
	       "(each with 2 heartbeats and a finish); server CPU %.2f s = "
	       "%.3f ms per task\n", nworkers, ok, ntasks, dt, ntasks / dt, cpu,
	       cpu / ntasks * 1e3);
	fflush(stdout);
	free(pids);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"tasks", required_argument, NULL, 't'},
		{"workers", required_argument, NULL, 'w'},
		{"repeat", required_argument, NULL, 'r'},
		{NULL, 0, NULL, 0},
	};
	int ntasks = 10000, nworkers = 200, repeat = 3, c, k, ret = 1;
	struct strbuf url = STRBUF_INIT;
	struct lab lab;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == 't')
			ntasks = atoi(optarg);
		else if (c == 'w')
			nworkers = atoi(optarg);
		else if (c == 'r')
			repeat = atoi(optarg);
		else
			return 2;
	}
	if (ntasks < 10 || nworkers < 1 || repeat < 1)
		return 2;
	if (find_pg() < 0) {
		fprintf(stderr, "bench: no PostgreSQL server programs\n");
		return 1;
	}
	if (start_server(nworkers + 20) < 0) {
		fprintf(stderr, "bench: the server did not start (%s)\n", pgdir);
		stop_server();
		return 1;
	}
	strbuf_addf(&url, "postgresql:///ps?host=%s&user=postgres", pgdir);
	printf("server: %s, max_connections %d, fsync on\n", pgbin,
	       nworkers + 20);
	if (open_lab(&lab, url.buf) < 0)
		goto out;
	for (k = 0; k < repeat; k++) {
		struct strbuf err = STRBUF_INIT;

		printf("-- round %d\n", k + 1);
		if (lab_exec(&lab, "TRUNCATE lab_tasks", 0, NULL, &err) < 0 ||
		    enqueue(&lab, ntasks) < 0) {
			fprintf(stderr, "bench: %s\n", err.buf);
			strbuf_release(&err);
			goto out_lab;
		}
		/* a tenth of the queue claimed one by one, from the full queue */
		bench_claims(&lab, ntasks / 10);
		bench_workers(url.buf, &lab, nworkers, ntasks - ntasks / 10);
		strbuf_release(&err);
	}
	ret = 0;
out_lab:
	lab_close(&lab);
out:
	stop_server();
	strbuf_release(&url);
	return ret;
}
