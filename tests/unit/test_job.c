/*
 * test_job.c: unit tests for the job tree (src/job/job.c) and the program
 * table: key order, lines, multi-document merge, the schema errors, the
 * YAML writer, path_params and the parameter list.
 */
#include "util/compat.h"
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <malloc.h>
#include <unistd.h>
#include <cmocka.h>
#include "benchmarks/vmscal_cases.h"
#include "job/internal.h"
#include "job/job.h"
#include "job/kpi.h"
#include "job/params.h"
#include "job/programs.h"
#include "job/split.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* load text that must give exactly one job */
static struct job *load1(const char *text)
{
	struct strbuf err = STRBUF_INIT;
	struct job **jobs;
	struct job *job;
	size_t n;

	if (job_load_string(text, "t.yaml", &jobs, &n, &err))
		fail_msg("unexpected error: %s", err.buf);
	assert_int_equal(n, 1);
	job = jobs[0];
	free(jobs);
	strbuf_release(&err);
	return job;
}

/* load text that must fail; returns the message (caller frees) */
static char *load_err(const char *text)
{
	struct strbuf err = STRBUF_INIT;
	struct job **jobs = NULL;
	size_t n = 0;

	assert_int_equal(job_load_string(text, "bad.yaml", &jobs, &n, &err),
			 -1);
	assert_null(jobs);
	assert_int_equal(n, 0);
	return strbuf_detach(&err, NULL);
}

static void assert_err(const char *text, const char *want)
{
	char *msg = load_err(text);

	if (strcmp(msg, want))
		fail_msg("got  '%s'\nwant '%s'", msg, want);
	free(msg);
}

static void test_tree_order_lines(void **state)
{
	struct job *job = load1("suite: vm-scalability\n"
				"# a comment\n"
				"runtime: 300s\n"
				"size:\n"
				"vm-scalability:\n"
				"  test:\n"
				"    - anon-r-seq\n"
				"    - \"lru-file-readonce\"\n"
				"  nr_task: 4\n"
				"cpufreq_governor: performance\n"
				"empty: ''\n");
	const struct jnode *r = job->root, *vm, *t;

	(void)state;
	assert_int_equal(r->type, JNODE_MAP);
	assert_int_equal(r->n, 6);
	assert_string_equal(r->keys[0], "suite");
	assert_string_equal(r->keys[1], "runtime");
	assert_string_equal(r->keys[2], "size");
	assert_string_equal(r->keys[3], "vm-scalability");
	assert_string_equal(r->keys[4], "cpufreq_governor");
	assert_int_equal(r->kids[0]->line, 1);
	assert_int_equal(r->kids[1]->line, 3);
	assert_string_equal(r->kids[1]->file, "t.yaml");
	assert_int_equal(r->kids[2]->type, JNODE_NULL);
	assert_int_equal(r->kids[2]->line, 4);
	/* quoted empty text is a value, not "no value" */
	assert_int_equal(r->kids[5]->type, JNODE_SCALAR);
	assert_string_equal(r->kids[5]->text, "");

	vm = job_program(job, "vm-scalability");
	assert_non_null(vm);
	assert_int_equal(vm->line, 5);
	t = jnode_get(vm, "test");
	assert_int_equal(t->type, JNODE_SEQ);
	assert_int_equal(t->n, 2);
	assert_int_equal(t->kids[0]->line, 7);
	assert_int_equal(t->kids[1]->line, 8);
	assert_string_equal(t->kids[1]->text, "lru-file-readonce");
	assert_string_equal(job_get_opt(job, "vm-scalability", "nr_task"), "4");
	assert_string_equal(job_get(job, "runtime"), "300s");
	assert_null(job_get(job, "size"));
	assert_null(job_get(job, "vm-scalability"));
	assert_string_equal(job->stem, "t");
	assert_false(job_is_atomic(job));
	job_free(job);
}

static void test_multi_doc_merge(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct job **jobs;
	size_t n;
	const struct jnode *vm;

	(void)state;
	assert_int_equal(job_load_string("runtime: 300s\n"
					 "size:\n"
					 "vm-scalability:\n"
					 "  test: [anon-r-seq, anon-w-seq]\n"
					 "---\n"
					 "size: 16G\n"
					 "vm-scalability:\n"
					 "  unit_size: 1G\n"
					 "  test: anon-r-rand\n"
					 "---\n"
					 "extra: 1\n",
					 "dir/m.yaml", &jobs, &n, &err),
			 0);
	assert_int_equal(n, 3);
	/* doc0 alone */
	assert_null(job_get(jobs[0], "size"));
	assert_int_equal(jnode_get(job_program(jobs[0], "vm-scalability"),
				   "test")->type,
			 JNODE_SEQ);
	/* doc0 + doc1: size replaced in place, options merged */
	assert_string_equal(jobs[1]->root->keys[1], "size");
	assert_string_equal(job_get(jobs[1], "size"), "16G");
	assert_int_equal(jobs[1]->root->kids[1]->line, 6);
	vm = job_program(jobs[1], "vm-scalability");
	assert_int_equal(vm->n, 2);
	assert_string_equal(vm->keys[0], "test");
	assert_string_equal(vm->keys[1], "unit_size");
	assert_string_equal(job_get_opt(jobs[1], "vm-scalability", "test"),
			    "anon-r-rand");
	assert_int_equal(jnode_get(vm, "test")->line, 9);
	/* doc0 + doc2: a new key goes last */
	assert_string_equal(jobs[2]->root->keys[3], "extra");
	assert_null(job_get(jobs[2], "size"));
	assert_string_equal(jobs[2]->stem, "m");
	job_free_all(jobs, n);
	strbuf_release(&err);
}

