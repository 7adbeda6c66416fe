/*
 * test_vm.c: the pure pieces of the VM path (run/vm.h) -- a kernel
 * image told from other files by its x86 boot header, its release read
 * from the header's version text, and the compiler axis read from a
 * version banner as /proc/version and the image's payload give it (so a
 * failed boot and a good run land in one group).
 */
#include "util/compat.h"
#include <stdarg.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "run/vm.h"
#include "util/fileutil.h"
#include "util/strbuf.h"

static void expect_compiler(const char *banner, const char *want)
{
	char *c = vm_banner_compiler(banner);

	assert_string_equal(c, want);
	free(c);
}

static void test_banner_compiler(void **state)
{
	(void)state;
	/* Debian's kernel: CC=gcc-12 */
	expect_compiler("Linux version 6.1.0-47-cloud-amd64 (debian-kernel@lists.debian.org) "
			"(gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for "
			"Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Debian 6.1.170-3 (2026-05-08)\n",
			"gcc-12");
	/* a tree built with plain gcc: its major version, as LKP names it */
	expect_compiler("Linux version 6.1.158 (root@box) (gcc (Debian 12.2.0-14) 12.2.0, "
			"GNU ld (GNU Binutils for Debian) 2.40) #3 Tue Dec 1 2026",
			"gcc-12");
	expect_compiler("Linux version 6.6.0 (u@h) (Debian clang version 14.0.6, LLD 14.0.6) #1",
			"clang-14");
	expect_compiler("Linux version 6.1.0 (u@h) #1 SMP", "unknown");
	expect_compiler("not a banner", "unknown");
	expect_compiler(NULL, "unknown");
}

static void expect_config_compiler(const char *config, const char *want)
{
	char *got = vm_config_compiler(config);

	if (want)
		assert_string_equal(got, want);
	else
		assert_null(got);
	free(got);
}

/*
 * A failed boot whose image's payload cannot be read names its compiler
 * from the config, as the good runs' guests do from /proc/version
 */
static void test_config_compiler(void **state)
{
	(void)state;
	expect_config_compiler("#\n# Automatically generated file; DO NOT EDIT.\n"
			       "CONFIG_CC_VERSION_TEXT=\"gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0\"\n"
			       "CONFIG_CC_IS_GCC=y\n", "gcc-12");
	expect_config_compiler("x\nCONFIG_CC_VERSION_TEXT=\"gcc (Debian 12.2.0-14) 12.2.0\"\n",
			       "gcc-12");
	expect_config_compiler("x\nCONFIG_CC_VERSION_TEXT=\"Debian clang version 14.0.6\"\n",
			       "clang-14");
	/* before 5.8 there is no such line; an empty one says nothing */
	expect_config_compiler("x\nCONFIG_CC_IS_GCC=y\n", NULL);
	expect_config_compiler("x\nCONFIG_CC_VERSION_TEXT=\"\"\n", NULL);
	/* a value cut off at the end of the text */
	expect_config_compiler("x\nCONFIG_CC_VERSION_TEXT=\"gcc-12", "gcc-12");
	expect_config_compiler(NULL, NULL);
}

/* a file with an x86 boot header naming version text at 0x200 + off */
static void write_image(const char *path, const char *text, bool magic)
{
	unsigned char img[4096];
	unsigned off = 0x800;

	memset(img, 0, sizeof(img));
	img[0x1fe] = 0x55;
	img[0x1ff] = 0xaa;
	if (magic)
		memcpy(img + 0x202, "HdrS", 4);
	img[0x206] = 0x0f; /* boot protocol 2.15 */
	img[0x207] = 0x02;
	img[0x20e] = (unsigned char)(off & 0xff);
	img[0x20f] = (unsigned char)(off >> 8);
	memcpy(img + 0x200 + off, text, strlen(text) + 1);
	assert_int_equal(write_file_atomic(path, img, sizeof(img)), 0);
}

