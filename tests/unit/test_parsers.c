/*
 * test_parsers.c: unit tests for the monitor parsers on small hand-made
 * inputs -- the cases the shipped LKP vectors do not cover (18-field
 * diskstats, multi-word IRQ descriptions, per-sample MemTotal, proc-stat,
 * kmsg and dmesg error ids, a panic's among them, dmesg's boot_failures,
 * cpu-clock-pp profiles)
 * -- and for Ruby float text.
 */
#include "util/compat.h"
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "monitors/monitor.h"
#include "monitors/monutil.h"
#include "util/strbuf.h"
#include "util/trust.h"
#include "util/xalloc.h"

static char *run(const char *monitor, const char *raw)
{
	const struct monitor_ops *m = monitor_find(monitor);
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	assert_non_null(m);
	assert_int_equal(m->parse(raw, strlen(raw), NULL, &out, &err), 0);
	strbuf_release(&err);
	return strbuf_detach(&out, NULL);
}

static void expect(const char *monitor, const char *raw, const char *want)
{
	char *got = run(monitor, raw);

	assert_string_equal(got, want);
	free(got);
}

static void test_ruby_float(void **state)
{
	static const struct {
		double v;
		const char *s;
	} cases[] = {
		{0, "0.0"}, {4, "4.0"}, {-942, "-942.0"}, {3.5, "3.5"},
		{1e-6, "1.0e-06"}, {0.0001, "0.0001"}, {1e16, "1.0e+16"},
		{1e15, "1000000000000000.0"}, {1.01718494, "1.01718494"},
		{0.1 + 0.2, "0.30000000000000004"}, {1134813.18372, "1134813.18372"},
		{3.999999989900997e-06, "3.999999989900997e-06"}, {123456.5e20, "1.234565e+25"},
	};
	struct strbuf sb = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		strbuf_reset(&sb);
		mon_ruby_float(&sb, cases[i].v);
		assert_string_equal(sb.buf, cases[i].s);
	}
	strbuf_release(&sb);
}

static void test_diskstats_layouts(void **state)
{
	(void)state;
	/* 18 fields (4.18 .. 5.4): the four discard counters, no flush */
	expect("diskstats",
	       "time: 5\n 8 0 sda 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n"
	       " 8 1 sda1 1 2 3\n",
	       "time: 5\nread_ios.sda: 1\nread_merges.sda: 2\nread_sectors.sda: 3\n"
	       "read_ticks.sda: 4\nwrite_ios.sda: 5\nwrite_merges.sda: 6\n"
	       "write_sectors.sda: 7\nwrite_ticks.sda: 8\nin_flight.sda: 9\n"
	       "io_ticks.sda: 10\ntime_in_queue.sda: 11\ndiscard_ios.sda: 12\n"
	       "discard_merges.sda: 13\ndiscard_sectors.sda: 14\n"
	       "discard_ticks.sda: 15\n");
}

static void test_interrupts_multiword(void **state)
{
	(void)state;
	expect("interrupts",
	       "time: 1.5\n           CPU0       CPU1\n"
	       " 19:        10         5   IO-APIC  19-fasteoi   ahci[0000:00:1f.2], eth0\n"
	       "ERR:          0\n",
	       "time: 1.5\n"
	       "CPU0.19:IO-APIC.19-fasteoi.ahci[0000:00:1f.2],eth0: 10\n"
	       "CPU1.19:IO-APIC.19-fasteoi.ahci[0000:00:1f.2],eth0: 5\n"
	       "19:IO-APIC.19-fasteoi.ahci[0000:00:1f.2],eth0: 15\n"
	       "ERR: 0\n");
}

static void test_meminfo_per_sample_total(void **state)
{
	(void)state;
	/* MemTotal grows (ballooning): Memused follows it (LKP quirk Q5) */
	expect("meminfo",
	       "time: 1\nMemTotal: 100 kB\nMemFree: 40 kB\n"
	       "time: 2\nMemTotal: 200 kB\nMemFree: 180 kB\n",
	       "time: 1\nMemTotal: 100\nMemFree: 40\nMemused: 60\nmax_used_kB: 60\n"
	       "time: 2\nMemTotal: 200\nMemFree: 180\nMemused: 20\nmax_used_kB: 60\n");
}