static void test_vm_scalability_file(void **state)
{
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT;
	const char *data = getenv("PERFSIFT_TESTDATA");
	struct job **jobs;
	size_t n;

	(void)state;
	strbuf_addf(&path, "%s/lkp/jobs/vm-scalability.yaml",
		    data ? data : "tests/data");
	if (job_load_file(path.buf, &jobs, &n, &err))
		fail_msg("%s", err.buf);
	assert_int_equal(n, 8);
	assert_string_equal(job_get(jobs[7], "size"), "8T");
	assert_string_equal(job_get(jobs[0], "category"), "benchmark");
	job_free_all(jobs, n);
	strbuf_release(&err);
	strbuf_release(&path);
}

static void test_errors(void **state)
{
	(void)state;
	assert_err("suite: x\nvm-scalability:\n  test: [a, b\n",
		   "bad.yaml:3: test: a '[' list is not closed with ']' (or an item lacks a ',')");
	assert_err("suite: x\nmytest:\n  cmdline: \"dd if=/dev/zero\n",
		   "bad.yaml:3: cmdline: a quoted string is never closed (is the file cut short?)");
	assert_err("suite: x\nvm-scalability:\n\ttest: a\n",
		   "bad.yaml:3: test: tab characters are not allowed in YAML indentation");
	assert_err("suite: x\n\t# a comment\n",
		   "bad.yaml:2: suite: tab characters are not allowed in YAML indentation");
	assert_err("suite: x\nruntime:\n  a: 1\n",
		   "bad.yaml:2: runtime: expected a value (or a list of values), not a mapping");
	assert_err("runtime: {a: 1}\n",
		   "bad.yaml:1: runtime: expected a value (or a list of values), not a mapping");
	assert_err("suite: x\nvm-scalabilty:\n  test: a\n",
		   "bad.yaml:2: vm-scalabilty: unknown program (did you mean 'vm-scalability'?)"
		   "; no plug-in directory to look in for vm-scalabilty/ ($PERFSIFT_PROGRAMS, programs/ beside the job file, --lkp-src DIR or $LKP_SRC)");
	assert_err("frobnicate:\n  x: 1\n",
		   "bad.yaml:1: frobnicate: unknown program (not a benchmark, monitor or setup program perfsift knows)"
		   "; no plug-in directory to look in for frobnicate/ ($PERFSIFT_PROGRAMS, programs/ beside the job file, --lkp-src DIR or $LKP_SRC)");
	assert_err("suite: x\nruntime: 300s\nsuite: y\n",
		   "bad.yaml:3: suite: duplicate key (first given at line 1)");
	assert_err("vm-scalability:\n  test: a\n  size: 1G\n  test: b\n",
		   "bad.yaml:4: test: duplicate key (first given at line 2)");
	assert_err("vm-scalability: [a, b]\n",
		   "bad.yaml:1: vm-scalability: expected a mapping of options, not a list of values");
	assert_err("vm-scalability:\n  test:\n    x: 1\n",
		   "bad.yaml:2: vm-scalability: option 'test' must be a value or a list of values, not a mapping");
	assert_err("vm-scalability: fast\n",
		   "bad.yaml:1: vm-scalability: expected a mapping of options (or nothing), not the value 'fast'");
	assert_err("timeout: soon\n",
		   "bad.yaml:1: timeout: 'soon' is not a duration (e.g. 300 or 300s)");
	assert_err("suite: x\nvm-scal",
		   "bad.yaml:2: vm-scal: a key without ':' (or a line cut short)");
	assert_err("suite: x\ntest: \"abc\nruntime: 1\n---\nsize: 1\n",
		   "bad.yaml:2: test: a quoted string is never closed (it runs into a '---' document marker)");
	assert_err("vm-scalability:\n  test:\n    - a\n   - - b\n",
		   "bad.yaml:4: test: the indentation is wrong: expected a key at this level");
	assert_err("- a\n- b\n",
		   "bad.yaml:1: job: a job must be a mapping of keys, not a list");
	assert_err("", "bad.yaml:1: job: the job file is empty");
	assert_err("a: *nowhere\n",
		   "bad.yaml:1: a: the alias '*nowhere' names no anchor defined before it");
}

/* the kpi: key's two forms, and its errors */
static void test_kpi(void **state)
{
	struct strbuf err = STRBUF_INIT, line = STRBUF_INIT;
	struct job **jobs = NULL;
	struct kpi_set s;
	size_t n = 0;

	(void)state;
	assert_int_equal(job_load_string("kpi:\n  mytest.score: higher\n"
					 "  mytest.ms: {better: lower, threshold: 2%}\n"
					 "  mytest.n:\nmytest:\n",
					 "k.yaml", &jobs, &n, &err), 0);
	assert_int_equal(kpi_from_job(jobs[0], &s, &err), 0);
	kpi_format(&s, &line);
	assert_string_equal(line.buf, "mytest.score: higher; mytest.ms: lower 2%; "
				      "mytest.n: none");
	kpi_set_release(&s);
	/* not a parameter: not in path_params */
	strbuf_reset(&line);
	job_path_params(jobs[0], &line);
	assert_string_equal(line.buf, "defaults");
	job_free_all(jobs, n);
	assert_err("kpi: mytest.score\n",
		   "bad.yaml:1: kpi: expected a mapping of stat names (or patterns) to higher or lower, e.g. {mytest.score: higher}");
	assert_err("kpi:\n  mytest.score: up\n",
		   "bad.yaml:2: kpi: mytest.score: 'up' is not higher or lower (which is better)");
	assert_err("kpi:\n  mytest.ms: {better: lower, threshold: 2x}\n",
		   "bad.yaml:2: kpi: mytest.ms: threshold: '2x' is not a percentage from 0 to 1000 (e.g. 2%)");
	assert_err("kpi:\n  mytest.ms: {better: down}\n",
		   "bad.yaml:2: kpi: mytest.ms: better: 'down' is not higher or lower");
	assert_err("kpi:\n  mytest.ms: {worse: lower}\n",
		   "bad.yaml:2: kpi: mytest.ms: unknown key 'worse' (expected better, min_effect)");
	assert_err("kpi:\n  mytest.ms: [lower]\n",
		   "bad.yaml:2: kpi: mytest.ms: expected higher, lower or {better: ..., min_effect: N%}, not a list");
	assert_err("kpi: {\"a;b\": higher}\n",
		   "bad.yaml:1: kpi: 'a;b' is not a stat name or pattern (one word, no ';')");
	strbuf_release(&err);
	strbuf_release(&line);
}

