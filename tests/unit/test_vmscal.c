/*
 * test_vmscal.c: the vm-scalability parser (LKP's fixture byte for byte,
 * and each output form: usemem lines, repeat dots, dd, truncate/faulted,
 * free time, incomplete output) and the suite's size arithmetic.
 */
#include "util/compat.h"
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "benchmarks/bench.h"
#include "benchmarks/vmscal_cases.h"
#include "benchmarks/vmscal_exec.h"
#include "job/job.h"
#include "setup/knob.h"
#include "monitors/parsers.h"
#include "job/params.h"
#include "job/programs.h"
#include "util/fileutil.h"
#include "util/strbuf.h"

static const char *testdata(void)
{
	const char *d = getenv("PERFSIFT_TESTDATA");

	return d ? d : "tests/data";
}

static void parse_str(const char *in, const char *expect)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	assert_int_equal(parse_vm_scalability(in, strlen(in), NULL, &out, &err), 0);
	assert_string_equal(out.buf, expect);
	strbuf_release(&out);
	strbuf_release(&err);
}

static void test_parse_fixture(void **state)
{
	struct strbuf in = STRBUF_INIT, want = STRBUF_INIT, out = STRBUF_INIT;
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT;

	(void)state;
	strbuf_addf(&path, "%s/lkp/stats/vm-scalability/1", testdata());
	assert_int_equal(strbuf_read_file(&in, path.buf, 0), 0);
	strbuf_addstr(&path, ".yaml");
	assert_int_equal(strbuf_read_file(&want, path.buf, 0), 0);
	assert_int_equal(parse_vm_scalability(in.buf, in.len, path.buf, &out, &err), 0);
	assert_string_equal(out.buf, want.buf);
	strbuf_release(&in);
	strbuf_release(&want);
	strbuf_release(&out);
	strbuf_release(&err);
	strbuf_release(&path);
}

static void test_parse_usemem(void **state)
{
	(void)state;
	/* two samples of two workers; dots of repeats; "read again" ignored */
	parse_str("2026-01-01 00:00:00  ./case-anon-r-seq\n"
		  "2026-01-01 00:00:00  usemem --runtime 300 -n 2 --readonly 4096\n"
		  "1000 bytes / 10 usecs = 300 KB/s\n"
		  ".1200 bytes / 10 usecs = 100 KB/s\n"
		  "5000 usecs to free memory\n"
		  "7000 usecs to free memory\n"
		  "2026-01-01 00:00:01  ./case-anon-r-seq\n"
		  "3000 bytes / 10 usecs = 200 KB/s\n"
		  "1000 bytes / 10 usecs = 200 KB/s\n"
		  "read again 500 bytes / 1 usecs = 5 KB/s\n",
		  "# 2 400\n"
		  "# 2 400\n"
		  "throughput: 400\n"
		  "stddev%:   0\n"
		  "free_time:  0.006\n"
		  "median: 250\n"
		  "median_stddev%: 20\n"
		  "workload: 6.05\n");
	/* one sample: the spread of its workers stands in for stddev */
	parse_str("./case-anon-w-seq\n"
		  "100 bytes / 1 usecs = 100 KB/s\n"
		  "300 bytes / 1 usecs = 300 KB/s\n"
		  "200 bytes / 1 usecs = 200 KB/s\n",
		  "# 3 600\n"
		  "throughput: 600\n"
		  "stddev%:   122.474\n"
		  "median: 200\n"
		  "median_stddev%: 0\n"
		  "workload: 0.59\n");
	/* nothing measured: no keys at all */
	parse_str("./case-fork\n", "");
	/* output cut after a case line: throughput only */
	parse_str("./case-x\n100 bytes / 1 usecs = 5 KB/s\n./case-x\n",
		  "# 1 5\nthroughput: 5\n");
}

