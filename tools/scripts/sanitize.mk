# tools/scripts/sanitize.mk - included by the Makefile: make sanitize, make fuzz and
# the fuzz targets' replay drivers that make test runs.
#
# Every variant writes its objects under build/VARIANT/, mirroring the
# source tree, apart from the normal objects under build/.

ALL_INC  = -Ihost -Isrc -Iglsl $(CLI_DEFS) $$(pkg-config --cflags $(PKGS) $(CLI_PKGS))
CLI_LIB_SRC := tools/glnbody/options.c tools/glnbody/md_options.c tools/glnbody/frames.c \
               tools/glnbody/md_checkpoint.c tools/glnbody/md_outputs.c tools/glnbody/interrupt.c \
               tools/glnbody/ckpt_text.c tools/glnbody/file_roles.c

# ---- make sanitize ------------------------------------------------------
# The library, the program and the suites built with ASan and UBSan (gcc),
# then the suites run against that program (GLNBODY_BIN).  Mesa's own leaks
# are suppressed by tools/scripts/lsan.supp, which names only Mesa, LLVM, EGL and
# glvnd libraries.  SANITIZE_TESTS picks the suites (default: all).
SAN_DIR   := build/sanitize
SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
             -fno-sanitize-recover=undefined
SAN_LIB_OBJ := $(addprefix $(SAN_DIR)/,$(HOST_SRC:.c=.o) $(GL_SRC:.c=.o))
SAN_CLI_OBJ := $(addprefix $(SAN_DIR)/,$(CLI_SRC_ON:.c=.o))
# check_g6_large (the GRAPE-6 calls at N = 262,144 in every mode) runs here
# only: under ASan is its point, and it is too long for make test.
SANITIZE_TESTS ?= $(TESTS) tests/check_g6_large
SAN_TESTS := $(addprefix $(SAN_DIR)/,$(SANITIZE_TESTS) $(REPLAYS))
# Any report exits 86, a status no test expects of the program (it exits 0,
# 1, 2, 130 or 143), so that a report in a run expected to fail still fails.
SAN_ENV := ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1:exitcode=86 \
           UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:exitcode=86 \
           LSAN_OPTIONS=suppressions=$(CURDIR)/tools/scripts/lsan.supp \
           GLNBODY_BIN=$(CURDIR)/$(SAN_DIR)/glnbody