static void test_image_check(void **state)
{
	char dir[] = "/tmp/test_vm.XXXXXX";
	struct strbuf p = STRBUF_INIT, err = STRBUF_INIT;
	struct vm_image info;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path_join(&p, dir, "bzImage");
	write_image(p.buf, "6.1.0-47-cloud-amd64 (debian-kernel@lists.debian.org) #1 SMP", true);
	assert_int_equal(vm_image_check(p.buf, &info, &err), 0);
	assert_string_equal(info.release, "6.1.0-47-cloud-amd64");
	assert_non_null(strstr(info.banner, "debian-kernel@"));
	vm_image_release(&info);

	/* the boot flag without the header's magic: not a kernel */
	write_image(p.buf, "6.1.0", false);
	assert_int_equal(vm_image_check(p.buf, NULL, &err), -1);
	assert_non_null(strstr(err.buf, "bzImage: not a Linux kernel image (no x86 boot header"));
	strbuf_reset(&err);

	/* too short to have a header */
	assert_int_equal(write_file_atomic(p.buf, "#!/bin/sh\n", 10), 0);
	assert_int_equal(vm_image_check(p.buf, NULL, &err), -1);
	assert_non_null(strstr(err.buf, "not a Linux kernel image"));
	strbuf_reset(&err);

	unlink(p.buf);
	assert_int_equal(vm_image_check(p.buf, NULL, &err), -1);
	assert_non_null(strstr(err.buf, "cannot open the kernel image: No such file"));
	rmdir(dir);
	strbuf_release(&p);
	strbuf_release(&err);
}

/*
 * A tinyconfig bzImage's payload: xz (BCJ x86, crc32, as the kernel's
 * build makes it) of a banner and 1 MiB of zero bytes, cut short of the
 * stream's index and footer as the payload length leaves them out --
 * xz says "Unexpected end of input" after the whole text.  Made with
 * `xz --check=crc32 --x86 --lzma2=dict=1MiB`, 24 bytes taken off.
 */
static const unsigned char cut_xz[] = {
	0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0x00, 0x01, 0x69, 0x22, 0xde, 0x36,
	0x02, 0x01, 0x04, 0x00, 0x21, 0x01, 0x10, 0x00, 0x8b, 0x21, 0x6f, 0x49,
	0xf0, 0x00, 0x93, 0x01, 0x5c, 0x5d, 0x00, 0x26, 0x1a, 0x49, 0xc7, 0x89,
	0x55, 0xb3, 0x1f, 0x47, 0x35, 0xd2, 0x1f, 0x2e, 0x2d, 0x85, 0xd0, 0x12,
	0x1d, 0xe1, 0xc6, 0xd5, 0x0f, 0x28, 0xf2, 0x78, 0xd9, 0x91, 0x33, 0xc3,
	0x65, 0x64, 0x3e, 0x4f, 0xa6, 0x99, 0xe1, 0x5b, 0xd6, 0x59, 0xff, 0x9f,
	0x94, 0x1c, 0x03, 0xb0, 0xb1, 0x9b, 0x2e, 0xfb, 0x42, 0x14, 0x65, 0xef,
	0x45, 0xf9, 0x96, 0x24, 0x36, 0x5b, 0x3e, 0xc5, 0x97, 0x77, 0x43, 0xb7,
	0x9e, 0x2a, 0xd4, 0xe8, 0x46, 0x14, 0x7d, 0x0e, 0x32, 0x74, 0x6f, 0x6a,
	0xa9, 0x5b, 0xa1, 0x7e, 0x17, 0x6a, 0x87, 0x5c, 0x5f, 0x42, 0x01, 0x3f,
	0x00, 0xf7, 0x7e, 0x07, 0x4f, 0x49, 0x4d, 0x0e, 0x33, 0xe6, 0xcd, 0x44,
	0x86, 0x04, 0x53, 0x09, 0x42, 0xf7, 0x18, 0x1a, 0x2a, 0xdb, 0xfd, 0xe9,
	0x8b, 0x12, 0x15, 0x44, 0x7b, 0xf7, 0x54, 0x34, 0x8e, 0xc7, 0x74, 0xb5,
	0xfd, 0xd8, 0x7e, 0x81, 0x8d, 0xf1, 0xb0, 0xb6, 0x47, 0x56, 0xcd, 0x09,
	0x44, 0xdf, 0x67, 0xf6, 0x4f, 0xd4, 0x93, 0x44, 0xe0, 0x03, 0x9c, 0xa6,
	0x3e, 0x2d, 0x0b, 0xb6, 0xad, 0x08, 0x7a, 0x6e, 0x6b, 0x2e, 0x4f, 0xf7,
	0xde, 0x3f, 0x0c, 0x57, 0x86, 0xc6, 0x10, 0x4c, 0x8c, 0xf2, 0x37, 0x8a,
	0x37, 0xeb, 0x61, 0x20, 0xfb, 0x38, 0x9e, 0x25, 0x45, 0xbf, 0x5d, 0x11,
	0x12, 0x24, 0x46, 0xa1, 0x3d, 0x92, 0xe2, 0x9e, 0xd6, 0x53, 0x88, 0x44,
	0xc4, 0x6e, 0xcc, 0x9e, 0x4c, 0x70, 0x92, 0xa5, 0x19, 0xa1, 0xfd, 0x39,
	0xbb, 0xaf, 0xd5, 0x56, 0x30, 0xb0, 0x3e, 0xda, 0xf5, 0xdc, 0xc6, 0x8b,
	0x3b, 0xa0, 0x7b, 0xca, 0x9f, 0x44, 0xf8, 0x37, 0x2d, 0x60, 0xdd, 0xeb,
	0x72, 0xb2, 0xe4, 0x46, 0xf6, 0x54, 0xf0, 0x88, 0x75, 0x2c, 0x30, 0xdb,
	0xc2, 0x50, 0x54, 0x91, 0x22, 0x97, 0x06, 0x03, 0x5f, 0xc9, 0x70, 0x3b,
	0x14, 0xc0, 0x32, 0x37, 0x98, 0xa5, 0x15, 0x01, 0xa5, 0xe8, 0xa3, 0x09,
	0x2a, 0xec, 0xaa, 0xff, 0x5a, 0x26, 0xac, 0x72, 0x0c, 0x16, 0x92, 0xa7,
	0xbe, 0x39, 0x8f, 0x24, 0xe1, 0x70, 0x9e, 0xa7, 0x23, 0x5f, 0xec, 0x28,
	0xcb, 0x85, 0xd1, 0x95, 0x98, 0x8a, 0x7e, 0x2a, 0x91, 0xf2, 0x27, 0x75,
	0xf7, 0x19, 0xc0, 0x06, 0x98, 0x4d, 0x98, 0xfd, 0xd8, 0xaf, 0xd5, 0x90,
	0x0f, 0xc4, 0x25, 0x53, 0xf8, 0xf5, 0x91, 0x36, 0x31, 0x05, 0xa5, 0xb0,
	0xee, 0x6f, 0xc1, 0x70, 0x4d, 0x47, 0x0c, 0xd1, 0x91, 0x11, 0xaa, 0xad,
	0x60, 0x1d, 0x9e, 0xf0, 0x78, 0x53, 0x00, 0x00, 0x2e, 0xee, 0xd6, 0x12,
};

