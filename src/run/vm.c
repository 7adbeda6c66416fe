/*
 * vm.c: a run on a kernel under test, in qemu (vm.h has the design).
 * Per run: an initramfs built in a private work directory (cpio newc
 * through libarchive), qemu run by the runner (its own process group,
 * the stop signals, a time limit), then the guest's run directory taken
 * from the tar stream of ttyS1 and published in the host's result root
 * through result_run_begin()/result_run_finish() like any run -- or, when
 * no run came back, a failed run recorded from the console alone.
 *
 * Why an initramfs and serial ports: a distribution kernel keeps virtio
 * and 9p in modules, a tinyconfig kernel has neither, but both have the
 * 8250 serial port and initramfs built in, so one path serves every
 * kernel without modules.  ttyS0 is the console (the run's dmesg), ttyS1
 * the data (raw, binary-clean: `stty raw`), ttyS2 the guest perfsift's
 * own output.
 */
#include "util/compat.h"
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "util/archive_io.h"
#include "external/external.h"
#include "job/job.h"
#include "job/kpi.h"
#include "job/programs.h"
#include "result/result.h"
#include "run/runner.h"
#include "run/vm.h"
#include "run/vm_modules.h"
#include "util/fileutil.h"
#include "util/trust.h"
#include "util/usage.h"
#include "util/xalloc.h"

#define GUEST_ENV "PERFSIFT_GUEST"
#define MARK_START "perfsift-guest: job starts"
#define MARK_END "perfsift-guest: job ended"
#define MARK_SENT "perfsift-guest: run sent"
#define QEMU "qemu-system-x86_64"
#define BUSYBOX "/bin/busybox"

bool vm_in_guest(void)
{
	const char *g = getenv(GUEST_ENV);

	return g && *g;
}

const char *vm_image_of(const struct engine *e, const struct job *atomic)
{
	const char *k;

	if (vm_in_guest())
		return NULL;
	if (e->vm && e->vm->image)
		return e->vm->image;
	k = job_get(atomic, "kernel");
	return k && *k ? k : NULL;
}

/* ---- the kernel image ---------------------------------------------------- */

static unsigned le16(const unsigned char *p)
{
	return (unsigned)p[0] | (unsigned)p[1] << 8;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)le16(p) | (uint32_t)le16(p + 2) << 16;
}

/* the guest kernel's command line before the user's --append (boot()) */
#define CMDLINE "console=ttyS0,115200 panic=-1 no_timer_check rdinit=/init"
/* the x86 boot protocol's setup header (Documentation/arch/x86/boot.rst) */
#define HDR_SIZE 0x280
#define HDR_SETUP_SECTS 0x1f1
#define HDR_BOOT_FLAG 0x1fe
#define HDR_MAGIC 0x202
#define HDR_VERSION 0x206
#define HDR_KERNEL_VERSION 0x20e
#define HDR_CMDLINE_SIZE 0x238
#define HDR_PAYLOAD_OFFSET 0x248
#define HDR_PAYLOAD_LENGTH 0x24c

struct image_header {
	unsigned char h[HDR_SIZE];
	unsigned version;
};

static int read_header(int fd, const char *path, struct image_header *ih,
		       struct strbuf *err)
{
	ssize_t n = pread(fd, ih->h, sizeof(ih->h), 0);

	if (n < 0) {
		strbuf_addf(err, "%s: cannot read: %s", path, strerror(errno));
		return -1;
	}
	if (n < (ssize_t)sizeof(ih->h) || le16(ih->h + HDR_BOOT_FLAG) != 0xaa55 ||
	    memcmp(ih->h + HDR_MAGIC, "HdrS", 4)) {
		strbuf_addf(err, "%s: not a Linux kernel image (no x86 boot "
			    "header: give a bzImage, e.g. arch/x86/boot/bzImage, "
			    "or a distribution's vmlinuz)", path);
		return -1;
	}
	ih->version = le16(ih->h + HDR_VERSION);
	return 0;
}

int vm_image_check(const char *path, struct vm_image *info, struct strbuf *err)
{
	struct image_header ih;
	char text[256];
	unsigned off;
	ssize_t n;
	/* O_NONBLOCK: a FIFO named as the image must not hang run (nor its stop) */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), ret = -1;
	struct stat st;

	if (info)
		memset(info, 0, sizeof(*info));
	if (fd < 0) {
		strbuf_addf(err, "%s: cannot open the kernel image: %s", path,
			    strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		strbuf_addf(err, "%s: not a Linux kernel image (not a regular file)", path);
		goto out;
	}
	if (read_header(fd, path, &ih, err) < 0)
		goto out;
	/* the version text: a pointer from 0x200, since boot protocol 2.00 */
	off = le16(ih.h + HDR_KERNEL_VERSION);
	n = off ? pread(fd, text, sizeof(text) - 1, (off_t)off + 0x200) : 0;
	if (n <= 0 || !memchr(text, '\0', (size_t)n)) {
		strbuf_addf(err, "%s: not a Linux kernel image (its boot header "
			    "names no kernel version)", path);
		goto out;
	}
	text[n] = '\0';
	{
		/*
		 * The release names a file beside the image (config-R), the
		 * group of a run that never booted (its commit) and a path in
		 * the guest: one plain name.  An empty one made a failed boot
		 * unrecordable (stopping the run); one with '/' reached
		 * config-x/../../root/... (docs/attack-5.md, E1, V3).
		 */
		char *release = xstrndup(text, strcspn(text, " "));
		const char *why = trust_name_why(release);

		if (why) {
			strbuf_addf(err, "%s: not a Linux kernel image (its boot header's "
				    "release '", path);
			trust_escape(err, release);
			strbuf_addf(err, "' is no plain name: %s)", why);
			free(release);
			goto out;
		}
		if (info) {
			info->banner = xstrdup(text);
			info->release = release;
			/* boot protocol 2.06 names it; before (or 0), 255 bytes */
			info->cmdline_max = ih.version >= 0x206 ?
				le32(ih.h + HDR_CMDLINE_SIZE) : 0;
			if (!info->cmdline_max)
				info->cmdline_max = 255;
		} else {
			free(release);
		}
	}
	ret = 0;
out:
	close(fd);
	return ret;
}

int vm_cmdline_check(const struct vm_image *info, const char *append,
		     struct strbuf *err)
{
	size_t len = strlen(CMDLINE) + (append ? 1 + strlen(append) : 0);

	if (len <= info->cmdline_max)
		return 0;
	strbuf_addf(err, "--append: the kernel command line would be %zu bytes; "
		    "this kernel takes at most %u (its boot header's cmdline_size)",
		    len, info->cmdline_max);
	return -1;
}

void vm_image_release(struct vm_image *info)
{
	free(info->release);
	free(info->banner);
	memset(info, 0, sizeof(*info));
}

char *vm_banner_compiler(const char *banner)
{
	const char *p = banner ? strstr(banner, "Linux version ") : NULL;
	const char *name, *end, *ver;
	size_t len;

	if (!p)
		return xstrdup("unknown");
	/* "Linux version R (builder) (COMPILER ...": the second "(" */
	p = strchr(p, '(');
	p = p ? strstr(p, ") (") : NULL;
	if (!p)
		return xstrdup("unknown");
	name = p + 3;
	len = strcspn(name, " ),");
	if (!len)
		return xstrdup("unknown");
	/* "gcc-12" is LKP's word already; plain "gcc (...) 12.2.0" gets its major */
	if (memchr(name, '-', len) || (strncmp(name, "gcc", len) && !strstr(name, "clang")))
		return xstrndup(name, len);
	end = name + strcspn(name, ",)");
	if (len == 3 && !strncmp(name, "gcc", 3)) {
		/* the last word before the comma: "12.2.0" */
		for (ver = end; ver > name && ver[-1] != ' '; ver--)
			;
		if (ver < end && ver[0] >= '0' && ver[0] <= '9')
			return xasprintf("gcc-%.*s", (int)strspn(ver, "0123456789"), ver);
		return xstrdup("gcc");
	}
	/* "Debian clang version 14.0.6" */
	ver = strstr(name, "clang version ");
	if (ver && ver < end) {
		ver += strlen("clang version ");
		return xasprintf("clang-%.*s", (int)strspn(ver, "0123456789"), ver);
	}
	return xstrndup(name, len);
}