$(SAN_DIR)/%.o: %.c $(HOST_H) $(GL_H) $(wildcard tools/glnbody/*.h) Makefile $(FEATURES)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SAN_FLAGS) $(ALL_INC) -c -o $@ $<

$(SAN_DIR)/libglnbody.a: $(SAN_LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(SAN_DIR)/glnbody: $(SAN_CLI_OBJ) $(SAN_DIR)/libglnbody.a
	$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@ $^ $$(pkg-config --libs $(PKGS) $(CLI_PKGS)) $(LDLIBS)

$(SAN_DIR)/tools/glnbody/report_machine.o: CFLAGS += -DNB_GIT_COMMIT='"$(NB_GIT_COMMIT)"'
$(SAN_DIR)/tools/glnbody/report_machine.o: $(B)/commit
$(SAN_DIR)/tests/check_report: TEST_PKGS := jansson

$(SAN_DIR)/tests/%: tests/%.c $(wildcard tests/*.h) $(SAN_DIR)/libglnbody.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SAN_FLAGS) $(ALL_INC) $$(pkg-config --cflags check $(TEST_PKGS)) -o $@ $< \
	    $(SAN_DIR)/libglnbody.a $$(pkg-config --libs $(PKGS) check $(TEST_PKGS)) $(LDLIBS)

$(SAN_DIR)/tests/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c tests/fuzz/fuzz_input.h \
        $(addprefix $(SAN_DIR)/,$(CLI_LIB_SRC:.c=.o)) $(SAN_DIR)/libglnbody.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SAN_FLAGS) $(ALL_INC) -Itools/glnbody -DNB_CORPUS_DIR='"tests/corpus/$*"' \
	    -o $@ $< tests/fuzz/replay.c $(addprefix $(SAN_DIR)/,$(CLI_LIB_SRC:.c=.o)) \
	    $(SAN_DIR)/libglnbody.a $$(pkg-config --libs $(PKGS)) $(LDLIBS)

# check_g6: libg6gl built with the sanitizers too; the
# drivers check_g6 runs (build/tests/g6_driver, g6_driver_f, g6_client) are the
# plain ones.
$(SAN_DIR)/tests/check_g6: tests/check_g6.c $(wildcard tests/*.h) $(SAN_DIR)/tools/g6/g6gl.o \
        $(SAN_DIR)/libglnbody.a $(G6_DRIVERS) $(B)/tests/g6_client
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SAN_FLAGS) $(ALL_INC) -Itools/g6 $$(pkg-config --cflags check) -o $@ $< \
	    $(SAN_DIR)/tools/g6/g6gl.o $(SAN_DIR)/libglnbody.a $$(pkg-config --libs $(PKGS) check) \
	    $(LDLIBS)
# The suites that link libg6gl alone, with it built with the sanitizers.
SAN_G6_SUITES := $(addprefix $(SAN_DIR)/tests/,check_g6_jmem check_g6_probe check_g6_large \
                   check_g6_accuracy)
$(SAN_G6_SUITES): $(SAN_DIR)/tests/%: tests/%.c $(wildcard tests/*.h) \
        $(SAN_DIR)/tools/g6/g6gl.o $(SAN_DIR)/libglnbody.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SAN_FLAGS) $(ALL_INC) -Itools/g6 $$(pkg-config --cflags check) -o $@ $< \
	    $(SAN_DIR)/tools/g6/g6gl.o $(SAN_DIR)/libglnbody.a $$(pkg-config --libs $(PKGS) check) \
	    $(LDLIBS)

sanitize: all $(SAN_DIR)/glnbody $(SAN_TESTS)
	@$(SAN_ENV) tools/scripts/run_tests.sh $(SAN_TESTS)

# ---- the replay drivers of make test -------------------------------------
# Each fuzz target with tests/fuzz/replay.c's main instead of libFuzzer's:
# runs every file of tests/corpus/NAME/ through it (gcc, no clang needed).
$(B)/tests/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c tests/fuzz/fuzz_input.h \
        $(addprefix $(B)/,$(CLI_LIB_SRC:.c=.o)) $(B)/libglnbody.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(ALL_INC) -Itools/glnbody -DNB_CORPUS_DIR='"tests/corpus/$*"' \
	    -o $@ $< tests/fuzz/replay.c $(addprefix $(B)/,$(CLI_LIB_SRC:.c=.o)) $(B)/libglnbody.a \
	    $$(pkg-config --libs $(PKGS)) $(LDLIBS)

# ---- make fuzz ----------------------------------------------------------
# libFuzzer targets built with Debian's clang (tools/scripts/deps.sh fuzz installs
# it), each run for FUZZ_SECONDS from its corpus (tests/corpus/NAME/, the
# seeds and the regression cases) and a scratch corpus under build/fuzz/.
# A crash, a leak or a timeout leaves its input in tests/corpus/NAME/ as a
# regression case (tools/scripts/fuzz.sh) and fails the target.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_DIR     := build/fuzz
FUZZ_FLAGS   := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined \
                -fno-omit-frame-pointer -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
FUZZ_LIB_OBJ := $(addprefix $(FUZZ_DIR)/,$(HOST_SRC:.c=.o) $(GL_SRC:.c=.o) $(CLI_LIB_SRC:.c=.o))
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%)

# (The objects depend on the Makefile, not on this file: after a change of
# the flags here, rm -rf build/sanitize build/fuzz.)

$(FUZZ_DIR)/%.o: %.c $(HOST_H) $(GL_H) $(wildcard tools/glnbody/*.h) Makefile
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link $(ALL_INC) -c -o $@ $<

$(FUZZ_DIR)/libfuzzed.a: $(FUZZ_LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_input.h $(FUZZ_DIR)/libfuzzed.a
	$(FUZZ_CC) $(CFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer $(ALL_INC) -Itools/glnbody -o $@ $< \
	    $(FUZZ_DIR)/libfuzzed.a $$(pkg-config --libs $(PKGS)) $(LDLIBS)

fuzz-build:
	@tools/scripts/deps.sh fuzz
	@$(MAKE) --no-print-directory $(FUZZ_BINS)

fuzz: fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) tools/scripts/fuzz.sh $(FUZZ_DIR) $(FUZZ_TARGETS)

# The objects are reached only through pattern rules: keep them.
.SECONDARY: $(FUZZ_LIB_OBJ) $(SAN_LIB_OBJ) $(SAN_CLI_OBJ) \
            $(addprefix $(SAN_DIR)/,$(CLI_LIB_SRC:.c=.o))