static void test_parse_other_forms(void **state)
{
	(void)state;
	/* dd (lru-file-readonce): KiB / seconds, a Float */
	parse_str("./case-lru-file-readonce\n"
		  "1048576 bytes (1.0 MB, 1.0 MiB) copied, 3 s, 0.3 MB/s\n",
		  "# 1 341.3333333333333\n"
		  "throughput: 341\n"
		  "stddev%:   0\n"
		  "median: 341\n"
		  "median_stddev%: 0\n"
		  "workload: 1024.00\n");
	/* truncate-seq: faulted and truncated, two families of keys */
	parse_str("./case-truncate-seq\n"
		  "1024000 bytes faulted in 2.5-2.0 seconds\n"
		  "1024000 bytes truncated in 1.5-1.0 seconds\n",
		  "# 1 2000.0\n"
		  "# 1 2000.0\n"
		  "throughput: 2000\n"
		  "stddev%:   0\n"
		  "median: 2000\n"
		  "median_stddev%: 0\n"
		  "workload: 1000.00\n"
		  "throughput_fault: 2000\n"
		  "stddev_fault%:   0\n"
		  "median_fault: 2000\n"
		  "median_fault_stddev%: 0\n");
	/* large and tiny floats print as Ruby prints them */
	parse_str("./case-truncate\n"
		  "1099511627776000 bytes truncated in 1.0-0.9 seconds\n",
		  "# 1 10737418240000.002\n"
		  "throughput: 10737418240000\n"
		  "stddev%:   0\n"
		  "median: 10737418240000\n"
		  "median_stddev%: 0\n"
		  "workload: 1073741824000.00\n");
}


/* the development VM of spec/vm-scalability.md 1.5 */
static void dev_vm(struct vmscal_hw *hw)
{
	memset(hw, 0, sizeof(*hw));
	hw->nr_cpu = 2;
	hw->nr_node = 1;
	hw->mem = 25276063744ull;
	hw->mem_avail = 24872296448ull;
	hw->mem_free = 24400000000ull;
	hw->reclaimable = 12779978752ull;
	hw->shm_size = hw->mem;
}

static void plan_of(const struct vmscal_hw *hw, const char *test,
		    struct vmscal_plan *pl)
{
	struct vmscal_params p;
	struct strbuf err = STRBUF_INIT;

	memset(&p, 0, sizeof(p));
	p.test = test;
	p.runtime = 300;
	assert_int_equal(vmscal_plan(hw, &p, pl, &err), 0);
	strbuf_release(&err);
}

