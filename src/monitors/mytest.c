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
#include "monitors/monutil.h"
#include "monitors/parsers.h"
#include "util/strbuf.h"
#include "util/strnum.h"

static void kv_line(struct mon_colon *c)
{
	struct strbuf *key = c->data;
	const char *q, *why;
	double d;

	if (!c->keylen)
		return;
	strbuf_reset(key);
	strbuf_add(key, c->line, c->keylen);
	for (q = key->buf; *q && !isspace((unsigned char)*q); q++)
		;
	if (!*q && key->buf[0] != '#' && !strnum_double(c->val->buf, &d, &why))
		strbuf_addf(c->out, "%s: %s\n", key->buf, c->val->buf);
}

DECLARE_PARSER(parse_mytest)
{
	struct strbuf key = STRBUF_INIT;

	(void)path;
	(void)err;
	mon_each_colon_line(raw, len, out, kv_line, &key);
	strbuf_release(&key);
	return 0;
}
