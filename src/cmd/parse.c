/*
 * parse.c: `perfsift parse MONITOR [FILE]` -- run one monitor's (or
 * benchmark output's) parser on a raw file, or on stdin, and print LKP's
 * `key: value` stream, exactly what LKP's programs/<m>/parse prints.  A
 * name the table does not have may be a plug-in's (job/plugins.h): its
 * parse script runs, as LKP's run-stats runs it.
 */
#include "util/compat.h"
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "util/archive_io.h"
#include "util/fileutil.h"
#include "builtin.h"
#include "job/plugins.h"
#include "job/programs.h"
#include "monitors/monitor.h"
#include "util/strbuf.h"
#include "util/usage.h"

static const char usage_text[] =
	"usage: perfsift parse [--lkp-src DIR] PROGRAM [FILE]\n"
	"\n"
	"Print LKP's `key: value` stream for a program's raw file (stdin when\n"
	"FILE is not given); FILE may be compressed (.gz, .xz, .bz2), as LKP\n"
	"stores most raw files.  `perfsift parse --list` names every parser.\n"
	"PROGRAM may be a plug-in (PROGRAM/parse on $PERFSIFT_PROGRAMS, or an\n"
	"LKP checkout's programs/PROGRAM/parse): its script is run, with Ruby\n"
	"when it is a Ruby script (docs/programs.md).  FILE may be a result root\n"
	"(a run's directory), read as LKP's harness reads it with RESULT_ROOT:\n"
	"its raw file PROGRAM (empty when there is none) and what lies beside it\n"
	"(fio.output, fio.output.N).\n"
	"\n"
	"  -l, --list       list the programs that have a parser (plug-ins too)\n"
	"  --lkp-src DIR    an LKP checkout: DIR/programs/PROGRAM/parse (else $LKP_SRC)\n"
	"  -h, --help       this text\n";

static bool is_compressed(const char *path)
{
	static const char *const sfx[] = {".gz", ".xz", ".bz2"};
	size_t i, n = strlen(path);

	for (i = 0; i < ARRAY_SIZE(sfx); i++)
		if (n > strlen(sfx[i]) && !strcmp(path + n - strlen(sfx[i]), sfx[i]))
			return true;
	return false;
}

int cmd_parse(int argc, char **argv, struct options *opts)
{
	static const struct option longopts[] = {
		{"help", no_argument, NULL, 'h'},
		{"list", no_argument, NULL, 'l'},
		{"lkp-src", required_argument, NULL, 'L'},
		{NULL, 0, NULL, 0},
	};
	struct strbuf raw = STRBUF_INIT, out = STRBUF_INIT, err = STRBUF_INIT;
	struct strbuf in_dir = STRBUF_INIT;
	const struct monitor_ops *m;
	const char *file = NULL;
	int c, r, ret = EXIT_OK;
	bool list = false;
	size_t i;

	(void)opts;
	while ((c = cmd_getopt(argc, argv, "hl", longopts)) != -1) {
		switch (c) {
		case 'h':
			return cmd_usage(usage_text, false);
		case 'l':
			list = true; /* after every option: --lkp-src may follow */
			break;
		case 'L':
			plugin_set_lkp_src(optarg);
			break;
		default:
			return cmd_usage(usage_text, true);
		}
	}
	if (list) {
		for (i = 0; i < monitor_count(); i++)
			if (monitor_at(i)->parse)
				printf("%s\n", monitor_at(i)->name);
		/* and the plug-ins on the search path that have a parse script */
		plugin_scan_all();
		for (i = 0; i < plugin_count(); i++)
			if (plugin_parse_script(plugin_at(i)))
				printf("%s\n", plugin_at(i)->name);
		return EXIT_OK;
	}
	if (optind >= argc || argc - optind > 2)
		return cmd_usage(usage_text, true);
	m = monitor_find(argv[optind]);
	if (!m) {
		const struct program *p = plugin_find(argv[optind], NULL, NULL);

		m = p ? &p->mon : NULL;
	}
	if (!m || !m->parse) {
		struct strbuf dirs = STRBUF_INIT;

		plugin_describe_path(argv[optind], NULL, NULL, &dirs);
		error("'%s' is not a program with a parser (see --list); %s",
		      argv[optind], dirs.buf);
		strbuf_release(&dirs);
		return EXIT_USAGE;
	}
	if (argc - optind == 2)
		file = argv[optind + 1];
	/*
	 * A result root: its raw file DIR/PROGRAM, which LKP's parsers read
	 * with RESULT_ROOT=DIR and the files beside it (a run of fio leaves
	 * the command there, the JSON in fio.output*); an empty one if the
	 * run left none, as its parser then reads only what lies beside it
	 */
	if (file && dir_exists(file)) {
		path_join(&in_dir, file, argv[optind]);
		file = in_dir.buf;
	}
	if (file && in_dir.len && !file_exists(file)) {
		; /* no raw file in the result root: the parser reads beside it */
	} else if (file && is_compressed(file)) {
		if (archive_io_read_compressed(&raw, file, 1UL << 30, &err)) {
			error("%s", err.buf);
			ret = EXIT_RUNTIME;
			goto out;
		}
	} else if (file ? strbuf_read_file(&raw, file, 0) :
			  strbuf_read_fd(&raw, 0, 0)) {
		error_errno("cannot read '%s'", file ? file : "<stdin>");
		ret = EXIT_RUNTIME;
		goto out;
	}
	r = monitor_parse(m, raw.buf, raw.len, file, &out, &err);
	if (r) {
		error("%s", err.buf);
		ret = EXIT_RUNTIME;
		goto out;
	}
	fwrite(out.buf, 1, out.len, stdout);
out:
	strbuf_release(&in_dir);
	strbuf_release(&raw);
	strbuf_release(&out);
	strbuf_release(&err);
	return ret;
}