static void test_hw_vars(void **state)
{
	struct vmscal_hw hw;
	struct vmscal_plan pl;

	(void)state;
	dev_vm(&hw);
	assert_int_equal(vmscal_pte_limit(&hw), 6367307890688ull);
	assert_int_equal(vmscal_rotate_bytes(&hw), 1ull << 42);

	/* anon-r-seq: PTE_LIMIT / N per process = 2965 GiB */
	plan_of(&hw, "anon-r-seq", &pl);
	assert_int_equal(pl.um.size, 6367307890688ull / 2);
	assert_int_equal(pl.um.nproc, 2);
	assert_int_equal(pl.um.nthread, 0);
	assert_true(pl.um.readonly);
	assert_int_equal(pl.um.runtime, 300);
	assert_null(pl.skip);
	/* its footprint is page tables: 8 bytes per 4 KiB */
	assert_int_equal(pl.footprint, 6367307890688ull / 2 * 2 / 512);
	/* where the kernel maps no zero page, every page read is kept */
	hw.no_zero_page = true;
	plan_of(&hw, "anon-r-seq", &pl);
	assert_int_equal(pl.footprint, 6367307890688ull / 2 * 2 / 512 +
					6367307890688ull / 2 * 2);
	hw.no_zero_page = false;

	/* -mt: threads, same size */
	plan_of(&hw, "anon-r-seq-mt", &pl);
	assert_int_equal(pl.um.nthread, 2);
	assert_int_equal(pl.um.nproc, 0);

	/* anon-w-seq: (mem/2)/N, footprint mem/2 */
	plan_of(&hw, "anon-w-seq", &pl);
	assert_int_equal(pl.um.size, 25276063744ull / 2 / 2);
	assert_false(pl.um.readonly);
	assert_int_equal(pl.footprint, 25276063744ull / 2 / 2 * 2);

	/* anon-cow-seq: (mem/2)/(N+1), prealloc + prefault, N+1 copies */
	plan_of(&hw, "anon-cow-seq", &pl);
	assert_int_equal(pl.um.size, 25276063744ull / 2 / 3);
	assert_true(pl.um.prealloc && pl.um.prefault);
	assert_int_equal(pl.footprint, 25276063744ull / 2 / 3 * 3);

	/* small-allocs: ROTATE halved to 1 TiB, 40 KiB units */
	plan_of(&hw, "small-allocs", &pl);
	assert_int_equal(pl.um.size, (1ull << 40) / 2);
	assert_int_equal(pl.um.unit, 40960);

	/* mmap-pread-seq-mt: ROTATE >> 3 on a ROTATE sparse file */
	plan_of(&hw, "mmap-pread-seq-mt", &pl);
	assert_int_equal(pl.um.size, (1ull << 42) >> 3);
	assert_int_equal(pl.file, VMF_SPARSE);
	assert_int_equal(pl.file_size, 1ull << 42);
	assert_int_equal(pl.nfiles, 1);
	assert_int_equal(pl.footprint, 0);

	/* lru-shm: one shm file per task, shm/N/2 read from each */
	plan_of(&hw, "lru-shm", &pl);
	assert_int_equal(pl.kind, VMS_USEMEM_EACH);
	assert_int_equal(pl.nfiles, 2);
	assert_int_equal(pl.um.size, 25276063744ull / 2 / 2);
	assert_int_equal(pl.footprint, 25276063744ull / 2 / 2 * 2);

	/* lru-file-readtwice: 2 readers of each of N files */
	plan_of(&hw, "lru-file-readtwice", &pl);
	assert_int_equal(pl.kind, VMS_DD);
	assert_int_equal(pl.readers, 2);
	assert_int_equal(pl.file_size, (1ull << 42) / 2);

	/* what this machine cannot run says why */
	plan_of(&hw, "swap-w-seq", &pl);
	assert_string_equal(pl.skip, "needs swap, this machine has none");
	plan_of(&hw, "migrate", &pl);
	assert_string_equal(pl.skip, "needs 2 NUMA nodes, this machine has 1");
	/* hugetlb: the pages are planned (the pool is grown at prepare), not skipped */
	plan_of(&hw, "anon-w-seq-hugetlb", &pl);
	assert_null(pl.skip);
	assert_true(pl.um.hugetlb && pl.um.anonymous);
	assert_int_equal(pl.hugepages, 2 * ((25276063744ull / 2 / 2 + (2u << 20) - 1) >> 21));
	assert_int_equal(pl.hugepages_overcommit, pl.hugepages + 2 + 1);
	assert_int_equal(pl.footprint, (uint64_t)pl.hugepages << 21);
	plan_of(&hw, "anon-cow-seq-hugetlb", &pl);
	assert_int_equal(pl.hugepages, 3 * ((25276063744ull / 2 / 3 + (2u << 20) - 1) >> 21));
}

