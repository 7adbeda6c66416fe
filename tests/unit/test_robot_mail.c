/*
 * test_robot_mail.c: unit tests for robot/mail.c -- the message's RFC
 * 5322 headers and MIME parts, the rule that no body or attachment line
 * begins "Subject:", and mboxrd's escaping of "From " lines (which must
 * reverse: ">From " gets one more '>', as mboxrd readers strip one).
 */
#include "util/compat.h"
#include <stdarg.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "robot/mail.h"
#include "util/strbuf.h"

static const struct robot_message base_msg = {
	.from = "perfsift <perfsift@example.org>",
	.to = "dev@example.org",
	.subject = "[perfsift] [demo/feature/slow] 0123456789ab: x +50.0% regression",
	.message_id = "<perfsift-robot.0123456789.1@example.org>",
	.date = 1700000000, /* Tue, 14 Nov 2023 22:13:20 +0000 */
	.body = "Subject: the report's own\n\nFYI, ...\nFrom here on\n",
	.attachment = "testcase: t\nsubject: fine\nSubject: not fine\n",
	.attachment_name = "job.yaml",
};

/* true when some line of text begins with prefix */
static bool has_line(const char *text, const char *prefix)
{
	const char *p = text;
	size_t n = strlen(prefix);

	for (;;) {
		if (!strncmp(p, prefix, n))
			return true;
		p = strchr(p, '\n');
		if (!p)
			return false;
		p++;
	}
}

static void test_headers(void **state)
{
	struct strbuf out = STRBUF_INIT;

	(void)state;
	robot_mail_compose(&base_msg, &out);
	assert_true(!strncmp(out.buf, "From: perfsift <perfsift@example.org>\n", 38));
	assert_true(has_line(out.buf, "To: dev@example.org\n"));
	assert_true(has_line(out.buf, "Date: Tue, 14 Nov 2023 22:13:20 +0000\n"));
	assert_true(has_line(out.buf, "Message-ID: <perfsift-robot.0123456789.1@example.org>\n"));
	assert_true(has_line(out.buf, "MIME-Version: 1.0\n"));
	assert_true(has_line(out.buf, "Content-Disposition: attachment; filename=\"job.yaml\"\n"));
	strbuf_release(&out);
}

/*
 * A CR/LF in any header's value (a repo name, a subject, an address, the
 * attachment's name) never starts a header of its own (issue 25 F10)
 */
static void test_header_injection(void **state)
{
	struct robot_message m = base_msg;
	struct strbuf out = STRBUF_INIT;

	(void)state;
	m.subject = "[perfsift] [demo\r\nBcc:evil@example/x] y";
	m.to = "dev@example.org\nCc: evil@example";
	m.from = "perfsift <p@example.org>\r\nX-Evil: 1";
	m.attachment_name = "job\".yaml\nBcc: e";
	robot_mail_compose(&m, &out);
	assert_false(has_line(out.buf, "Bcc:"));
	assert_false(has_line(out.buf, "Cc:"));
	assert_false(has_line(out.buf, "X-Evil:"));
	assert_null(strchr(out.buf, '\r'));
	assert_true(has_line(out.buf, "Subject: [perfsift] [demo  Bcc:evil@example/x] y\n"));
	assert_true(has_line(out.buf, "To: dev@example.org Cc: evil@example\n"));
	assert_true(has_line(out.buf, "Content-Disposition: attachment; filename=\"job_.yaml Bcc: e\"\n"));
	strbuf_release(&out);
}

static void test_one_subject(void **state)
{
	struct strbuf out = STRBUF_INIT;
	const char *p;
	int n = 0;

	(void)state;
	robot_mail_compose(&base_msg, &out);
	/* exactly one line begins Subject:, the header; any case counts */
	for (p = out.buf; p; p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (!strncasecmp(p, "Subject:", 8))
			n++;
	assert_int_equal(n, 1);
	assert_true(has_line(out.buf, " Subject: the report's own\n"));
	assert_true(has_line(out.buf, " Subject: not fine\n"));
	assert_true(has_line(out.buf, " subject: fine\n"));
	strbuf_release(&out);
}

/* the boundary of a composed message, into buf */
static void boundary_of(const char *msg, char *buf, size_t size)
{
	const char *b = strstr(msg, "boundary=\"");
	const char *q;

	assert_non_null(b);
	b += 10;
	q = strchr(b, '"');
	assert_non_null(q);
	assert_true((size_t)(q - b) < size);
	memcpy(buf, b, (size_t)(q - b));
	buf[q - b] = '\0';
}

static void test_boundary_unique(void **state)
{
	struct robot_message m = base_msg;
	struct strbuf first = STRBUF_INIT, out = STRBUF_INIT;
	char b1[64], b2[64];

	(void)state;
	robot_mail_compose(&m, &first);
	boundary_of(first.buf, b1, sizeof(b1));
	/* a body holding that boundary makes another one be chosen */
	m.body = b1;
	robot_mail_compose(&m, &out);
	boundary_of(out.buf, b2, sizeof(b2));
	assert_string_not_equal(b1, b2);
	assert_null(strstr(m.body, b2));
	strbuf_release(&first);
	strbuf_release(&out);
}

static void test_mboxrd(void **state)
{
	struct strbuf out = STRBUF_INIT;

	(void)state;
	robot_mail_mboxrd("From: a@b\nSubject: s\n\nFrom the start\n>From one\n"
			  ">>From two\nFromage\n From not\n",
			  "a@b", 1700000000, &out);
	assert_string_equal(out.buf,
			    "From a@b Tue Nov 14 22:13:20 2023\n"
			    "From: a@b\nSubject: s\n\n"
			    ">From the start\n>>From one\n>>>From two\n"
			    "Fromage\n From not\n\n");
	strbuf_release(&out);
}

/*
 * robot_mbox_find(): a message found by its Message-ID header, only in
 * a message's headers (a body line naming it is not the header), its
 * extent up to the next "From " line; mboxrd-escaped body lines
 * (">From ") do not end it.
 */
static void test_mbox_find(void **state)
{
	const char *id = "<perfsift-robot.1@example.org>";
	const char *mbox =
		"From a@b Tue Nov 14 22:13:20 2023\n"
		"From: a@b\nMessage-ID: <other@example.org>\n\n"
		"Message-ID: <perfsift-robot.1@example.org>\n\n"
		"From r@b Tue Nov 14 22:13:20 2023\n"
		"From: r@b\nmessage-id: <perfsift-robot.1@example.org>\n\n"
		">From the body\n\n"
		"From c@d Tue Nov 14 22:13:20 2023\nFrom: c@d\n\n";
	const char *second = strstr(mbox, "From r@b");
	const char *third = strstr(mbox, "From c@d");
	size_t start, extent;

	(void)state;
	assert_int_equal(robot_mbox_find(mbox, strlen(mbox), id, &start,
					 &extent), 0);
	assert_int_equal(start, (size_t)(second - mbox));
	assert_int_equal(extent, (size_t)(third - second));
	/* the id a prefix of another's: not it */
	assert_int_equal(robot_mbox_find(mbox, strlen(mbox),
					 "<perfsift-robot.1@example.or", &start,
					 &extent), -1);
	/* cut inside the headers, before the id: not found */
	assert_int_equal(robot_mbox_find(mbox, (size_t)(second - mbox) + 20,
					 id, &start, &extent), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_headers),
		cmocka_unit_test(test_header_injection),
		cmocka_unit_test(test_one_subject),
		cmocka_unit_test(test_boundary_unique),
		cmocka_unit_test(test_mboxrd),
		cmocka_unit_test(test_mbox_find),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
