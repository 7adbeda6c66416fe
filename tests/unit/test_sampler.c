/*
 * test_sampler.c: the sampler on a fake sysroot (a /proc and /sys tree in a
 * temporary directory): sources opened once and re-read, the fixed-rate
 * clock, start+stop snapshots, the final sample, a missing source skipped,
 * cpuidle names, kmsg records, and a SIGKILLed sampler leaving whole
 * samples only.
 */
#include "util/compat.h"
#include <stdarg.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "job/job.h"
#include "monitors/monitor.h"
#include "monitors/sampling.h"
#include "run/sampler.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/timeutil.h"

struct fixture {
	char root[64];
	char sys[96];
	char out[96];
};

static void put(const struct fixture *f, const char *rel, const char *text)
{
	struct strbuf path = STRBUF_INIT, dir = STRBUF_INIT;

	path_join(&path, f->sys, rel);
	path_dirname(&dir, path.buf);
	assert_int_equal(mkdir_p(dir.buf, 0755), 0);
	assert_int_equal(write_file_atomic(path.buf, text, strlen(text)), 0);
	strbuf_release(&path);
	strbuf_release(&dir);
}

/* rewrite in place (the sampler keeps its descriptor open) */
static void overwrite(const struct fixture *f, const char *rel, const char *text)
{
	struct strbuf path = STRBUF_INIT;
	FILE *fp;

	path_join(&path, f->sys, rel);
	fp = fopen(path.buf, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	strbuf_release(&path);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	snprintf(f->root, sizeof(f->root), "/tmp/perfsift-sampler.XXXXXX");
	if (!mkdtemp(f->root))
		return -1;
	snprintf(f->sys, sizeof(f->sys), "%s/sys", f->root);
	snprintf(f->out, sizeof(f->out), "%s/out", f->root);
	mkdir_p(f->out, 0755);
	put(f, "proc/vmstat", "nr_free_pages 100\npgfault 1\n");
	put(f, "proc/meminfo", "MemTotal: 1000 kB\nMemFree: 400 kB\nBuffers: 1 kB\nCached: 2 kB\n");
	put(f, "proc/stat", "cpu  10 0 5 100 0 0 0 0 0 0\ncpu0 10 0 5 100 0 0 0 0 0 0\nintr 50 1\nctxt 70\nprocs_running 1\nprocs_blocked 0\n");
	put(f, "proc/interrupts", "           CPU0\n  1:         5   IO-APIC   1-edge  i8042\nLOC:        10   Local timer interrupts\n");
	put(f, "sys/devices/system/node/node0/vmstat", "nr_free_pages 7\nnr_free_pages 8\npgfault 3\n");
	put(f, "sys/devices/system/cpu/cpu0/cpuidle/state0/name", "C1 E\n");
	put(f, "sys/devices/system/cpu/cpu0/cpuidle/state0/time", "1000\n");
	put(f, "sys/devices/system/cpu/cpu0/cpuidle/state0/usage", "3\n");
	put(f, "dev/kmsg", "4,10,2500000,-;WARNING: CPU: 0 PID: 1 at mm/slub.c:100 kfree+0x1/0x2\n SUBSYSTEM=x\n6,11,2600000,-;hello\n");
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	remove_tree(f->root);
	free(f);
	return 0;
}

static struct job *load(const char *text)
{
	struct strbuf err = STRBUF_INIT;
	struct job **jobs;
	struct job *j;
	size_t n;

	if (job_load_string(text, "test", &jobs, &n, &err))
		fail_msg("%s", err.buf);
	assert_int_equal(n, 1);
	j = jobs[0];
	free(jobs);
	strbuf_release(&err);
	return j;
}

static char *raw(const struct fixture *f, const char *name)
{
	struct strbuf path = STRBUF_INIT, sb = STRBUF_INIT;

	path_join(&path, f->out, name);
	if (strbuf_read_file(&sb, path.buf, 0)) {
		strbuf_release(&path);
		strbuf_release(&sb);
		return NULL;
	}
	strbuf_release(&path);
	return strbuf_detach(&sb, NULL);
}

static int count(const char *hay, const char *needle)
{
	int n = 0;

	while ((hay = strstr(hay, needle))) {
		n++;
		hay++;
	}
	return n;
}

static char *parse(const char *monitor, const char *text)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	assert_int_equal(monitor_find(monitor)->parse(text, strlen(text), NULL,
						      &out, &err), 0);
	strbuf_release(&err);
	return strbuf_detach(&out, NULL);
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};

	nanosleep(&ts, NULL);
}

/* the samples in raw file name so far */
static int samples_in(const struct fixture *f, const char *name)
{
	char *t = raw(f, name);
	int n = t ? count(t, "time: ") : 0;

	free(t);
	return n;
}

