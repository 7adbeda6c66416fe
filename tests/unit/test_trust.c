/*
 * test_trust.c: unit tests for src/util/trust.c -- the checks of outside
 * text (names, relative paths, arguments) and the URL redaction.
 */
#include "util/compat.h"
#include <stdarg.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "util/fileutil.h"
#include "util/strbuf.h"
#include "util/trust.h"

static void test_names(void **state)
{
	(void)state;
	assert_null(trust_name_why("demo"));
	assert_null(trust_name_why("a.b-c_d+e"));
	assert_null(trust_name_why("..."));
	assert_non_null(trust_name_why(""));
	assert_non_null(trust_name_why("."));
	assert_non_null(trust_name_why(".."));
	assert_non_null(trust_name_why("a/b"));
	assert_non_null(trust_name_why("demo\r\nBcc:evil@example"));
	assert_non_null(trust_name_why("\033[31mred"));
	assert_non_null(trust_name_why("bell\a"));
	assert_non_null(trust_name_why("del\177"));
	assert_true(trust_has_ctl("a\tb"));
	assert_false(trust_has_ctl("caf\xc3\xa9"));
	/* a CSV line: TAB may separate, a NUL inside still counts */
	assert_int_equal(trust_first_ctl("a\tb", 3, true), -1);
	assert_int_equal(trust_first_ctl("a\tb", 3, false), '\t');
	assert_int_equal(trust_first_ctl("ab\0c", 4, true), 0);
	assert_int_equal(trust_first_ctl("a,\033[m", 5, true), 033);
	assert_int_equal(trust_first_ctl("del\177", 4, true), 0177);
	assert_int_equal(trust_first_ctl("caf\xc3\xa9", 5, false), -1);
}

static void test_relpaths(void **state)
{
	(void)state;
	assert_null(trust_relpath_why("vm-scalability/300s-anon/host/1"));
	assert_null(trust_relpath_why("a..b/c"));
	assert_non_null(trust_relpath_why(""));
	assert_non_null(trust_relpath_why("/root/.ssh"));
	assert_non_null(trust_relpath_why("../../../../root/.ssh"));
	assert_non_null(trust_relpath_why("a/../../b"));
	assert_non_null(trust_relpath_why("a/.."));
	assert_non_null(trust_relpath_why("a//b"));
	assert_non_null(trust_relpath_why("a/"));
	assert_non_null(trust_relpath_why("./a"));
	assert_non_null(trust_relpath_why("a/b\nc"));
	/* counted bytes, as a store's file row has them: no further */
	assert_null(trust_relpath_why_len("ab/..", 2));
	assert_null(trust_relpath_why_len("out/stats.json", 14));
	assert_non_null(trust_relpath_why_len("out/..", 6));
	assert_non_null(trust_relpath_why_len("ab/", 3));
	assert_non_null(trust_relpath_why_len("", 0));
	assert_string_equal(trust_relpath_why_len("a\0/../../x", 10),
			    "a NUL byte");
	assert_string_equal(trust_relpath_why_len("/etc/x", 6),
			    "an absolute path");
	assert_string_equal(trust_relpath_why_len("a/\033[2J", 6),
			    "a control character");
}

static void test_args(void **state)
{
	(void)state;
	assert_null(trust_arg_why("https://example.org/r.git"));
	assert_null(trust_arg_why("/srv/git/linux"));
	assert_null(trust_arg_why("main"));
	assert_non_null(trust_arg_why("--upload-pack=touch pwn;"));
	assert_non_null(trust_arg_why("-u"));
	assert_non_null(trust_arg_why(""));
	assert_non_null(trust_arg_why("main\n"));
}

static void test_stat_names(void **state)
{
	(void)state;
	assert_null(trust_stat_why("vm-scalability.throughput"));
	assert_null(trust_stat_why("perf-stat.i.metric.M/sec"));
	assert_null(trust_stat_why("fio.ops/s"));
	assert_non_null(trust_stat_why(""));
	assert_non_null(trust_stat_why("plug."));
	assert_non_null(trust_stat_why(".plug"));
	assert_non_null(trust_stat_why("plug..x"));
	assert_non_null(trust_stat_why("plug.\033]0;t\007"));
	assert_non_null(trust_stat_why("plug.a\nb"));
}