char *vm_config_compiler(const char *config)
{
	static const char key[] = "\nCONFIG_CC_VERSION_TEXT=\"";
	struct strbuf banner = STRBUF_INIT;
	const char *p = config ? strstr(config, key) : NULL;
	char *ret;

	if (!p)
		return NULL;
	p += strlen(key);
	/* the banner's words around it: "(builder) (TEXT, ld ...)" */
	strbuf_addstr(&banner, "Linux version R (who) (");
	strbuf_add(&banner, p, strcspn(p, "\"\n"));
	strbuf_addstr(&banner, ")");
	ret = vm_banner_compiler(banner.buf);
	strbuf_release(&banner);
	if (!strcmp(ret, "unknown"))
		FREE_AND_NULL(ret);
	return ret;
}

char *vm_image_banner(const char *path, const char *release,
		      const char *workdir)
{
	struct image_header ih;
	struct strbuf err = STRBUF_INIT, tmp = STRBUF_INIT, data = STRBUF_INIT;
	struct strbuf want = STRBUF_INIT;
	unsigned char *buf = NULL;
	char *ret = NULL;
	const char *hit;
	uint32_t off, len;
	unsigned sects;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || read_header(fd, path, &ih, &err) < 0 || ih.version < 0x208)
		goto out;
	sects = ih.h[HDR_SETUP_SECTS] ? ih.h[HDR_SETUP_SECTS] : 4;
	off = le32(ih.h + HDR_PAYLOAD_OFFSET);
	len = le32(ih.h + HDR_PAYLOAD_LENGTH);
	/* boot protocol 2.08+: where the compressed vmlinux lies in the file */
	if (!len || len > (256u << 20))
		goto out;
	buf = xmalloc(len);
	if (pread(fd, buf, len, (off_t)(sects + 1) * 512 + off) != (ssize_t)len)
		goto out;
	path_join(&tmp, workdir, "payload");
	if (write_file_atomic(tmp.buf, buf, len) < 0)
		goto out;
	/*
	 * A tinyconfig bzImage's xz payload ends short of its stream's index
	 * and footer, which the kernel's own decompressor never reads: xz
	 * says "Unexpected end of input" after all of vmlinux.  What came
	 * out is searched all the same (the banner lies early in it).
	 */
	if (archive_io_read_compressed(&data, tmp.buf, 512u << 20, &err) < 0 &&
	    !data.len)
		goto out;
	/* linux_banner, with this release: not a printk format of the same words */
	strbuf_addf(&want, "Linux version %s (", release);
	hit = memmem(data.buf, data.len, want.buf, want.len);
	if (hit)
		ret = xstrndup(hit, strnlen(hit, (size_t)(data.buf + data.len - hit)));
out:
	if (tmp.len)
		unlink(tmp.buf);
	if (fd >= 0)
		close(fd);
	free(buf);
	strbuf_release(&err);
	strbuf_release(&tmp);
	strbuf_release(&data);
	strbuf_release(&want);
	return ret;
}

/* ---- the initramfs --------------------------------------------------------- */

struct cpio {
	struct archive *a;
	struct strbuf dirs; /* "\n/dir\n/file\n": put in already */
	struct strbuf *err;
	int failed;
};

/* a cpio newc archive at path (libarchive loaded on first use) */
static int cpio_open(struct cpio *c, const char *path)
{
	if (archive_io_load("building the VM's initramfs", c->err) < 0)
		return -1;
	strbuf_addch(&c->dirs, '\n');
	c->a = archive_write_new();
	if (archive_write_set_format_cpio_newc(c->a) != ARCHIVE_OK ||
	    archive_write_open_filename(c->a, path) != ARCHIVE_OK) {
		strbuf_addf(c->err, "cannot write '%s': %s", path,
			    archive_error_string(c->a));
		return -1;
	}
	return 0;
}

/* the archive's end written: 0, or -1 with err (also after a failed entry) */
static int cpio_close(struct cpio *c)
{
	if (c->failed)
		return -1;
	if (archive_write_close(c->a) != ARCHIVE_OK) {
		strbuf_addf(c->err, "cannot write the initramfs: %s",
			    archive_error_string(c->a));
		return -1;
	}
	return 0;
}

static void cpio_release(struct cpio *c)
{
	if (c->a)
		archive_write_free(c->a);
	strbuf_release(&c->dirs);
}

static int cpio_entry(struct cpio *c, const char *path, unsigned type,
		      unsigned perm, const void *data, size_t len,
		      const char *link)
{
	struct archive_entry *e = archive_entry_new();

	archive_entry_set_pathname(e, path + (path[0] == '/'));
	archive_entry_set_filetype(e, type);
	archive_entry_set_perm(e, perm);
	archive_entry_set_mtime(e, 0, 0);
	archive_entry_set_size(e, (la_int64_t)len);
	if (link)
		archive_entry_set_symlink(e, link);
	if (archive_write_header(c->a, e) != ARCHIVE_OK ||
	    (len && archive_write_data(c->a, data, len) != (la_ssize_t)len)) {
		if (!c->failed)
			strbuf_addf(c->err, "cannot write the initramfs (%s): %s",
				    path, archive_error_string(c->a));
		c->failed = 1;
	}
	archive_entry_free(e);
	return c->failed ? -1 : 0;
}

/* path's parent directories, each once */
static void cpio_parents(struct cpio *c, const char *path)
{
	struct strbuf d = STRBUF_INIT, key = STRBUF_INIT;
	const char *p;

	for (p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		strbuf_reset(&d);
		strbuf_add(&d, path, (size_t)(p - path));
		strbuf_reset(&key);
		strbuf_addf(&key, "\n%s\n", d.buf);
		if (strstr(c->dirs.buf, key.buf))
			continue;
		strbuf_addf(&c->dirs, "%s\n", d.buf);
		cpio_entry(c, d.buf, AE_IFDIR, 0755, NULL, 0, NULL);
	}
	strbuf_release(&d);
	strbuf_release(&key);
}

static void cpio_dir(struct cpio *c, const char *path)
{
	struct strbuf p = STRBUF_INIT;

	strbuf_addf(&p, "%s/", path);
	cpio_parents(c, p.buf);
	strbuf_release(&p);
}

/* whether path was put in the archive already; remembered when not */
static bool cpio_seen(struct cpio *c, const char *path)
{
	struct strbuf key = STRBUF_INIT;
	bool seen;

	strbuf_addf(&key, "\n%s\n", path);
	seen = strstr(c->dirs.buf, key.buf) != NULL;
	if (!seen)
		strbuf_addf(&c->dirs, "%s\n", path);
	strbuf_release(&key);
	return seen;
}

static void cpio_data(struct cpio *c, const char *path, const void *data,
		      size_t len, unsigned perm)
{
	cpio_parents(c, path);
	cpio_entry(c, path, AE_IFREG, perm, data, len, NULL);
}

/* a host file at path in the guest (its mode's x bits kept) */
static int cpio_file(struct cpio *c, const char *path, const char *src)
{
	struct strbuf text = STRBUF_INIT;
	struct stat st;

	/* a library two programs need goes in once */
	if (cpio_seen(c, path))
		return 0;
	if (stat(src, &st) < 0 || strbuf_read_file(&text, src, 1u << 30) < 0) {
		if (!c->failed)
			strbuf_addf(c->err, "cannot read '%s' for the guest: %s", src,
				    strerror(errno));
		c->failed = 1;
		strbuf_release(&text);
		return -1;
	}
	cpio_data(c, path, text.buf, text.len, st.st_mode & 0755);
	strbuf_release(&text);
	return c->failed ? -1 : 0;
}

static void cpio_symlink(struct cpio *c, const char *path, const char *target)
{
	if (cpio_seen(c, path))
		return;
	cpio_parents(c, path);
	cpio_entry(c, path, AE_IFLNK, 0777, NULL, 0, target);
}

