# review-lsp build: one binary (server + batch CLI), its tests, the demo and the benchmarks.
# Libraries come from Debian's -dev packages through pkg-config; the two tree-sitter grammars
# are fetched from the npm registry at pinned versions (checked against their integrity hashes)
# into the build directory and are never committed.

BUILD   ?= build
CC      ?= cc
CXX     ?= g++
PKGS    := jansson libgit2 libpcre2-8 libuv tree-sitter
VERSION := 0.1.0

CFLAGS_BASE := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-unused-parameter \
               -I. -I$(BUILD)/gen -DREVIEW_LSP_VERSION='"$(VERSION)"'
# The one C++ translation unit (engine/toml_read.cpp: TOML through Debian's header-only cpptoml)
CXXFLAGS_BASE := -std=c++17 -Wall -Wextra -Werror -I.
OPT      ?= -O2 -g
SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

GRAMMAR_DIR := $(BUILD)/grammars
PY_GRAMMAR  := tree-sitter-python@0.21.0
PY_SHA512   := IUKx7JcTVbByUx1iHGFS/QsIjx7pqwTMHL9bl/NGyhyyydbfNrpruo2C7W6V4KZrbkkCOlX8QVrCoGOFW5qecg==
CPP_GRAMMAR := tree-sitter-cpp@0.22.3
CPP_SHA512  := p7w5903L/koqTQFVDwyyX0vjioxoZu2G4zT2ZHVG8DvLQbWN6OjNAqfMsCi+WdVkfMgU+7j06hS8i3j6Q0sPNQ==