/*
 * A failed boot's compiler axis comes from the image's payload: a
 * payload that ends short still gives its banner (else the run's
 * compiler was "unknown", a group apart from the good runs').
 */
static void test_image_banner(void **state)
{
	char dir[] = "/tmp/test_vm.XXXXXX";
	struct strbuf p = STRBUF_INIT;
	unsigned char img[4096];
	char *banner, *compiler;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path_join(&p, dir, "bzImage");
	memset(img, 0, sizeof(img));
	img[0x1f1] = 4; /* setup sectors: the payload from (4 + 1) * 512 */
	img[0x1fe] = 0x55;
	img[0x1ff] = 0xaa;
	memcpy(img + 0x202, "HdrS", 4);
	img[0x206] = 0x0f; /* boot protocol 2.15 */
	img[0x207] = 0x02;
	img[0x20e] = 0x00; /* the version text at 0x200 + 0x800 */
	img[0x20f] = 0x08;
	memcpy(img + 0xa00, "6.1.192+ (root@vm) #1 SMP", 26);
	/* the payload at offset 0, this long */
	img[0x24c] = (unsigned char)(sizeof(cut_xz) & 0xff);
	img[0x24d] = (unsigned char)(sizeof(cut_xz) >> 8);
	memcpy(img + 5 * 512, cut_xz, sizeof(cut_xz));
	assert_int_equal(write_file_atomic(p.buf, img, sizeof(img)), 0);
	banner = vm_image_banner(p.buf, "6.1.192+", dir);
	assert_non_null(banner);
	assert_non_null(strstr(banner, "Linux version 6.1.192+ (root@vm) (gcc (Debian 12.2.0"));
	compiler = vm_banner_compiler(banner);
	assert_string_equal(compiler, "gcc-12");
	free(compiler);
	free(banner);
	/* another release's banner is not this one's */
	assert_null(vm_image_banner(p.buf, "6.1.0", dir));
	unlink(p.buf);
	assert_int_equal(rmdir(dir), 0);
	strbuf_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_banner_compiler),
		cmocka_unit_test(test_config_compiler),
		cmocka_unit_test(test_image_check),
		cmocka_unit_test(test_image_banner),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