/* UTF-8 as it is written, and what is not: a byte alone, C1, overlong */
static void test_utf8(void **state)
{
	(void)state;
	assert_null(trust_utf8_why("plain"));
	assert_null(trust_utf8_why("caf\xc3\xa9"));          /* U+00E9 */
	assert_null(trust_utf8_why("\xc2\xa0"));             /* U+00A0, past C1 */
	assert_null(trust_utf8_why("\xe2\x82\xac"));         /* U+20AC */
	assert_null(trust_utf8_why("\xf0\x9f\x98\x80"));     /* U+1F600 */
	assert_null(trust_utf8_why("\xf4\x8f\xbf\xbf"));     /* U+10FFFF */
	assert_non_null(trust_utf8_why("c\x9b" "2J"));       /* a raw CSI */
	assert_non_null(trust_utf8_why("\xc2\x9b"));         /* U+009B */
	assert_non_null(trust_utf8_why("\xc2\x80"));         /* U+0080 */
	assert_non_null(trust_utf8_why("\xc2\x9f"));         /* U+009F */
	assert_non_null(trust_utf8_why("\xc0\xaf"));         /* overlong '/' */
	assert_non_null(trust_utf8_why("\xe0\x80\xaf"));     /* overlong '/' */
	assert_non_null(trust_utf8_why("\xed\xa0\x80"));     /* a surrogate */
	assert_non_null(trust_utf8_why("\xf4\x90\x80\x80"));  /* past U+10FFFF */
	assert_non_null(trust_utf8_why("\xe2\x82"));         /* cut short */
	assert_non_null(trust_utf8_why("\xff"));
}

/*
 * Bidirectional controls in a name (the third attack, L10): each of
 * U+061C, U+200E/U+200F, U+202A-U+202E and U+2066-U+2069 is refused by
 * the UTF-8 check and the name check; their neighbours pass.
 */
static void test_bidi(void **state)
{
	static const char *const bad[] = {
		"\xd8\x9c",                          /* U+061C */
		"\xe2\x80\x8e", "\xe2\x80\x8f",          /* U+200E, U+200F */
		"\xe2\x80\xaa", "\xe2\x80\xab", "\xe2\x80\xac",
		"\xe2\x80\xad", "\xe2\x80\xae",          /* U+202A-U+202E */
		"\xe2\x81\xa6", "\xe2\x81\xa7", "\xe2\x81\xa8",
		"\xe2\x81\xa9",                      /* U+2066-U+2069 */
	};
	static const char *const fine[] = {
		"\xd8\x9b",                          /* U+061B */
		"\xe2\x80\x8d", "\xe2\x80\x90",          /* U+200D, U+2010 */
		"\xe2\x80\xa9", "\xe2\x80\xaf",          /* U+2029, U+202F */
		"\xe2\x81\xa5", "\xe2\x81\xaa",          /* U+2065, U+206A */
	};
	struct strbuf s = STRBUF_INIT;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		strbuf_reset(&s);
		strbuf_addf(&s, "exe.%stxt", bad[i]);
		assert_string_equal(trust_utf8_why(s.buf), TRUST_BIDI_WHY);
		assert_string_equal(trust_name_why(s.buf), TRUST_BIDI_WHY);
		assert_non_null(trust_bidi_why(bad[i]));
		assert_string_equal(trust_relpath_why(s.buf), TRUST_BIDI_WHY);
		/* the row's bytes end inside the sequence: not read past */
		assert_null(trust_bidi_why_len(s.buf, 4 + strlen(bad[i]) - 1));
	}
	for (i = 0; i < ARRAY_SIZE(fine); i++) {
		strbuf_reset(&s);
		strbuf_addf(&s, "exe.%stxt", fine[i]);
		assert_null(trust_utf8_why(s.buf));
		assert_null(trust_name_why(s.buf));
	}
	/* a cut-short sequence at the end is read no further than the NUL */
	assert_null(trust_bidi_why("a\xe2\x80"));
	assert_null(trust_bidi_why("a\xe2"));
	strbuf_release(&s);
}

/* a directory below one holding the mark is inside a pulled run */
static void test_inside_pulled(void **state)
{
	char dir[] = "/tmp/test_trust.XXXXXX";
	struct strbuf p = STRBUF_INIT;

	(void)state;
	assert_non_null(mkdtemp(dir));
	strbuf_addf(&p, "%s/run/sub/evilp", dir);
	assert_int_equal(mkdir_p(p.buf, 0755), 0);
	assert_false(trust_inside_pulled(p.buf));
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/run/%s", dir, TRUST_PULLED_MARK);
	assert_int_equal(write_file_atomic(p.buf, "x\n", 2), 0);
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/run/sub/evilp", dir);
	assert_true(trust_inside_pulled(p.buf));
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/run", dir);
	assert_true(trust_inside_pulled(p.buf));
	assert_false(trust_inside_pulled(dir));
	/* a link into the pulled run is inside it */
	strbuf_reset(&p);
	strbuf_addf(&p, "%s/link", dir);
	assert_int_equal(symlink("run/sub", p.buf), 0);
	assert_true(trust_inside_pulled(p.buf));
	assert_false(trust_inside_pulled("/nonexistent/dir"));
	assert_int_equal(remove_tree(dir), 0);
	strbuf_release(&p);
}