static void test_proc_stat_keys(void **state)
{
	(void)state;
	expect("proc-stat",
	       "time: 7\ncpu  10 1 20 300 4 0 2 0 0 0\ncpu0 5 0 10 150 2 0 1 0 0 0\n"
	       "intr 999 1 2 3\nctxt 4242\nbtime 17\nprocesses 77\n"
	       "procs_running 2\nprocs_blocked 0\nsoftirq 555 1 2\n",
	       "time: 7\ncpu.user: 10\ncpu.nice: 1\ncpu.system: 20\ncpu.idle: 300\n"
	       "cpu.iowait: 4\ncpu.irq: 0\ncpu.softirq: 2\ncpu.steal: 0\n"
	       "cpu.guest: 0\ncpu.guest_nice: 0\nintr: 999\nctxt: 4242\n"
	       "processes: 77\nprocs_running: 2\nprocs_blocked: 0\nsoftirq: 555\n");
}

static void test_cpuidle_sums(void **state)
{
	(void)state;
	expect("cpuidle",
	       "time: 1.0\ncpu0.POLL.time: 5\ncpu0.C1-HSW.time: 100\n"
	       "cpu1.POLL.time: 7\ncpu1.C1-HSW.time: 50\ncpu0.POLL.usage: 1\n"
	       "time: 2.0\ncpu0.POLL.time: 6\ncpu1.POLL.time: 9\n",
	       "POLL.time: 12\nC1-HSW.time: 150\nPOLL.usage: 1\nPOLL.time: 15\n");
}

static void test_kmsg_ids(void **state)
{
	char *got;

	(void)state;
	got = run("kmsg",
		  "kern  :info  : [    1.000000] all is well\n"
		  "kern  :warn  : [    2.500000] WARNING: CPU: 1 PID: 42 at kernel/locking/lockdep.c:5070 lock_release+0x1e/0x40\n"
		  "kern  :alert : [    3.000000] BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
		  "kern  :warn  : [    4.000000] WARNING: CPU: 0 PID: 7 at kernel/locking/lockdep.c:5070 lock_release+0x1e/0x40\n");
	assert_non_null(strstr(got, "WARNING:at_kernel/locking/lockdep.c:#lock_release: 1\n"));
	assert_non_null(strstr(got, "BUG:kernel_NULL_pointer_dereference,address: 1\n"));
	assert_non_null(strstr(got, "timestamp:WARNING:at_kernel/locking/lockdep.c:#lock_release: 2.500000\n"));
	assert_non_null(strstr(got, "timestamp:last: 4.000000\n"));
	assert_null(strstr(got, "all_is_well"));
	/* the second WARNING has the same id: counted once */
	assert_ptr_equal(strstr(got, "lock_release: 1"),
			 strstr(strstr(got, "lock_release: 1") + 1, "lock_release: 1") ?
			 NULL : strstr(got, "lock_release: 1"));
	free(got);
}

/*
 * A guest's console (dmesg, raw `[ t] text` lines): each panic is a stat
 * spelt as LKP's ids are (its stat-denylist's "Kernel_panic-not_syncing:"),
 * the panic of a timer check under TCG too -- whose message, with its
 * "report.  Then" and final '.', made an id no stat name can be, and the
 * run lost all its dmesg stats.  The "---[ end Kernel panic" trailer
 * repeats the panic: no second id.  A stray byte of the serial port is
 * no part of an id.
 */
static void test_dmesg_panic_ids(void **state)
{
	char *got, *line, *next;
	size_t ids = 0;

	(void)state;
	got = run("dmesg",
		  "[    0.000000] Linux version 6.1.0 (gcc-12) #1\n"
		  "[    0.512345] Kernel panic - not syncing: IO-APIC + timer doesn't work!  Boot with apic=debug and send a report.  Then try booting with the 'noapic' option.\n"
		  "[    0.512400] CPU: 0 PID: 1 Comm: swapper/0 Not tainted 6.1.0 #1\n"
		  "[    0.512500] ---[ end Kernel panic - not syncing: IO-APIC + timer doesn't work!  Boot with apic=debug and send a report.  Then try booting with the 'noapic' option. ]---\n"
		  "[    1.000000] Kernel panic - not syncing: VFS: Unable to mount root fs on unknown-block(0,0)\n"
		  "[    2.000000] Kernel panic - not syncing: sysrq triggered crash\n"
		  "[    3.000000] \001BUG: \033unable to handle page fault for address: ffffffffc0000000...\n");
	assert_non_null(strstr(got, "Kernel_panic-not_syncing:IO-APIC+timer_doesn't_work!Boot_with_apic=debug_and_send_a_report.Then_try_booting_with_the'noapic'option: 1\n"));
	assert_non_null(strstr(got, "\ntimestamp:Kernel_panic-not_syncing:IO-APIC+timer_doesn't_work!Boot_with_apic=debug_and_send_a_report.Then_try_booting_with_the'noapic'option: 0.512345\n"));
	assert_non_null(strstr(got, "\nKernel_panic-not_syncing:VFS:Unable_to_mount_root_fs_on_unknown-block(#,#): 1\n"));
	assert_non_null(strstr(got, "\nKernel_panic-not_syncing:sysrq_triggered_crash: 1\n"));
	assert_non_null(strstr(got, "\nBUG:unable_to_handle_page_fault_for_address: 1\n"));
	assert_non_null(strstr(got, "\ntimestamp:last: 3.000000\n"));
	/* every key a stat name can be; four ids, the trailer none */
	for (line = got; *line; line = next) {
		char *colon, *key;

		next = strchrnul(line, '\n');
		if (*next)
			*next++ = '\0';
		if (!*line || !strncmp(line, "message:", 8))
			continue;
		colon = strrchr(line, ':');
		assert_non_null(colon);
		*colon = '\0';
		key = xasprintf("dmesg.%s", line);
		assert_null(trust_stat_why(key));
		free(key);
		ids += strncmp(line, "timestamp:", 10) != 0;
	}
	/* four ids and boot_failures, the trailer none */
	assert_int_equal(ids, 5);
	free(got);
}