/* a host directory tree (--modules), regular files and symlinks */
static void cpio_tree(struct cpio *c, const char *path, const char *src)
{
	struct strbuf s = STRBUF_INIT, d = STRBUF_INIT;
	struct dirent *de;
	struct stat st;
	DIR *dir = opendir(src);

	if (!dir) {
		if (!c->failed)
			strbuf_addf(c->err, "cannot read '%s': %s", src, strerror(errno));
		c->failed = 1;
		return;
	}
	cpio_dir(c, path);
	while (!c->failed && (de = readdir(dir))) {
		char link[PATH_MAX];
		ssize_t n;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		strbuf_reset(&s);
		strbuf_reset(&d);
		path_join(&s, src, de->d_name);
		path_join(&d, path, de->d_name);
		if (lstat(s.buf, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			cpio_tree(c, d.buf, s.buf);
		} else if (S_ISLNK(st.st_mode)) {
			n = readlink(s.buf, link, sizeof(link) - 1);
			if (n > 0) {
				link[n] = '\0';
				cpio_symlink(c, d.buf, link);
			}
		} else if (S_ISREG(st.st_mode)) {
			cpio_file(c, d.buf, s.buf);
		}
	}
	closedir(dir);
	strbuf_release(&s);
	strbuf_release(&d);
}

/* run argv, its stdout into out; 0 when it exited 0 */
static int capture(char *const *argv, const char *workdir, struct strbuf *out,
		   struct strbuf *err)
{
	struct runner_cmd cmd = {0};
	struct runner_result res;
	struct strbuf path = STRBUF_INIT;
	int ret = -1;

	path_join(&path, workdir, "capture");
	cmd.argv = argv;
	cmd.stdout_path = path.buf;
	cmd.stderr_path = "/dev/null";
	cmd.timeout_s = 60;
	if (runner_run(&cmd, &res, err) < 0)
		goto out;
	if (!res.started || !WIFEXITED(res.wait_status) ||
	    WEXITSTATUS(res.wait_status)) {
		strbuf_addf(err, "'%s' failed", argv[0]);
		goto out;
	}
	ret = strbuf_read_file(out, path.buf, 1 << 20) < 0 ? -1 : 0;
out:
	unlink(path.buf);
	strbuf_release(&path);
	return ret;
}

/*
 * An executable at dst in the guest and the shared libraries the loader
 * gives it (ldd's "lib => /path" lines and the interpreter), at their
 * own paths.  A static binary or a script has none: ldd's refusal is
 * only an error when `need_libs` (perfsift itself).
 */
static int add_elf(struct cpio *c, const char *dst, const char *src,
		   const char *workdir, bool need_libs)
{
	char *argv[] = { (char *)"ldd", (char *)src, NULL };
	struct strbuf out = STRBUF_INIT, lib = STRBUF_INIT, why = STRBUF_INIT;
	const char *l, *p;
	int ret = -1;

	if (cpio_file(c, dst, src) < 0)
		goto out;
	if (capture(argv, workdir, &out, &why) < 0) {
		if (!need_libs) {
			ret = 0;
			goto out;
		}
		strbuf_addf(c->err, "%s (listing the shared libraries of %s for the guest)",
			    why.buf, src);
		goto out;
	}
	for (l = out.buf; *l; l = *p ? p + 1 : p) {
		const char *path = strstr(l, "=> ");

		p = strchrnul(l, '\n');
		path = path && path < p ? path + 3 : l + strspn(l, " \t");
		if (*path != '/')
			continue; /* linux-vdso.so.1: the kernel's */
		strbuf_reset(&lib);
		strbuf_add(&lib, path, strcspn(path, " \n"));
		if (cpio_file(c, lib.buf, lib.buf) < 0)
			goto out;
	}
	ret = 0;
out:
	strbuf_release(&out);
	strbuf_release(&lib);
	strbuf_release(&why);
	return ret;
}

/*
 * The perfsift binary, as /bin/perfsift.  libarchive and libpq are
 * dlopen'ed (util/dynlib.c) and not needed there.
 */
static int add_perfsift(struct cpio *c, const char *workdir)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0) {
		strbuf_addf(c->err, "cannot find the perfsift binary: %s", strerror(errno));
		return -1;
	}
	self[n] = '\0';
	return add_elf(c, "/bin/perfsift", self, workdir, true);
}

/* name on the host's PATH (a regular executable file) into out */
static bool find_on_path(const char *name, struct strbuf *out)
{
	const char *path = getenv("PATH"), *p, *end;
	struct stat st;

	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin";
	for (p = path; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		if (end == p)
			continue;
		strbuf_reset(out);
		strbuf_addf(out, "%.*s/%s", (int)(end - p), p, name);
		if (!stat(out->buf, &st) && S_ISREG(st.st_mode) && !access(out->buf, X_OK))
			return true;
	}
	return false;
}

/*
 * The programs the job runs besides perfsift's built-ins: an external
 * benchmark's command (stress-ng, hackbench, ...) and the first word of
 * a mytest command when busybox has no applet of that name -- each from
 * the host's PATH, with its libraries, at its host path.  What they read
 * besides (data files, other programs) is not followed.
 */
static int add_job_programs(struct cpio *c, const struct engine_plan *p,
			    const char *workdir)
{
	struct strbuf path = STRBUF_INIT, word = STRBUF_INIT, key = STRBUF_INIT;
	const struct program *prog = program_find(p->prog);
	int ret = 0;

	if (prog && prog->command && find_on_path(prog->command, &path))
		ret = add_elf(c, path.buf, path.buf, workdir, false);
	if (!ret && !p->ops && !p->plugin && p->cmdline) {
		const char *w = p->cmdline + strspn(p->cmdline, " \t");

		strbuf_add(&word, w, strcspn(w, " \t;|&<>()$'\"\n"));
		strbuf_addf(&key, "\n/bin/%s\n", word.buf);
		if (word.len && !strchr(word.buf, '/') && !strstr(c->dirs.buf, key.buf) &&
		    find_on_path(word.buf, &path))
			ret = add_elf(c, path.buf, path.buf, workdir, false);
	}
	strbuf_release(&path);
	strbuf_release(&word);
	strbuf_release(&key);
	return ret;
}

/* busybox-static and its applets: the guest's shell and tools */
static int add_busybox(struct cpio *c, const char *workdir)
{
	char *argv[] = { (char *)BUSYBOX, (char *)"--list", NULL };
	struct strbuf out = STRBUF_INIT, path = STRBUF_INIT;
	const char *l, *p;
	int ret = -1;

	if (access(BUSYBOX, X_OK)) {
		strbuf_addf(c->err, "%s is missing: the guest needs busybox-static "
			    "(apt-get install busybox-static, or scripts/install-deps)",
			    BUSYBOX);
		return -1;
	}
	if (cpio_file(c, BUSYBOX, BUSYBOX) < 0 ||
	    capture(argv, workdir, &out, c->err) < 0)
		goto out;
	for (l = out.buf; *l; l = *p ? p + 1 : p) {
		p = strchrnul(l, '\n');
		if (p == l || !strncmp(l, "busybox", (size_t)(p - l)))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "/bin/%.*s", (int)(p - l), l);
		cpio_symlink(c, path.buf, "busybox");
	}
	/* the paths scripts name: #!/usr/bin/env, /usr/bin/time */
	cpio_symlink(c, "/usr/bin", "../bin");
	cpio_symlink(c, "/sbin", "bin");
	ret = c->failed ? -1 : 0;
out:
	strbuf_release(&out);
	strbuf_release(&path);
	return ret;
}

/* a word for a single-quoted shell string */
static void add_quoted(struct strbuf *sb, const char *s)
{
	strbuf_add_shell_word(sb, s);
}

/* the guest's /init: mount, run the job, send the run back, power off */
static void init_script(struct strbuf *sb, const char *hostname,
			const char *commit)
{
	strbuf_addstr(sb,
		"#!/bin/sh\n"
		"# perfsift's guest init (src/run/vm.c): the job's run, made by\n"
		"# perfsift's engine on this kernel, goes back as a tar over ttyS1\n"
		"PATH=/bin; export PATH\n"
		"mount -t proc proc /proc\n"
		"mount -t sysfs sysfs /sys\n"
		"mount -t devtmpfs devtmpfs /dev\n"
		"mount -t tmpfs tmpfs /tmp\n"
		"mount -t tmpfs tmpfs /run\n"
		"mount -t tmpfs tmpfs /results\n"
		"hostname ");
	add_quoted(sb, hostname);
	strbuf_addstr(sb, "\n"
		"stty -F /dev/ttyS1 raw -echo\n"
		"stty -F /dev/ttyS2 raw -echo\n"
		"echo '" MARK_START "'\n"
		GUEST_ENV "=1 /bin/perfsift --result-root /results run /job.yaml");
	if (commit) {
		strbuf_addstr(sb, " --commit ");
		add_quoted(sb, commit);
	}
	strbuf_addstr(sb, " >/dev/ttyS2 2>&1\n"
		"echo \"" MARK_END " $?\"\n"
		/* gzip: an emulated UART moves some ten KB a second */
		"tar -C /results -czf /dev/ttyS1 .\n"
		"echo '" MARK_SENT "'\n"
		/*
		 * reboot, not poweroff: a kernel without ACPI (tinyconfig)
		 * only halts on a power-off, and qemu would wait for the
		 * time limit; every x86 kernel can reboot, and -no-reboot
		 * makes that reboot qemu's exit
		 */
		"reboot -f\n");
}

struct vm_run {
	struct engine *e;
	const char *image;
	struct vm_image info;
	const struct job *atomic;
	const struct engine_plan *p;
	struct engine_run *r;
	char workdir[sizeof("/tmp/perfsift-vm.XXXXXX")];
	char *hostname;  /* the guest's: vm-<host> */
	/* the image's config's compiler (vm_config_compiler), or NULL */
	char *config_compiler;
	const char *accel;
	unsigned cpus;
	uint64_t memory;
	struct strbuf err;
	/* the host's clock when qemu was started: the run's start_time */
	struct timespec started;
};

