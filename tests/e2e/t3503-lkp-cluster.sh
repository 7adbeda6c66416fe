#!/bin/sh
# shellcheck disable=SC1091,SC2016
# t3503: LKP's jobs/iperf.yaml, unchanged: `cluster: cs-localhost` (one host
# with the roles [server, client]) runs both roles on this box -- LKP's
# iperf-server daemon started before the benchmark and stopped after it,
# the iperf client as the benchmark, over loopback; its protocols make two
# groups with iperf's stats.  A cluster of several hosts, a role without a
# cluster and a cluster file that does not exist are refused: exit 2,
# FILE:LINE: KEY:, nothing written.
. "$(dirname "$0")/lib.sh"
. "$SRCDIR/tests/e2e/lib-lkp.sh"
. "$SRCDIR/tests/e2e/lib-programs.sh"

if ! command -v iperf3 >/dev/null || ! command -v ruby >/dev/null; then
	test_skip "iperf on cs-localhost" "iperf3 or ruby is not installed (scripts/install-deps)"
	test_done
fi

test_expect_success 'jobs/iperf.yaml runs both roles here: two groups with iperf stats' '
	test_exclusive && # iperf3 listens on its fixed port 5201
	perfsift run --lkp-src "$LKP" --set runtime=1 "$LKP/jobs/iperf.yaml" >out 2>err ||
		{ cat out err; false; } &&
	lkp_runs iperf >runs &&
	test $(wc -l <runs) -eq 2 &&
	tcp=$(grep /tcp-1/ runs) && udp=$(grep /udp-1/ runs) &&
	stat_positive "$tcp" iperf.tcp.sender.bps &&
	stat_positive "$udp" iperf.udp.bps &&
	test_grep "^iperf3 --server --daemon" "$tcp/reproduce.sh" &&
	test_grep "iperf3 -t 1 -J -c 127.0.0.1" "$tcp/reproduce.sh" &&
	test_grep "^iperf-server: daemon .*/programs/iperf-server/daemon started" out
'

test_expect_success 'the daemon is stopped after the benchmark: nothing of it is left' '
	! pgrep -f "^iperf3 --server --daemon" >/dev/null
'

test_expect_success 'split writes each role merged in: the server role a daemon beside the client' '
	perfsift split --lkp-src "$LKP" -o split "$LKP/jobs/iperf.yaml" >out &&
	test_grep "^iperf-server:" split/iperf-tcp-300s.yaml &&
	test_grep "^  protocol: tcp" split/iperf-tcp-300s.yaml &&
	! grep -q "if role" split/iperf-tcp-300s.yaml
'

test_expect_success 'a cluster of two hosts is refused, naming them' '
	printf "srv:\n  roles: [ server ]\ncli:\n  roles: [ client ]\n" >"$LKP/cluster/cs-two" &&
	sed "s/cs-localhost/cs-two/" "$LKP/jobs/iperf.yaml" >two.yaml &&
	(
		PERFSIFT_RESULT_ROOT=$TEST_TMP/r2 && export PERFSIFT_RESULT_ROOT &&
		test_must_fail --status=2 perfsift run --lkp-src "$LKP" two.yaml >out 2>err
	) &&
	test_grep "two.yaml:7: cluster: .*cluster/cs-two has 2 hosts (srv, cli): perfsift runs a cluster on this one box only" err &&
	! test -e r2
'

test_expect_success 'a role without a cluster, or a cluster file that is not there: exit 2' '
	sed "/^cluster:/d" "$LKP/jobs/iperf.yaml" >nocl.yaml &&
	test_must_fail --status=2 perfsift run --lkp-src "$LKP" nocl.yaml 2>err &&
	test_grep "nocl.yaml:8: if role server: a role needs .cluster:." err &&
	sed "s/cs-localhost/cs-nowhere/" "$LKP/jobs/iperf.yaml" >nof.yaml &&
	test_must_fail --status=2 perfsift run --lkp-src "$LKP" nof.yaml 2>err &&
	test_grep "nof.yaml:7: cluster: no cluster file $LKP/cluster/cs-nowhere" err &&
	! test -e "$PERFSIFT_RESULT_ROOT/iperf/cs-nowhere"
'

test_done