/* the cases the suite has beyond LKP's vm-scalability.yaml */
static void test_spec_only_cases(void **state)
{
	struct vmscal_hw hw;
	struct vmscal_plan pl;
	const uint64_t mem = 25276063744ull;

	(void)state;
	dev_vm(&hw);
	plan_of(&hw, "000-anon", &pl);
	assert_int_equal(pl.um.nproc, 1);
	assert_int_equal(pl.um.size, mem / 3);
	assert_false(pl.um.readonly);
	assert_int_equal(pl.footprint, mem / 3);
	plan_of(&hw, "000-shm-clean", &pl);
	assert_int_equal(pl.file, VMF_SHM);
	assert_int_equal(pl.nfiles, 1);
	assert_int_equal(pl.um.size, mem / 3);
	assert_true(pl.um.readonly);
	/* fork: the suite's 20000 (a 24 GiB machine has 1 per MiB to spare) */
	plan_of(&hw, "fork", &pl);
	assert_null(pl.skip);
	assert_int_equal(pl.um.nproc, 20000);
	assert_int_equal(pl.um.size, 0);
	assert_true(pl.um.sleep_s == 0);
	plan_of(&hw, "fork-sleep", &pl);
	assert_true(pl.um.sleep_s == 10);
	plan_of(&hw, "hugetlb", &pl);
	assert_int_equal(pl.kind, VMS_HUGETLB_POOL);
	assert_int_equal(pl.pool_pages, mem / (2u << 20) / 3);
	assert_int_equal(pl.footprint, pl.pool_pages << 21);
	plan_of(&hw, "ksm", &pl);
	assert_int_equal(pl.kind, VMS_KSM);
	assert_int_equal(pl.workers, 1); /* one per node */
	assert_int_equal(pl.um.size, mem / 1000);
	assert_true(pl.hold_s == 60 && !pl.ksm_thp);
	plan_of(&hw, "ksm-hugepages", &pl);
	assert_int_equal(pl.workers, 2);
	assert_int_equal(pl.um.size, mem / 2 / 2);
	assert_true(pl.ksm_thp);
	plan_of(&hw, "lru-memcg", &pl);
	assert_int_equal(pl.kind, VMS_DD);
	assert_true(pl.memcg);
	assert_int_equal(pl.memcg_limit, mem / 3);
	assert_int_equal(pl.nfiles, 2);
	plan_of(&hw, "posix-fadvise", &pl);
	assert_int_equal(pl.kind, VMS_FADVISE);
	assert_int_equal(pl.file_size, (1ull << 42) / 2);
	plan_of(&hw, "remap", &pl);
	assert_int_equal(pl.kind, VMS_REMAP);
	assert_int_equal(pl.um.size, mem / 2 / 2);
	assert_int_equal(pl.footprint, mem / 2);
	plan_of(&hw, "direct-write", &pl);
	assert_int_equal(pl.file_size, mem / 2);
	plan_of(&hw, "shm-lock-unlock", &pl);
	assert_true(pl.um.lock_shm && pl.um.random && !pl.um.readonly);
	assert_int_equal(pl.um.size, mem / 2 / 2);
	assert_int_equal(pl.footprint, mem / 2 / 2 * 3);
	/* a small machine forks fewer, a short runtime sleeps less */
	vmscal_hw_scale(&hw, 64u << 20);
	plan_of(&hw, "fork", &pl);
	assert_int_equal(pl.um.nproc, 64);
	assert_true(vmscal_case_known("mincore-hugepages"));
	plan_of(&hw, "mincore-hugepages", &pl);
	assert_int_equal(pl.kind, VMS_MINCORE_HUGE);
	assert_int_equal(pl.pool_pages, (64u << 20) / (2u << 20) / 20);
	assert_int_equal(pl.hugepages_overcommit, (64u << 20) / (2u << 20) / 10);
	assert_false(vmscal_case_known("no-such"));
}

static void test_repeat_count(void **state)
{
	struct vmscal_hw hw;
	struct vmscal_params p;

	(void)state;
	dev_vm(&hw);
	memset(&p, 0, sizeof(p));
	p.test = "anon-w-seq";
	assert_int_equal(vmscal_repeat_count(&hw, &p), 1); /* no size: once */
	p.size = 8ull << 40;                               /* 8T / (mem/2) */
	assert_int_equal(vmscal_repeat_count(&hw, &p), (8ull << 40) / (25276063744ull / 2));
	p.test = "shm-pread-rand-mt";                      /* 16G, unit 1G */
	p.size = 16ull << 30;
	p.unit_size = 1ull << 30;
	assert_int_equal(vmscal_repeat_count(&hw, &p), 16);
	p.unit_size = 0;                                   /* shm*nr_cpu/2 > size */
	assert_int_equal(vmscal_repeat_count(&hw, &p), 1);
	p.test = "lru-shm";                                /* 1T / (shm/2) */
	p.size = 1ull << 40;
	assert_int_equal(vmscal_repeat_count(&hw, &p), (1ull << 40) / (25276063744ull / 2));
	hw.nr_node = 2;                                    /* size * nr_node */
	assert_int_equal(vmscal_repeat_count(&hw, &p), (2ull << 40) / (25276063744ull / 2));
}

static void test_scale_and_names(void **state)
{
	struct vmscal_hw hw;
	struct vmscal_params p;
	struct vmscal_plan pl;
	struct strbuf err = STRBUF_INIT;
	size_t i;

	(void)state;
	dev_vm(&hw);
	vmscal_hw_scale(&hw, 25276063744ull / 4);
	assert_int_equal(hw.mem, 25276063744ull / 4);
	assert_int_equal(hw.mem_avail, 24872296448ull / 4);
	assert_int_equal(hw.shm_size, 25276063744ull / 4);
	/* every case has a plan; an unknown one is an error */
	memset(&p, 0, sizeof(p));
	for (i = 0; vmscal_case_name(i); i++) {
		p.test = vmscal_case_name(i);
		assert_int_equal(vmscal_plan(&hw, &p, &pl, &err), 0);
		assert_string_equal(pl.name, p.test);
	}
	assert_true(i >= 41);
	p.test = "anon-x-nope";
	assert_int_equal(vmscal_plan(&hw, &p, &pl, &err), -1);
	assert_string_equal(err.buf, "vm-scalability: unknown test 'anon-x-nope'");
	strbuf_release(&err);
}