/* until raw file name holds n samples, however slow the machine (60 s) */
static void wait_samples(const struct fixture *f, const char *name, int n)
{
	int i;

	for (i = 0; i < 12000 && samples_in(f, name) < n; i++)
		sleep_ms(5);
	assert_true(samples_in(f, name) >= n);
}

static void test_periodic_and_snapshots(void **state)
{
	struct fixture *f = *state;
	struct job *job = load(
		"monitors: proc-vmstat, meminfo, vmstat, interrupts, cpuidle, numa-vmstat, kmsg, proc-stat, sched_debug\n"
		"proc-vmstat:\n  interval: 0.05\n"
		"vmstat:\n  interval: 0.05\n");
	uint64_t t0 = time_mono_ns(), t1;
	struct sampler *s = sampler_start(job, f->out, f->sys, NULL);
	char *t, *p;
	int n;

	assert_non_null(s);
	/* the start sample and two ticks, then new values, then two more */
	wait_samples(f, "proc-vmstat", 3);
	overwrite(f, "proc/vmstat", "nr_free_pages 90\npgfault 42\n");
	overwrite(f, "proc/stat", "cpu  20 0 10 150 0 0 0 0 0 0\ncpu0 20 0 10 150 0 0 0 0 0 0\nintr 80 1\nctxt 90\nprocs_running 2\nprocs_blocked 0\n");
	overwrite(f, "proc/interrupts", "           CPU0\n  1:         9   IO-APIC   1-edge  i8042\nLOC:        30   Local timer interrupts\n");
	n = samples_in(f, "proc-vmstat");
	wait_samples(f, "proc-vmstat", n + 2);
	assert_int_equal(sampler_stop(s), 0);
	t1 = time_mono_ns();

	/*
	 * start + ticks + final; a fixed-rate clock: never more ticks than
	 * 0.05 s periods went by, however late some of them came
	 */
	t = raw(f, "proc-vmstat");
	assert_non_null(t);
	assert_true(count(t, "time: ") >= n + 3);
	assert_true(count(t, "time: ") <= (int)((t1 - t0) / 50000000u) + 2);
	p = parse("proc-vmstat", t);
	assert_non_null(strstr(p, "pgfault: 1\n"));
	assert_non_null(strstr(p, "pgfault: 42\n"));
	/* the final sample sees the last value */
	assert_non_null(strstr(p + strlen(p) - 30, "pgfault: 42\n"));
	free(p);
	free(t);

	/* interrupts: no interval, so one snapshot at start, one at stop */
	t = raw(f, "interrupts");
	assert_int_equal(count(t, "time: "), 2);
	p = parse("interrupts", t);
	assert_non_null(strstr(p, "CPU0.1:IO-APIC.1-edge.i8042: 5\n"));
	assert_non_null(strstr(p, "LOC:Local_timer_interrupts: 30\n"));
	free(p);
	free(t);

	/* cpuidle: the state's name from its file, blanks made '-' */
	t = raw(f, "cpuidle");
	p = parse("cpuidle", t);
	assert_string_equal(p, "C1-E.time: 1000\nC1-E.usage: 3\nC1-E.time: 1000\nC1-E.usage: 3\n");
	free(p);
	free(t);

	/* numa-vmstat: node lines, repeated names kept once */
	t = raw(f, "numa-vmstat");
	assert_non_null(strstr(t, "node: 0\nnr_free_pages 7\npgfault 3\n"));
	free(t);

	/* vmstat: header, no since-boot row, then rows the parser reads */
	t = raw(f, "vmstat");
	p = parse("vmstat", t);
	assert_non_null(strstr(p, "procs.r: 2\n"));
	assert_non_null(strstr(p, "cpu.id: "));
	free(p);
	free(t);

	/* kmsg: records in dmesg --decode form; the warning's id */
	t = raw(f, "kmsg");
	assert_non_null(strstr(t, "kern  :warn  : [    2.500000] WARNING: CPU: 0 PID: 1 at mm/slub.c:100 kfree+0x1/0x2\n"));
	assert_null(strstr(t, "SUBSYSTEM"));
	p = parse("kmsg", t);
	assert_non_null(strstr(p, "WARNING:at_mm/slub.c:#kfree: 1\n"));
	free(p);
	free(t);

	/* proc-stat's keys */
	t = raw(f, "proc-stat");
	p = parse("proc-stat", t);
	assert_non_null(strstr(p, "cpu.user: 20\n"));
	free(p);
	free(t);

	/* sched_debug has no source in the fake tree: skipped, no file */
	assert_null(raw(f, "sched_debug"));
	/* a monitor the job did not ask for */
	assert_null(raw(f, "slabinfo"));
	job_free(job);
}