/* a result root's job.yaml from LKP itself names programs perfsift lacks */
static void test_read_lenient(void **state)
{
	char path[] = "/tmp/perfsift-test-job-XXXXXX";
	const char text[] = "suite: fio-basic\n"
			    "fio-setup-basic:\n  rw: read\n"
			    "runtime: {odd: 1}\n";
	struct strbuf err = STRBUF_INIT;
	struct job **jobs;
	size_t n;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1), sizeof(text) - 1);
	close(fd);
	assert_int_equal(job_load_file(path, &jobs, &n, &err), -1);
	assert_non_null(strstr(err.buf, ":2: fio-setup-basic: unknown program"));
	assert_int_equal(job_read_file(path, &jobs, &n, &err), 0);
	assert_int_equal(n, 1);
	assert_string_equal(jobs[0]->root->keys[1], "fio-setup-basic");
	job_free_all(jobs, n);
	unlink(path);
	strbuf_release(&err);
}

static void test_apply_set_targets(void **state)
{
	struct job *job = load1("runtime: 300s\n"
				"vm-scalability:\n"
				"- test: [anon-r-seq, anon-w-seq]\n"
				"-\n"
				"mytest:\n");
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;

	(void)state;
	/* an option of one program: set there, in every option hash */
	assert_int_equal(job_apply_set(job, "test=anon-r-rand", &err), 0);
	assert_int_equal(job_apply_set(job, "vm-scalability.nr_task=2", &err),
			 0);
	/* a top-level key stays one */
	assert_int_equal(job_apply_set(job, "runtime=60", &err), 0);
	/* neither: a new top-level key */
	assert_int_equal(job_apply_set(job, "cmdline=x", &err), 0);
	job_to_yaml(job, &out);
	assert_string_equal(out.buf, "---\n"
				     "runtime: 60\n"
				     "vm-scalability:\n"
				     "- test: anon-r-rand\n"
				     "  nr_task: 2\n"
				     "- test: anon-r-rand\n"
				     "  nr_task: 2\n"
				     "mytest:\n"
				     "cmdline: x\n");
	job_free(job);
	strbuf_release(&err);
	strbuf_release(&out);
}

static void test_set_and_yaml(void **state)
{
	struct job *job = load1("suite: s\n"
				"cpufreq_governor: powersave\n"
				"vm-scalability:\n"
				"  test: anon-r-seq\n"
				"mytest:\n"
				"packages:\n"
				"- gcc\n"
				"need_kconfig:\n"
				"- XFS: n\n"
				"  EXT4: y\n");
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	struct job *again;

	(void)state;
	assert_true(job_is_atomic(job));
	job_set(job, "runtime", "60s");
	job_set(job, "vm-scalability.nr_task", "2");
	job_set(job, "suite", "t");
	assert_int_equal(job_apply_set(job, "cpufreq_governor=performance",
				       &err),
			 0);
	assert_int_equal(job_apply_set(job, "mytest.cmdline=echo a: b #c",
				       &err),
			 0);
	assert_int_equal(job_apply_set(job, "novalue", &err), -1);
	assert_string_equal(err.buf,
			    "--set 'novalue': expected KEY=VALUE or PROGRAM.OPTION=VALUE");
	assert_int_equal(job_apply_set(job, "nosuch.opt=1", &err), -1);
	assert_int_equal(job_apply_set(job, "vm-scalability=1", &err), -1);
	assert_string_equal(job->root->keys[0], "suite");
	assert_string_equal(job_get(job, "suite"), "t");
	assert_string_equal(job_get_opt(job, "vm-scalability", "nr_task"), "2");
	assert_true(job_unset(job, "runtime"));
	assert_false(job_unset(job, "runtime"));
	job_set(job, "empty", "");
	job_set(job, "nul", "null");

	job_to_yaml(job, &out);
	assert_string_equal(out.buf, "---\n"
				     "suite: t\n"
				     "cpufreq_governor: performance\n"
				     "vm-scalability:\n"
				     "  test: anon-r-seq\n"
				     "  nr_task: 2\n"
				     "mytest:\n"
				     "  cmdline: \"echo a: b #c\"\n"
				     "packages:\n"
				     "- gcc\n"
				     "need_kconfig:\n"
				     "- XFS: n\n"
				     "  EXT4: y\n"
				     "empty: \"\"\n"
				     "nul: \"null\"\n");
	/* what the writer writes reads back the same */
	again = load1(out.buf);
	strbuf_reset(&out);
	job_to_yaml(again, &out);
	assert_string_equal(job_get_opt(again, "mytest", "cmdline"),
			    "echo a: b #c");
	assert_string_equal(job_get(again, "empty"), "");
	assert_string_equal(job_get(again, "nul"), "null");
	job_free(again);
	job_free(job);
	strbuf_release(&out);
	strbuf_release(&err);
}

static void assert_path_params(const char *text, const char *want)
{
	struct job *job = load1(text);
	struct strbuf pp = STRBUF_INIT;

	job_path_params(job, &pp);
	if (strcmp(pp.buf, want))
		fail_msg("path_params '%s', want '%s'", pp.buf, want);
	strbuf_release(&pp);
	job_free(job);
}