/*
 * The configuration the image was built with, as the host has it:
 * Debian's boot/config-<release> beside boot/vmlinuz-<release>, or the
 * tree's .config for an image built in it (TREE/arch/ARCH/boot/NAME,
 * `bisect --kernel`'s and the robot's arch/x86/boot/bzImage).  It goes
 * into the guest as /boot/config-<release>, whose fingerprint the guest
 * records as env_kconfig_hash (a tinyconfig kernel has no
 * /proc/config.gz): two builds of one release with other options are
 * told apart in their runs' facts.  Not the group's kconfig axis: that
 * is LKP's name of the configuration the job asks for, and a bisect's
 * `make olddefconfig` changes the .config between commits.  Which of
 * the two is there is asked with lstat (a link counts as there, so a
 * linked config-R is refused, not passed over for the tree's .config);
 * read_config() then refuses anything but a plain file.
 */
static bool image_config(const struct vm_run *v, struct strbuf *out)
{
	struct strbuf dir = STRBUF_INIT;
	struct stat st;
	const char *b;

	strbuf_reset(out);
	path_dirname(&dir, v->image);
	strbuf_addf(out, "%s/config-%s", dir.buf, v->info.release);
	if (lstat(out->buf, &st) < 0) {
		strbuf_reset(out);
		/* dir is TREE/arch/ARCH/boot: up three for TREE */
		b = strstr(dir.buf, "/arch/");
		if (b && !strcmp(path_basename(dir.buf), "boot") &&
		    strchr(b + strlen("/arch/"), '/') ==
			    dir.buf + dir.len - strlen("/boot")) {
			strbuf_add(out, dir.buf, (size_t)(b - dir.buf));
			strbuf_addstr(out, "/.config");
			if (lstat(out->buf, &st) < 0)
				strbuf_reset(out);
		}
	}
	strbuf_release(&dir);
	return out->len > 0;
}

/*
 * The config's text, read from a regular file with one name only, opened
 * without following a link (O_NOFOLLOW, then fstat: no window between a
 * check and the read).  The kernel under test may be a robot
 * build_user's, and a link or a hard link it left (.config -> a
 * root-only file) must not carry that file into a guest that can send it
 * back.  0, or -1 with a warning (the guest goes without it).
 */
static int read_config(const char *path, struct strbuf *text)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	int ret = -1;
	struct stat st;

	strbuf_reset(text);
	if (fd < 0) {
		warning("'%s' is not put in the guest: %s", path,
			errno == ELOOP ? "a symbolic link" : strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		warning("'%s' is not put in the guest: not a regular file", path);
	else if (st.st_nlink > 1)
		warning("'%s' is not put in the guest: it has %ju names (a hard "
			"link)", path, (uintmax_t)st.st_nlink);
	else
		ret = strbuf_read_fd(text, fd, 64u << 20) < 0 ? -1 : 0;
	close(fd);
	return ret;
}

static const char *work_path(struct vm_run *v, const char *name,
			     struct strbuf *sb)
{
	strbuf_reset(sb);
	path_join(sb, v->workdir, name);
	return sb->buf;
}

/*
 * No --modules: those of the package the image is from, when it lies in
 * one (D/boot/vmlinuz-R beside D/lib/modules/R, vm_modules.h) -- the few
 * a guest may use, with their modules.dep, at path
 */
static int add_package_modules(struct cpio *c, const char *path,
			       const struct vm_run *v)
{
	char *tree = vm_modules_beside(v->image, v->info.release);
	struct strbuf src = STRBUF_INIT, dst = STRBUF_INIT;
	struct vm_modset set;
	size_t i;
	int ret = -1;

	if (!tree)
		return 0;
	if (vm_modules_pick(tree, &set, c->err) < 0) {
		c->failed = 1;
		free(tree);
		return -1;
	}
	for (i = 0; i < set.nfiles; i++) {
		strbuf_reset(&src);
		strbuf_reset(&dst);
		path_join(&src, tree, set.files[i]);
		path_join(&dst, path, set.files[i]);
		if (cpio_file(c, dst.buf, src.buf) < 0)
			goto out;
	}
	strbuf_reset(&dst);
	path_join(&dst, path, "modules.dep");
	cpio_data(c, dst.buf, set.dep.buf, set.dep.len, 0644);
	ret = c->failed ? -1 : 0;
out:
	vm_modset_release(&set);
	strbuf_release(&src);
	strbuf_release(&dst);
	free(tree);
	return ret;
}

static int build_initramfs(struct vm_run *v, const char *out_path)
{
	struct cpio c = { NULL, STRBUF_INIT, &v->err, 0 };
	struct strbuf text = STRBUF_INIT, path = STRBUF_INIT;
	struct job *job;
	static const char *const dirs[] = {
		"/proc", "/sys", "/dev", "/tmp", "/run", "/results", "/root", "/etc",
	};
	size_t i;
	int ret = -1;

	if (cpio_open(&c, out_path) < 0)
		goto out;
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		cpio_dir(&c, dirs[i]);
	if (add_busybox(&c, v->workdir) < 0 || add_perfsift(&c, v->workdir) < 0 ||
	    add_job_programs(&c, v->p, v->workdir) < 0)
		goto out;
	/* the host's os-release: the same rootfs axis as a native run */
	if (!read_text_file(&text, "/etc/os-release", 1 << 16))
		cpio_data(&c, "/etc/os-release", text.buf, text.len, 0644);
	/* the image's config (image_config()) as the guest's
	 * /boot/config-R: env_kconfig_hash */
	if (image_config(v, &path) && !read_config(path.buf, &text)) {
		v->config_compiler = vm_config_compiler(text.buf);
		strbuf_reset(&path);
		strbuf_addf(&path, "/boot/config-%s", v->info.release);
		cpio_data(&c, path.buf, text.buf, text.len, 0644);
	}
	strbuf_reset(&text);
	strbuf_addf(&text, "/lib/modules/%s", v->info.release);
	if (v->e->vm && v->e->vm->modules)
		cpio_tree(&c, text.buf, v->e->vm->modules);
	else if (add_package_modules(&c, text.buf, v) < 0)
		goto out;
	/* the atomic job, without the key that would boot a VM again */
	job = job_dup(v->atomic);
	job_unset(job, "kernel");
	strbuf_reset(&text);
	job_to_yaml(job, &text);
	job_free(job);
	cpio_data(&c, "/job.yaml", text.buf, text.len, 0644);
	strbuf_reset(&text);
	init_script(&text, v->hostname, v->e->commit);
	cpio_data(&c, "/init", text.buf, text.len, 0755);
	ret = cpio_close(&c);
out:
	cpio_release(&c);
	strbuf_release(&text);
	strbuf_release(&path);
	return ret;
}

/* ---- the run's end -------------------------------------------------------- */

static bool has_line_with(const struct strbuf *log, const char *what)
{
	return log->len && strstr(log->buf, what) != NULL;
}

/* an oops head in the console: the run is failed even when the job ended */
static const char *console_oops(const struct strbuf *log)
{
	static const char *const heads[] = {
		"Oops:", "BUG:", "kernel BUG at", "general protection fault",
		"Unable to handle kernel",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(heads); i++)
		if (has_line_with(log, heads[i]))
			return heads[i];
	return NULL;
}

/*
 * At most this much of the guest's run is unpacked, all files together:
 * the stream is compressed (gzip, or any filter libarchive reads), so a
 * few MB over the UART could otherwise unpack into gigabytes of the
 * host's memory and disk (a 44 KB xz stream held 300 MB of zeros).
 */
#define GUEST_RUN_MAX ((uint64_t)1 << 30)
/* and at most this many entries: a run directory holds tens of files */
#define GUEST_RUN_ENTRIES 10000u

/* GUEST_RUN_MAX, or PERFSIFT_VM_RUN_MAX (MiB) when that is set */
static uint64_t guest_run_max(void)
{
	const char *env = getenv("PERFSIFT_VM_RUN_MAX");
	char *end;
	unsigned long long mib;

	if (env && *env) {
		errno = 0;
		mib = strtoull(env, &end, 10);
		if (!*end && !errno && mib > 0 && mib < ((uint64_t)1 << 40))
			return (uint64_t)mib << 20;
	}
	return GUEST_RUN_MAX;
}

/* one regular file of the tar into path, streamed; -1 (err set) on failure */
static int untar_file(struct archive *a, const char *path, uint64_t *total,
		      uint64_t max, struct strbuf *err)
{
	char buf[65536];
	la_ssize_t got;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);

	if (fd < 0) {
		strbuf_addf(err, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	while ((got = archive_read_data(a, buf, sizeof(buf))) > 0) {
		*total += (uint64_t)got;
		if (*total > max) {
			strbuf_addf(err, "the run the guest sent unpacks to more than "
				    "%" PRIu64 " MiB (PERFSIFT_VM_RUN_MAX); not taken",
				    max >> 20);
			break;
		}
		if (write_all(fd, buf, (size_t)got) < 0) {
			strbuf_addf(err, "cannot write '%s': %s", path, strerror(errno));
			break;
		}
	}
	if (got < 0)
		strbuf_addf(err, "the run the guest sent is cut or bad: %s",
			    archive_error_string(a) ? archive_error_string(a) : "no data");
	if (close(fd) < 0 && !err->len)
		strbuf_addf(err, "cannot write '%s': %s", path, strerror(errno));
	return err->len ? -1 : 0;
}

/*
 * Extract the guest's tar into dir (a fresh directory of the VM's private
 * work directory); -1 when it is cut, bad or too big.  The guest is the
 * kernel under test: every name must be a relative path of plain names
 * (util/trust.h: no "..", no control character), and only regular files
 * and directories are made -- a guest's links are not followed, nor made.
 */
static int untar(const char *tar, const char *dir, struct strbuf *err)
{
	struct archive *a = archive_read_new();
	struct archive_entry *e;
	struct strbuf path = STRBUF_INIT, parent = STRBUF_INIT;
	uint64_t total = 0, max = guest_run_max();
	unsigned entries = 0;
	int r, ret = -1;

	archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	if (archive_read_open_filename(a, tar, 65536) != ARCHIVE_OK)
		goto bad;
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname(e), *why;
		size_t len;

		/* a million empty files cost the host's inodes, not bytes (V6) */
		if (++entries > GUEST_RUN_ENTRIES) {
			strbuf_addf(err, "the run the guest sent holds more than %u "
				    "entries; not taken", GUEST_RUN_ENTRIES);
			goto out;
		}
		/* `tar -C /results -czf - .` names everything ./...; "./" is the top */
		while (name && !strncmp(name, "./", 2))
			name += 2;
		len = name ? strlen(name) : 0;
		if (name && (!len || !strcmp(name, ".")))
			continue;
		why = !name ? "no name" : trust_relpath_why_len(name, len && name[len - 1] == '/' ? len - 1 : len);
		if (why) {
			strbuf_addstr(err, "the guest sent a bad path '");
			trust_escape(err, name ? name : "");
			strbuf_addf(err, "' (%s); not taken", why);
			goto out;
		}
		strbuf_reset(&path);
		path_join(&path, dir, name);
		if (archive_entry_filetype(e) == AE_IFDIR) {
			if (mkdir_p(path.buf, 0755) < 0) {
				strbuf_addf(err, "cannot create '%s': %s", path.buf,
					    strerror(errno));
				goto out;
			}
			continue;
		}
		if (archive_entry_filetype(e) != AE_IFREG)
			continue;
		path_dirname(&parent, path.buf);
		if (mkdir_p(parent.buf, 0755) < 0) {
			strbuf_addf(err, "cannot create '%s': %s", parent.buf,
				    strerror(errno));
			goto out;
		}
		if (untar_file(a, path.buf, &total, max, err) < 0)
			goto out;
	}
	if (r == ARCHIVE_EOF) {
		ret = 0;
		goto out;
	}
bad:
	strbuf_addf(err, "the run the guest sent is cut or bad: %s",
		    archive_error_string(a) ? archive_error_string(a) : "no data");
out:
	archive_read_free(a);
	strbuf_release(&path);
	strbuf_release(&parent);
	return ret;
}

/* the one run directory (a number holding job.yaml) under dir, into out */
static int find_run(const char *dir, struct strbuf *out)
{
	struct strbuf sub = STRBUF_INIT;
	struct dirent *de;
	DIR *d = opendir(dir);
	int found = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		strbuf_reset(&sub);
		path_join(&sub, dir, de->d_name);
		if (!dir_exists(sub.buf))
			continue;
		if (result_is_run_number(de->d_name)) {
			struct strbuf y = STRBUF_INIT;

			path_join(&y, sub.buf, "job.yaml");
			if (file_exists(y.buf) && !found++) {
				strbuf_reset(out);
				strbuf_addbuf(out, &sub);
			}
			strbuf_release(&y);
		} else {
			struct strbuf inner = STRBUF_INIT;
			int n = find_run(sub.buf, &inner);

			if (n && !found)
				strbuf_addbuf(out, &inner);
			found += n;
			strbuf_release(&inner);
		}
	}
	closedir(d);
	strbuf_release(&sub);
	return found;
}

