#!/bin/sh
# shellcheck disable=SC2016
# t9370: the fifth attack's findings on the VM path (docs/attack-5.md).
# The kernel under test and the files beside it are another party's
# (a robot's build_user, a lab's build): a config-R beside the image
# that is a link must not carry a root-only file into the guest (E1),
# the image's release must be a plain name (V3), the guest's output is
# shown escaped (V1), qemu dies with a SIGKILLed perfsift (V2) and its
# serial files are bounded (V5), an --append longer than the image takes
# is refused (A1), a bisect's build that leaves a FIFO as the kernel does
# not hang it (K1), and its kept kernels are told apart by --kernel and
# --build (K2).
# qemu is a stand-in on PATH, as in t9303: the host's side is the real one.
. "$(dirname "$0")/lib.sh"

if ! command -v python3 >/dev/null; then
	test_skip 'the VM path' 'python3 is missing (scripts/install-deps)'
	test_done
fi

# mkimage FILE RELEASE: a file with an x86 boot header naming RELEASE
mkimage() {
	python3 - "$1" "$2" <<-\EOT
	import sys
	h = bytearray(0x1000)
	h[0x1fe:0x200] = b"\x55\xaa"
	h[0x202:0x206] = b"HdrS"
	h[0x206:0x208] = b"\x0f\x02"
	h[0x20e:0x210] = (0x300).to_bytes(2, "little")
	s = sys.argv[2].encode() + b" (gcc-12 (Debian 12.2.0-14) 12.2.0) #1 SMP\0"
	h[0x500:0x500 + len(s)] = s
	open(sys.argv[1], "wb").write(h)
	EOT
}