static void test_path_params(void **state)
{
	(void)state;
	/* lkp-compare.md §1.1's example: sorted, size empty is skipped */
	assert_path_params("suite: vm-scalability\n"
			   "testcase: vm-scalability\n"
			   "category: benchmark\n"
			   "perf-profile:\n"
			   "cpufreq_governor: performance\n"
			   "runtime: 300s\n"
			   "size:\n"
			   "vm-scalability:\n"
			   "  test: lru-file-mmap-read-rand\n",
			   "performance-300s-lru-file-mmap-read-rand");
	assert_path_params("suite: split-job\nsplit-job:\n  test: test_1\n"
			   "  group: group_2\n",
			   "group_2-test_1");
	/* nothing: defaults; monitors and plain keys are not parameters */
	assert_path_params("suite: x\nvmstat:\n  interval: 5\nfoo: bar\n",
			   "defaults");
	assert_path_params("suite: x\n", "defaults");
	/* values cut to 31 characters, before the character class */
	assert_path_params("mytest:\n"
			   "  cmdline: dd if=/dev/zero of=/dev/null bs=1M count=2000\n",
			   "dd_if=_dev_zero_of=_dev_null_bs");
	assert_path_params("split-job:\n"
			   "  test: 0123456789012345678901234567890123456789\n",
			   "0123456789012345678901234567890");
	/* the allowed class: [-a-zA-Z0-9+=:.%], the rest '_' */
	assert_path_params("split-job:\n  test: \"a+b=c:d.e%f-g h/i*j\"\n",
			   "a+b=c:d.e%f-g_h_i_j");
	/* one '_' per character, also for a multibyte one */
	assert_path_params("split-job:\n  test: \"caf\xc3\xa9\"\n",
			   "caf_");
	/* setup programs: the value and the options */
	assert_path_params("transparent_hugepage:\n"
			   "  thp_enabled: never\n"
			   "  thp_defrag: always\n"
			   "sysctl:\n"
			   "  sc_overcommit_memory: 1\n"
			   "vm-scalability:\n"
			   "  test: anon-w-seq\n",
			   "1-anon-w-seq-always-never");
	/* a top-level key is a parameter only if a program of the job declares it */
	assert_path_params("runtime: 300s\nmytest:\n", "defaults");
}

/* job_group_params() of a job file's text, as a new string */
static char *group_params_of(const char *text)
{
	struct job *job = load1(text);
	struct strbuf pp = STRBUF_INIT;

	job_group_params(job, &pp);
	job_free(job);
	return strbuf_detach(&pp, NULL);
}

static void assert_group_params(const char *text, const char *want)
{
	char *pp = group_params_of(text);

	assert_string_equal(pp, want);
	free(pp);
}

static char *identity_of(const char *text)
{
	struct job *job = load1(text);
	struct strbuf id = STRBUF_INIT;

	job_identity(job, &id);
	job_free(job);
	return strbuf_detach(&id, NULL);
}

static void test_group_params(void **state)
{
	static const char pipe200[] =
		"mytest:\n  cmdline: perf bench sched pipe -T -l 2000000\n";
	static const char pipe100[] =
		"mytest:\n  cmdline: perf bench sched pipe -T -l 1000000\n";
	static const char vm[] = "suite: vm-scalability\n"
				 "cpufreq_governor: performance\n"
				 "runtime: 300s\n"
				 "vm-scalability:\n"
				 "  test: lru-file-mmap-read-rand\n";
	char *a, *b, *c, *id;

	(void)state;
	/* nothing cut: LKP's name, byte for byte */
	assert_group_params(vm, "performance-300s-lru-file-mmap-read-rand");
	assert_group_params("suite: x\n", "defaults");
	assert_group_params("vm-scalability:\n  fs: \"a b/c\"\n", "a_b_c");
	/* exactly 31 characters is not cut */
	assert_group_params("vm-scalability:\n"
			    "  fs: 0123456789012345678901234567890\n",
			    "0123456789012345678901234567890");

	/* two commands alike in their first 40 characters: two names */
	a = group_params_of(pipe200);
	b = group_params_of(pipe100);
	assert_string_not_equal(a, b);
	/* LKP's cut name, then -h and 8 hex digits */
	assert_int_equal(strlen(a), 31 + 10);
	assert_memory_equal(a, "perf_bench_sched_pipe_-T_-l_200-h", 33);
	assert_memory_equal(b, "perf_bench_sched_pipe_-T_-l_100-h", 33);
	assert_true(strspn(a + 33, "0123456789abcdef") == 8);
	free(b);
	/* alike in the first 31: only the suffix tells them apart */
	b = group_params_of("mytest:\n  cmdline: perf bench sched pipe -T -l 2000000 -x\n");
	assert_memory_equal(a, b, 31);
	assert_string_not_equal(a, b);
	free(b);
	/* a cut option value of a '=' option is suffixed too */
	b = group_params_of("vm-scalability:\n  test: anon-w-seq\n"
			    "  mem: 00000000000000000000000000000000001G\n");
	assert_memory_equal(b, "mem=0000000000000000000000000000000-anon-w-seq-h", 48);
	free(b);

	/* what does not change what runs does not change the name */
	b = group_params_of("kpi: {mytest.ops_per_s: higher}\n"
			    "vmstat:\n  interval: 5\n"
			    "perf-stat:\n  interval_ms: 500\n"
			    "testbox: box-1\ncommit: abc\n"
			    "mytest:\n  cmdline: perf bench sched pipe -T -l 2000000\n");
	assert_string_equal(a, b);
	free(b);
	free(a);

	/* the identity: full values, sorted, no monitors nor plain keys */
	id = identity_of("perf-stat:\n  interval_ms: 500\nkpi: {x: lower}\n"
			 "runtime: 300s\ncpufreq_governor: performance\n"
			 "vm-scalability:\n"
			 "  test: lru-file-mmap-read-rand\n"
			 "  fs: a-file-system-with-a-very-long-name\n");
	assert_string_equal(id, "cpufreq_governor=performance\n"
				"fs=a-file-system-with-a-very-long-name\n"
				"runtime=300s\n"
				"test=lru-file-mmap-read-rand\n");
	free(id);
	id = identity_of("suite: x\n");
	assert_string_equal(id, "");
	free(id);
	/* the key order in the file does not matter */
	a = identity_of("runtime: 300s\nvm-scalability:\n  test: anon-w-seq\n");
	b = identity_of("vm-scalability:\n  test: anon-w-seq\nruntime: 300s\n");
	assert_string_equal(a, b);
	free(a);
	free(b);
	/* the suffix is a function of the identity text, nothing else */
	c = group_params_of(pipe200);
	a = identity_of(pipe200);
	{
		struct strbuf sfx = STRBUF_INIT;

		job_identity_suffix(a, &sfx);
		assert_string_equal(c + 31, sfx.buf);
		strbuf_release(&sfx);
	}
	free(a);
	free(c);
}