/*
 * src into a new file dst, in pieces: a guest's file may be as big as
 * GUEST_RUN_MAX, and is not held in memory whole.  -1 with errno.
 */
static int copy_stream(const char *src, const char *dst)
{
	char buf[65536];
	ssize_t got;
	int in = open(src, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), out, saved;

	if (in < 0)
		return -1;
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (out < 0) {
		saved = errno;
		close(in);
		errno = saved;
		return -1;
	}
	while ((got = read(in, buf, sizeof(buf))) > 0)
		if (write_all(out, buf, (size_t)got) < 0)
			break;
	saved = errno;
	close(in);
	if (close(out) < 0 && got == 0)
		return -1;
	errno = saved;
	return got == 0 ? 0 : -1;
}

/* copy the guest run's files (but job.yaml and last_state) into dst */
static int copy_run_files(const char *src, const char *dst, struct strbuf *err)
{
	struct strbuf s = STRBUF_INIT, d = STRBUF_INIT;
	struct dirent *de;
	DIR *dir = opendir(src);
	int ret = 0;

	if (!dir) {
		strbuf_addf(err, "cannot read '%s': %s", src, strerror(errno));
		return -1;
	}
	while (!ret && (de = readdir(dir))) {
		if (de->d_name[0] == '.' || !strcmp(de->d_name, "job.yaml") ||
		    !strcmp(de->d_name, "last_state"))
			continue;
		strbuf_reset(&s);
		strbuf_reset(&d);
		path_join(&s, src, de->d_name);
		path_join(&d, dst, de->d_name);
		if (dir_exists(s.buf)) {
			if (mkdir_p(d.buf, 0755) < 0) {
				strbuf_addf(err, "cannot create '%s': %s", d.buf, strerror(errno));
				ret = -1;
			} else {
				ret = copy_run_files(s.buf, d.buf, err);
			}
			continue;
		}
		if (copy_stream(s.buf, d.buf) < 0) {
			strbuf_addf(err, "cannot copy '%s': %s", s.buf, strerror(errno));
			ret = -1;
		}
	}
	closedir(dir);
	strbuf_release(&s);
	strbuf_release(&d);
	return ret;
}

/* TRUST_PULLED_MARK in a guest's run: nothing of it is ever run here */
static int mark_guest_run(const char *dir, struct strbuf *err)
{
	return trust_mark_pulled(dir, "sent by a VM's guest (the kernel under "
				 "test): data only (docs/security.md)\n", err);
}

/* the guest's last_state lines but its incomplete mark (finish() writes that) */
static bool guest_state(const char *run_dir, struct strbuf *state)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	const char *l, *p;
	bool incomplete = false;

	path_join(&path, run_dir, "last_state");
	if (strbuf_read_file(&text, path.buf, 1 << 20) >= 0) {
		for (l = text.buf; *l; l = *p ? p + 1 : p) {
			p = strchrnul(l, '\n');
			if (!strncmp(l, "is_incomplete_run:", strlen("is_incomplete_run:"))) {
				incomplete = true;
				continue;
			}
			/* the guest's words: a control character (ESC) is not kept */
			{
				char *line = xstrndup(l, (size_t)(p - l));
				bool bad = trust_has_ctl(line);

				free(line);
				if (bad)
					continue;
			}
			strbuf_add(state, l, (size_t)(p - l));
			strbuf_addch(state, '\n');
		}
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return incomplete;
}

/* the VM's facts, beside the machine's (env_*: not part of the group) */
static void vm_facts(struct vm_run *v, struct job *job)
{
	char *text = xasprintf("qemu %s, %u CPUs, %" PRIu64 "M, %s", v->accel,
			       v->cpus, v->memory >> 20, v->image);

	job_set(job, "env_vm", text);
	job_set(job, "env_vm_accel", v->accel);
	job_set(job, "kernel", v->image);
	free(text);
}

