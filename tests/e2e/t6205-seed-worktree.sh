#!/bin/sh
# shellcheck disable=SC2016
# t6205: scripts/seed-worktree, which starts a kernel robot's worktree
# from a built tree (docs/kernel.md; t9102 uses it on a real kernel,
# opt-in and 20 minutes).  Here on a tiny fake "built tree" in a real git
# repository, in seconds: each bad input (no SRC, two, not a directory,
# not at the top of a git worktree, --lock without a file, an unknown
# option, SRC the worktree itself, above it or inside it, no .config, an
# O= object directory) is one line naming what is wrong, exit 2, and
# nothing written where it ran (a listing with mtimes to the nanosecond,
# .git included, before and after); --help says the header; and one good
# seeding keeps mtimes to the nanosecond, rewrites a source that differs
# from the commit with a new mtime, and rewrites SRC's absolute path in
# tools/objtool's .cmd and .d files, their mtimes kept.
. "$(dirname "$0")/lib.sh"

SEED=$SRCDIR/scripts/seed-worktree
GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.org
GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.org
# git looks for a repository no higher than the test's directory: the
# "not in a worktree" case must not find one the machine has above /tmp
GIT_CEILING_DIRECTORIES=$TEST_TMP
export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL \
	GIT_CEILING_DIRECTORIES

# every entry below DIR with its type, size and mtime (ns): what a
# refused seeding must leave as it was
snap() {
	(cd "$1" && find . -printf '%p %y %s %T@\n' | LC_ALL=C sort)
}

# refused DIR PATTERN ARGS...: seed-worktree ARGS run in DIR exits 2 with
# one line on stderr matching PATTERN, nothing on stdout, and DIR as it was
refused() {
	_dir=$1 _pat=$2
	shift 2
	snap "$_dir" >before &&
	(cd "$_dir" && "$SEED" "$@") >out 2>err
	_st=$?
	cat err
	test "$_st" = 2 || { echo "exit $_st, wanted 2"; return 1; }
	! test -s out &&
	test "$(wc -l <err)" = 1 &&
	test_grep "^seed-worktree: $_pat" err &&
	snap "$_dir" >after &&
	test_cmp before after
}

# a clone of the repository at its commit: a robot's fresh worktree
fresh() { git clone -q "$TEST_TMP/repo" "$1"; }

test_expect_success 'setup: a repository and a fake built tree of it' '
	git init -q repo &&
	mkdir -p repo/kernel repo/tools/objtool &&
	echo "# the top Makefile" >repo/Makefile &&
	echo "int sys(void) { return 0; }" >repo/kernel/sys.c &&
	echo "int main(void) { return 0; }" >repo/tools/objtool/objtool.c &&
	echo "a kernel" >repo/README &&
	git -C repo add . &&
	git -C repo commit -q -m "the tree" &&
	fresh built &&
	# built at another state of sys.c than the commit: git puts it back
	echo "int sys(void) { return 1; }" >built/kernel/sys.c &&
	echo "CONFIG_X=y" >built/.config &&
	echo obj >built/kernel/sys.o &&
	echo "cmd_kernel/sys.o := gcc -c -o kernel/sys.o kernel/sys.c" >built/kernel/.sys.o.cmd &&
	echo obj >built/tools/objtool/objtool.o &&
	# the host tools name the tree by its absolute path
	echo "cmd_$TEST_TMP/built/tools/objtool/objtool.o := gcc -c $TEST_TMP/built/tools/objtool/objtool.c" \
		>built/tools/objtool/.objtool.o.cmd &&
	echo "$TEST_TMP/built/tools/objtool/objtool.o: $TEST_TMP/built/tools/objtool/objtool.c" \
		>built/tools/objtool/.objtool.o.d &&
	# each its own mtime, nanoseconds that a whole-second copy would lose
	n=11 &&
	for f in Makefile README .config kernel/sys.c kernel/sys.o kernel/.sys.o.cmd \
		tools/objtool/objtool.c tools/objtool/objtool.o \
		tools/objtool/.objtool.o.cmd tools/objtool/.objtool.o.d; do
		touch -d "2021-03-04 05:06:$n.1234567$n" "built/$f" && n=$((n + 1)) ||
		return 1
	done &&
	# a mark in SRC'"'"'s .git: the worktree'"'"'s own .git must stay its own
	git -C built config seed.mark built &&
	snap built >built.snap &&
	fresh wt
'

test_expect_success 'no SRC' '
	refused wt "no SRC, the built tree to copy, given (usage: "
'

test_expect_success 'two SRCs' '
	refused wt "one SRC, not 2: " ../built ../built
'

test_expect_success 'SRC not a directory, or not there' '
	refused wt "'"'"'../built/README'"'"' is not a directory$" ../built/README &&
	refused wt "'"'"'../nothing'"'"' is not a directory$" ../nothing
'

test_expect_success '--lock without a file' '
	refused wt "--lock needs a file$" --lock &&
	refused wt "--lock needs a file$" --lock "" ../built &&
	refused wt "--lock needs a file, not the option" --lock --help ../built
'

