#!/bin/sh
# t0901: the loader's "did you mean" for a key a typo away from a program
# names the program alone ("vm-scalability", not "GARBAGE.vm-scalability"),
# also for the programs late in the table: the hint's list grows past its
# first allocation there, and the grown part was left uninitialised (the
# fuzzer found the crash).  MALLOC_PERTURB_ makes glibc fill new memory
# with garbage, so an uninitialised pointer crashes here every time.
. "$(dirname "$0")/lib.sh"

test_expect_success 'a program name one typo away is suggested as it is' '
	for pair in vm-scalabilty:vm-scalability turbostatt:turbostat \
		uptimee:uptime vmstatt:vmstat mytestt:mytest; do
		key=${pair%%:*} want=${pair#*:} &&
		printf "suite: x\n%s: 1\n" "$key" >job.yaml &&
		MALLOC_PERTURB_=165 perfsift split job.yaml -o out >/dev/null 2>err &&
		test_grep "$key: unknown key; did you mean '"'"'$want'"'"'?" err ||
		return 1
	done
'

test_expect_success 'an option still gets its program in front' '
	for pair in unit_sze:vm-scalability.unit_size \
		thp_enabld:transparent_hugepage.thp_enabled; do
		key=${pair%%:*} want=${pair#*:} &&
		printf "suite: x\n%s: 1\n" "$key" >job.yaml &&
		MALLOC_PERTURB_=165 perfsift split job.yaml -o out2 >/dev/null 2>err &&
		test_grep "$key: unknown key; did you mean '"'"'$want'"'"'?" err ||
		return 1
	done
'

test_done