/*
 * The job of a run whose guest said nothing (a failed boot): the machine
 * facts as the guest would have filled them -- its host name, the
 * image's release as the commit, the compiler from the image's banner
 * or, when its payload cannot be read (a compression libarchive lacks,
 * boot protocol before 2.08), from its config: the guest's runs name it
 * from /proc/version, and "unknown" put the failed runs in a group apart.
 */
static struct job *host_made_job(struct vm_run *v)
{
	struct job *job = job_dup(v->atomic);
	char *banner = vm_image_banner(v->image, v->info.release, v->workdir);
	char *compiler = vm_banner_compiler(banner);
	char num[32];

	if (!strcmp(compiler, "unknown") && v->config_compiler) {
		free(compiler);
		compiler = xstrdup(v->config_compiler);
	}

	job_unset(job, "kernel");
	if (!job_get(job, "testbox"))
		job_set(job, "testbox", v->hostname);
	if (!v->e->commit && !job_get(job, "commit"))
		job_set(job, "commit", v->info.release);
	machine_fill_job(&v->e->machine, job, v->e->commit);
	job_set(job, "compiler", compiler);
	snprintf(num, sizeof(num), "%u", v->cpus);
	job_set(job, "nr_cpu", num);
	job_set(job, "env_kernel_version", banner ? banner : v->info.banner);
	kpi_fill_job(job);
	free(banner);
	free(compiler);
	return job;
}

/*
 * What only the guest measures, from its job.yaml into the host's job:
 * memory, the CPU model and the env_* facts (none of them part of the
 * group), and the compiler when the image's banner named none.  Every
 * other key -- the testcase, the parameters, the commit, tbox_group --
 * is the host's, from the job it sent: a guest that wrote testcase:
 * another_job put its run in that job's group (docs/attack-5.md, V4).
 */
static void take_guest_facts(struct job *job, const struct job *guest)
{
	const struct jnode *root = guest->root;
	const char *c = job_get(job, "compiler");
	size_t i;

	for (i = 0; i < root->n; i++) {
		const char *key = root->keys[i];

		if (root->kids[i]->type != JNODE_SCALAR ||
		    !strncmp(key, "env_vm", strlen("env_vm")))
			continue;
		if (!strncmp(key, "env_", strlen("env_")) || !strcmp(key, "memory") ||
		    !strcmp(key, "model") ||
		    (!strcmp(key, "compiler") && (!c || !strcmp(c, "unknown"))))
			job_set(job, key, root->kids[i]->text);
	}
}

/* the guest's own output (ttyS2), its last lines on stderr */
static void show_tail(const char *path, int nr)
{
	struct strbuf text = STRBUF_INIT;
	/* 5 lines of a console, escaped (4 bytes a byte at worst), cut to fit */
	char shown[8192];
	const char *p;
	int lines = 0;

	if (strbuf_read_file(&text, path, 1 << 20) >= 0 && text.len) {
		strbuf_rtrim(&text);
		for (p = text.buf + text.len; p > text.buf; p--)
			if (p[-1] == '\n' && ++lines == nr)
				break;
		/*
		 * The guest's bytes (the kernel under test and its job wrote
		 * them), escaped as every message is: an OSC, a CSI or a C1
		 * control reached the operator's terminal raw before
		 * (docs/attack-5.md, V1)
		 */
		trust_escape_msg(shown, sizeof(shown), p);
		fprintf(stderr, "%s\n", shown);
	}
	strbuf_release(&text);
}

/*
 * Publish the run: the guest's (guest_dir not NULL) or one made here
 * from the console alone.  state: the VM's findings for last_state.
 */
static enum engine_outcome publish(struct vm_run *v, const char *guest_dir,
				   const struct strbuf *console,
				   struct strbuf *state, bool complete,
				   double elapsed)
{
	struct result_run run = {0};
	struct strbuf yaml = STRBUF_INIT, path = STRBUF_INIT, gstate = STRBUF_INIT;
	struct strbuf when = STRBUF_INIT;
	struct job *job = NULL, **jobs = NULL;
	size_t njobs = 0;
	enum engine_outcome out = ENGINE_ERROR;
	int r;

	/*
	 * The guest's job.yaml carries its machine facts and kernel axes:
	 * read leniently (job_read_file), as a run's job.yaml always is.
	 */
	if (guest_dir) {
		path_join(&path, guest_dir, "job.yaml");
		if (job_read_file(path.buf, &jobs, &njobs, &v->err) < 0 || njobs != 1 ||
		    result_group_dir(jobs[0], v->e->result_root, &v->r->group_dir,
				     &v->err) < 0) {
			/*
			 * The guest is the kernel under test: a job.yaml of it
			 * that cannot name a group (damaged, an alias bomb, a
			 * commit of '../..') makes a failed run of that kernel,
			 * as a run that never came back does -- not a stopped
			 * robot or bisect
			 */
			error("the guest's job.yaml: %s (a failed run is recorded "
			      "from the console)", v->err.len ? v->err.buf : "not one job");
			strbuf_reset(&v->err);
			strbuf_reset(&v->r->group_dir);
			if (jobs)
				job_free_all(jobs, njobs);
			jobs = NULL;
			strbuf_addstr(state, "vm_bad_data: 1\n");
			guest_dir = NULL;
			complete = false;
		} else {
			job = host_made_job(v);
			take_guest_facts(job, jobs[0]);
			job_free_all(jobs, njobs);
			jobs = NULL;
			if (guest_state(guest_dir, &gstate))
				complete = false;
		}
	}
	if (!job)
		job = host_made_job(v);
	vm_facts(v, job);
	/* from here on exactly what the engine's begin() and publish() do */
	strbuf_reset(&v->r->group_dir);
	if (result_group_dir(job, v->e->result_root, &v->r->group_dir, &v->err) < 0 ||
	    result_run_begin(&run, v->r->group_dir.buf, &v->err) < 0) {
		error("%s", v->err.buf);
		strbuf_reset(&v->r->group_dir);
		goto out;
	}
	strbuf_addstr(&v->r->dir, run.dir);
	job_to_yaml(job, &yaml);
	strbuf_addbuf(&gstate, state);
	strbuf_reset(&path);
	path_join(&path, run.tmp_dir, "job.yaml");
	/*
	 * The guest's files are data (the kernel under test wrote them): the
	 * run is marked as pulled runs are, so no NAME.plugin, job_origin or
	 * plug-in directory the guest sent is ever run by `stats` (a guest's
	 * Ruby parse script ran as root on the host before).
	 */
	if ((guest_dir && (copy_run_files(guest_dir, run.tmp_dir, &v->err) < 0 ||
			   mark_guest_run(run.tmp_dir, &v->err) < 0)) ||
	    write_file_atomic(path.buf, yaml.buf, yaml.len) < 0) {
		if (!v->err.len)
			strbuf_addf(&v->err, "cannot write '%s': %s", path.buf, strerror(errno));
		error("%s", v->err.buf);
		result_run_abort(&run);
		strbuf_reset(&v->r->dir);
		goto out;
	}
	/*
	 * When the run began, by the host's clock (the engine's begin()
	 * writes the same file natively): bisect and compare pair runs made
	 * beside each other by it.  The guest's own start_time is its clock
	 * when its job began, which under TCG on a loaded host lags by tens
	 * of seconds and by different amounts from boot to boot -- seen in
	 * t6200: a commit's second run "began" 15 s before its first.  A run
	 * made from the console alone has none from the guest at all.
	 */
	strbuf_reset(&path);
	path_join(&path, run.tmp_dir, "start_time");
	strbuf_addf(&when, "%lld.%09ld\n", (long long)v->started.tv_sec,
		    v->started.tv_nsec);
	if (write_file_atomic(path.buf, when.buf, when.len) < 0)
		warning("cannot write '%s': %s", path.buf, strerror(errno));
	/* LKP's dmesg: the console, from the first line of the boot */
	strbuf_reset(&path);
	path_join(&path, run.tmp_dir, "dmesg");
	if (write_file_atomic(path.buf, console->buf, console->len) < 0)
		warning("cannot write '%s': %s", path.buf, strerror(errno));
	strbuf_reset(&path);
	path_join(&path, run.tmp_dir, "last_state");
	if (gstate.len && write_file_atomic(path.buf, gstate.buf, gstate.len) < 0) {
		error("cannot write '%s': %s", path.buf, strerror(errno));
		goto out; /* left as .tmp-<n>: swept by the group's next run */
	}
	printf("%s: run %d of %d -> %s\n", v->r->name, v->r->index, v->r->total,
	       run.dir);
	r = result_run_finish(&run, v->e->result_root, v->e->store_url, complete,
			      &v->err);
	if (r == -2 && complete) {
		error("%s (the run is kept, marked incomplete)", v->err.buf);
		strbuf_reset(&v->err);
		complete = false;
		r = result_run_finish(&run, v->e->result_root, v->e->store_url,
				      false, &v->err);
	}
	if (r < 0) {
		error("%s", v->err.buf);
		goto out;
	}
	v->r->started = guest_dir != NULL;
	v->r->elapsed_s = elapsed;
	if (complete)
		printf("%s: run %d of %d: done in %.2f s (in the VM, boot included)\n",
		       v->r->name, v->r->index, v->r->total, elapsed);
	out = complete ? ENGINE_OK : ENGINE_FAILED;
out:
	engine_flush_progress();
	if (jobs)
		job_free_all(jobs, njobs);
	else
		job_free(job);
	result_run_release(&run);
	strbuf_release(&yaml);
	strbuf_release(&path);
	strbuf_release(&gstate);
	strbuf_release(&when);
	return out;
}

