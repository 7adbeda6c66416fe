/*
 * fuzz_robot.c: libFuzzer harness for the robot's config (ROBOT.yaml),
 * robot_config_load(): YAML through the job loader's reader, then the
 * robot's own checks of repos, jobs and mail.  A config names job files
 * by path, so each input is handed over as a memfd (/proc/self/fd/N):
 * the job paths it names resolve under /proc/self/fd and are refused,
 * which still drives every check before them.
 */
#include "util/compat.h"
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#include "robot/config.h"
#include "util/strbuf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct robot_config cfg;
	struct strbuf err = STRBUF_INIT;
	char path[64];
	int fd = memfd_create("fuzz-robot", 0);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		memset(&cfg, 0, sizeof(cfg));
		robot_config_load(path, &cfg, &err);
		robot_config_release(&cfg);
	}
	close(fd);
	strbuf_release(&err);
	return 0;
}