/*
 * A run shorter than every interval (an hour each, so by construction)
 * still has a start and an end sample of every monitor, and perf-stat
 * its one (partial) interval, totals and per-second figures.
 */
static void test_sub_interval_run(void **state)
{
	static const char *const two[] = {"proc-vmstat", "meminfo", "proc-stat",
					  "interrupts"};
	struct fixture *f = *state;
	struct job *job = load(
		"monitors: proc-vmstat, meminfo, proc-stat, interrupts, vmstat, perf-stat\n"
		"proc-vmstat:\n  interval: 3600\nmeminfo:\n  interval: 3600\n"
		"proc-stat:\n  interval: 3600\nvmstat:\n  interval: 3600\n"
		"perf-stat:\n  interval: 3600\n");
	struct sampler *s = sampler_start(job, f->out, f->sys, NULL);
	size_t i;
	char *t, *p;

	assert_non_null(s);
	overwrite(f, "proc/vmstat", "nr_free_pages 90\npgfault 42\n");
	assert_int_equal(sampler_stop(s), 0);
	for (i = 0; i < sizeof(two) / sizeof(two[0]); i++) {
		t = raw(f, two[i]);
		assert_non_null(t);
		if (count(t, "time: ") != 2)
			fail_msg("%s: %d samples, not start and end", two[i],
				 count(t, "time: "));
		free(t);
	}
	t = raw(f, "proc-vmstat");
	p = parse("proc-vmstat", t);
	/* the start sample saw the old value, the end sample the new one */
	assert_non_null(strstr(p, "\npgfault: 1\ntime: "));
	assert_non_null(strstr(p + strlen(p) - 13, "\npgfault: 42\n"));
	free(p);
	free(t);
	/* vmstat: one row, from start to end */
	t = raw(f, "vmstat");
	p = parse("vmstat", t);
	assert_int_equal(count(p, "procs.r: "), 1);
	free(p);
	free(t);
	/* perf-stat counts software events wherever perf_event_open works */
	t = raw(f, "perf-stat");
	if (t || !geteuid()) {
		assert_non_null(t);
		p = parse("perf-stat", t);
		assert_int_equal(count(p, "time: "), 1);
		assert_non_null(strstr(p, "\ni.cpu-clock: "));
		assert_non_null(strstr(p, "\nps.cpu-clock: "));
		assert_non_null(strstr(p, "\nps.context-switches: "));
		/* the fault events only when named (docs/performance.md) */
		assert_null(strstr(p, "\nps.page-faults: "));
		free(p);
		free(t);
	}
	job_free(job);
}

static void test_kill_leaves_whole_samples(void **state)
{
	struct fixture *f = *state;
	struct strbuf big = STRBUF_INIT, path = STRBUF_INIT;
	struct stat st;
	char *t;
	pid_t pid;
	int i, status;

	/* a large source, so that a kill can land in the middle of a sample */
	for (i = 0; i < 2000; i++)
		strbuf_addf(&big, "counter_%d %d\n", i, i);
	strbuf_addstr(&big, "last_line 1\n");
	overwrite(f, "proc/vmstat", big.buf);
	path_join(&path, f->out, "proc-vmstat");
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct job *job = load("monitors: proc-vmstat\nproc-vmstat:\n  interval: 0.01\n");

		sampler_start(job, f->out, f->sys, NULL);
		for (;;)
			pause();
	}
	/*
	 * let it write a few samples, however loaded the machine (watching
	 * the size only: the file grows fast), then kill
	 */
	for (i = 0; i < 1000; i++) {
		sleep_ms(10);
		if (!stat(path.buf, &st) && st.st_size > (off_t)(5 * big.len))
			break;
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	t = raw(f, "proc-vmstat");
	assert_non_null(t);
	assert_true(count(t, "time: ") >= 3);
	/*
	 * every sample but the last is whole (one write() per sample; a
	 * SIGKILL can only cut the write in flight)
	 */
	assert_true(count(t, "last_line 1\n") >= count(t, "time: ") - 1);
	free(t);
	strbuf_release(&big);
	strbuf_release(&path);
}

static void test_default_set(void **state)
{
	struct fixture *f = *state;
	struct job *job = load("category: benchmark\ndisable_monitors: perf-profile, perf-stat\n");
	struct sampler *s = sampler_start(job, f->out, f->sys, NULL);
	char *t;

	assert_int_equal(sampler_stop(s), 0);
	t = raw(f, "meminfo");
	assert_non_null(t);
	free(t);
	t = raw(f, "softirqs"); /* no /proc/softirqs in the tree */
	assert_null(t);
	assert_null(raw(f, "perf-profile"));
	assert_null(raw(f, "buddyinfo")); /* opt-in */
	job_free(job);
}

