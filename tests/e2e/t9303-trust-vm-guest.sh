#!/bin/sh
# shellcheck disable=SC2016
# t9303: what a VM's guest sends back is data (issue 25, the second
# attack).  The guest is the kernel under test and the programs on it:
# its tar of the run must not plant a plug-in that the host's `stats`
# then runs as root (a NAME.plugin naming a parse script it sent ran
# before), its names must be plain relative paths, and a small
# compressed stream must not unpack into gigabytes of the host's disk
# and memory.  qemu here is a stand-in on PATH that plays a hostile
# guest: it writes a given console and a given tar where the real one
# would write ttyS0 and ttyS1 -- the host's side is the real one.
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null || ! command -v ruby >/dev/null; then
	test_skip 'a hostile guest' 'python3 or ruby is missing (scripts/install-deps)'
	test_done
fi

# a file with an x86 boot header, enough for vm_image_check()
python3 - <<'EOT'
h = bytearray(0x1000)
h[0x1fe:0x200] = b"\x55\xaa"
h[0x202:0x206] = b"HdrS"
h[0x206:0x208] = b"\x0f\x02"
h[0x20e:0x210] = (0x300).to_bytes(2, "little")
s = b"6.1.0-guest (gcc-12 (Debian 12.2.0-14) 12.2.0) #1 SMP\0"
h[0x500:0x500 + len(s)] = s
open("bzImage", "wb").write(h)
EOT
mkdir bin &&
cat >bin/qemu-system-x86_64 <<'EOT' &&
#!/bin/sh
# the hostile guest: console and data port from $GUEST_CONSOLE, $GUEST_TAR
n=0
for a; do
	case $a in file:*) n=$((n + 1))
		case $n in 1) con=${a#file:} ;; 2) data=${a#file:} ;; esac ;;
	esac
done
cat "$GUEST_CONSOLE" >"$con" && cat "$GUEST_TAR" >"$data"
EOT
chmod +x bin/qemu-system-x86_64
PATH=$TEST_TMP/bin:$PATH
PERFSIFT_VM_ACCEL=tcg
export PATH PERFSIFT_VM_ACCEL
printf '%s\n' 'Linux version 6.1.0-guest' 'perfsift-guest: job starts' \
	'perfsift-guest: job ended 0' 'perfsift-guest: run sent' >console
GUEST_CONSOLE=$TEST_TMP/console
GUEST_TAR=$TEST_TMP/guest.tgz
export GUEST_CONSOLE GUEST_TAR
printf 'testcase: vmg\nmytest:\n  cmdline: "echo x: 1"\n' >job.yaml

# the guest's own run: what a guest perfsift would send (a native run)
test_expect_success 'a plain run made in the "guest"' '
	perfsift --result-root "$TEST_TMP/guest" run job.yaml >out 2>err &&
	g=$(dirname "$(find guest -name job.yaml)") &&
	mkdir -p send/r &&
	cp -r "$g" send/r/0 &&
	(cd send && tar czf "$GUEST_TAR" .) &&
	perfsift run job.yaml --kernel bzImage >out 2>err &&
	test_grep "run 1 of 1: done" out
'

# the host's next run directory: where the guest's files will land
next_run() {
	d=$(dirname "$(find "$PERFSIFT_RESULT_ROOT" -name job.yaml | head -n 1)") &&
	echo "${d%/*}/$1"
}

test_expect_success 'a guest plants a Ruby parse script: stats never runs it' '
	host=$(next_run 1) &&
	echo "evilp: 1" >>send/r/0/job.yaml &&
	echo "raw" >send/r/0/evilp &&
	echo "$host/sub/evilp" >send/r/0/evilp.plugin &&
	echo "job_origin: $host/job.yaml" >>send/r/0/job.yaml &&
	mkdir -p send/r/0/sub/evilp send/r/0/programs/evilp &&
	printf "%s\n" "#!/usr/bin/env ruby" \
		"File.write(\"$TEST_TMP/PWNED\", Process.uid.to_s)" \
		"puts \"pwned: 1\"" >send/r/0/sub/evilp/parse &&
	cp send/r/0/sub/evilp/parse send/r/0/programs/evilp/parse &&
	(cd send && tar czf "$GUEST_TAR" .) &&
	perfsift run job.yaml --kernel bzImage >out 2>err &&
	test -f "$host/sub/evilp/parse" &&
	test -f "$host/.perfsift-pulled" &&
	{ perfsift stats "$host" >out 2>err || :; } &&
	{ perfsift stats --all >out 2>err || :; } &&
	! test -e "$TEST_TMP/PWNED" &&
	! grep -q pwned "$host/stats.json"
'

# guest_tar KIND: a good run plus one hostile entry, into $GUEST_TAR
guest_tar() {
	python3 - "$1" <<-\EOT
	import io, os, sys, tarfile
	kind = sys.argv[1]
	t = tarfile.open(os.environ["GUEST_TAR"], "w:gz")
	def add(name, data=b"", typ=tarfile.REGTYPE, link=""):
	    ti = tarfile.TarInfo(name)
	    ti.type, ti.linkname = typ, link
	    ti.size = len(data) if typ == tarfile.REGTYPE else 0
	    t.addfile(ti, io.BytesIO(data) if typ == tarfile.REGTYPE else None)
	for d in ("./", "./r", "./r/0"):
	    add(d, typ=tarfile.DIRTYPE)
	add("./r/0/job.yaml", open("send/r/0/job.yaml", "rb").read())
	if kind == "dotdot":
	    add("./r/0/../../../../" + os.getcwd() + "/ESCAPED", b"x")
	elif kind == "abs":
	    add(os.getcwd() + "/ESCAPED", b"x")
	elif kind == "ctl":
	    add("./r/0/x\033]0;owned\007", b"x")
	elif kind == "link":
	    add("./r/0/l", typ=tarfile.SYMTYPE, link=os.getcwd())
	    add("./r/0/l/ESCAPED", b"x")
	t.close()
	EOT
}

for kind in dotdot abs ctl; do
	test_expect_success "a guest path that is no plain name ($kind): refused" '
		guest_tar $kind &&
		test_must_fail --status=3 perfsift run job.yaml --kernel bzImage >out 2>err &&
		test_grep "the guest sent a bad path" err &&
		test_grep "vm_bad_data: 1" out &&
		! test -e ESCAPED &&
		! LC_ALL=C grep -q "$(printf "\033")" err
	'
done

test_expect_success 'a guest link is not made, nor followed' '
	guest_tar link &&
	{ perfsift run job.yaml --kernel bzImage >out 2>err || :; } &&
	! test -e ESCAPED &&
	test -z "$(find "$PERFSIFT_RESULT_ROOT" -type l)"
'

test_expect_success 'a guest job.yaml naming no group: a failed run, not a stop' '
	rm -rf bad && cp -r send bad &&
	rm -rf bad/r/0/sub bad/r/0/programs &&
	sed -i "s|^commit: .*|commit: ../../../x|" bad/r/0/job.yaml &&
	(cd bad && tar czf "$GUEST_TAR" .) &&
	test_must_fail --status=3 perfsift run job.yaml --kernel bzImage >out 2>err &&
	test_grep "the guest.s job.yaml: commit: .../../../x. cannot be a directory name" err &&
	test_grep "failed in the VM (vm_bad_data: 1)" out &&
	d=$(sed -n "s/.* -> //p" out) &&
	test_grep "^vm_bad_data: 1$" "$d/last_state"
'

test_expect_success 'V4: the guest job.yaml does not choose the group (attack 5)' '
	rm -rf bad && cp -r send bad &&
	rm -rf bad/r/0/sub bad/r/0/programs &&
	sed -i -e "s|^testcase: .*|testcase: victim|" -e "s|^commit: .*|commit: deadbeef|" \
		bad/r/0/job.yaml &&
	echo "extra_param: 1" >>bad/r/0/job.yaml &&
	(cd bad && tar czf "$GUEST_TAR" .) &&
	perfsift run job.yaml --kernel bzImage >out 2>err &&
	test_grep "run 1 of 1 -> $PERFSIFT_RESULT_ROOT/vmg/.*/6.1.0-guest/[0-9]" out &&
	! test -e "$PERFSIFT_RESULT_ROOT/victim" &&
	test -z "$(find "$PERFSIFT_RESULT_ROOT" -path "*deadbeef*")" &&
	d=$(sed -n "s/.* -> //p" out) &&
	! grep -q extra_param "$d/job.yaml" &&
	test_grep "^testcase: vmg$" "$d/job.yaml"
'

test_expect_success 'a guest last_state line with ESC is not kept' '
	rm -rf bad && cp -r send bad &&
	rm -rf bad/r/0/sub bad/r/0/programs &&
	printf "running: 1\n\033]0;owned\007: 1\n" >bad/r/0/last_state &&
	(cd bad && tar czf "$GUEST_TAR" .) &&
	perfsift run job.yaml --kernel bzImage >out 2>err &&
	d=$(find "$PERFSIFT_RESULT_ROOT" -name last_state -newer "$GUEST_TAR" | head -n 1) &&
	test_grep "^running: 1$" "$d" &&
	! LC_ALL=C grep -q "$(printf "\033")" "$d"
'

test_expect_success 'V6: a guest tar of more than 10000 entries: not taken (attack 5)' '
	python3 - <<-\EOT &&
	import io, tarfile
	with tarfile.open("guest.tgz", "w:gz") as t:
	    for i in range(10001):
	        ti = tarfile.TarInfo("./r/0/f%d" % i)
	        t.addfile(ti, io.BytesIO(b""))
	EOT
	test_must_fail --status=3 perfsift run job.yaml --kernel bzImage >out 2>err &&
	test_grep "holds more than 10000 entries; not taken" err &&
	test -z "$(find "$PERFSIFT_RESULT_ROOT" -name f10000)"
'

test_expect_success 'a FIFO as the kernel image: refused at once, no hang' '
	mkfifo kfifo &&
	test_must_fail --status=2 timeout -s KILL 30 "$PERFSIFT" run job.yaml --kernel kfifo 2>err &&
	test_grep "kfifo: not a Linux kernel image (not a regular file)" err
'

test_expect_success 'a compression bomb: cut at PERFSIFT_VM_RUN_MAX, nothing of it kept' '
	mkdir -p bomb/r &&
	cp -r send/r/0 bomb/r/0 &&
	rm -rf bomb/r/0/sub bomb/r/0/programs &&
	head -c 30000000 /dev/zero >bomb/r/0/big &&
	(cd bomb && tar czf "$GUEST_TAR" .) &&
	rm -rf bomb &&
	test "$(wc -c <"$GUEST_TAR")" -lt 100000 &&
	PERFSIFT_VM_RUN_MAX=10 test_must_fail --status=3 \
		perfsift run job.yaml --kernel bzImage >out 2>err &&
	test_grep "unpacks to more than 10 MiB (PERFSIFT_VM_RUN_MAX); not taken" err &&
	test -z "$(find "$PERFSIFT_RESULT_ROOT" -name big)"
'

test_done
