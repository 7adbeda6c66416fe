/*
 * mail.h: the robot's mail, as 0-day's -- an RFC 5322 message (From, To,
 * Date, Message-ID, Subject) whose body is the report and whose job.yaml
 * is attached (MIME multipart/mixed) -- and its delivery: appended to an
 * mbox (mboxrd: body lines beginning `From ` get one more `>`), put into
 * a maildir, or piped to a sendmail-compatible command.  Composition is
 * pure (unit-tested); delivery is idempotent where the medium lets it be,
 * so that a robot killed while mailing never mails twice.
 */
#ifndef PERFSIFT_ROBOT_MAIL_H
#define PERFSIFT_ROBOT_MAIL_H

#include "util/compat.h"
#include <time.h>

struct robot_mail;
struct strbuf;

struct robot_message {
	const char *from, *to, *subject, *message_id;
	time_t date;
	const char *body;       /* the report text */
	const char *attachment; /* job.yaml's text, or NULL */
	const char *attachment_name;
};

/*
 * The message, CRLF-free (an mbox and sendmail -t want LF lines).  No
 * line of the body or the attachment begins with "Subject:" (such a line
 * gets a leading blank): a reader that splits an mbox by its headers, as
 * LKP's tools do, must not take the report's own text for a header.
 */
void robot_mail_compose(const struct robot_message *m, struct strbuf *out);

/* the mboxrd form of message (its "From " line, the escaping, a blank
 * line at the end), appended to out */
void robot_mail_mboxrd(const char *message, const char *envelope_from,
		       time_t date, struct strbuf *out);

/*
 * Deliver message (composed) as cfg says.  *offset is the mbox's size
 * before a first try (-1: unknown) and is set before appending, so the
 * caller can keep it: a retry with the same *offset looks after it for
 * its own copy by message_id and never cuts what another program
 * appended (deliver_mbox() in mail.c).  A maildir keeps the message
 * under a name made from message_id, so a retry finds it there.  0 when
 * delivered now, 1 when a retry found it delivered, -1 with err.
 */
int robot_mail_deliver(const struct robot_mail *cfg, const char *message,
		       const char *message_id, time_t date, long long *offset,
		       int (*save_offset)(void *ctx, long long offset),
		       void *ctx, struct strbuf *err);

/*
 * Where the mbox text text[0..len) holds the message whose Message-ID
 * header is id: the position of its "From " line and its length up to
 * the next message.  0 when found, -1 when not.
 */
int robot_mbox_find(const char *text, size_t len, const char *id,
		    size_t *start, size_t *extent);

#endif
