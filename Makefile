# Makefile: builds perfsift, its unit tests and its benchmarks.
#
#   make                       build/perfsift
#   make check                 unit tests (cmocka) + end-to-end tests (sh), via prove
#   make DEVELOPER=1           warnings are errors
#   make SANITIZE=address,undefined check   sanitizer build (in build/san)
#   make bench                 the programs under bench/
#   make install PREFIX=/usr/local
#   make lint                  cppcheck, shellcheck, no vacuous test, .c comment ratio (part of check)
#   make check-headers         each header compiles on its own (part of check)
#   make check-includes        the folders' include graph has no new cycle (part of check)
#   make fuzz                  each libFuzzer harness for FUZZ_TIME s (by hand)
#   make fuzz-check            each harness for FUZZ_RUNS inputs (part of check)
#   make fuzz-corpus           minimize tests/fuzz/corpus/ (after adding seeds)

PKG_CONFIG ?= pkg-config
CC         ?= cc
CFLAGS     ?= -O2 -g
PREFIX     ?= /usr/local
PKGS       := yaml-0.1 sqlite3 jansson gsl libelf
# loaded on first use (src/util/dynlib.c): headers only, not linked
LAZY_PKGS  := libarchive

# test hooks (src/util/fault.h) in the builds the tests run
ifneq ($(DEVELOPER)$(SANITIZE),)
CPPFLAGS   += -DPERFSIFT_TEST_HOOKS
endif

ifdef SANITIZE
BUILD      ?= build/san
CFLAGS     += -fsanitize=$(SANITIZE) -fno-sanitize-recover=$(SANITIZE) -fno-omit-frame-pointer
LDFLAGS    += -fsanitize=$(SANITIZE)
else
BUILD      ?= build
endif

ifeq ($(shell $(PKG_CONFIG) --exists libpq && echo 1),1)
LAZY_PKGS  += libpq
CPPFLAGS   += -DHAVE_LIBPQ=1
endif

CPPFLAGS   += -Isrc $(shell $(PKG_CONFIG) --cflags $(PKGS) $(LAZY_PKGS))
LDLIBS     += $(shell $(PKG_CONFIG) --libs $(PKGS)) -ldl -lm -lpthread
# the tests may read what perfsift wrote with the libraries themselves
LAZY_LIBS  := $(shell $(PKG_CONFIG) --libs $(LAZY_PKGS))
STD        := -std=c11
WARN       := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
              -Wmissing-prototypes -Wvla -Wwrite-strings -Wformat=2 \
              -Wno-format-nonliteral
ifeq ($(DEVELOPER),1)
WARN       += -Werror
endif
ALL_CFLAGS  = $(STD) $(WARN) $(CFLAGS) -MMD -MP