static void assert_diff(const char *a, const char *b, const char *key,
			const char *va, const char *vb)
{
	struct strbuf k = STRBUF_INIT, x = STRBUF_INIT, y = STRBUF_INIT;
	bool differ = job_identity_diff(a, b, &k, &x, &y);

	if (!key) {
		assert_false(differ);
	} else {
		assert_true(differ);
		assert_string_equal(k.buf, key);
		assert_string_equal(x.buf, va);
		assert_string_equal(y.buf, vb);
	}
	strbuf_release(&k);
	strbuf_release(&x);
	strbuf_release(&y);
}

static void test_identity_diff(void **state)
{
	char *id;

	(void)state;
	assert_diff("", "", NULL, NULL, NULL);
	assert_diff("a=1\nb=2\n", "a=1\nb=2\n", NULL, NULL, NULL);
	assert_diff("a=1\nb=2\n", "a=1\nb=3\n", "b", "2", "3");
	/* a key on one side only: "(not set)" on the other */
	assert_diff("a=1\nc=2\n", "a=1\nb=2\nc=2\n", "b", "(not set)", "2");
	assert_diff("a=1\nb=2\n", "a=1\n", "b", "2", "(not set)");
	assert_diff("", "test=x\n", "test", "(not set)", "x");
	/* a key that is a prefix of another */
	assert_diff("ab=1\n", "a=1\nab=1\n", "a", "(not set)", "1");
	/* a multi-line value stays one line, escaped */
	id = identity_of("mytest:\n  cmdline: |\n    echo a\n    echo b\\c\n");
	assert_string_equal(id, "cmdline=echo a\\necho b\\\\c\\n\n");
	free(id);
}

static void test_params(void **state)
{
	struct job *job = load1("suite: vm-scalability\n"
				"cpufreq_governor: performance\n"
				"runtime: 300s\n"
				"size:\n"
				"vm-scalability:\n"
				"  timed_wp: lru-file-mmap-read-rand-with-a-very-long-name\n"
				"perf-stat:\n"
				"  interval_ms: 500\n");
	struct job_param *ps;
	size_t n;

	(void)state;
	job_params(job, &ps, &n);
	assert_int_equal(n, 3);
	assert_string_equal(ps[0].key, "cpufreq_governor");
	assert_string_equal(ps[0].value, "performance");
	assert_string_equal(ps[1].key, "runtime");
	assert_string_equal(ps[1].value, "300s");
	assert_string_equal(ps[2].key, "timed_wp");
	/* full values, not cut as in path_params */
	assert_string_equal(ps[2].value,
			    "lru-file-mmap-read-rand-with-a-very-long-name");
	job_params_free(ps, n);
	job_free(job);
}

static void test_programs(void **state)
{
	const struct program *p;
	size_t i;

	(void)state;
	p = program_find("vm-scalability");
	assert_non_null(p);
	assert_int_equal(p->kind, PROG_TEST);
	assert_non_null(program_option(p, "unit_size"));
	assert_null(program_option(p, "nope"));
	p = program_find("sysctl");
	assert_int_equal(p->kind, PROG_SETUP);
	assert_non_null(program_option(p, "sc_overcommit_memory"));
	assert_null(program_option(p, "sc_"));
	assert_true(program_find("cpufreq_governor")->value);
	assert_int_equal(program_find("perf-profile")->kind, PROG_MONITOR);
	assert_non_null(program_option(program_find("vmstat"), "interval"));
	assert_null(program_find("runtime"));
	/* names are unique and sorted (program_find searches by halves) */
	for (i = 1; i < program_count(); i++)
		assert_true(strcmp(program_at(i - 1)->name,
				   program_at(i)->name) < 0);
	/* a job names every program but the parsers of every run's files */
	for (i = 0; i < program_count(); i++)
		assert_ptr_equal(program_find(program_at(i)->name),
				 program_at(i)->kind == PROG_OUTPUT ?
					 NULL :
					 program_at(i));
	assert_null(program_find("time"));
	assert_non_null(monitor_find("time"));
	assert_null(program_at(program_count()));
}

/* parse text as program prog's option opt; the number, or why it failed */
static int parse_opt(const char *prog, const char *opt, const char *text,
		     struct opt_value *v, struct strbuf *why)
{
	const struct program_option *o =
		prog ? program_option(program_find(prog), opt) : job_key_find(opt);

	assert_non_null(o);
	strbuf_reset(why);
	return opt_parse(o, text, v, why);
}

