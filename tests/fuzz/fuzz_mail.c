/*
 * fuzz_mail.c: libFuzzer harness for the robot's mail writer:
 * robot_mail_compose() (headers from repo names, branches and subjects
 * that come from a config and a git server), robot_mail_mboxrd() and
 * the recovery's robot_mbox_find() on what they wrote.  The input holds
 * the fields split at NUL bytes: from, to, subject, Message-ID, body,
 * attachment.  What must hold: the only "From " line of the mbox text
 * is its first (the escaping), and a message whose header fields hold no
 * control character is found again by its Message-ID, where it begins.
 */
#include "util/compat.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "robot/mail.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = xmalloc(size + 1);
	const char *field[6] = {"", "", "", "", "", NULL};
	struct strbuf msg = STRBUF_INIT, mbox = STRBUF_INIT;
	struct robot_message m;
	size_t i, k = 0, start, extent;
	const char *p;
	bool plain = true;

	memcpy(copy, data, size);
	copy[size] = '\0';
	/* the fields, split at NULs (copy[size] ends the last) */
	field[0] = copy;
	for (i = 0; i < size && k < 5; i++)
		if (!copy[i])
			field[++k] = copy + i + 1;
	memset(&m, 0, sizeof(m));
	m.from = field[0];
	m.to = field[1];
	m.subject = field[2];
	m.message_id = *field[3] ? field[3] : "<id@fuzz>";
	m.date = 1700000000;
	m.body = field[4];
	m.attachment = field[5];
	m.attachment_name = "job.yaml";
	robot_mail_compose(&m, &msg);
	robot_mail_mboxrd(msg.buf, "fuzz@example.org", m.date, &mbox);
	/* no line but the first begins "From " */
	for (p = strchr(mbox.buf, '\n'); p && p[1]; p = strchr(p + 1, '\n'))
		if (!strncmp(p + 1, "From ", 5))
			abort();
	/*
	 * the writer blanks every control character of a header value
	 * (util/trust.h), so only a header free of them is found as given
	 */
	for (i = 0; i < 4; i++)
		for (p = field[i]; *p; p++)
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				plain = false;
	if (plain && (robot_mbox_find(mbox.buf, mbox.len, m.message_id, &start,
				      &extent) || start != 0))
		abort();
	strbuf_release(&msg);
	strbuf_release(&mbox);
	free(copy);
	return 0;
}