# one folder per pipeline stage and per family (docs/design.md); the
# commands (src/cmd/) and main.c make the program, the rest the library
LIB_SRC    := $(filter-out src/cmd/%.c,$(wildcard src/*/*.c))
CMD_SRC    := src/main.c $(wildcard src/cmd/*.c)
UNIT_SRC   := $(wildcard tests/unit/test_*.c)
UNITS      := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
E2E        := $(sort $(wildcard tests/e2e/t[0-9]*.sh))
BENCH_SRC  := $(wildcard bench/*.c)
BENCHES    := $(patsubst bench/%.c,$(BUILD)/bench/%,$(BENCH_SRC))
# what the bench programs share (timing a child, medians): linked into each
BENCH_LIB  := $(patsubst %.c,$(BUILD)/%.o,$(wildcard bench/lib/*.c))
LIB        := $(BUILD)/libcore.a
BIN        := $(BUILD)/perfsift
CMOCKA_CFLAGS := $(shell $(PKG_CONFIG) --cflags cmocka)
CMOCKA_LIBS   := $(shell $(PKG_CONFIG) --libs cmocka)
PROVE_JOBS ?= 2

all: $(BIN)

# Objects depend on the flags they were built with, as git's GIT-CFLAGS:
# `make` and then `make DEVELOPER=1 check` in the same tree (the README's
# two commands, in order) must not reuse objects compiled without the test
# hooks.  FLAGS is rewritten only when the flags differ, so an unchanged
# build stays incremental.
# track_flags FILE,FLAGS: the rule body that keeps FILE equal to FLAGS
track_flags = @mkdir -p $(@D); flags='$(subst ','\'',$(2))'; \
	if test x"$$flags" != x"$$(cat $(1) 2>/dev/null)"; then \
	  test -e $(1) && echo "flags changed: rebuilding $(@D)" >&2; \
	  printf '%s\n' "$$flags" >$(1); fi

$(BUILD)/FLAGS: FORCE
	$(call track_flags,$@,$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(LDFLAGS) $(LDLIBS))

$(BUILD)/%.o: %.c $(BUILD)/FLAGS
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(LIB): $(LIB_SRC:%.c=$(BUILD)/%.o)
	@rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(CMD_SRC:%.c=$(BUILD)/%.o) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/unit/%.o: private CPPFLAGS += $(CMOCKA_CFLAGS) -Itests/unit
$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS) $(LAZY_LIBS) $(CMOCKA_LIBS)

$(BUILD)/bench/%.o: private CPPFLAGS += -Ibench
$(BUILD)/bench/%: $(BUILD)/bench/%.o $(BENCH_LIB) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

units: $(UNITS)
bench: $(BIN) $(BENCHES)

# libFuzzer harnesses (tests/fuzz/, docs/security.md "Fuzzing"): the core
# library again, built by clang with the fuzzer's coverage and ASan+UBSan,
# in build/fuzz.  New inputs go to build/fuzz/new-*, never into the corpus
# in the repository.
FUZZ_CC     ?= clang
FUZZ_BUILD  := build/fuzz
FUZZ_CFLAGS := -g -O1 -fsanitize=fuzzer-no-link,address,undefined \
               -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_SRC    := $(wildcard tests/fuzz/fuzz_*.c)
FUZZERS     := $(patsubst tests/fuzz/%.c,$(FUZZ_BUILD)/%,$(FUZZ_SRC))
FUZZ_LIB    := $(FUZZ_BUILD)/libcore.a
FUZZ_RUNS   ?= 4000
# check's fuzzing is a regression test, the same inputs every time: a new
# finding belongs to `make fuzz` (random seeds, by hand), not to a CI pass
# that fails on another day's luck
FUZZ_SEED   ?= 1
FUZZ_TIME   ?= 300
FUZZ_OPTS   := -max_len=65536 -timeout=10 -rss_limit_mb=2048 -print_final_stats=0

$(FUZZ_BUILD)/FLAGS: FORCE
	$(call track_flags,$@,$(FUZZ_CC) $(CPPFLAGS) $(STD) $(WARN) $(FUZZ_CFLAGS))

$(FUZZ_BUILD)/%.o: %.c $(FUZZ_BUILD)/FLAGS
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(STD) $(WARN) $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

$(FUZZ_LIB): $(LIB_SRC:%.c=$(FUZZ_BUILD)/%.o)
	@rm -f $@
	$(AR) rcs $@ $^

$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/tests/fuzz/fuzz_%.o $(FUZZ_LIB)
	$(FUZZ_CC) -fsanitize=fuzzer,address,undefined -o $@ $^ $(LDLIBS) $(LAZY_LIBS)

# fuzz_run MODE: every harness over its corpus (MODE: -runs=N or -max_total_time=S)
fuzz_run = for f in $(FUZZERS); do n=$${f\#\#*/fuzz_}; \
	  mkdir -p $(FUZZ_BUILD)/new-$$n && \
	  echo "fuzz $$n: $(1)" && \
	  $$f $(1) $(FUZZ_OPTS) -artifact_prefix=$(FUZZ_BUILD)/crash-$$n- \
	    $(FUZZ_BUILD)/new-$$n tests/fuzz/corpus/$$n >$(FUZZ_BUILD)/$$n.log 2>&1 || \
	  { tail -n 60 $(FUZZ_BUILD)/$$n.log; exit 1; }; done

fuzz-check: $(FUZZERS)
	@$(call fuzz_run,-runs=$(FUZZ_RUNS) -seed=$(FUZZ_SEED))

fuzz: $(FUZZERS)
	@$(call fuzz_run,-max_total_time=$(FUZZ_TIME))

fuzz-corpus: $(FUZZERS)
	@for f in $(FUZZERS); do n=$${f##*/fuzz_}; rm -rf $(FUZZ_BUILD)/min-$$n && \
	  mkdir -p $(FUZZ_BUILD)/min-$$n && \
	  $$f -merge=1 $(FUZZ_OPTS) $(FUZZ_BUILD)/min-$$n tests/fuzz/corpus/$$n \
	    >$(FUZZ_BUILD)/$$n.log 2>&1 && \
	  rm -rf tests/fuzz/corpus/$$n && mv $(FUZZ_BUILD)/min-$$n tests/fuzz/corpus/$$n || exit 1; done

# the fuzzers and the linters run once per CI pass: in the plain check, not
# the sanitizer one (the README's test command, which .ci/run runs, is
# `make check` twice; lint and check-headers read the sources, not a build)
ifndef SANITIZE
CHECK_FUZZ := fuzz-check
CHECK_LINT := check-headers check-includes lint
endif

# One runner for both layers, one closing line (prove's summary) for CI.
check: $(CHECK_LINT) $(BIN) $(UNITS) $(BENCHES) $(CHECK_FUZZ)
	@chmod +x $(E2E) 2>/dev/null || true
	CMOCKA_MESSAGE_OUTPUT=TAP PERFSIFT=$(abspath $(BIN)) \
	  PERFSIFT_TESTDATA=$(abspath tests/data) PERFSIFT_BUILD=$(abspath $(BUILD)) \
	  prove -j$(PROVE_JOBS) --exec '' $(UNITS) $(E2E)

install: $(BIN)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/perfsift/jobs
	install -m 755 $(BIN) $(DESTDIR)$(PREFIX)/bin/perfsift
	cp -r jobs/. $(DESTDIR)$(PREFIX)/share/perfsift/jobs/

check-headers:
	@for h in $(wildcard src/*.h src/*/*.h); do \
	  $(CC) $(CPPFLAGS) $(STD) $(WARN) -fsyntax-only -xc $$h || exit 1; done

# the folders' include graph has no cycle but the named exceptions
# (tests/lint/include-graph.allow; docs/design.md draws the graph)
check-includes:
	@scripts/include-graph --check

lint:
	cppcheck --enable=warning,portability,performance --error-exitcode=1 \
	  --inline-suppr --quiet --std=c11 -Isrc \
	  --include=tests/lint/cppcheck-macros.h src
	shellcheck -s sh tests/e2e/*.sh scripts/*
	shellcheck .ci/run
	scripts/test-vacuous
	scripts/comment-ratio -c -m 0.15
	scripts/doc-names

clean:
	rm -rf build

FORCE:

.PHONY: all units bench check install check-headers check-includes lint clean fuzz fuzz-check fuzz-corpus FORCE
.SECONDARY:
-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