static void put_msr(const struct fixture *f, uint32_t reg, uint64_t v)
{
	struct strbuf path = STRBUF_INIT;
	FILE *fp;

	path_join(&path, f->sys, "dev/cpu/0/msr");
	fp = fopen(path.buf, "r+");
	if (!fp)
		fp = fopen(path.buf, "w+");
	assert_non_null(fp);
	fseek(fp, reg, SEEK_SET);
	fwrite(&v, sizeof(v), 1, fp);
	fclose(fp);
	strbuf_release(&path);
}

static void test_turbostat_msr(void **state)
{
	struct fixture *f = *state;
	struct job *job = load("monitors: turbostat\n");
	struct sampler *s;
	char *t, *p;

	/*
	 * A plain file stands in for the MSR device (offset = register).  In
	 * a file MPERF (0xe7) and APERF (0xe8) share seven bytes, so only
	 * MPERF is written; APERF then reads as MPERF >> 8.
	 */
	put(f, "dev/cpu/0/.keep", "");
	put_msr(f, 0x10, 0);  /* TSC */
	put_msr(f, 0xe8, 0);  /* APERF, and byte 0xef */
	put_msr(f, 0xe7, 0);  /* MPERF */
	s = sampler_start(job, f->out, f->sys, NULL);
	assert_non_null(s);
	/* busy a quarter of the TSC's cycles */
	put_msr(f, 0x10, 1ull << 34);
	put_msr(f, 0xe7, 1ull << 32);
	assert_int_equal(sampler_stop(s), 0);
	t = raw(f, "turbostat");
	assert_non_null(t);
	p = parse("turbostat", t);
	if (!strstr(p, "Busy%: 25.00\n"))
		fail_msg("raw:\n%s\nparsed:\n%s", t, p);
	assert_non_null(strstr(p, "CPU%c1: 75.00\n"));
	free(p);
	free(t);
	job_free(job);
}

/*
 * Two monitors reading one source in the same tick share one read (vmstat
 * and proc-vmstat): the second gets the first's text, a new tick reads
 * anew; without a share every read goes to the file.
 */
static void test_shared_reads(void **state)
{
	struct fixture *f = *state;
	struct mon_share sh;
	struct mon_inst mi;
	struct mon_file a, b, c;
	struct strbuf why = STRBUF_INIT, ta = STRBUF_INIT, tb = STRBUF_INIT;

	memset(&mi, 0, sizeof(mi));
	mi.sysroot = f->sys;
	mon_share_init(&sh);
	mi.share = &sh;
	assert_int_equal(mon_file_open(&a, f->sys, "proc/vmstat", &why), 0);
	assert_int_equal(mon_file_open(&b, f->sys, "proc/vmstat", &why), 0);
	assert_int_equal(mon_file_open(&c, f->sys, "proc/vmstat", &why), 0);
	mon_file_share(&mi, &a, "proc/vmstat");
	mon_file_share(&mi, &b, "proc/vmstat");
	sh.tick++;
	assert_int_equal(mon_file_read(&a, &ta), 0);
	overwrite(f, "proc/vmstat", "nr_free_pages 5\npgfault 9\n");
	assert_int_equal(mon_file_read(&b, &tb), 0);
	assert_string_equal(tb.buf, "nr_free_pages 100\npgfault 1\n");
	/* c is not shared: it sees the file as it is now */
	strbuf_reset(&tb);
	assert_int_equal(mon_file_read(&c, &tb), 0);
	assert_string_equal(tb.buf, "nr_free_pages 5\npgfault 9\n");
	sh.tick++;
	strbuf_reset(&tb);
	assert_int_equal(mon_file_read(&b, &tb), 0);
	assert_string_equal(tb.buf, "nr_free_pages 5\npgfault 9\n");
	strbuf_reset(&ta);
	assert_int_equal(mon_file_read(&a, &ta), 0);
	assert_string_equal(ta.buf, tb.buf);
	mon_file_close(&a);
	mon_file_close(&b);
	mon_file_close(&c);
	mon_share_release(&sh);
	strbuf_release(&why);
	strbuf_release(&ta);
	strbuf_release(&tb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_periodic_and_snapshots, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sub_interval_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kill_leaves_whole_samples, setup, teardown),
		cmocka_unit_test_setup_teardown(test_default_set, setup, teardown),
		cmocka_unit_test_setup_teardown(test_turbostat_msr, setup, teardown),
		cmocka_unit_test_setup_teardown(test_shared_reads, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