/* how long the VM may take: the job's timeout or runtime, plus a margin */
static double vm_limit(const struct engine_plan *p)
{
	const char *env = getenv("PERFSIFT_VM_MARGIN");
	double margin = 300, job = p->timeout_s > 0 ? p->timeout_s : p->runtime_s;
	char *end;

	if (env && *env) {
		double m = strtod(env, &end);

		/* at most a job's timeout (10^7 s): "inf" or 1e30 overflowed
		 * the runner's deadline (the third attack, B3) */
		if (!*end && m > 0 && m <= 1e7)
			margin = m;
	}
	return job + margin;
}

/* qemu on initrd (in the work directory) with accel, cut after limit seconds */
static int boot(struct vm_run *v, struct runner_result *res, const char *initrd_name,
		const char *accel, double limit)
{
	struct strbuf k = STRBUF_INIT, initrd = STRBUF_INIT, con = STRBUF_INIT;
	struct strbuf data = STRBUF_INIT, outp = STRBUF_INIT, mem = STRBUF_INIT;
	struct strbuf smp = STRBUF_INIT, qout = STRBUF_INIT, tmp = STRBUF_INIT;
	struct runner_cmd cmd = {0};
	char *argv[32];
	int n = 0, ret;

	/*
	 * panic=-1: a panicking guest reboots at once, and -no-reboot turns
	 * that reboot into qemu's exit -- a panic ends the run in seconds,
	 * not at the time limit.  no_timer_check: at boot the kernel checks
	 * that the IO-APIC timer ticks (timer_irq_works(): a few jiffies
	 * within a TSC-timed wait) and panics "IO-APIC + timer doesn't
	 * work!" when it does not; under TCG on a busy host the vCPU thread
	 * is not scheduled for that long, the ticks come late and a good
	 * kernel panics.  A KVM, VMware or Hyper-V guest kernel skips the
	 * check itself (arch/x86/kernel/kvm.c sets no_timer_check); under
	 * TCG it cannot know, so it is told (kernel-parameters.txt:
	 * "Disables the code which tests for broken timer IRQ sources").
	 * The user's --append comes last, so it can override (rdinit=,
	 * panic=, oops=panic).
	 */
	strbuf_addf(&k, CMDLINE "%s%s",
		    v->e->vm && v->e->vm->append ? " " : "",
		    v->e->vm && v->e->vm->append ? v->e->vm->append : "");
	strbuf_addstr(&initrd, work_path(v, initrd_name, &tmp));
	strbuf_addf(&con, "file:%s", work_path(v, "console", &tmp));
	strbuf_addf(&data, "file:%s", work_path(v, "data.tar", &tmp));
	strbuf_addf(&outp, "file:%s", work_path(v, "output", &tmp));
	strbuf_addf(&mem, "%" PRIu64 "M", v->memory >> 20);
	strbuf_addf(&smp, "%u", v->cpus);
	strbuf_addstr(&qout, work_path(v, "qemu.log", &tmp));
	/*
	 * -nodefaults: no NIC, VGA or monitor -- the guest needs none, and
	 * the three -serial ports below are then ttyS0..2 in this order.
	 */
	argv[n++] = (char *)QEMU;
	argv[n++] = (char *)"-nodefaults";
	argv[n++] = (char *)"-display";
	argv[n++] = (char *)"none";
	argv[n++] = (char *)"-no-reboot";
	argv[n++] = (char *)"-accel";
	argv[n++] = (char *)accel;
	if (!strcmp(accel, "kvm")) {
		argv[n++] = (char *)"-cpu";
		argv[n++] = (char *)"host";
	}
	argv[n++] = (char *)"-smp";
	argv[n++] = smp.buf;
	argv[n++] = (char *)"-m";
	argv[n++] = mem.buf;
	argv[n++] = (char *)"-kernel";
	argv[n++] = (char *)v->image;
	argv[n++] = (char *)"-initrd";
	argv[n++] = initrd.buf;
	argv[n++] = (char *)"-append";
	argv[n++] = k.buf;
	/* ttyS0 the console, ttyS1 the run (tar), ttyS2 the guest perfsift's output */
	argv[n++] = (char *)"-serial";
	argv[n++] = con.buf;
	argv[n++] = (char *)"-serial";
	argv[n++] = data.buf;
	argv[n++] = (char *)"-serial";
	argv[n++] = outp.buf;
	argv[n] = NULL;
	/*
	 * The runner gives qemu what it gives a benchmark: its own process
	 * group, SIGINT/SIGTERM collected (a stopped run ends qemu), and the
	 * limit after which the group is ended -- a hung kernel costs the
	 * limit, never a stuck perfsift.
	 */
	cmd.argv = argv;
	cmd.stdout_path = qout.buf;
	cmd.stderr_path = qout.buf;
	cmd.timeout_s = limit;
	/* a guest that never ends must not outlive a SIGKILLed perfsift */
	cmd.pdeathsig = SIGKILL;
	/* nor fill the host's disk through its serial ports (V5) */
	cmd.fsize_max = guest_run_max();
	clock_gettime(CLOCK_REALTIME, &v->started);
	ret = runner_run(&cmd, res, &v->err);
	strbuf_release(&k);
	strbuf_release(&initrd);
	strbuf_release(&con);
	strbuf_release(&data);
	strbuf_release(&outp);
	strbuf_release(&mem);
	strbuf_release(&smp);
	strbuf_release(&qout);
	strbuf_release(&tmp);
	return ret;
}

static void hostname_of_guest(struct vm_run *v)
{
	v->hostname = xasprintf("vm-%s", v->e->machine.testbox);
}

/* ---- the accelerator --------------------------------------------------------- */

#define PROBE_OK "perfsift-kvm-probe: ok"
#define PROBE_LIMIT 30

/* where the probe's verdict is kept: one probe per machine and host kernel */
static void accel_cache_path(struct strbuf *sb)
{
	const char *dir = getenv("PERFSIFT_VM_CACHE");

	strbuf_addstr(sb, dir && *dir ? dir : "/var/cache/perfsift");
	strbuf_addstr(sb, "/vm-accel");
}

/*
 * Boot the kernel under test with KVM and an init that only says so:
 * whether a KVM guest gets to user space here within PROBE_LIMIT s.
 */
static int probe_kvm(struct vm_run *v, bool *works, struct strbuf *how)
{
	struct cpio c = { NULL, STRBUF_INIT, &v->err, 0 };
	struct strbuf tmp = STRBUF_INIT, con = STRBUF_INIT;
	struct runner_result res = {0};
	static const char init[] = "#!/bin/sh\n"
		"# perfsift's KVM probe (src/run/vm.c): reaching here is the answer\n"
		"echo '" PROBE_OK "'\n/bin/reboot -f\n";
	int ret = -1;

	if (cpio_open(&c, work_path(v, "probe.cpio", &tmp)) < 0)
		goto out;
	cpio_dir(&c, "/dev");
	cpio_file(&c, BUSYBOX, BUSYBOX);
	cpio_symlink(&c, "/bin/sh", "busybox");
	cpio_symlink(&c, "/bin/reboot", "busybox");
	cpio_data(&c, "/init", init, sizeof(init) - 1, 0755);
	if (cpio_close(&c) < 0)
		goto out;
	if (boot(v, &res, "probe.cpio", "kvm", PROBE_LIMIT) < 0)
		goto out;
	strbuf_read_file(&con, work_path(v, "console", &tmp), 16u << 20);
	*works = !res.timed_out && strstr(con.buf, PROBE_OK) != NULL;
	if (res.timed_out)
		strbuf_addf(how, "hung for %d s", PROBE_LIMIT);
	else
		runner_describe(&res, how);
	ret = res.stop_signal ? -1 : 0;
	if (res.stop_signal)
		strbuf_addstr(&v->err, "interrupted while probing KVM");
out:
	cpio_release(&c);
	strbuf_release(&tmp);
	strbuf_release(&con);
	return ret;
}