static void test_opt_types(void **state)
{
	struct strbuf why = STRBUF_INIT;
	struct opt_value v;

	(void)state;
	assert_int_equal(parse_opt("vm-scalability", "size", "16G", &v, &why), 0);
	assert_true(v.num == 16.0 * (1 << 30));
	assert_int_equal(parse_opt("vm-scalability", "size", "1Q", &v, &why), -1);
	assert_int_equal(parse_opt(NULL, "runtime", "5m", &v, &why), 0);
	assert_true(v.num == 300);
	assert_int_equal(parse_opt(NULL, "runtime", "1e30", &v, &why), -1);
	assert_string_equal(why.buf, "is out of range (0 to 10000000)");
	/* cpus: a count or a share, at least one */
	assert_int_equal(parse_opt("vm-scalability", "nr_task", "50%", &v, &why), 0);
	assert_true(v.pct && v.num == 50);
	assert_int_equal(parse_opt("vm-scalability", "nr_task", "200%", &v, &why), 0);
	assert_int_equal(parse_opt("vm-scalability", "nr_task", "0", &v, &why), -1);
	assert_int_equal(parse_opt("vm-scalability", "nr_task", "x%", &v, &why), -1);
	/* a share of memory: at most all of it */
	assert_int_equal(parse_opt("vm-scalability", "mem", "10%", &v, &why), 0);
	assert_true(v.pct && v.num == 10);
	assert_int_equal(parse_opt("vm-scalability", "mem", "512M", &v, &why), 0);
	assert_false(v.pct);
	assert_int_equal(parse_opt("vm-scalability", "mem", "101%", &v, &why), -1);
	assert_int_equal(parse_opt("vm-scalability", "mem", "-10%", &v, &why), -1);
	assert_string_equal(why.buf, "is out of range (1% to 100%)");
	/* nanoseconds with the suite's suffixes */
	assert_int_equal(parse_opt("vm-scalability", "cpu_delay", "10u", &v, &why), 0);
	assert_true(v.num == 10000);
	assert_int_equal(parse_opt("vm-scalability", "cpu_delay", "2m", &v, &why), 0);
	assert_true(v.num == 2000000);
	/* bool */
	assert_int_equal(parse_opt("vm-scalability", "sync_rw", "yes", &v, &why), 0);
	assert_true(v.b);
	assert_int_equal(parse_opt("vm-scalability", "sync_rw", "off", &v, &why), 0);
	assert_false(v.b);
	assert_int_equal(parse_opt("vm-scalability", "sync_rw", "2", &v, &why), -1);
	/* enums: a word list, and the suite's case table */
	assert_int_equal(parse_opt("transparent_hugepage", "thp_enabled", "madvise", &v, &why), 0);
	assert_int_equal(parse_opt("transparent_hugepage", "thp_enabled", "sometimes", &v, &why), -1);
	assert_string_equal(why.buf, "is not one of always, madvise, never");
	assert_int_equal(parse_opt("vm-scalability", "test", "anon-r-seq", &v, &why), 0);
	assert_int_equal(parse_opt("vm-scalability", "test", "anon-bogus", &v, &why), -1);
	/* intervals: never 0 (a busy loop), never past the clock */
	assert_int_equal(parse_opt("vmstat", "interval", "0.5", &v, &why), 0);
	assert_int_equal(parse_opt("vmstat", "interval", "0", &v, &why), -1);
	assert_int_equal(parse_opt("vmstat", "interval", "1e30", &v, &why), -1);
	assert_int_equal(parse_opt("perf-profile", "period", "1e30", &v, &why), -1);
	/* empty: the default, unless the key must have a value */
	assert_int_equal(parse_opt("vm-scalability", "size", "", &v, &why), 0);
	assert_int_equal(parse_opt(NULL, "testcase", "", &v, &why), -1);
	assert_int_equal(parse_opt(NULL, "testcase", "t", &v, &why), 0);
	strbuf_release(&why);
}

static void test_param_fill(void **state)
{
	struct job *job = load1("runtime: 60\n"
				"nr_task: 50%\n"
				"vm-scalability:\n"
				"  test: anon-r-seq\n"
				"  size: 1G\n"
				"  cpu_delay: 2u\n"
				"  bind_cpu: 0\n"
				"  mem: 10%\n"
				"  sync_rw: yes\n");
	const struct program *p = program_find("vm-scalability");
	struct strbuf err = STRBUF_INIT;
	struct vmscal_opts o;
	struct opt_value v;

	(void)state;
	assert_int_equal(p->params_size, sizeof(o));
	assert_int_equal(param_fill(p, job, &o, &err), 0);
	assert_string_equal(o.test, "anon-r-seq");
	/* top-level keys stand in for the program's options (LKP flattens) */
	assert_true(o.runtime == 60);
	assert_true(o.nr_task.pct && o.nr_task.num == 50 && o.nr_task.given);
	assert_int_equal(param_share_of(&o.nr_task, 8), 4);
	assert_int_equal(o.size, 1 << 30);
	assert_int_equal(o.cpu_delay, 2000);
	assert_true(o.bind_set);
	assert_int_equal(o.bind_cpu, 0);
	assert_int_equal(param_share_of(&o.mem, 1000), 100);
	assert_true(o.sync_rw);
	/* defaults */
	assert_false(o.sync_free);
	assert_int_equal(o.unit_size, 0);
	assert_int_equal(o.repeat, 0);
	job_free(job);

	job = load1("vm-scalability:\n  test: anon-w-seq\n");
	assert_int_equal(param_fill(p, job, &o, &err), 0);
	assert_true(o.runtime == 300);
	assert_true(o.nr_task.pct && o.nr_task.num == 100 && !o.nr_task.given);
	assert_false(o.bind_set);
	assert_false(o.mem.given);
	/* a monitor's option is its own: no top-level stand-in */
	assert_int_equal(param_value(job, program_find("vmstat"), "interval", &v, &err), 0);
	assert_int_equal(param_value(job, NULL, "runtime", &v, &err), 0);
	job_free(job);
	strbuf_release(&err);
}

/*
 * A job's runtime, read by each of its readers: param_fill() (what the
 * benchmark gets), param_runtime() (what the engine plans with and what
 * select gives compare's floors) and param_text_value() (a group's
 * runtime axis from the index).  For every benchmark whose default is
 * LKP_RUNTIME: none given is LKP_RUNTIME, "5m", "300s" and "300" are the
 * same 300 s at either level of the job, 0 is the default where the
 * option says so, and any other value is kept as it is.
 */
