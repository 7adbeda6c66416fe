/*
 * fuzz_filerow.c: libFuzzer harness for the unpacking of a store's file
 * row, lab_write_file_row(): what `perfsift pull` writes from a store
 * that every box of a lab may write to (docs/security.md).  The input is
 * the row: its name up to the first newline (NUL bytes and all), its data
 * after.  A name the check lets through must stay below the run
 * directory when its parts are resolved; one that does not aborts (the
 * fuzzer reports it) before anything is written, so that a broken check
 * never writes into the box's /etc.  Allowed rows are then written into
 * a temporary directory and must land there.
 */
#include "util/compat.h"
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lab/lab.h"
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/trust.h"
#include "util/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* the run directory, made once, emptied after each input */
static char base[] = "/tmp/perfsift-fuzz-filerow.XXXXXX";
static struct strbuf dest = STRBUF_INIT;

/* whether name, its parts resolved in order ("..", "."), stays below its top */
static bool stays_below(const char *name, size_t len)
{
	size_t depth = 0, i = 0;

	if (!len || name[0] == '/' || memchr(name, '\0', len))
		return false;
	while (i < len) {
		size_t j = i;

		while (j < len && name[j] != '/')
			j++;
		if (j - i == 2 && !memcmp(name + i, "..", 2)) {
			if (!depth)
				return false;
			depth--;
		} else if (j - i && !(j - i == 1 && name[i] == '.')) {
			depth++;
		}
		i = j + 1;
	}
	return true; /* "." itself is the run directory: not outside */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nl = memchr(data, '\n', size);
	size_t name_len = nl ? (size_t)(nl - data) : size;
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT;
	char real[PATH_MAX], *name;

	if (trust_relpath_why_len((const char *)data, name_len))
		return 0;
	if (!stays_below((const char *)data, name_len))
		abort(); /* let through, and it leaves the run directory */
	if (!dest.len) {
		if (!mkdtemp(base))
			abort();
		strbuf_addf(&dest, "%s/run", base);
	}
	if (mkdir_p(dest.buf, 0755) < 0)
		abort();
	name = xmalloc(name_len + 1);
	memcpy(name, data, name_len);
	name[name_len] = '\0';
	if (!lab_write_file_row(dest.buf, name, name_len, nl ? nl + 1 : data,
				nl ? size - name_len - 1 : 0, &err)) {
		/* written: it must be a file below dest */
		path_join(&path, dest.buf, name);
		if (!realpath(path.buf, real) ||
		    strncmp(real, dest.buf, dest.len) || real[dest.len] != '/')
			abort();
	}
	free(name);
	remove_tree(dest.buf);
	strbuf_release(&err);
	strbuf_release(&path);
	return 0;
}