/*
 * KVM where it works, TCG where it does not.  $PERFSIFT_VM_ACCEL=kvm|tcg
 * decides; else TCG when /dev/kvm does not open; else a probe (a KVM
 * boot of this kernel, bounded) decides, once per host kernel: its
 * verdict is kept in /var/cache/perfsift/vm-accel ($PERFSIFT_VM_CACHE).
 * Here /dev/kvm opens but a KVM guest hangs in early boot (with -cpu
 * host qemu aborts setting an MSR): the probe costs at most PROBE_LIMIT
 * seconds once and TCG is used from then on.
 */
static int choose_accel(struct vm_run *v)
{
	const char *env = getenv("PERFSIFT_VM_ACCEL");
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT, want = STRBUF_INIT;
	struct strbuf how = STRBUF_INIT;
	struct utsname u;
	bool works = false;
	int fd, ret = 0;

	if (env && *env) {
		if (strcmp(env, "kvm") && strcmp(env, "tcg")) {
			strbuf_addf(&v->err, "PERFSIFT_VM_ACCEL='%s': kvm or tcg", env);
			return -1;
		}
		v->accel = env;
		return 0;
	}
	v->accel = "tcg";
	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return 0;
	close(fd);
	if (uname(&u) < 0)
		snprintf(u.release, sizeof(u.release), "unknown");
	accel_cache_path(&path);
	strbuf_addf(&want, "host %s: kvm ", u.release);
	/* a regular file only: a FIFO planted there hung every run (V7) */
	if (read_regular_file(&text, path.buf, 4096, &how) >= 0 &&
	    !strncmp(text.buf, want.buf, want.len)) {
		v->accel = !strncmp(text.buf + want.len, "works", 5) ? "kvm" : "tcg";
		goto out;
	}
	strbuf_reset(&how);
	printf("probing KVM with %s (at most %d s, once per host kernel)\n",
	       v->image, PROBE_LIMIT);
	engine_flush_progress();
	if (probe_kvm(v, &works, &how) < 0) {
		ret = -1;
		goto out;
	}
	v->accel = works ? "kvm" : "tcg";
	if (!works)
		printf("KVM: the probe's guest did not reach user space (qemu: %s): using TCG\n",
		       how.buf);
	strbuf_reset(&text);
	strbuf_addf(&text, "%s%s (%s; probed with %s)\n", want.buf,
		    works ? "works" : "fails", works ? "ok" : how.buf, v->image);
	strbuf_reset(&want);
	path_dirname(&want, path.buf);
	if (mkdir_p(want.buf, 0755) < 0 ||
	    write_file_atomic(path.buf, text.buf, text.len) < 0)
		warning("cannot keep the KVM probe's verdict in '%s': %s", path.buf,
			strerror(errno));
out:
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&want);
	strbuf_release(&how);
	return ret;
}

enum engine_outcome vm_run_once(struct engine *e, const char *image,
				const struct job *atomic,
				const struct engine_plan *p,
				struct engine_run *r)
{
	struct vm_run v = { .e = e, .image = image, .atomic = atomic, .p = p, .r = r };
	struct runner_result res = {0};
	struct strbuf console = STRBUF_INIT, state = STRBUF_INIT, tmp = STRBUF_INIT;
	struct strbuf gdir = STRBUF_INIT;
	enum engine_outcome out = ENGINE_ERROR;
	const char *oops;
	bool started, ended, sent, panic;

	strbuf_init(&v.err, 0);
	v.cpus = e->vm && e->vm->cpus ? e->vm->cpus : 2;
	v.memory = e->vm && e->vm->memory ? e->vm->memory : (uint64_t)2 << 30;
	hostname_of_guest(&v);
	memcpy(v.workdir, "/tmp/perfsift-vm.XXXXXX", sizeof(v.workdir));
	if (vm_image_check(image, &v.info, &v.err) < 0 ||
	    vm_cmdline_check(&v.info, e->vm ? e->vm->append : NULL, &v.err) < 0) {
		error("%s", v.err.buf);
		goto out_nodir;
	}
	if (!mkdtemp(v.workdir)) {
		error_errno("cannot create a work directory for the VM");
		goto out_nodir;
	}
	if (ext_need(QEMU, "qemu-system-x86", &v.err) < 0 ||
	    choose_accel(&v) < 0 ||
	    build_initramfs(&v, work_path(&v, "initramfs.cpio", &tmp)) < 0) {
		error("%s", v.err.buf);
		goto out;
	}
	printf("%s: run %d of %d: booting %s in qemu (%s, %u CPUs, %" PRIu64 "M)\n",
	       r->name, r->index, r->total, image, v.accel, v.cpus, v.memory >> 20);
	engine_flush_progress();
	if (boot(&v, &res, "initramfs.cpio", v.accel, vm_limit(p)) < 0) {
		error("%s", v.err.buf);
		goto out;
	}
	/*
	 * The console says how far the guest got: /init prints a mark before
	 * the job, after it, and after the run was sent; the kernel prints
	 * its panic or oops.  Nothing is taken from the guest's own word
	 * about its kernel beyond what the run directory holds.
	 */
	strbuf_read_file(&console, work_path(&v, "console", &tmp), 64u << 20);
	started = has_line_with(&console, MARK_START);
	ended = has_line_with(&console, MARK_END);
	sent = has_line_with(&console, MARK_SENT);
	panic = has_line_with(&console, "Kernel panic - not syncing");
	oops = console_oops(&console);
	/* LKP's last_state words: how far the machine got, and why not further */
	if (!started)
		strbuf_addstr(&state, "booting: 1\n");
	else if (!ended)
		strbuf_addstr(&state, "running: 1\n");
	if (panic)
		strbuf_addstr(&state, "kernel_panic: 1\n");
	if (oops)
		strbuf_addf(&state, "kernel_oops: 1\n");
	if (res.timed_out)
		strbuf_addf(&state, "vm_timeout: %.0f\n", vm_limit(p));
	if (res.stop_signal)
		strbuf_addf(&state, "interrupted: %d\n", res.stop_signal);
	if (!started && !panic && !res.timed_out && !res.stop_signal &&
	    WIFEXITED(res.wait_status) && WEXITSTATUS(res.wait_status)) {
		/* qemu itself refused (a bad option, no memory): say its words */
		strbuf_addf(&state, "vm_exit_code.%d: 1\n", WEXITSTATUS(res.wait_status));
		show_tail(work_path(&v, "qemu.log", &tmp), 5);
	}
	/* a run came back: publish the guest's run, with the console beside it */
	if (sent && !untar(work_path(&v, "data.tar", &tmp),
			   work_path(&v, "results", &gdir), &v.err)) {
		struct strbuf dir = STRBUF_INIT;

		if (find_run(gdir.buf, &dir) == 1) {
			out = publish(&v, dir.buf, &console, &state, !panic && !oops,
				      res.elapsed_s);
			strbuf_release(&dir);
			goto shown;
		}
		strbuf_release(&dir);
		strbuf_addstr(&state, "vm_no_run: 1\n");
	} else if (sent) {
		error("%s", v.err.buf);
		strbuf_addstr(&state, "vm_bad_data: 1\n");
	}
	/* nothing usable came back: a failed run made from the console alone */
	out = publish(&v, NULL, &console, &state, false, res.elapsed_s);
shown:
	if (out != ENGINE_OK && out != ENGINE_ERROR) {
		struct strbuf why = STRBUF_INIT;
		const char *l, *eol;

		strbuf_reset(&why);
		for (l = state.buf; *l; l = *eol ? eol + 1 : eol) {
			eol = strchrnul(l, '\n');
			strbuf_addf(&why, "%s%.*s", why.len ? ", " : "", (int)(eol - l), l);
		}
		printf("%s: run %d of %d: failed in the VM (%s); the console is the run's dmesg\n",
		       r->name, r->index, r->total, why.len ? why.buf : "the job failed");
		strbuf_release(&why);
		show_tail(work_path(&v, "output", &tmp), 5);
	}
	if (res.stop_signal)
		out = ENGINE_STOPPED;
	engine_flush_progress();
out:
	if (remove_tree(v.workdir) < 0)
		warning("cannot remove the VM's work directory '%s'", v.workdir);
out_nodir:
	vm_image_release(&v.info);
	free(v.hostname);
	free(v.config_compiler);
	strbuf_release(&v.err);
	strbuf_release(&console);
	strbuf_release(&state);
	strbuf_release(&tmp);
	strbuf_release(&gdir);
	return out;
}