static double filled_runtime(const struct program *p, const struct job *job)
{
	const struct program_option *o = program_option(p, "runtime");
	struct strbuf err = STRBUF_INIT;
	char *buf = xcalloc(1, p->params_size);
	double s;

	if (param_fill(p, job, buf, &err) < 0)
		fail_msg("param_fill: %s", err.buf);
	memcpy(&s, buf + o->at - 1, sizeof(s));
	free(buf);
	strbuf_release(&err);
	return s;
}

static double planned_runtime(const struct job *job)
{
	struct strbuf err = STRBUF_INIT;
	double s = -1;

	if (param_runtime(job, NULL, &s, &err) < 0)
		fail_msg("param_runtime: %s", err.buf);
	strbuf_release(&err);
	return s;
}

static void check_runtime(const char *prog, const char *body, const char *rt,
			  double want)
{
	const struct program *p = program_find(prog);
	struct strbuf yaml = STRBUF_INIT, why = STRBUF_INIT;
	struct opt_value v;
	struct job *job;

	/* the top-level key, then the program's own option */
	for (int level = 0; level < 2; level++) {
		strbuf_reset(&yaml);
		if (rt && !level)
			strbuf_addf(&yaml, "runtime: %s\n", rt);
		strbuf_addf(&yaml, "%s:\n%s", prog, body);
		if (rt && level)
			strbuf_addf(&yaml, "  runtime: %s\n", rt);
		job = load1(yaml.buf);
		if (filled_runtime(p, job) != want ||
		    planned_runtime(job) != want)
			fail_msg("%s: runtime %s: %g and %g, want %g", yaml.buf,
				 rt ? rt : "none", filled_runtime(p, job),
				 planned_runtime(job), want);
		job_free(job);
	}
	/* the same text as a group's axis, read as the program's option */
	assert_int_equal(param_text_value(p, "runtime", rt, &v, &why), 0);
	if (v.num != want)
		fail_msg("%s: the axis %s is %g, want %g", prog, rt ? rt : "none",
			 v.num, want);
	strbuf_release(&yaml);
	strbuf_release(&why);
}

static void test_runtime_default(void **state)
{
	static const struct {
		const char *prog, *body;
	} benches[] = {
		{"vm-scalability", "  test: anon-w-seq\n"},
		{"will-it-scale", "  test: mmap1\n"},
		{"fio", "  rw: read\n"},
	};
	static const char *const same[] = {"5m", "300s", "300"};
	struct strbuf why = STRBUF_INIT;
	struct opt_value v;
	size_t i, j, n = 0;

	(void)state;
	assert_int_equal(LKP_RUNTIME, 300);
	assert_string_equal(LKP_RUNTIME_TEXT, "300");
	/* every program defaulting to LKP's runtime is one checked below */
	for (i = 0; i < program_count(); i++) {
		const struct program_option *o =
			program_option(program_at(i), "runtime");

		if (o && o->dflt && !strcmp(o->dflt, LKP_RUNTIME_TEXT)) {
			for (j = 0; j < ARRAY_SIZE(benches); j++)
				if (!strcmp(benches[j].prog, program_at(i)->name))
					break;
			if (j == ARRAY_SIZE(benches))
				fail_msg("%s defaults to LKP_RUNTIME: add it here",
					 program_at(i)->name);
			n++;
		}
	}
	assert_int_equal(n, ARRAY_SIZE(benches));
	for (i = 0; i < ARRAY_SIZE(benches); i++) {
		const struct program_option *o =
			program_option(program_find(benches[i].prog), "runtime");

		check_runtime(benches[i].prog, benches[i].body, NULL, LKP_RUNTIME);
		for (j = 0; j < ARRAY_SIZE(same); j++)
			check_runtime(benches[i].prog, benches[i].body, same[j], 300);
		check_runtime(benches[i].prog, benches[i].body, "90s", 90);
		if (o->flags & OPTF_ZERO_DEFAULT)
			check_runtime(benches[i].prog, benches[i].body, "0",
				      LKP_RUNTIME);
	}
	/* the built-ins say "0: LKP's 300" in their help: the flag makes it so */
	assert_true(program_option(program_find("vm-scalability"), "runtime")->flags &
		    OPTF_ZERO_DEFAULT);
	assert_true(program_option(program_find("will-it-scale"), "runtime")->flags &
		    OPTF_ZERO_DEFAULT);
	/* the top-level key has no default and 0 is 0: none is "unknown" */
	for (j = 0; j < ARRAY_SIZE(same); j++) {
		assert_int_equal(param_text_value(NULL, "runtime", same[j], &v, &why), 0);
		assert_true(v.num == 300);
	}
	assert_int_equal(param_text_value(NULL, "runtime", "0", &v, &why), 0);
	assert_true(v.num == 0);
	assert_int_equal(param_text_value(NULL, "runtime", NULL, &v, &why), 0);
	assert_true(v.num == 0);
	assert_int_equal(param_text_value(NULL, "runtime", "soon", &v, &why), -1);
	assert_non_null(strstr(why.buf, "not a duration"));
	strbuf_release(&why);
}

/* a CPU share is LKP's: truncated, and at least 1 */
static void test_param_cpus_of(void **state)
{
	struct param_share half = { 50, true, true }, all = { 100, true, false },
			   three_q = { 75, true, true }, four = { 4, false, true },
			   none = { 0, false, true }, neg = { -3, false, true };

	(void)state;
	/* LKP's params/nr_threads: (50 * 3 / 100).to_i, not 2 */
	assert_int_equal(param_cpus_of(&half, 3), 1);
	assert_int_equal(param_cpus_of(&three_q, 2), 1);
	assert_int_equal(param_cpus_of(&half, 8), 4);
	assert_int_equal(param_cpus_of(&all, 7), 7);
	/* 50% of one CPU is still a task */
	assert_int_equal(param_cpus_of(&half, 1), 1);
	assert_int_equal(param_cpus_of(&four, 2), 4);
	assert_int_equal(param_cpus_of(&none, 2), 1);
	assert_int_equal(param_cpus_of(&neg, 2), 1);
}

