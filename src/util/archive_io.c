/*
 * archive_io.c: the libarchive table behind archive_io.h, and the one
 * reader of compressed raw files (the result root's `stats`, and
 * `perfsift parse FILE.gz`).  The loaded state is a file-level cache,
 * filled once.
 */
#include "util/compat.h"
#define ARCHIVE_IO_IMPL
#include "util/archive_io.h"
#include "util/dynlib.h"
#include "util/usage.h"

static struct archive_io_api api;
static const char *const names[] = {
#define ARCHIVE_IO_NAME(f) #f,
	ARCHIVE_IO_FUNCS(ARCHIVE_IO_NAME)
#undef ARCHIVE_IO_NAME
};
static struct dynlib lib = {
	"libarchive.so.13", NULL, names, ARRAY_SIZE(names), &api, NULL,
};

int archive_io_load(const char *what, struct strbuf *err)
{
	lib.what = what;
	return dynlib_load(&lib, err);
}

const struct archive_io_api *archive_io_api(void)
{
	if (!lib.handle)
		BUG("libarchive used before archive_io_load()");
	return &api;
}

int archive_io_read_compressed(struct strbuf *sb, const char *path,
			       size_t max, struct strbuf *why)
{
	struct archive *a;
	struct archive_entry *e;
	char buf[65536];
	la_ssize_t got;
	const char *msg;
	int ret = -1;

	if (archive_io_load("reading compressed raw files", why) < 0)
		return -1;
	a = api.archive_read_new();
	api.archive_read_support_filter_all(a);
	api.archive_read_support_format_raw(a);
	if (api.archive_read_open_filename(a, path, sizeof(buf)) != ARCHIVE_OK ||
	    api.archive_read_next_header(a, &e) != ARCHIVE_OK)
		goto fail;
	if (api.archive_filter_code(a, 0) == ARCHIVE_FILTER_NONE) {
		strbuf_addf(why, "cannot decompress '%s': not compressed data",
			    path);
		goto out;
	}
	while ((got = api.archive_read_data(a, buf, sizeof(buf))) > 0) {
		if (sb->len + (size_t)got > max) {
			strbuf_addf(why, "'%s': more than %zu bytes uncompressed",
				    path, max);
			goto out;
		}
		strbuf_add(sb, buf, (size_t)got);
	}
	if (got == 0) {
		ret = 0;
		goto out;
	}
fail:
	msg = api.archive_error_string(a);
	strbuf_addf(why, "cannot decompress '%s': %s", path,
		    msg ? msg : "unknown error");
out:
	api.archive_read_free(a);
	return ret;
}