/* prepare / run (in a child, stdout to a file) / cleanup, as the runner does */
static int bench_cycle(const char *yaml, struct strbuf *out, struct strbuf *why)
{
	const struct bench_ops *ops = bench_find("vm-scalability");
	char dir[] = "/tmp/test_vmscal.XXXXXX";
	struct strbuf path = STRBUF_INIT, skip = STRBUF_INIT;
	struct job **jobs = NULL;
	size_t njobs = 0;
	struct bench_ctx ctx;
	struct vmscal_opts opts;
	int ret, fd, status;
	pid_t pid;

	assert_non_null(ops);
	assert_non_null(mkdtemp(dir));
	if (job_load_string(yaml, "t.yaml", &jobs, &njobs, why) < 0)
		return -2;
	assert_int_equal(njobs, 1);
	/* as the runner does: the options typed by the program table */
	if (param_fill(program_find("vm-scalability"), jobs[0], &opts, why) < 0) {
		job_free_all(jobs, njobs);
		rmdir(dir);
		return -3;
	}
	/* knobs go to a fake tree: a test never changes this machine */
	path_join(&path, dir, "proc/sys/vm");
	assert_int_equal(mkdir_p(path.buf, 0700), 0);
	path_join(&path, dir, "proc/sys/kernel");
	assert_int_equal(mkdir_p(path.buf, 0700), 0);
	path_join(&path, dir, "proc/sys/vm/overcommit_memory");
	assert_int_equal(write_file_atomic(path.buf, "0\n", 2), 0);
	path_join(&path, dir, "proc/sys/vm/max_map_count");
	assert_int_equal(write_file_atomic(path.buf, "65530\n", 6), 0);
	path_join(&path, dir, "proc/sys/kernel/threads-max");
	assert_int_equal(write_file_atomic(path.buf, "1000\n", 5), 0);
	setenv("PERFSIFT_KNOB_DIR", dir, 1); /* never the machine's journal */
	knob_init(dir);

	memset(&ctx, 0, sizeof(ctx));
	ctx.job = jobs[0];
	ctx.params = &opts;
	path_join(&path, dir, "scratch");
	assert_int_equal(mkdir_p(path.buf, 0700), 0);
	ctx.scratch = path.buf;
	ctx.sysroot = "/";
	ctx.nr_cpu = 2;
	ctx.skip_reason = &skip;
	ret = ops->prepare(&ctx, why);
	if (ret == BENCH_SKIP)
		strbuf_addbuf(why, &skip);
	if (ret == BENCH_OK) {
		char tmpl[] = "/tmp/test_vmscal_out.XXXXXX";

		/* the suite's sysctls, journaled */
		path_join(&path, dir, "proc/sys/vm/overcommit_memory");
		strbuf_reset(out);
		assert_int_equal(strbuf_read_file(out, path.buf, 0), 0);
		assert_string_equal(out->buf, "1\n");
		strbuf_reset(out);
		fd = mkstemp(tmpl);
		assert_true(fd >= 0);
		unlink(tmpl);
		fflush(NULL);
		pid = fork();
		if (!pid) {
			dup2(fd, 1);
			_exit(ops->run(&ctx));
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		lseek(fd, 0, SEEK_SET);
		strbuf_read_fd(out, fd, 0);
		close(fd);
		if (getenv("TEST_VERBOSE")) /* see what a case printed */
			fputs(out->buf, stderr);
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			ret = BENCH_ERROR;
	}
	ops->cleanup(&ctx);
	knob_restore_all();
	path_join(&path, dir, "proc/sys/vm/overcommit_memory");
	strbuf_reset(&skip);
	assert_int_equal(strbuf_read_file(&skip, path.buf, 0), 0);
	assert_string_equal(skip.buf, "0\n");
	/* nothing left behind in the scratch directory */
	path_join(&path, dir, "scratch/vm-scalability");
	assert_false(dir_exists(path.buf));
	path_join(&path, dir, "scratch/vm-scalability-tmp");
	assert_false(dir_exists(path.buf));
	remove_tree(dir);
	job_free_all(jobs, njobs);
	strbuf_release(&path);
	strbuf_release(&skip);
	return ret;
}

static void parse_keys(const struct strbuf *raw, struct strbuf *keys)
{
	struct strbuf err = STRBUF_INIT;

	assert_int_equal(parse_vm_scalability(raw->buf, raw->len, NULL, keys, &err), 0);
	strbuf_release(&err);
}

static void test_bench_cases(void **state)
{
	struct strbuf out = STRBUF_INIT, why = STRBUF_INIT, keys = STRBUF_INIT;

	(void)state;
	/* anon-r-seq on a machine scaled to 8 MiB: 2 workers, 2 samples */
	assert_int_equal(bench_cycle("runtime: 1s\nsize: 8M\n"
				     "vm-scalability:\n  test: anon-r-seq\n  mem: 8M\n  unit_size: 4M\n",
				     &out, &why), BENCH_OK);
	assert_non_null(strstr(out.buf, "repeat count: 2\n"));
	assert_non_null(strstr(out.buf, "  ./case-anon-r-seq\n"));
	assert_non_null(strstr(out.buf, "  usemem --runtime 1 -n 2 --readonly "));
	parse_keys(&out, &keys);
	assert_non_null(strstr(keys.buf, "# 2 "));
	assert_non_null(strstr(keys.buf, "\nthroughput: "));
	assert_non_null(strstr(keys.buf, "\nfree_time:  "));
	assert_non_null(strstr(keys.buf, "\nworkload: "));

	/* a shm case on its own tmpfs, a page-cache case, dd, truncate */
	strbuf_reset(&out);
	assert_int_equal(bench_cycle("vm-scalability:\n  test: shm-xread-seq-mt\n  mem: 16M\n",
				     &out, &why), BENCH_OK);
	assert_non_null(strstr(out.buf, "usemem --runtime 300 -t 2 -f "));
	assert_non_null(strstr(out.buf, "/vm-scalability-tmp/sparse-shm-xread-seq-mt --prealloc --readonly"));
	strbuf_reset(&out);
	assert_int_equal(bench_cycle("runtime: 1\nvm-scalability:\n  test: lru-file-readtwice\n  mem: 1M\n",
				     &out, &why), BENCH_OK);
	strbuf_reset(&keys);
	parse_keys(&out, &keys);
	assert_non_null(strstr(keys.buf, "# 4 "));
	strbuf_reset(&out);
	assert_int_equal(bench_cycle("vm-scalability:\n  test: truncate-seq\n  mem: 16M\n",
				     &out, &why), BENCH_OK);
	strbuf_reset(&keys);
	parse_keys(&out, &keys);
	assert_non_null(strstr(keys.buf, "\nthroughput_fault: "));

	/* a case the machine cannot run is skipped with its reason */
	strbuf_reset(&why);
	assert_int_equal(bench_cycle("vm-scalability:\n  test: migrate\n", &out, &why),
			 BENCH_SKIP);
	assert_string_equal(why.buf, "needs 2 NUMA nodes, this machine has 1");

	/* bad parameters name file, line and key: the job reader's (the table's) */
	strbuf_reset(&why);
	assert_int_equal(bench_cycle("vm-scalability:\n  test: anon-w-seq\n  nr_task: lots\n",
				     &out, &why), -2);
	assert_non_null(strstr(why.buf, "t.yaml:3: vm-scalability.nr_task: 'lots' "));
	/* no test: the table's required option, before prepare runs */
	strbuf_reset(&why);
	assert_int_equal(bench_cycle("vm-scalability:\n  size: 1M\n", &out, &why), -3);
	assert_string_equal(why.buf, "t.yaml: vm-scalability.test: not given, and vm-scalability needs it (vm-scalability: {test: ...})");
	strbuf_release(&out);
	strbuf_release(&why);
	strbuf_release(&keys);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_fixture),
		cmocka_unit_test(test_parse_usemem),
		cmocka_unit_test(test_parse_other_forms),
		cmocka_unit_test(test_hw_vars),
		cmocka_unit_test(test_spec_only_cases),
		cmocka_unit_test(test_repeat_count),
		cmocka_unit_test(test_scale_and_names),
		cmocka_unit_test(test_bench_cases),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
