/*
 * mail.c: compose the robot's message and deliver it (robot/mail.h).
 * The mail is what a developer receives unasked, so it follows the
 * formats mail readers agree on rather than anything of perfsift's own:
 * RFC 5322 headers, MIME for the attachment, mboxrd for the mbox.
 */
#include "util/compat.h"
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "robot/config.h"
#include "robot/mail.h"
#include "util/fault.h"
#include "util/fileutil.h"
#include "util/hash.h"
#include "util/spawn.h"
#include "util/strbuf.h"
#include "util/usage.h"
#include "util/xalloc.h"

/* English names whatever the locale: mail dates are not localised */
static const char *const days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri",
				   "Sat"};
static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
				     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

/* RFC 5322's date */
static void add_date(struct strbuf *out, time_t t)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strbuf_addf(out, "%s, %02d %s %04d %02d:%02d:%02d +0000",
		    days[tm.tm_wday], tm.tm_mday, months[tm.tm_mon],
		    tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

/*
 * text line by line, each ending in LF; a line beginning "Subject:"
 * (any case) gets a leading blank, which no header line has.
 */
static void add_text(struct strbuf *out, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *nl = strchrnul(p, '\n');

		if (!strncasecmp(p, "Subject:", 8))
			strbuf_addch(out, ' ');
		strbuf_add(out, p, (size_t)(nl - p));
		strbuf_addch(out, '\n');
		p = *nl ? nl + 1 : nl;
	}
}

/*
 * A header's value: a control character (CR, LF, TAB, ESC...) becomes a
 * blank, so that no name or subject can end the header and add one of
 * its own ("demo\r\nBcc: x", issue 25 F10); in a quoted parameter '"'
 * and '\\' become '_' too.  The config already refuses such names: this
 * holds for every value that reaches a header.
 */
static void add_header_text(struct strbuf *out, const char *s, bool quoted)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			strbuf_addch(out, ' ');
		else if (quoted && (c == '"' || c == '\\'))
			strbuf_addch(out, '_');
		else
			strbuf_addch(out, (char)c);
	}
}

static void add_header(struct strbuf *out, const char *name, const char *value)
{
	strbuf_addf(out, "%s: ", name);
	add_header_text(out, value, false);
	strbuf_addch(out, '\n');
}

void robot_mail_compose(const struct robot_message *m, struct strbuf *out)
{
	struct strbuf fname = STRBUF_INIT;
	struct strbuf boundary = STRBUF_INIT;
	uint64_t h = fnv1a64(FNV1A64_INIT, m->message_id, strlen(m->message_id));
	unsigned salt = 0;

	/* a boundary that occurs in neither part (RFC 2046 §5.1.1) */
	do {
		strbuf_reset(&boundary);
		strbuf_addf(&boundary, "=_perfsift_%016llx_%u",
			    (unsigned long long)h, salt++);
	} while (strstr(m->body, boundary.buf) ||
		 (m->attachment && strstr(m->attachment, boundary.buf)));
	add_header(out, "From", m->from);
	add_header(out, "To", m->to);
	strbuf_addstr(out, "Date: ");
	add_date(out, m->date);
	strbuf_addch(out, '\n');
	add_header(out, "Message-ID", m->message_id);
	add_header(out, "Subject", m->subject);
	strbuf_addstr(out, "MIME-Version: 1.0\n");
	if (!m->attachment) {
		strbuf_addstr(out, "Content-Type: text/plain; charset=utf-8\n"
			      "Content-Transfer-Encoding: 8bit\n\n");
		add_text(out, m->body);
		strbuf_release(&boundary);
		return;
	}
	strbuf_addf(out, "Content-Type: multipart/mixed; boundary=\"%s\"\n\n"
		    "This is a multi-part message in MIME format.\n\n",
		    boundary.buf);
	strbuf_addf(out, "--%s\nContent-Type: text/plain; charset=utf-8\n"
		    "Content-Transfer-Encoding: 8bit\n"
		    "Content-Disposition: inline\n\n", boundary.buf);
	add_text(out, m->body);
	add_header_text(&fname, m->attachment_name, true);
	strbuf_addf(out, "\n--%s\nContent-Type: text/plain; charset=utf-8;"
		    " name=\"%s\"\nContent-Transfer-Encoding: 8bit\n"
		    "Content-Disposition: attachment; filename=\"%s\"\n\n",
		    boundary.buf, fname.buf, fname.buf);
	strbuf_release(&fname);
	add_text(out, m->attachment);
	strbuf_addf(out, "\n--%s--\n", boundary.buf);
	strbuf_release(&boundary);
}

