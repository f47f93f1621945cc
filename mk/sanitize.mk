# mk/sanitize.mk - `make check SANITIZE=address,undefined` / `SANITIZE=thread`
# (docs/install.md, "Sanitizer suites"). Included by the GNUmakefile after
# the flags and before the object lists, so that BUILD can still move.
#
# Each sanitizer gets its own tree (build/asan, build/tsan, build/san-NAME)
# so the plain build/ is never touched. The flags ride on CC because every
# compile *and* link line of the runtime and the CLI uses CC: the runtime,
# ringbuf/, analyzers/ and the CLI are sanitized with no recipe changed.
#
# The plugin (CXX) gets UBSan only, when SANITIZE has it. It runs inside
# cc1, which is not built with ASan or TSan: their runtimes would have to
# be LD_PRELOADed into every gcc, cc1, as and collect2 process of every
# test, with leak checking off (GCC frees nothing on purpose), and most of
# what the plugin touches lives in GCC's garbage-collected pools, where ASan
# sees no redzones; TSan has nothing to see in single-threaded cc1. UBSan's
# runtime needs no preloading: it comes in with the plugin when cc1
# dlopens it, and its reports go where the suite's do.
#
# The build writes $(BUILD)/sanitize.env: tests/lib/tap.sh and the Perl
# test helpers read it to compile the programs under test with the same
# flags (a sanitized libpathprof.so only loads into a program built with
# its sanitizer: the ASan runtime must come first).
SANITIZE ?=
ifneq ($(SANITIZE),)
comma := ,
SAN_NAME := $(if $(filter thread,$(SANITIZE)),tsan,$(if $(filter address$(comma)undefined undefined$(comma)address address,$(SANITIZE)),asan,san-$(subst $(comma),-,$(SANITIZE))))
# No recovery: a report must fail the run that made it, not scroll by.
SAN_FLAGS := -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer
BUILD := $(BUILD)/$(SAN_NAME)
CC += $(SAN_FLAGS)
SAN_PLUGIN_FLAGS := $(if $(filter undefined,$(subst $(comma), ,$(SANITIZE))),-fsanitize=undefined -fno-sanitize-recover=all)
CXX += $(SAN_PLUGIN_FLAGS)

# Written when the flags differ from the tree's (make tracks no flags, so
# the tree is then rebuilt from scratch).
SAN_ENV_FILE := $(BUILD)/sanitize.env
define SAN_ENV_TEXT
PP_SANITIZE='$(SANITIZE)'
PP_SAN_CFLAGS='$(SAN_FLAGS)'
PP_SAN_PLUGIN_FLAGS='$(SAN_PLUGIN_FLAGS)'
endef
ifneq ($(file <$(SAN_ENV_FILE)),$(SAN_ENV_TEXT))
$(shell rm -rf $(BUILD)/obj $(BUILD)/lib $(BUILD)/bin && mkdir -p $(BUILD))
$(file >$(SAN_ENV_FILE),$(SAN_ENV_TEXT))
endif

# Every report goes to a file under $(SAN_LOGS) instead of stderr:
# scripts/run-test.sh fails a test that left one (a report from a program
# a test expected to fail would otherwise pass unseen), and shows it.
# Sanitized programs run 2-15 times slower: each test gets 1800 s, not 600.
# TSan cannot start threads in the child of a multithreaded fork, which the
# runtime does by design (it restarts its analyzers there): tests about
# fork are skipped under it, and die_after_fork stays on (with it off TSan
# reports a "dup thread" or hangs).
# TSan's own start-up (before main, before its runtime is ready) installs
# its signal handlers through sigaction, which libpathprof.so wraps
# (runtime/signal-wrap.c): an instrumented wrapper then called into TSan's
# unready runtime and every program crashed before main.  The wrapper and
# the lookup of the C library's function behind it (libc-next.c) are
# therefore built without TSan; they hold no state another thread races on
# but the handler table, which is atomic.
ifneq ($(filter thread,$(subst $(comma), ,$(SANITIZE))),)
$(BUILD)/obj/runtime/signal-wrap.o $(BUILD)/obj/runtime/libc-next.o: CFLAGS += -fno-sanitize=thread
endif

SAN_LOGS := $(abspath $(BUILD))/reports
SAN_TEST_ENV := PATHPROF_BUILD=$(abspath $(BUILD)) PP_SANITIZER_LOGS=$(SAN_LOGS) \
    PATHPROF_TEST_TIMEOUT=$(or $(PATHPROF_TEST_TIMEOUT),1800) \
    ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    TSAN_OPTIONS=halt_on_error=0:second_deadlock_stack=1
endif
