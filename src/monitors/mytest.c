/*
 * mytest.c: the output parser of `mytest`, perfsift's external-command
 * benchmark.  LKP's mytest has no parser (only its time stats count);
 * perfsift lets a command report its own numbers: every stdout line
 * `key: value` whose key has no blank and whose value is a number becomes
 * the stat `mytest.<key>`; every other line is ignored.
 */
#include "util/compat.h"
#include <ctype.h>
#include <string.h>
#include "monitors/parsers.h"
#include "util/strbuf.h"
#include "util/strnum.h"

DECLARE_PARSER(parse_mytest)
{
	struct strbuf key = STRBUF_INIT, val = STRBUF_INIT;
	const char *p = raw, *end = raw + len;

	(void)path;
	(void)err;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		const char *sep = NULL, *q;
		double d;
		const char *why;

		for (q = p; q + 1 < eol; q++)
			if (q[0] == ':' && q[1] == ' ') {
				sep = q;
				break;
			}
		if (sep && sep > p) {
			strbuf_reset(&key);
			strbuf_reset(&val);
			strbuf_add(&key, p, (size_t)(sep - p));
			strbuf_add(&val, sep + 2, (size_t)(eol - sep - 2));
			strbuf_trim(&val);
			for (q = key.buf; *q && !isspace((unsigned char)*q); q++)
				;
			if (!*q && key.buf[0] != '#' &&
			    !strnum_double(val.buf, &d, &why))
				strbuf_addf(out, "%s: %s\n", key.buf, val.buf);
		}
		p = nl ? nl + 1 : end;
	}
	strbuf_release(&key);
	strbuf_release(&val);
	return 0;
}