void robot_mail_mboxrd(const char *message, const char *envelope_from,
		       time_t date, struct strbuf *out)
{
	const char *p = message;
	struct tm tm;

	gmtime_r(&date, &tm);
	/* the envelope line: asctime's layout, as mbox(5) has it */
	strbuf_addf(out, "From %s %s %s %2d %02d:%02d:%02d %04d\n",
		    envelope_from, days[tm.tm_wday], months[tm.tm_mon],
		    tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		    tm.tm_year + 1900);
	while (*p) {
		const char *nl = strchrnul(p, '\n'), *q = p;

		/* mboxrd: ">*From " gets one more '>', so it reverses */
		while (*q == '>')
			q++;
		if (!strncmp(q, "From ", 5))
			strbuf_addch(out, '>');
		strbuf_add(out, p, (size_t)(nl - p));
		strbuf_addch(out, '\n');
		p = *nl ? nl + 1 : nl;
	}
	strbuf_addch(out, '\n');
}

/* the address part of "Name <addr>" (or the whole), for the envelope */
static void envelope(const char *from, struct strbuf *out)
{
	const char *lt = strchr(from, '<'), *gt = lt ? strchr(lt, '>') : NULL;

	if (lt && gt)
		strbuf_add(out, lt + 1, (size_t)(gt - lt - 1));
	else
		strbuf_addstr(out, from);
}

/*
 * Where the mbox region text[0..len) holds a copy of the message whose
 * Message-ID is id: its "From " line's position in *start and its extent
 * (up to the next "From " line, or the end) in *extent.  mboxrd escapes
 * every body line beginning "From ", so such a line always begins a
 * message.  0 when found, -1 when not.
 */
int robot_mbox_find(const char *text, size_t len, const char *id,
		    size_t *start, size_t *extent)
{
	size_t idlen = strlen(id), pos = 0;

	while (pos < len) {
		size_t end = pos, hdr = pos;

		/* the next message begins at the next "From " line */
		for (;;) {
			const char *nl = memchr(text + end, '\n', len - end);

			end = nl ? (size_t)(nl - text) + 1 : len;
			if (end >= len || (len - end >= 5 &&
					   !memcmp(text + end, "From ", 5)))
				break;
		}
		/* its headers: up to the first empty line */
		while (hdr < end) {
			const char *nl = memchr(text + hdr, '\n', end - hdr);
			size_t ll = nl ? (size_t)(nl - text) - hdr : end - hdr;

			if (!ll)
				break;
			if (ll == 12 + idlen &&
			    !strncasecmp(text + hdr, "Message-ID: ", 12) &&
			    !memcmp(text + hdr + 12, id, idlen)) {
				*start = pos;
				*extent = end - pos;
				return 0;
			}
			hdr += ll + 1;
		}
		pos = end;
	}
	return -1;
}

/*
 * Whether the n bytes at p are the beginning of the mboxrd text the robot
 * would write now, the envelope line and the Date: header aside (their
 * dates are fixed-width): a torn copy of the robot's own, which nothing
 * of anyone else's follows -- a mail appended after a torn last line
 * would not begin a line, so the extent alone cannot tell.
 */
static bool own_prefix(const char *p, size_t n, const struct strbuf *text)
{
	const char *t = text->buf, *env_end, *date, *date_end;

	if (n > text->len)
		return false;
	env_end = strchrnul(t, '\n');
	date = strstr(env_end, "\nDate: ");
	date_end = date ? strchrnul(date + 1, '\n') : env_end;
	if (!date)
		date = env_end;
	/* the parts around the two dates, each as far as n reaches */
	return !memcmp(p + (env_end - t), env_end,
		       n < (size_t)(date - t) ? n - (size_t)(env_end - t) :
		       (size_t)(date - env_end)) &&
	       (n <= (size_t)(date_end - t) ||
		!memcmp(p + (date_end - t), date_end, n - (size_t)(date_end - t)));
}

/*
 * Append to an mbox under an flock (mail readers and MTAs lock the same
 * way), never cutting what is there: the mbox is shared, and another
 * program may have appended under the same lock since a killed robot's
 * try.  A retry (*offset known) first looks for its own copy after
 * *offset by its Message-ID: a whole one is the mail delivered (1); a
 * torn one that holds only the robot's own bytes to the end of the file
 * is cut off before the new copy; any other stays (cutting it could cut
 * another mail) and a whole copy goes after.  The
 * dates in the text are fixed-width, so a whole copy is as long as the
 * text composed now.
 */