/*
 * LKP's boot_failures (programs/dmesg/parse): 1, first, when a console
 * has any error id -- a panic, an oops, a WARNING -- and absent from a
 * clean boot's, never 0.  kmsg never has it, even with the same ids.
 */
static void test_dmesg_boot_failures(void **state)
{
	static const char clean[] =
		"[    0.000000] Linux version 6.1.0 (gcc-12) #1\n"
		"[    0.900000] Freeing unused kernel image (initmem) memory: 1024K\n"
		"[    1.200000] perfsift-guest: job starts\n";
	static const char oops[] =
		"[    0.000000] Linux version 6.1.0 (gcc-12) #1\n"
		"[    2.000000] BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
		"[    2.000100] Oops: 0002 [#1] PREEMPT SMP NOPTI\n";
	static const char warn_kmsg[] =
		"kern  :warn  : [    2.500000] WARNING: CPU: 1 PID: 42 at kernel/locking/lockdep.c:5070 lock_release+0x1e/0x40\n";
	char *got;

	(void)state;
	got = run("dmesg", clean);
	assert_null(strstr(got, "boot_failures"));
	assert_non_null(strstr(got, "timestamp:last: 1.200000\n"));
	free(got);
	got = run("dmesg", oops);
	assert_true(!strncmp(got, "boot_failures: 1\n", 17));
	assert_non_null(strstr(got, "\nBUG:kernel_NULL_pointer_dereference,address: 1\n"));
	free(got);
	got = run("dmesg", "[    1.000000] Kernel panic - not syncing: VFS: Unable to mount root fs on unknown-block(0,0)\n");
	assert_true(!strncmp(got, "boot_failures: 1\n", 17));
	free(got);
	/* the same warning in the console is a failure, in kmsg it is not */
	got = run("dmesg", warn_kmsg);
	assert_true(!strncmp(got, "boot_failures: 1\n", 17));
	free(got);
	got = run("kmsg", warn_kmsg);
	assert_non_null(strstr(got, "WARNING:at_kernel/locking/lockdep.c:#lock_release: 1\n"));
	assert_null(strstr(got, "boot_failures"));
	free(got);
	got = run("kmsg", oops);
	assert_null(strstr(got, "boot_failures"));
	free(got);
}

static void test_perf_profile_event_and_legacy(void **state)
{
	(void)state;
	expect("perf-profile",
	       "# ========\n# legacy_keys: 1\n# ========\n#\n"
	       "# Samples: 1K of event 'cpu-clock:pp'\n#\n"
	       "    60.00%    50.00%  [kernel.kallsyms]  [k] clear_page_erms\n"
	       "50.00% clear_page_erms;clear_huge_page.isra.3;do_anonymous_page;handle_mm_fault;do_user_addr_fault;exc_page_fault\n"
	       "    10.00%     0.01%  [kernel.kallsyms]  [k] do_anonymous_page\n",
	       "calltrace.cpu-clock-pp.clear_page_erms.clear_huge_page.do_anonymous_page.handle_mm_fault.do_user_addr_fault: 50.00\n"
	       "children.cpu-clock-pp.clear_page_erms: 60.00\n"
	       "children.cpu-clock-pp.do_anonymous_page: 10.00\n"
	       "cpu-clock-pp.clear_page_erms.clear_huge_page.do_anonymous_page.handle_mm_fault.do_user_addr_fault: 50.00\n"
	       "self.cpu-clock-pp.clear_page_erms: 50.00\n");
}

