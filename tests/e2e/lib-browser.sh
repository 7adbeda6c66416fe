# lib-browser.sh: headless Chromium for the end-to-end tests of perfsift's
# HTML pages (after lib.sh).  Debian's chromium, with everything that would
# reach the network or the user's profile turned off: the pages must work
# offline (their CSP forbids any load), and a test must not depend on, or
# leave, state outside its own directory.
#
#   browser_available || skip           true when chromium is installed
#   chrome ARGS... URL                   run it; stdout is chromium's
#                                        (--dump-dom: the DOM after the
#                                        page's script ran), stderr dropped
#
# Every call shares one profile in $TEST_TMP (chromium wants a writable
# one); the timeout bounds a browser that hangs, not the test's speed.

browser_available() {
	command -v chromium >/dev/null 2>&1
}

chrome() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update \
		--disable-sync --no-first-run --user-data-dir="$TEST_TMP/profile" \
		"$@" 2>/dev/null
}