SRC_ENGINE := $(sort $(wildcard engine/*.c engine/collectors/*.c))
SRC_CXX    := $(sort $(wildcard engine/*.cpp))
SRC_LSP    := $(sort $(wildcard lsp/*.c))
SRC_CLI    := $(sort $(wildcard cli/*.c))
SRC_ALL    := $(SRC_ENGINE) $(SRC_LSP) $(SRC_CLI)
GRAMMAR_OBJS_NAMES := python_parser python_scanner cpp_parser cpp_scanner
EMBED_NAMES := rules_md families_txt precision_txt

.PHONY: all deps grammars test unit-test demo clean sanitize valgrind bench e2e vscode install help tsan \
        fuzz fuzz-build fuzz-maybe
all: $(BUILD)/review-lsp

help:
	@echo "make demo   build, then review a small example repository"
	@echo "make test   build with sanitizers and run every test"
	@echo "make e2e    real VS Code (code-server) end-to-end tests"
	@echo "make vscode package the VS Code extension (server included) as $(BUILD)/review-lsp-$(VERSION)-linux-x64.vsix"
	@echo 'make install PREFIX=$$HOME/.local   the server, the rules and the Neovim plugin'
	@echo "make bench  benchmarks"
	@echo "make fuzz   run every libFuzzer target for SECONDS seconds each (default 60)"
	@echo "make tsan   the protocol transcripts and parsing ahead against a ThreadSanitizer build"

# --- dependencies -----------------------------------------------------------------------------
$(BUILD)/.deps-ok: scripts/deps.sh
	@mkdir -p $(BUILD)
	@sh scripts/deps.sh
	@pkg-config --exists $(PKGS) || { echo "error: pkg-config cannot find: $(PKGS)" >&2; exit 1; }
	@test -f "$${DEPS_INCLUDE_DIR:-/usr/include}/cpptoml.h" || { echo "error: cpptoml.h is missing (libcpptoml-dev)" >&2; exit 1; }
	@touch $@
deps: $(BUILD)/.deps-ok

# --- grammars (fetched, verified, never committed) --------------------------------------------
$(GRAMMAR_DIR)/.ok: scripts/fetch-grammar.sh | $(BUILD)/.deps-ok
	@mkdir -p $(GRAMMAR_DIR)
	sh scripts/fetch-grammar.sh $(PY_GRAMMAR) $(PY_SHA512) $(GRAMMAR_DIR)/python
	sh scripts/fetch-grammar.sh $(CPP_GRAMMAR) $(CPP_SHA512) $(GRAMMAR_DIR)/cpp
	@touch $@
grammars: $(GRAMMAR_DIR)/.ok

GRAMMAR_CFLAGS := -std=c11 -O2 -g -w
$(BUILD)/grammar/python_parser.o: $(GRAMMAR_DIR)/.ok
	@mkdir -p $(dir $@); $(CC) $(GRAMMAR_CFLAGS) -I$(GRAMMAR_DIR)/python/src -c $(GRAMMAR_DIR)/python/src/parser.c -o $@
$(BUILD)/grammar/python_scanner.o: $(GRAMMAR_DIR)/.ok
	@mkdir -p $(dir $@); $(CC) $(GRAMMAR_CFLAGS) -I$(GRAMMAR_DIR)/python/src -c $(GRAMMAR_DIR)/python/src/scanner.c -o $@
$(BUILD)/grammar/cpp_parser.o: $(GRAMMAR_DIR)/.ok
	@mkdir -p $(dir $@); $(CC) $(GRAMMAR_CFLAGS) -I$(GRAMMAR_DIR)/cpp/src -c $(GRAMMAR_DIR)/cpp/src/parser.c -o $@
$(BUILD)/grammar/cpp_scanner.o: $(GRAMMAR_DIR)/.ok
	@mkdir -p $(dir $@); $(CC) $(GRAMMAR_CFLAGS) -I$(GRAMMAR_DIR)/cpp/src -c $(GRAMMAR_DIR)/cpp/src/scanner.c -o $@
GRAMMAR_OBJS := $(GRAMMAR_OBJS_NAMES:%=$(BUILD)/grammar/%.o)

# --- embedded data (the bundled rules file and the derivation table) --------------------------
$(BUILD)/gen/embedded.c: rules/rules.md rules/families.txt rules/precision.txt scripts/embed.sh
	@mkdir -p $(dir $@)
	sh scripts/embed.sh $@ rules_md=rules/rules.md families_txt=rules/families.txt precision_txt=rules/precision.txt

# --- the binary, normal and sanitizer builds --------------------------------------------------
LIBS = $(shell pkg-config --libs $(PKGS)) -lm
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS))

CXX_OBJS     := $(SRC_CXX:%.cpp=$(BUILD)/obj/%.o)
CXX_SAN_OBJS := $(SRC_CXX:%.cpp=$(BUILD)/san/%.o)
OBJS     := $(SRC_ALL:%.c=$(BUILD)/obj/%.o) $(CXX_OBJS) $(BUILD)/obj/gen/embedded.o
SAN_OBJS := $(SRC_ALL:%.c=$(BUILD)/san/%.o) $(CXX_SAN_OBJS) $(BUILD)/san/gen/embedded.o

$(BUILD)/obj/%.o: %.c | $(BUILD)/.deps-ok
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(OPT) $(PKG_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/san/%.o: %.c | $(BUILD)/.deps-ok
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) $(PKG_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/obj/%.o: %.cpp | $(BUILD)/.deps-ok
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_BASE) $(OPT) $(PKG_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/san/%.o: %.cpp | $(BUILD)/.deps-ok
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS_BASE) $(SAN_FLAGS) $(PKG_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/obj/gen/embedded.o: $(BUILD)/gen/embedded.c
	@mkdir -p $(dir $@); $(CC) -std=c11 -O2 -c $< -o $@
$(BUILD)/san/gen/embedded.o: $(BUILD)/gen/embedded.c
	@mkdir -p $(dir $@); $(CC) -std=c11 -O1 -c $< -o $@

# Linked by the C++ driver, for the C++ runtime toml_read.cpp needs.
$(BUILD)/review-lsp: $(OBJS) $(GRAMMAR_OBJS)
	$(CXX) $(OPT) -o $@ $^ $(LIBS)
$(BUILD)/review-lsp-san: $(SAN_OBJS) $(GRAMMAR_OBJS)
	$(CXX) $(SAN_FLAGS) -o $@ $^ $(LIBS)
sanitize: $(BUILD)/review-lsp-san

-include $(OBJS:.o=.d) $(SAN_OBJS:.o=.d)

# --- unit tests (C, linked against the engine objects) ----------------------------------------
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
ENGINE_SAN_OBJS := $(SRC_ENGINE:%.c=$(BUILD)/san/%.o) $(CXX_SAN_OBJS) $(BUILD)/san/gen/embedded.o
LSP_SAN_OBJS := $(SRC_LSP:%.c=$(BUILD)/san/%.o)
$(BUILD)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(ENGINE_SAN_OBJS) $(LSP_SAN_OBJS) $(GRAMMAR_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_BASE) $(SAN_FLAGS) $(PKG_CFLAGS) -c $< -o $@.o
	$(CXX) $(SAN_FLAGS) -o $@ $@.o $(ENGINE_SAN_OBJS) $(LSP_SAN_OBJS) $(GRAMMAR_OBJS) $(LIBS)
	@rm -f $@.o

# --- fuzzing (tests/fuzz): libFuzzer targets built with clang ----------------------------------
# The engine and the server are compiled again with clang's coverage instrumentation; each
# target links them with one tests/fuzz/fuzz_*.c. `make fuzz SECONDS=N` runs every target for N
# seconds on its corpus (seeds from the transcripts and fixtures, grown in $(BUILD)/fuzz/);
# `make test` builds them when clang with libFuzzer is there (or can be installed) and runs
# each for a fixed number of inputs (tests/suites/fuzz_smoke.sh).
FUZZ_CC    ?= clang
FUZZ_CXX   ?= clang++
FUZZ_FLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_SRCS  := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS  := $(FUZZ_SRCS:tests/fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_OBJS  := $(SRC_ENGINE:%.c=$(BUILD)/fuzzobj/%.o) $(SRC_CXX:%.cpp=$(BUILD)/fuzzobj/%.o) \
              $(SRC_LSP:%.c=$(BUILD)/fuzzobj/%.o) $(BUILD)/fuzzobj/gen/embedded.o
SECONDS    ?= 60

$(BUILD)/fuzzobj/%.o: %.c | $(BUILD)/.deps-ok
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CFLAGS_BASE) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link $(PKG_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/fuzzobj/%.o: %.cpp | $(BUILD)/.deps-ok
	@mkdir -p $(dir $@)
	$(FUZZ_CXX) $(CXXFLAGS_BASE) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link $(PKG_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/fuzzobj/gen/embedded.o: $(BUILD)/gen/embedded.c
	@mkdir -p $(dir $@); $(FUZZ_CC) -std=c11 -O1 -c $< -o $@
$(BUILD)/fuzz/%: tests/fuzz/%.c $(FUZZ_OBJS) $(GRAMMAR_OBJS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CFLAGS_BASE) $(FUZZ_FLAGS) -fsanitize=fuzzer $(PKG_CFLAGS) -c $< -o $@.o
	$(FUZZ_CXX) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $@.o $(FUZZ_OBJS) $(GRAMMAR_OBJS) $(LIBS)
	@rm -f $@.o
-include $(FUZZ_OBJS:.o=.d)
# Only pattern rules name these objects: without this, make would delete them as intermediate.
.SECONDARY: $(FUZZ_OBJS)

$(BUILD)/.fuzz-deps-ok: scripts/deps.sh
	@mkdir -p $(BUILD)
	@sh scripts/deps.sh --fuzz || true
	@touch $@
fuzz-build: $(BUILD)/.fuzz-deps-ok
	@$(MAKE) --no-print-directory $(FUZZ_BINS)
# Build the targets when the toolchain is there; otherwise say so (the smoke suite skips).
fuzz-maybe: $(BUILD)/.fuzz-deps-ok
	@if sh scripts/deps.sh --have-fuzzer; then $(MAKE) --no-print-directory $(FUZZ_BINS); \
	 else echo "SKIP fuzz: $(FUZZ_CC) with libFuzzer is not available and could not be installed"; fi
fuzz: fuzz-build
	@sh tests/fuzz/run.sh $(BUILD) $(SECONDS)

# --- the commands from the README -------------------------------------------------------------
test: $(BUILD)/review-lsp $(BUILD)/review-lsp-san $(BUILD)/vsix/review-lsp $(UNIT_BINS) fuzz-maybe
	@BUILD=$(BUILD) sh tests/run-all.sh

demo: $(BUILD)/review-lsp
	@sh scripts/demo.sh $(BUILD)

# The protocol transcripts against a ThreadSanitizer build (reviews run on a libuv worker
# thread: a data race between it and the loop is a report, and a report fails its transcript),
# parsing ahead (engine/syntax_ahead.c: a second thread parses the next files of a change), and
# a batch review's two reading threads (engine/collector_run.c).
# A third build, so not part of `make test`; it reuses this build's grammars.
TSAN_FLAGS := -O1 -g -fsanitize=thread -fno-omit-frame-pointer
tsan: $(GRAMMAR_OBJS)
	@mkdir -p $(BUILD)-tsan && cp -a $(BUILD)/grammars $(BUILD)/grammar $(BUILD)/.deps-ok $(BUILD)-tsan/
	@$(MAKE) --no-print-directory BUILD=$(BUILD)-tsan SAN_FLAGS="$(TSAN_FLAGS)" $(BUILD)-tsan/review-lsp-san
	@T=$$(mktemp -d) && ROOT=$$PWD BIN=$$PWD/$(BUILD)-tsan/review-lsp-san TMPD=$$T SUITE=protocol \
	  REVIEW_LSP_PRECISION_POLICY=$$PWD/tests/fixtures/precision/every-rule-at-warning.txt \
	  sh tests/suites/protocol.sh; rm -rf "$$T"
	@$(MAKE) --no-print-directory BUILD=$(BUILD)-tsan SAN_FLAGS="$(TSAN_FLAGS)" $(BUILD)-tsan/tests/test_syntax_ahead \
	  $(BUILD)-tsan/tests/test_runner_two_readers
	@TSAN_OPTIONS=halt_on_error=1 $(BUILD)-tsan/tests/test_syntax_ahead
	@TSAN_OPTIONS=halt_on_error=1 $(BUILD)-tsan/tests/test_runner_two_readers
	@T=$$(mktemp -d) && ROOT=$$PWD BIN=$$PWD/$(BUILD)-tsan/review-lsp-san TMPD=$$T SUITE=parse_ahead TSAN_OPTIONS=halt_on_error=1 \
	  REVIEW_LSP_PRECISION_POLICY=$$PWD/tests/fixtures/precision/every-rule-at-warning.txt \
	  sh tests/suites/parse_ahead.sh; rm -rf "$$T"

# AITER=/path/to/an/aiter/checkout (with an uncommitted change) adds bench/aiter_bench.py; with
# AITER_GIT, TRIAGE and AITER_WORK too, bench/vs_original.py (side by side with triage.py).
bench: $(BUILD)/review-lsp
	@AITER="$(AITER)" AITER_GIT="$(AITER_GIT)" TRIAGE="$(TRIAGE)" AITER_WORK="$(AITER_WORK)" sh bench/run.sh $(BUILD)

e2e: $(BUILD)/review-lsp $(BUILD)/vsix/review-lsp
	@BUILD=$(BUILD) bash tests/e2e/run.sh

# The server the .vsix carries: linked with an rpath of $ORIGIN (DT_RPATH, so it also covers the
# libraries' own dependencies), for the shared libraries editors/vscode/build.sh puts beside it;
# the C++ runtime is linked in statically, so it is not one more library to carry.
$(BUILD)/vsix/review-lsp: $(OBJS) $(GRAMMAR_OBJS)
	@mkdir -p $(dir $@)
	$(CXX) $(OPT) -o $@ $^ $(LIBS) -static-libstdc++ -static-libgcc -Wl,-rpath,'$$ORIGIN' -Wl,--disable-new-dtags
vscode: $(BUILD)/vsix/review-lsp
	@sh editors/vscode/build.sh $(BUILD)/vsix/review-lsp $(BUILD)/review-lsp-$(VERSION)-linux-x64.vsix

# --- install: PREFIX/bin/review-lsp, the rules under PREFIX/share/review-lsp/, the Neovim plugin
# under PREFIX/share/review-lsp/nvim (BIN_SRC: the binary to install; DESTDIR for packagers) ---
PREFIX  ?= /usr/local
BIN_SRC ?= $(BUILD)/review-lsp
SHARE    = $(DESTDIR)$(PREFIX)/share/review-lsp
install: $(BIN_SRC)
	install -d $(DESTDIR)$(PREFIX)/bin $(SHARE)/nvim/lua/review_lsp
	install -m 755 $(BIN_SRC) $(DESTDIR)$(PREFIX)/bin/review-lsp
	install -m 644 rules/rules.md rules/families.txt LICENSE $(SHARE)/
	install -m 644 editors/nvim/lua/review_lsp/*.lua $(SHARE)/nvim/lua/review_lsp/

clean:
	rm -rf $(BUILD)
