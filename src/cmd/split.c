/*
 * split.c: `perfsift split JOB.yaml [-o DIR] [--testbox NAME]`, LKP's
 * split-job: every atomic job of JOB.yaml, with its machine filled in, as
 * `<stem>-<path_params>.yaml`.  All files are built in memory first, so a
 * bad job (or two atomic jobs that would share a name) writes nothing.
 */
#include "util/compat.h"
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "builtin.h"
#include "job/job.h"
#include "job/plugins.h"
#include "job/split.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/xalloc.h"

static const char split_usage[] =
	"usage: perfsift split JOB.yaml [-o DIR] [--testbox NAME] [--lkp-src DIR]\n"
	"\n"
	"Expand a job's matrix (every list of values, and each document of a\n"
	"multi-document job file after the first, merged onto the first) into\n"
	"atomic job files named <job>-<path_params>.yaml, as LKP's split-job.\n"
	"\n"
	"  -o, --output DIR     write into DIR (default: the current directory)\n"
	"  --testbox NAME       the machine the jobs are for (default: host name);\n"
	"                       tbox_group is NAME minus a trailing -N\n"
	"  --lkp-src DIR        an LKP checkout whose programs/ are plug-ins\n"
	"                       (else $LKP_SRC; docs/programs.md)\n"
	"  -h, --help           this text\n"
	"\n"
	"Prints each path written.  A bad job file gives one message\n"
	"FILE:LINE: KEY: what is wrong, exit status 2, and writes nothing.\n";

/*
 * An atomic job's file, built in memory first: every atom is split and
 * checked (two atoms with one name are an error) before the first file is
 * written, so a bad job leaves no half set of files behind.
 */
struct out_file {
	char *path;
	struct strbuf text;
};

/*
 * One atomic job of the split: its origin and box filled in, its file
 * name made from its parameters, its YAML kept in outs until every atom
 * is known (nothing is written before the whole job splits cleanly).  -1
 * when its name is another atom's: the two would overwrite each other.
 */
static int add_atom(struct job *a, const char *path, const char *dir,
		    const char *testbox, const char *machine,
		    struct out_file **outs, size_t *nout, size_t *alloc)
{
	struct strbuf name = STRBUF_INIT;
	size_t k;

	/* where the atom came from, as LKP records it; a job that already
	 * names its origin keeps it */
	if (!job_get(a, "job_origin"))
		job_set(a, "job_origin", path);
	split_fill_box(a, testbox, machine);
	split_job_filename(a, &name);
	for (k = 0; k < *nout; k++)
		if (!strcmp(path_basename((*outs)[k].path), name.buf))
			break;
	if (k < *nout) {
		struct strbuf msg = STRBUF_INIT;

		strbuf_addf(&msg, "%s: two atomic jobs would both be '%s': a list whose values are not job parameters (not options of a program of the job) cannot tell them apart",
			    path, name.buf);
		usage_puts(msg.buf);
		strbuf_release(&msg);
		strbuf_release(&name);
		return -1;
	}
	ALLOC_GROW(*outs, *nout + 1, *alloc);
	strbuf_init(&(*outs)[*nout].text, 0);
	(*outs)[*nout].path = dir ? xasprintf("%s/%s", dir, name.buf) :
				    xstrdup(name.buf);
	job_to_yaml(a, &(*outs)[*nout].text);
	(*nout)++;
	strbuf_release(&name);
	return 0;
}

int cmd_split(int argc, char **argv, struct options *opts)
{
	static const struct option longopts[] = {
		{"output", required_argument, NULL, 'o'},
		{"testbox", required_argument, NULL, 't'},
		{"lkp-src", required_argument, NULL, 'L'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *dir = NULL, *testbox = NULL, *path;
	struct strbuf err = STRBUF_INIT;
	struct job **jobs = NULL, **atoms = NULL;
	size_t njobs = 0, natoms = 0, nout = 0, alloc = 0, i, j;
	struct out_file *outs = NULL;
	char host[256];
	struct utsname uts;
	int c, ret = EXIT_RUNTIME;

	(void)opts;
	while ((c = cmd_getopt(argc, argv, "o:h", longopts)) != -1) {
		switch (c) {
		case 'o':
			dir = optarg;
			break;
		case 't':
			testbox = optarg;
			break;
		case 'L':
			plugin_set_lkp_src(optarg);
			break;
		case 'h':
			return cmd_usage(split_usage, false);
		default:
			return cmd_usage(split_usage, true);
		}
	}
	if (optind + 1 != argc)
		return cmd_usage(split_usage, true);
	path = argv[optind];
	if (testbox && !*testbox) {
		error("--testbox: the name is empty");
		return EXIT_USAGE;
	}
	/* LKP's default testbox is the machine the job is split on */
	if (!testbox) {
		if (gethostname(host, sizeof(host)) < 0)
			die_errno("cannot get the host name");
		host[sizeof(host) - 1] = '\0';
		testbox = host;
	}
	if (uname(&uts) < 0)
		die_errno("uname");

	if (job_load_file(path, &jobs, &njobs, &err)) {
		/* the message names file and line itself: print it as it is */
		usage_puts(err.buf);
		ret = EXIT_USAGE;
		goto out;
	}
	for (i = 0; i < njobs; i++) {
		if (split_job(jobs[i], &atoms, &natoms, &err)) {
			usage_puts(err.buf);
			ret = EXIT_USAGE;
			goto out;
		}
		for (j = 0; j < natoms; j++)
			if (add_atom(atoms[j], path, dir, testbox, uts.machine,
				     &outs, &nout, &alloc) < 0) {
				ret = EXIT_USAGE;
				goto out;
			}
		job_free_all(atoms, natoms);
		atoms = NULL;
		natoms = 0;
	}

	if (dir && mkdir_p(dir, 0777) < 0) {
		error_errno("cannot create '%s'", dir);
		goto out;
	}
	/* each path on stdout once written, for a script to pick up */
	for (i = 0; i < nout; i++) {
		if (write_file_atomic(outs[i].path, outs[i].text.buf,
				      outs[i].text.len) < 0) {
			error_errno("cannot write '%s'", outs[i].path);
			goto out;
		}
		printf("%s\n", outs[i].path);
	}
	ret = EXIT_OK;
out:
	for (i = 0; i < nout; i++) {
		free(outs[i].path);
		strbuf_release(&outs[i].text);
	}
	free(outs);
	job_free_all(atoms, natoms);
	job_free_all(jobs, njobs);
	strbuf_release(&err);
	return ret;
}