/* the atomic jobs of text must fail the required-option check with msg */
static void required_fails(const char *text, const char *msg)
{
	struct strbuf err = STRBUF_INIT;
	struct job *job = load1(text), **atoms = NULL;
	size_t n = 7;

	assert_int_equal(split_job(job, &atoms, &n, &err), -1);
	if (!strstr(err.buf, msg))
		fail_msg("'%s' does not hold '%s'", err.buf, msg);
	/* split_job hands nothing back on the error */
	assert_null(atoms);
	assert_int_equal(n, 0);
	job_free(job);
	strbuf_release(&err);
}

/*
 * The table's OPTF_REQUIRED options (vm-scalability's and will-it-scale's
 * test, perf-bench-futex's): a job without one fails with the line and
 * key at split, not at run time without either.
 */
static void test_required_options(void **state)
{
	struct strbuf err = STRBUF_INIT;
	struct job *job, **atoms;
	size_t n;

	(void)state;
	required_fails("suite: x\nruntime: 1\nvm-scalability:\n  size: 1M\n",
		       "t.yaml:3: vm-scalability.test: not given: vm-scalability needs a case of vm-scalability");
	required_fails("suite: x\nvm-scalability:\n", "t.yaml:2: vm-scalability.test: not given");
	required_fails("suite: x\nwill-it-scale:\n  mode: thread\n  test: \"\"\n",
		       "t.yaml:4: will-it-scale.test: is empty: will-it-scale needs a testcase");
	required_fails("test: \"\"\nwill-it-scale:\n", "t.yaml:1: test: is empty");
	/* one value of a matrix empty: that atomic job, at its line */
	required_fails("will-it-scale:\n  test:\n  - brk1\n  -\n",
		       "t.yaml:4: will-it-scale.test: is empty");
	required_fails("perf-bench-futex:\n  shared: 1\n",
		       "t.yaml:1: perf-bench-futex.test: not given: perf-bench-futex needs one of hash, wake");
	/* given as the program's option, or at the top level (LKP flattens) */
	job = load1("vm-scalability:\n  test: anon-r-seq\n");
	assert_int_equal(job_check_required(job, &err), 0);
	job_free(job);
	job = load1("test: [brk1, getppid1]\nwill-it-scale:\n");
	assert_int_equal(split_job(job, &atoms, &n, &err), 0);
	assert_int_equal(n, 2);
	job_free_all(atoms, n);
	/* a --set fills it before the split checks */
	assert_int_equal(job_apply_set(job, "test=brk1", &err), 0);
	job_free(job);
	job = load1("vm-scalability:\n");
	assert_int_equal(job_apply_set(job, "vm-scalability.test=anon-w-seq", &err), 0);
	assert_int_equal(job_check_required(job, &err), 0);
	job_free(job);
	/* a monitor's option never comes from the top level; mytest needs no test */
	job = load1("test: brk1\nmytest:\n  cmdline: true\n");
	assert_int_equal(job_check_required(job, &err), 0);
	job_free(job);
	strbuf_release(&err);
}

static void test_help_keys(void **state)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	const struct program_option *o;

	(void)state;
	assert_int_equal(program_help("vm-scalability", &out, &err), 0);
	/* every option of the table, each once */
	for (o = program_find("vm-scalability")->options; o->name; o++) {
		struct strbuf line = STRBUF_INIT;

		strbuf_addf(&line, "\n  %s ", o->name);
		assert_non_null(strstr(out.buf, line.buf));
		strbuf_release(&line);
	}
	strbuf_reset(&out);
	assert_int_equal(program_help(NULL, &out, &err), 0);
	assert_non_null(strstr(out.buf, "\n  nr_threads "));
	assert_non_null(strstr(out.buf, "\n  thp_enabled "));
	assert_non_null(strstr(out.buf, "\n  cmdline "));
	assert_int_equal(program_help("time", &out, &err), -1);
	strbuf_release(&out);
	strbuf_release(&err);
}

/*
 * A typo of a program that stands late in the table: its name sits past
 * the first allocation of the candidate list, in memory realloc grew.
 * The hint is the program's name alone -- the old list left that entry's
 * program unset (garbage, not NULL) and printed it as "GARBAGE.name", or
 * crashed (found by fuzz_job).  Freed memory is filled with a non-zero
 * byte (glibc's M_PERTURB) so that the grown part cannot be zero by luck.
 */
static void test_typo_of_late_program(void **state)
{
	struct strbuf hint = STRBUF_INIT, key = STRBUF_INIT;
	const struct program *last = NULL;
	size_t i;
	void *junk;

	(void)state;
	mallopt(M_PERTURB, 0xa5);
	junk = malloc(64 << 10);
	free(junk);
	for (i = 0; i < program_count(); i++)
		if (program_at(i)->kind != PROG_OUTPUT)
			last = program_at(i);
	assert_non_null(last);
	strbuf_addf(&key, "%sq", last->name);
	assert_true(job_closest_known_key(key.buf, &hint));
	assert_string_equal(hint.buf, last->name);
	mallopt(M_PERTURB, 0);
	strbuf_release(&hint);
	strbuf_release(&key);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_order_lines),
		cmocka_unit_test(test_opt_types),
		cmocka_unit_test(test_help_keys),
		cmocka_unit_test(test_param_fill),
		cmocka_unit_test(test_runtime_default),
		cmocka_unit_test(test_param_cpus_of),
		cmocka_unit_test(test_required_options),
		cmocka_unit_test(test_multi_doc_merge),
		cmocka_unit_test(test_vm_scalability_file),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_kpi),
		cmocka_unit_test(test_read_lenient),
		cmocka_unit_test(test_set_and_yaml),
		cmocka_unit_test(test_apply_set_targets),
		cmocka_unit_test(test_path_params),
		cmocka_unit_test(test_group_params),
		cmocka_unit_test(test_identity_diff),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_programs),
		cmocka_unit_test(test_typo_of_late_program),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