test_expect_success '--lock in a directory that does not exist' '
	refused wt "--lock .*: its directory .* does not exist$" --lock "$TEST_TMP/no/lock" ../built &&
	! test -e no
'

test_expect_success 'an unknown option' '
	refused wt "unknown option '"'"'--frobnicate'"'"'" --frobnicate ../built
'

test_expect_success '--help says the header and writes nothing' '
	snap wt >before &&
	(cd wt && "$SEED" --help) >out 2>err &&
	! test -s err &&
	test_grep "^seed-worktree: start a kernel robot" out &&
	test_grep "^  scripts/seed-worktree \[--lock FILE\] SRC" out &&
	! grep -q "^set -eu" out &&
	snap wt >after &&
	test_cmp before after
'

test_expect_success 'not in a git worktree' '
	mkdir plain &&
	refused plain "'"'"'$TEST_TMP/plain'"'"' is not in a git worktree" ../built
'

test_expect_success 'in a subdirectory of the worktree, not its top' '
	refused wt/kernel "'"'"'$TEST_TMP/wt/kernel'"'"' is not the top of its git worktree: run it in '"'"'$TEST_TMP/wt'"'"'" ../../built
'

test_expect_success 'in the .git directory' '
	refused wt/.git "'"'"'$TEST_TMP/wt/.git'"'"' is not in a git worktree" ../../built
'

test_expect_success 'SRC the worktree itself (and by a link)' '
	cp built/.config wt/.config &&
	refused wt "'"'"'$TEST_TMP/wt'"'"' is the worktree to seed itself$" . &&
	ln -s wt wt.link &&
	refused wt "'"'"'$TEST_TMP/wt'"'"' is the worktree to seed itself$" ../wt.link &&
	rm wt/.config
'

test_expect_success 'SRC a directory above the worktree' '
	cp -a built outer &&
	fresh outer/wt &&
	refused outer/wt "'"'"'$TEST_TMP/outer'"'"' contains the worktree to seed" .. &&
	refused outer/wt "'"'"'$TEST_TMP'"'"' contains the worktree to seed" ../..
'

test_expect_success 'SRC a directory inside the worktree' '
	fresh inner &&
	cp -a built inner/built &&
	refused inner "'"'"'$TEST_TMP/inner/built'"'"' is inside the worktree to seed" built
'

test_expect_success 'SRC with no .config: not a built tree' '
	refused wt "'"'"'$TEST_TMP/repo'"'"' has no .config: not a built kernel tree" ../repo
'

test_expect_success 'SRC an O= object directory (its source link, or its Makefile)' '
	mkdir obj &&
	echo "CONFIG_X=y" >obj/.config &&
	ln -s "$TEST_TMP/repo" obj/source &&
	refused wt "'"'"'$TEST_TMP/obj'"'"' is an O= object directory (of '"'"'$TEST_TMP/repo'"'"')" ../obj &&
	rm obj/source &&
	printf "# Automatically generated by scripts/mkmakefile: don'"'"'t edit\ninclude $TEST_TMP/repo/Makefile\n" >obj/Makefile &&
	refused wt "'"'"'$TEST_TMP/obj'"'"' is an O= object directory" ../obj
'

# mtime of a file to the nanosecond
mtime() { stat -c %y "$1"; }

test_expect_success 'a good seeding' '
	(cd wt && "$SEED" ../built) >out 2>err &&
	cat out err &&
	! test -s err &&
	# SRC only read
	snap built >built.after &&
	test_cmp built.snap built.after &&
	# the copy: everything but .git, mtimes to the nanosecond
	for f in Makefile README .config kernel/sys.o kernel/.sys.o.cmd \
		tools/objtool/objtool.c tools/objtool/objtool.o; do
		test "$(mtime "wt/$f")" = "$(mtime "built/$f")" &&
		cmp "wt/$f" "built/$f" || { echo "$f"; return 1; }
	done &&
	test "$(git -C wt rev-parse HEAD)" = "$(git -C repo rev-parse HEAD)" &&
	test_must_fail git -C wt config seed.mark &&
	# the source that differs from the commit is the commit'"'"'s, rewritten
	# with a new mtime: make rebuilds what it touches
	git -C repo show HEAD:kernel/sys.c >sys.c.want &&
	test_cmp sys.c.want wt/kernel/sys.c &&
	test "$(mtime wt/kernel/sys.c)" != "$(mtime built/kernel/sys.c)" &&
	test wt/kernel/sys.c -nt wt/kernel/sys.o &&
	test -z "$(git -C wt status --porcelain --untracked-files=no)" &&
	# the host tools name this tree now, their mtimes kept
	for f in tools/objtool/.objtool.o.cmd tools/objtool/.objtool.o.d; do
		test "$(mtime "wt/$f")" = "$(mtime "built/$f")" &&
		! grep -q "$TEST_TMP/built" "wt/$f" &&
		test_grep "$TEST_TMP/wt/tools/objtool/objtool.c" "wt/$f" || return 1
	done &&
	# the kernel'"'"'s own, relative, untouched
	test_grep "^cmd_kernel/sys.o := gcc -c -o kernel/sys.o kernel/sys.c$" wt/kernel/.sys.o.cmd
'

test_done