mkdir bin img &&
mkimage img/bzImage 6.1.0-guest &&
cat >bin/qemu-system-x86_64 <<'EOT' &&
#!/bin/sh
# the stand-in: what the guest would see and say, from the test's files
n=0 initrd=
prev=
for a; do
	case $prev in -initrd) initrd=$a ;; -kernel) kernel=$a ;; esac
	prev=$a
	case $a in file:*) n=$((n + 1))
		case $n in 1) con=${a#file:} ;; 3) outp=${a#file:} ;; esac ;;
	esac
done
cp "$initrd" "$TEST_TMP/initrd.seen"
grep -a -o "6\.1\.0-[a-z]*" "$kernel" | head -n 1 >>"$TEST_TMP/booted"
echo $$ >"$TEST_TMP/qemu.pid"
if [ -n "$GUEST_HANG" ]; then
	exec sleep 1000
fi
cat "$TEST_TMP/console" >"$con"
if [ -n "$GUEST_FLOOD" ]; then
	head -c 3000000 /dev/zero >>"$con"
	wc -c <"$con" >"$TEST_TMP/con.size"
fi
cat "$TEST_TMP/output" >"$outp"
EOT
chmod +x bin/qemu-system-x86_64
PATH=$TEST_TMP/bin:$PATH
PERFSIFT_VM_ACCEL=tcg
export PATH PERFSIFT_VM_ACCEL TEST_TMP
# a guest that booted and said nothing more: a failed run from the console
printf '%s\n' 'Linux version 6.1.0-guest' 'perfsift-guest: job starts' >console
: >output
printf 'testcase: vmg\nmytest:\n  cmdline: "echo x: 1"\n' >job.yaml
echo "root-only-$$" >secret && chmod 600 secret

test_expect_success 'E1: a config-R beside the image that is a link: not put in the guest' '
	ln -s "$TEST_TMP/secret" img/config-6.1.0-guest &&
	test_must_fail --status=3 perfsift run job.yaml --kernel img/bzImage >out 2>err &&
	test -f initrd.seen &&
	! grep -q "root-only-$$" initrd.seen &&
	test_grep "config-6.1.0-guest. is not put in the guest: a symbolic link" err
'

test_expect_success 'E1: a config-R of two links (one outside): not put in the guest' '
	rm -f img/config-6.1.0-guest initrd.seen &&
	echo "hard-$$" >outside &&
	ln outside img/config-6.1.0-guest &&
	test_must_fail --status=3 perfsift run job.yaml --kernel img/bzImage >out 2>err &&
	! grep -q "hard-$$" initrd.seen &&
	test_grep "it has 2 names (a hard link)" err
'

test_expect_success 'a plain config-R still goes in, as /boot/config-R' '
	rm -f img/config-6.1.0-guest initrd.seen &&
	echo "CONFIG_X86=y-$$" >img/config-6.1.0-guest &&
	test_must_fail --status=3 perfsift run job.yaml --kernel img/bzImage >out 2>err &&
	grep -q "CONFIG_X86=y-$$" initrd.seen &&
	grep -a -q "boot/config-6.1.0-guest" initrd.seen
'

for rel in "" "x/../../../root" ".." "a$(printf "\033")[2J"; do
	test_expect_success "V3: an image whose release is no plain name ('$(printf %s "$rel" | tr -c "a-z0-9./" _)'): refused" '
		mkimage img/bad "$rel" &&
		test_must_fail --status=2 perfsift run job.yaml --kernel img/bad >out 2>err &&
		test_grep "no plain name" err &&
		! LC_ALL=C grep -q "$(printf "\033")" err
	'
done

test_expect_success 'V1: the guest output shown after a failed run is escaped' '
	printf "\033]0;owned\007 \033[2J \302\233H\n" >output &&
	test_must_fail --status=3 perfsift run job.yaml --kernel img/bzImage >out 2>err &&
	test_grep "failed in the VM" out &&
	test_grep "x1b]0;owned" err &&
	! LC_ALL=C grep -q "$(printf "\033")" err &&
	! LC_ALL=C grep -q "$(printf "\233")" err
'

test_expect_success 'V2: qemu dies with a SIGKILLed perfsift' '
	rm -f qemu.pid perfsift.pid &&
	{ GUEST_HANG=1 sh -c "echo \$\$ >perfsift.pid; exec \"\$PERFSIFT\" run job.yaml --kernel img/bzImage" >out 2>err & } &&
	i=0 &&
	while ! test -s qemu.pid && test $i -lt 300; do sleep 0.1; i=$((i + 1)); done &&
	p=$(cat perfsift.pid) &&
	kill -0 "$p" &&
	q=$(cat qemu.pid) &&
	kill -0 "$q" &&
	kill -9 $p &&
	i=0 &&
	while kill -0 "$q" 2>/dev/null && test $i -lt 300; do sleep 0.1; i=$((i + 1)); done &&
	if kill -0 "$q" 2>/dev/null; then kill "$q"; echo "qemu $q outlived perfsift" >&2; false; fi
'

test_expect_success 'K1: a bisect whose build leaves a FIFO as the kernel: skipped, no hang' '
	git init -q repo &&
	for i in 1 2 3; do
		echo $i >repo/f && git -C repo add f &&
		git -C repo -c user.name=t -c user.email=t@t commit -q -m c$i || return 1
	done &&
	g=$(git -C repo rev-list --max-parents=0 HEAD) &&
	test_must_fail --status=3 timeout -s KILL 300 "$PERFSIFT" bisect --repo repo \
		--good "$g" --bad HEAD --build "rm -f kf; mkfifo kf" --kernel kf \
		-n 1 --no-confirm job.yaml >out 2>err &&
	test_grep "the build made no kernel .*kf" err
'

test_expect_success 'V5: a guest flooding its serial port is cut at PERFSIFT_VM_RUN_MAX' '
	rm -f con.size &&
	GUEST_FLOOD=1 PERFSIFT_VM_RUN_MAX=1 test_must_fail --status=3 \
		perfsift run job.yaml --kernel img/bzImage >out 2>err &&
	test "$(cat con.size)" -le 1048576
'

test_expect_success 'A1: an --append past the image cmdline_size: refused at once' '
	python3 -c "import sys; f = open(sys.argv[1], \"r+b\"); f.seek(0x238); f.write((2047).to_bytes(4, \"little\"))" img/bzImage &&
	long=$(head -c 2000 /dev/zero | tr "\\0" x) &&
	rm -f initrd.seen &&
	mkdir -p "$PERFSIFT_RESULT_ROOT" &&
	find "$PERFSIFT_RESULT_ROOT" | sort >root.before &&
	test_must_fail --status=2 perfsift run job.yaml --kernel img/bzImage --append "a=$long" 2>err &&
	test_grep "would be 2060 bytes; this kernel takes at most 2047" err &&
	test "$(wc -l <err)" = 1 &&
	! test -e initrd.seen &&
	find "$PERFSIFT_RESULT_ROOT" | sort >root.after &&
	test_cmp root.before root.after &&
	test_must_fail --status=3 perfsift run job.yaml --kernel img/bzImage --append "a=x" 2>err &&
	test -e initrd.seen
'

test_expect_success 'K2: a bisect again on its kept worktree with another --kernel boots the new images' '
	mkimage ka 6.1.0-first &&
	mkimage kb 6.1.0-second &&
	g=$(git -C repo rev-list --max-parents=0 HEAD) &&
	rm -f booted &&
	{ timeout -s KILL 300 "$PERFSIFT" bisect --repo repo --worktree wtk --keep-worktree \
		--good "$g" --bad HEAD --build "cp $TEST_TMP/ka k1" --kernel k1 \
		-n 1 --no-confirm job.yaml >out 2>err || :; } &&
	test_grep "6.1.0-first" booted &&
	rm -f booted &&
	{ timeout -s KILL 300 "$PERFSIFT" bisect --repo repo --worktree wtk --keep-worktree \
		--good "$g" --bad HEAD --build "cp $TEST_TMP/kb k2" --kernel k2 \
		-n 1 --no-confirm job.yaml >out 2>err || :; } &&
	test_grep "6.1.0-second" booted &&
	! grep -q "6.1.0-first" booted
'

test_expect_when 'test -r /dev/kvm && test -w /dev/kvm' 'no /dev/kvm to probe' \
	'V7: a FIFO as the KVM probe verdict blocks no run' '
	mkdir -p vc && rm -f vc/vm-accel && mkfifo vc/vm-accel &&
	{ PERFSIFT_VM_ACCEL= PERFSIFT_VM_CACHE=$TEST_TMP/vc timeout -s KILL 60 \
		"$PERFSIFT" run job.yaml --kernel img/bzImage >out 2>err; st=$?; } &&
	test "$st" = 3 &&
	test_grep "probing KVM" out
'

test_expect_success 'M1: --vm-memory 0 says why' '
	test_must_fail --status=2 perfsift run job.yaml --kernel img/bzImage --vm-memory 0 2>err &&
	test_grep "vm-memory .0.: at least 128M" err
'

test_done