static void test_perf_stat_unknown_event(void **state)
{
	const struct monitor_ops *m = monitor_find("perf-stat");
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	static const char raw[] =
		"perf stat -a -I 1000 -x , -e cpu-clock,page-faults --log-fd 1\n"
		"1.0,5,,bogus-event,1,100.00,,\n";

	(void)state;
	assert_int_equal(m->parse(raw, strlen(raw), NULL, &out, &err), -1);
	assert_non_null(strstr(err.buf, "bogus-event"));
	strbuf_release(&out);
	strbuf_release(&err);
}

/*
 * LKP drops a file's last interval as incomplete (Q7); the sampler's end
 * line says the last interval is whole (read when the run ended), so it
 * counts: a run shorter than one interval has its rates and ps.*, and
 * ps.* divides the totals of every interval by the run's duration.
 */
static void test_perf_stat_final_interval(void **state)
{
	static const char head[] =
		"perf stat -a --scale -I 1000 -x , -e cpu-clock,page-faults --log-fd 1 -D 0 -- perfsift\n";
	static const char one[] =
		"0.250000000,500.00,msec,cpu-clock,500000000,100.00,,\n"
		"0.250000000,100,,page-faults,500000000,100.00,,\n";
	static const char two[] =
		"1.000000000,2000.00,msec,cpu-clock,2000000000,100.00,,\n"
		"1.000000000,300,,page-faults,2000000000,100.00,,\n"
		"1.250000000,500.00,msec,cpu-clock,500000000,100.00,,\n"
		"1.250000000,200,,page-faults,500000000,100.00,,\n";
	struct strbuf raw = STRBUF_INIT;

	(void)state;
	/* one partial interval, as LKP writes it: nothing (LKP's output) */
	strbuf_addf(&raw, "%s%s", head, one);
	expect("perf-stat", raw.buf, "");
	/* the same, ended by the sampler: the interval and the totals */
	strbuf_addstr(&raw, "# perfsift: end of run\n");
	expect("perf-stat", raw.buf,
	       "time: 0.25\ni.cpu-clock: 2000.0\ni.page-faults: 400.0\n"
	       "ps.cpu-clock: 2000.0\nps.page-faults: 400.0\n");
	/*
	 * a whole interval and the partial last one: LKP drops the last but
	 * divides by the time up to it (ps.* low by a fifth here)...
	 */
	strbuf_reset(&raw);
	strbuf_addf(&raw, "%s%s", head, two);
	expect("perf-stat", raw.buf,
	       "time: 1.0\ni.cpu-clock: 2000.0\ni.page-faults: 300.0\n"
	       "ps.cpu-clock: 1600.0\nps.page-faults: 240.0\n");
	/* ...ended by the sampler, both count */
	strbuf_addstr(&raw, "# perfsift: end of run\n");
	expect("perf-stat", raw.buf,
	       "time: 1.0\ni.cpu-clock: 2000.0\ni.page-faults: 300.0\n"
	       "time: 1.25\ni.cpu-clock: 2000.0\ni.page-faults: 800.0\n"
	       "ps.cpu-clock: 2000.0\nps.page-faults: 400.0\n");
	strbuf_release(&raw);
}

static void test_latency_stats_merge(void **state)
{
	(void)state;
	expect("latency_stats",
	       "time: 1.0\nLatency Top version : v0.1\n"
	       "2 100 80 msleep.isra.1 worker\n3 50 30 msleep worker\n",
	       "hits.msleep.worker: 5\nsum.msleep.worker: 150\navg.msleep.worker: 30\n"
	       "max.msleep.worker: 80\nhits.max: 5\nsum.max: 150\navg.max: 30\nmax.max: 80\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ruby_float),
		cmocka_unit_test(test_diskstats_layouts),
		cmocka_unit_test(test_interrupts_multiword),
		cmocka_unit_test(test_meminfo_per_sample_total),
		cmocka_unit_test(test_proc_stat_keys),
		cmocka_unit_test(test_cpuidle_sums),
		cmocka_unit_test(test_kmsg_ids),
		cmocka_unit_test(test_dmesg_boot_failures),
		cmocka_unit_test(test_dmesg_panic_ids),
		cmocka_unit_test(test_perf_profile_event_and_legacy),
		cmocka_unit_test(test_perf_stat_unknown_event),
		cmocka_unit_test(test_perf_stat_final_interval),
		cmocka_unit_test(test_latency_stats_merge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