static int deliver_mbox(const char *path, const char *message,
			const char *message_id, time_t date, long long *offset,
			int (*save_offset)(void *, long long), void *ctx,
			struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT, env = STRBUF_INIT, old = STRBUF_INIT;
	const char *from = strstr(message, "From: ");
	struct stat sb;
	size_t done = 0, at, extent, pos;
	off_t end;
	int fd, ret = -1;

	/* the envelope sender is the From: header's address */
	if (from) {
		struct strbuf line = STRBUF_INIT;

		strbuf_add(&line, from + 6, strcspn(from + 6, "\n"));
		envelope(line.buf, &env);
		strbuf_release(&line);
	} else {
		strbuf_addstr(&env, "perfsift");
	}
	robot_mail_mboxrd(message, env.buf, date, &text);
	fd = open(path, O_RDWR | O_CREAT, 0644);
	if (fd < 0 || flock(fd, LOCK_EX) < 0 || fstat(fd, &sb) < 0) {
		strbuf_addf(err, "cannot open mbox '%s': %s", path, strerror(errno));
		goto out;
	}
	end = sb.st_size;
	if (*offset >= 0 && *offset <= (long long)sb.st_size) {
		if (lseek(fd, (off_t)*offset, SEEK_SET) < 0 ||
		    strbuf_read_fd(&old, fd, 0) < 0)
			goto io;
		/* every copy after the offset: a whole one anywhere is enough */
		for (pos = 0; pos < old.len &&
		     !robot_mbox_find(old.buf + pos, old.len - pos, message_id,
				      &at, &extent); pos = at + extent) {
			at += pos;
			if (extent >= text.len) {
				ret = 1; /* delivered before the kill */
				goto out;
			}
			if (at + extent == old.len &&
			    own_prefix(old.buf + at, extent, &text)) {
				end = (off_t)(*offset + (long long)at);
				if (ftruncate(fd, end) < 0) {
					strbuf_addf(err, "cannot truncate '%s': %s",
						    path, strerror(errno));
					goto out;
				}
			} else {
				warning("%s: a torn copy of %s at byte %lld, "
					"another mail after it: left as it is",
					path, message_id,
					*offset + (long long)at);
			}
		}
	} else {
		*offset = (long long)sb.st_size;
		if (save_offset && save_offset(ctx, *offset) < 0) {
			strbuf_addstr(err, "cannot record the mbox offset");
			goto out;
		}
	}
	/* at the end, as found under the lock (or after our own torn copy) */
	if (lseek(fd, end, SEEK_SET) < 0)
		goto io;
	while (done < text.len) {
		/* half of it at first when a crash test wants a torn mail */
		size_t len = done ? text.len - done : text.len / 2;
		ssize_t n;

		if (done)
			fault_point("robot-torn-mail");
		n = write(fd, text.buf + done, len ? len : text.len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto io;
		done += (size_t)n;
	}
	/* on disk before the caller marks the mail sent */
	if (fsync(fd) < 0)
		goto io;
	ret = 0;
	goto out;
io:
	strbuf_addf(err, "cannot write mbox '%s': %s", path, strerror(errno));
out:
	if (fd >= 0)
		close(fd);
	strbuf_release(&text);
	strbuf_release(&env);
	strbuf_release(&old);
	return ret;
}

/*
 * Whether dir/sub holds a file whose name carries key: a maildir reader
 * moves mail from new/ to cur/ and appends flags to the name, but keeps
 * the part before the colon, where the key is.
 */
static bool maildir_has(const char *dir, const char *sub, const char *key)
{
	struct strbuf path = STRBUF_INIT;
	struct dirent *de;
	DIR *d;
	bool found = false;

	path_join(&path, dir, sub);
	d = opendir(path.buf);
	while (d && (de = readdir(d)))
		if (strstr(de->d_name, key))
			found = true;
	if (d)
		closedir(d);
	strbuf_release(&path);
	return found;
}

static int deliver_maildir(const char *dir, const char *message,
			   const char *message_id, time_t date,
			   struct strbuf *err)
{
	struct strbuf tmp = STRBUF_INIT, dst = STRBUF_INIT, key = STRBUF_INIT,
		      sub = STRBUF_INIT;
	uint64_t h = fnv1a64(FNV1A64_INIT, message_id, strlen(message_id));
	char host[256] = "localhost";
	static const char *const subs[] = {"tmp", "new", "cur"};
	size_t i;
	int ret = -1;

	/* the name carries the Message-ID's hash: a retry finds its mail */
	strbuf_addf(&key, "perfsift-%016llx", (unsigned long long)h);
	if (maildir_has(dir, "new", key.buf) || maildir_has(dir, "cur", key.buf)) {
		strbuf_release(&key);
		return 1; /* delivered before */
	}
	for (i = 0; i < ARRAY_SIZE(subs); i++) {
		strbuf_reset(&sub);
		path_join(&sub, dir, subs[i]);
		if (mkdir_p(sub.buf, 0700) < 0) {
			strbuf_addf(err, "cannot create '%s': %s", sub.buf,
				    strerror(errno));
			goto out;
		}
	}
	/* maildir names are time.unique.host; '/' and ':' cannot be in one */
	gethostname(host, sizeof(host) - 1);
	host[strcspn(host, "/:")] = '\0';
	strbuf_addf(&tmp, "%s/tmp/%lld.%s.%s", dir, (long long)date, key.buf, host);
	strbuf_addf(&dst, "%s/new/%lld.%s.%s", dir, (long long)date, key.buf, host);
	/* written whole in tmp/, then renamed: a reader never sees half */
	if (write_file_atomic(tmp.buf, message, strlen(message)) ||
	    rename(tmp.buf, dst.buf) < 0) {
		strbuf_addf(err, "cannot deliver into maildir '%s': %s", dir,
			    strerror(errno));
		goto out;
	}
	strbuf_reset(&sub);
	path_join(&sub, dir, "new");
	fsync_dir(sub.buf);
	ret = 0;
out:
	strbuf_release(&tmp);
	strbuf_release(&dst);
	strbuf_release(&key);
	strbuf_release(&sub);
	return ret;
}

/*
 * Pipe the message to a sendmail-compatible command.  Through a file
 * rather than a pipe: the command is the user's shell text, run as build
 * and install run (spawn_init_sh), and a file makes a command that reads
 * its input twice (some wrappers do) or not at all harmless.
 */
static int deliver_sendmail(const char *cmd, const struct spawn_user *user,
			    const char *message, struct strbuf *err)
{
	char path[] = "/tmp/perfsift-mail-XXXXXX";
	struct strbuf why = STRBUF_INIT;
	struct spawn_cmd c;
	int fd = mkstemp(path), st, ret = -1;
	size_t len = strlen(message), done = 0;

	if (fd < 0) {
		strbuf_addf(err, "cannot make a temporary file: %s", strerror(errno));
		return -1;
	}
	while (done < len) {
		ssize_t n = write(fd, message + done, len - done);

		if (n <= 0 && errno != EINTR) {
			strbuf_addf(err, "cannot write '%s': %s", path, strerror(errno));
			goto out;
		}
		if (n > 0)
			done += (size_t)n;
	}
	/*
	 * The message on the command's stdin, as sendmail -t and msmtp -t
	 * read it: the file opened here, so a command run as another user
	 * reads it without being able to open our private file by name.
	 */
	if (lseek(fd, 0, SEEK_SET) < 0) {
		strbuf_addf(err, "cannot rewind '%s': %s", path, strerror(errno));
		goto out;
	}
	spawn_init_sh(&c, cmd);
	c.in.how = SPAWN_FD;
	c.in.fd = fd;
	c.out.how = SPAWN_TO_STDERR;
	c.unset = spawn_git_unset;
	c.user = user; /* build_user: the config's commands are not root's */
	st = spawn_run(&c, &why);
	spawn_release(&c);
	if (st < 0) {
		strbuf_addf(err, "the sendmail command '%s' could not start: %s",
			    cmd, why.buf);
		goto out;
	}
	if (st) {
		strbuf_addf(err, "the sendmail command '%s' exited %d", cmd, st);
		goto out;
	}
	ret = 0;
out:
	close(fd);
	unlink(path);
	strbuf_release(&why);
	return ret;
}

/* one of the three ways, as the config chose (config.c checks: exactly one) */
int robot_mail_deliver(const struct robot_mail *cfg, const char *message,
		       const char *message_id, time_t date, long long *offset,
		       int (*save_offset)(void *ctx, long long offset),
		       void *ctx, struct strbuf *err)
{
	if (cfg->mbox)
		return deliver_mbox(cfg->mbox, message, message_id, date, offset,
				    save_offset, ctx, err);
	if (cfg->maildir)
		return deliver_maildir(cfg->maildir, message, message_id, date,
				       err);
	return deliver_sendmail(cfg->sendmail, cfg->user, message, err);
}