static void check_escape(const char *in, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	trust_escape(&sb, in);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

static void test_escape(void **state)
{
	(void)state;
	check_escape("plain.name", "plain.name");
	check_escape("\033[2J", "\\x1b[2J");
	check_escape("a\\b\a", "a\\x5cb\\x07");
}

static void check_redact(const char *in, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	trust_redact_url(&sb, in);
	assert_string_equal(sb.buf, want);
	assert_string_equal(trust_redacted(in), want);
	strbuf_release(&sb);
}

/* a message's escaping (usage.c's die()): control bytes but LF and TAB, C1 in UTF-8 */
static void test_escape_msg(void **state)
{
	char buf[64], tiny[8];

	(void)state;
	trust_escape_msg(buf, sizeof(buf), "r\033]0;pwn\007 a\\b");
	assert_string_equal(buf, "r\\x1b]0;pwn\\x07 a\\b");
	trust_escape_msg(buf, sizeof(buf), "line\nnext\tcol\r\177");
	assert_string_equal(buf, "line\nnext\tcol\\x0d\\x7f");
	/* U+009B (C2 9B) is escaped; U+00E9 (C3 A9) and U+00A0 (C2 A0) stay */
	trust_escape_msg(buf, sizeof(buf), "\xc2\x9b" "2J \xc3\xa9\xc2\xa0");
	assert_string_equal(buf, "\\xc2\\x9b2J \xc3\xa9\xc2\xa0");
	/* cut to fit, never in the middle of an escape */
	trust_escape_msg(tiny, 6, "abc\033def");
	assert_string_equal(tiny, "abc");
	trust_escape_msg(tiny, sizeof(tiny), "abc\033def");
	assert_string_equal(tiny, "abc\\x1b");
	trust_escape_msg(tiny, sizeof(tiny), "abcdefghij");
	assert_string_equal(tiny, "abcdefg");
}

static void test_redact(void **state)
{
	(void)state;
	check_redact("postgresql://bob:S3CRET@127.0.0.1:1/lab",
		     "postgresql://bob:***@127.0.0.1:1/lab");
	/* a password holding '@' and ':' is cut at the authority's last '@' */
	check_redact("postgres://bob:p@ss:w@db/lab", "postgres://bob:***@db/lab");
	check_redact("postgresql://bob@db/lab", "postgresql://bob@db/lab");
	check_redact("postgresql://db:5432/lab", "postgresql://db:5432/lab");
	check_redact("postgresql://db/lab?user=bob&password=S3CRET&sslmode=require",
		     "postgresql://db/lab?user=bob&password=***&sslmode=require");
	check_redact("host=db dbname=lab password=S3CRET user=bob",
		     "host=db dbname=lab password=*** user=bob");
	check_redact("host=db password='S3 CR\\'ET' user=bob",
		     "host=db password=*** user=bob");
	check_redact("/var/lib/perfsift/result", "/var/lib/perfsift/result");
	check_redact("", "");
}

static void check_redact_text(const char *msg, const char *url,
			      const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, msg);
	trust_redact_text(&sb, url);
	assert_string_equal(sb.buf, want);
	strbuf_release(&sb);
}

/*
 * libpq's own message quotes a URI it cannot parse, or the token of it
 * it could not decode: the password went out through it (the fourth
 * attack, docs/attack-4.md)
 */
static void test_redact_text(void **state)
{
	(void)state;
	check_redact_text("matching \"]\" in URI: \"postgresql://bob:S3CRET@[::1/lab\"",
			  "postgresql://bob:S3CRET@[::1/lab",
			  "matching \"]\" in URI: \"postgresql://bob:***@[::1/lab\"");
	check_redact_text("invalid percent-encoded token: \"S3%ZZ\"",
			  "postgresql://bob:S3%ZZ@db/lab",
			  "invalid percent-encoded token: \"***\"");
	check_redact_text("bad: S3CRET and S3CRET",
			  "postgresql://db/lab?password=S3CRET&x=1",
			  "bad: *** and ***");
	check_redact_text("connection refused", "postgresql://bob:S3CRET@db/lab",
			  "connection refused");
	check_redact_text("no password here: bob@db", "postgresql://bob@db/lab",
			  "no password here: bob@db");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_relpaths),
		cmocka_unit_test(test_args),
		cmocka_unit_test(test_stat_names),
		cmocka_unit_test(test_utf8),
		cmocka_unit_test(test_bidi),
		cmocka_unit_test(test_inside_pulled),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_escape_msg),
		cmocka_unit_test(test_redact),
		cmocka_unit_test(test_redact_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
