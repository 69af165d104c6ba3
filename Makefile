# glnbody - direct N-body forces on any OpenGL 4.3 GPU.
# make | make run | make test | make bench | make install | make clean
# make sanitize | make fuzz   (tools/scripts/sanitize.mk)
# make test-python | make python PREFIX=DIR   (tools/docs/python.md)
# Everything the build makes goes under build/ (B): objects mirroring the
# source tree, the libraries, the program build/glnbody and the suites
# build/tests/check_*; only the SPIR-V goes to spirv/.

CC      ?= cc
GLSLANG ?= glslangValidator
B       := build
PKGS    := epoxy egl libpng zlib
# The window viewer's (the program only): GLFW, FreeType, fontconfig.
VIEW_PKGS := glfw3 freetype2 fontconfig

# make run, make test, make bench and make web first install every Debian package
# the project uses (tools/scripts/deps.sh); a plain make uses what it finds.
ifneq ($(filter run test test-nogl test-python python bench sanitize web test-web,$(MAKECMDGOALS)),)
ifneq ($(shell tools/scripts/deps.sh >&2; echo $$?),0)
$(error tools/scripts/deps.sh could not install the packages above)
endif
endif

# The optional features, each on where its packages are found (or forced
# with make NB_VIEW=0 and the like): the library needs only PKGS, OpenMP
# and libm.  tools/scripts/features.sh prints the list at the end of the build.
nb_have_pkg = $(shell pkg-config --exists $(1) 2>/dev/null && echo 1 || echo 0)
nb_have_cmd = $(shell command -v $(1) >/dev/null 2>&1 && echo 1 || echo 0)
NB_VIEW    ?= $(call nb_have_pkg,$(VIEW_PKGS))
NB_REPORTS ?= $(call nb_have_pkg,jansson)
NB_PLOTS   ?= $(if $(filter 1,$(NB_REPORTS)),$(call nb_have_pkg,cairo),0)
NB_SPIRV   ?= $(call nb_have_cmd,$(GLSLANG))
NB_FORTRAN ?= $(call nb_have_cmd,gfortran)
override NB_VIEW := $(NB_VIEW)
override NB_REPORTS := $(NB_REPORTS)
override NB_PLOTS := $(NB_PLOTS)
override NB_SPIRV := $(NB_SPIRV)
override NB_FORTRAN := $(NB_FORTRAN)
CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -Wall -Wextra -Wpedantic -fopenmp -D_POSIX_C_SOURCE=200809L \
           -DNB_SHADER_DIR='"$(CURDIR)"'
LDLIBS  += -lm -fopenmp -ldl
# The library's objects: position-independent (they go into the .so too) and
# hidden unless host/glnbody.h marks a function NB_API.
LIB_CFLAGS := -fPIC -fvisibility=hidden

# The version, read from host/glnbody.h (written there once), and the
# shared library's file names: libglnbody.so -> .so.MAJOR (the soname) ->
# .so.MAJOR.MINOR.PATCH (the file).
nb_version_part = $(shell sed -n 's/^\#define NB_VERSION_$(1) *\([0-9]*\).*/\1/p' host/glnbody.h)
VERSION := $(call nb_version_part,MAJOR).$(call nb_version_part,MINOR).$(call nb_version_part,PATCH)
SONAME  := libglnbody.so.$(call nb_version_part,MAJOR)
SOFILE  := libglnbody.so.$(VERSION)

# Where `make install` puts things: $(DESTDIR)$(PREFIX)/{bin,include,lib,share}.
PREFIX  ?= /usr/local
DESTDIR ?=

MD_SRC   := host/md_engine.c host/md_potential.c host/md_coeffs.c host/md_force_cpu.c host/md_engine_cpu.c host/md_sim.c host/md_sim_checkpoint.c
MD_IO_SRC := host/md_ic.c host/md_files.c host/md_exclusions.c host/md_interactions.c
HOST_SRC := host/version.c host/accuracy.c host/positions.c host/error.c host/text_reader.c host/particles.c host/rng.c host/snapshot.c \
            host/outfile.c host/outfile_mark.c host/png_write.c host/force_cpu.c host/backend_cpu.c host/partition.c host/timing.c host/checkpoint.c \
            host/plummer.c host/potential.c host/sim.c host/sim_checkpoint.c host/block_clock.c host/integrator_hermite4.c host/hermite_device.c host/integrator_verlet.c host/diagnostics.c \
            $(MD_SRC) $(MD_IO_SRC)
GL_SRC   := src/context.c src/context_describe.c src/shader.c src/programs.c src/gpu_timer.c src/staging.c src/gaj_compute.c \
            src/gaj_precision.c \
            src/force_compute.c src/force_precision.c src/force_fragment.c src/fragment_passes.c src/fragment_hermite.c src/backends.c src/gl_buffers.c src/gl_targets.c src/gl_limits.c src/gl_dispatch.c \
            src/md_compute.c src/md_compute_force.c src/md_clock.c src/md_cells.c src/md_fragment.c src/md_triangular.c src/md_precision.c \
            src/md_params.c src/fragment_precision.c src/precision.c src/shader_dir.c src/gl_env.c src/spirv_check.c src/gl_level.c src/gl_info.c src/shader_names.c \
            src/api_forces.c src/api_hermite.c src/api_md.c src/api_checkpoint.c src/api_md_forces.c src/api_shaders.c src/g6_block.c src/g6_launch.c src/g6_scales.c src/gaj_correct.c src/gaj_planned.c \
            src/render.c src/render_frames.c src/render_sources.c src/render_inspect.c
CLI_SRC  := $(addprefix tools/glnbody/,main.c options.c measure.c cmd_forces.c cmd_bench.c \
            cmd_compare.c cmd_shaders.c cmd_run.c cmd_precision.c cmd_md.c md_options.c md_system.c \
            md_outputs.c cmd_newton3.c man_text.c progress.c mpi_world.c frames.c \
            interrupt.c ckpt_text.c \
            run_checkpoint.c run_outputs.c md_checkpoint.c file_roles.c)
# The optional features' files (NB_VIEW, NB_REPORTS, NB_PLOTS).
VIEW_SRC   := $(addprefix tools/glnbody/,cmd_view.c view_input.c view_md.c view_text.c)
REPORT_SRC := $(addprefix tools/glnbody/,report_bench.c report_machine.c report_read.c cmd_report.c)
PLOT_SRC   := tools/glnbody/report_plot.c
CLI_SRC_ON := $(CLI_SRC) $(if $(filter 1,$(NB_VIEW)),$(VIEW_SRC)) \
              $(if $(filter 1,$(NB_REPORTS)),$(REPORT_SRC)) $(if $(filter 1,$(NB_PLOTS)),$(PLOT_SRC))
CLI_PKGS   := $(if $(filter 1,$(NB_VIEW)),$(VIEW_PKGS)) $(if $(filter 1,$(NB_REPORTS)),jansson) \
              $(if $(filter 1,$(NB_PLOTS)),cairo)
CLI_DEFS   := $(if $(filter 1,$(NB_VIEW)),-DNB_HAVE_VIEW) $(if $(filter 1,$(NB_REPORTS)),-DNB_HAVE_REPORTS) \
              $(if $(filter 1,$(NB_PLOTS)),-DNB_HAVE_PLOTS)
GLSL     := $(wildcard glsl/*.glsl glsl/*.frag glsl/*.vert glsl/*.comp glsl/*.h)
# Longest first: run_tests.sh runs them side by side.
TESTS    := tests/check_run_gpu tests/check_restart tests/check_gpu tests/check_mpi \
            tests/check_triangular tests/check_g6_accuracy tests/check_g6 \
            tests/check_hostile_input tests/check_levels tests/check_md_fragment \
            tests/check_gaj_positions tests/check_run tests/check_host tests/check_cli_forces tests/check_cli_errors \
            tests/check_cli_help tests/check_cli_bench tests/check_cli_shaders \
            tests/check_precision tests/check_md_laws tests/check_md_forces \
            tests/check_md_dynamics tests/check_md_checks tests/check_md_io \
            tests/check_md_gpu tests/check_md_cli tests/check_md_precision \
            tests/check_md_cell_precision tests/check_gaj_precision \
            tests/check_fragment_precision tests/check_md_run_precision tests/check_text \
            tests/check_snapshot tests/check_md_ic tests/check_run_cli tests/check_api \
            tests/check_api_contexts tests/check_cli_text tests/check_progress \
            tests/check_hostile tests/check_g6_jmem tests/check_g6_probe \
            tests/check_partition tests/check_render tests/check_view \
            tests/check_render_read tests/check_report tests/check_file_safety

# The parsers' fuzz targets (tests/fuzz/fuzz_NAME.c, tools/scripts/sanitize.mk); make
# test replays each one's regression corpus, tests/corpus/NAME/.
FUZZ_TARGETS := snapshot dump types exclusions md_options options checkpoint
REPLAYS  := $(FUZZ_TARGETS:%=tests/fuzz/replay_%)

LIB_OBJ  := $(addprefix $(B)/,$(HOST_SRC:.c=.o) $(GL_SRC:.c=.o))
CLI_OBJ  := $(addprefix $(B)/,$(CLI_SRC_ON:.c=.o))
TEST_BINS := $(addprefix $(B)/,$(TESTS))
REPLAY_BINS := $(addprefix $(B)/,$(REPLAYS))
SPIRV_STAMP := $(if $(filter 1,$(NB_SPIRV)),$(B)/spirv.stamp)

.PHONY: all deps run test test-nogl test-zink bench clean check-symbols check-layers check-exports \
        install uninstall examples sanitize fuzz fuzz-build replay features glnbody $(TESTS)
all: $(B)/glnbody $(B)/libglnbody.so $(SPIRV_STAMP) $(B)/libg6gl.so $(B)/libg6gl.a \
     $(B)/tools/g6/g6_bench
	@NB_MPI=$(NB_MPI) NB_VIEW=$(NB_VIEW) NB_REPORTS=$(NB_REPORTS) NB_PLOTS=$(NB_PLOTS) \
	    NB_SPIRV=$(NB_SPIRV) NB_FORTRAN=$(NB_FORTRAN) GLSLANG=$(GLSLANG) tools/scripts/features.sh

deps:
	@tools/scripts/deps.sh

# Short names: make glnbody, make tests/check_g6 (then build/tests/check_g6).
glnbody: $(B)/glnbody
$(TESTS): %: $(B)/%

# Each layer sees only the headers of the layers below it:
# tools/glnbody -> src -> host, and src -> glsl.
HOST_H   := $(wildcard host/*.h host/glnbody/*.h)
GL_H     := $(wildcard src/*.h) glsl/nb_config.h glsl/nb_precision.h

# (The library's objects also depend on the Makefile, so that a change of
# flags, such as -fPIC, rebuilds them.)
$(B)/host/%.o: host/%.c $(HOST_H) Makefile
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LIB_CFLAGS) -Ihost -c -o $@ $<

$(B)/src/%.o: src/%.c $(HOST_H) $(GL_H) Makefile
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LIB_CFLAGS) -Ihost -Isrc -Iglsl $$(pkg-config --cflags $(PKGS)) -c -o $@ $<

# The program is a client of the public API like any other: it sees one
# project header, glnbody.h (with the sections it includes from glnbody/),
# alone in build/include (check-layers checks its includes and that every
# library symbol it uses is exported).
PUBLIC_H := build/include/glnbody.h
$(PUBLIC_H): host/glnbody.h $(wildcard host/glnbody/*.h)
	@mkdir -p $(@D)/glnbody
	cp host/glnbody/*.h $(@D)/glnbody/
	cp host/glnbody.h $@

# Beside it the system headers of the features built (GLFW, jansson,
# cairo); $(FEATURES) remembers which, so that a change rebuilds.
FEATURES := $(B)/features
.PHONY: nb-features
$(FEATURES): nb-features
	@mkdir -p $(@D)
	@echo '$(CLI_DEFS) $(NB_MPI)' | cmp -s - $@ || echo '$(CLI_DEFS) $(NB_MPI)' > $@

$(B)/tools/glnbody/%.o: tools/glnbody/%.c $(wildcard tools/glnbody/*.h) $(PUBLIC_H) $(FEATURES)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(CLI_DEFS) -Ibuild/include $(if $(strip $(CLI_PKGS)),$$(pkg-config --cflags $(CLI_PKGS))) \
	    -c -o $@ $<

# The git commit a report names, baked in at build time: the stamp changes
# (and report_machine.o is rebuilt) only when the commit or its dirty
# state does.
NB_GIT_COMMIT := $(shell git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
$(B)/commit: FORCE
	@mkdir -p $(@D)
	@echo '$(NB_GIT_COMMIT)' | cmp -s - $@ || echo '$(NB_GIT_COMMIT)' > $@
$(B)/tools/glnbody/report_machine.o: CFLAGS += -DNB_GIT_COMMIT='"$(NB_GIT_COMMIT)"'
$(B)/tools/glnbody/report_machine.o: $(B)/commit
FORCE:

# Open MPI (Debian's libopenmpi-dev, through pkg-config ompi-c): `mpirun -np
# P glnbody run|forces` shares the forces over P ranks (Harfst et al. 2007).
# Only the program's tools/glnbody/mpi_world.c sees MPI; the library stays
# MPI-free.  It is on where pkg-config finds ompi-c; make NB_MPI=0 builds
# the program without it (one rank); the setting is remembered in
# $(FEATURES) so that a change rebuilds and relinks.
NB_MPI ?= $(call nb_have_pkg,ompi-c)
override NB_MPI := $(NB_MPI)
ifeq ($(NB_MPI),1)
MPI_CFLAGS = -DNB_HAVE_MPI $$(pkg-config --cflags ompi-c)
MPI_LIBS   = $$(pkg-config --libs ompi-c)
endif

# The MPI_Allreduce alone, for tools/bench/mpi.sh and tools/bench/fit_mpi_model.py.
$(B)/mpi_allreduce_bench: tools/bench/mpi_allreduce_bench.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $$(pkg-config --cflags ompi-c) -o $@ $< $$(pkg-config --libs ompi-c)

$(B)/tools/glnbody/mpi_world.o: tools/glnbody/mpi_world.c tools/glnbody/mpi_world.h $(PUBLIC_H) \
        $(FEATURES)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ibuild/include $(MPI_CFLAGS) -c -o $@ $<

$(B)/libglnbody.a: $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

# The shared library exports only the NB_API functions (tools/scripts/check_exports.sh);
# -z defs: every symbol it uses must come from the libraries named here.
$(B)/$(SOFILE): $(LIB_OBJ)
	$(CC) $(CFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,-z,defs -o $@ $(LIB_OBJ) \
	    $$(pkg-config --libs $(PKGS)) $(LDLIBS)

$(B)/libglnbody.so: $(B)/$(SOFILE)
	ln -sf $(SOFILE) $(B)/$(SONAME)
	ln -sf $(SONAME) $@

$(B)/glnbody: $(CLI_OBJ) $(B)/libglnbody.a $(FEATURES)
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) $(B)/libglnbody.a $$(pkg-config --libs $(PKGS) $(CLI_PKGS)) \
	    $(LDLIBS) $(MPI_LIBS)

# Every program the binary can load is emitted exactly as the GLSL loader
# assembles it, then compiled to SPIR-V for OpenGL; any error fails the build.
$(B)/spirv.stamp: $(B)/glnbody $(GLSL) tools/scripts/build_spirv.sh
	@tools/scripts/build_spirv.sh $(B)/glnbody $(GLSLANG) spirv
	@touch $@

# The GAJ kernel in each position format (tools/bench/gaj_positions.sh):
# the backend vtable, so the internal headers.
$(B)/tools/gaj_positions: tools/bench/gaj_positions.c $(B)/libglnbody.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ihost -Isrc -Iglsl -o $@ $< $(B)/libglnbody.a $$(pkg-config --libs $(PKGS)) $(LDLIBS)

# The renderer's rate (tools/bench/view.sh): only the public API.
$(B)/tools/render_bench: tools/bench/render_bench.c $(B)/libglnbody.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ihost -o $@ $< $(B)/libglnbody.a $$(pkg-config --libs $(PKGS)) $(LDLIBS)

$(B)/tests/%: tests/%.c $(wildcard tests/*.h) $(B)/libglnbody.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ihost -Isrc -Iglsl $$(pkg-config --cflags $(PKGS) check $(TEST_PKGS)) -o $@ $< \
	    $(B)/libglnbody.a $$(pkg-config --libs $(PKGS) check $(TEST_PKGS)) $(LDLIBS)

# check_report reads the reports back with jansson.
$(B)/tests/check_report: TEST_PKGS := jansson

# ---- libg6gl: the GRAPE-6 interface on the public API (tools/g6/) ---------
# Same version as libglnbody; links on libglnbody.so (its only dependency).
G6_SONAME := libg6gl.so.$(call nb_version_part,MAJOR)
G6_SOFILE := libg6gl.so.$(VERSION)

$(B)/tools/g6/g6gl.o: tools/g6/g6gl.c tools/g6/g6gl.h $(HOST_H) Makefile
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fPIC -Ihost -Itools/g6 -c -o $@ $<

$(B)/libg6gl.a: $(B)/tools/g6/g6gl.o
	rm -f $@
	$(AR) rcs $@ $^

$(B)/$(G6_SOFILE): $(B)/tools/g6/g6gl.o $(B)/libglnbody.so
	$(CC) $(CFLAGS) -shared -Wl,-soname,$(G6_SONAME) -Wl,-z,defs -o $@ $(B)/tools/g6/g6gl.o \
	    -L$(B) -lglnbody

$(B)/libg6gl.so: $(B)/$(G6_SOFILE)
	ln -sf $(G6_SOFILE) $(B)/$(G6_SONAME)
	ln -sf $(G6_SONAME) $@

# The block-step benchmark (tools/bench/g6.sh), static like the drivers.
$(B)/tools/g6/g6_bench: tools/g6/g6_bench.c tools/g6/g6gl.h $(B)/libg6gl.a $(B)/libglnbody.a
	$(CC) $(CFLAGS) -Itools/g6 -o $@ $< $(G6_STATIC)

# The block-step drivers of check_g6 (a GRAPE code's view: g6gl.h only),
# linked statically so that they run from the build tree; the Fortran one
# where gfortran is found (check_g6 says when it is not there).
G6_STATIC = $(B)/libg6gl.a $(B)/libglnbody.a $$(pkg-config --libs $(PKGS)) $(LDLIBS)
G6_DRIVERS := $(B)/tests/g6_driver $(if $(filter 1,$(NB_FORTRAN)),$(B)/tests/g6_driver_f)
$(B)/tests/g6_driver: tests/g6_driver.c tools/g6/g6gl.h $(B)/libg6gl.a $(B)/libglnbody.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Itools/g6 -o $@ $< $(G6_STATIC)
$(B)/tests/g6_driver_f: tests/g6_driver.f90 $(B)/libg6gl.a $(B)/libglnbody.a
	@mkdir -p $(@D)
	gfortran -O2 -g -fopenmp -static-libgfortran -J $(@D) -o $@ $< $(G6_STATIC)
# A client with its own C names over the Fortran ones (Sapporo2's style),
# linked against libg6gl.so and exporting them, as a C++ code would.
$(B)/tests/g6_client: tests/g6_client.c $(B)/libg6gl.so
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -rdynamic -o $@ $< -L$(B) -lg6gl -Wl,-rpath-link,$(B) \
	    -Wl,--disable-new-dtags,-rpath,'$$ORIGIN/..' -lm
$(B)/tests/check_g6: tests/check_g6.c $(wildcard tests/*.h) $(B)/libg6gl.a $(B)/libglnbody.a \
                     $(G6_DRIVERS) $(B)/tests/g6_client
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ihost -Isrc -Iglsl -Itools/g6 $$(pkg-config --cflags $(PKGS) check) -o $@ $< \
	    $(B)/libg6gl.a $(B)/libglnbody.a $$(pkg-config --libs $(PKGS) check) $(LDLIBS)
$(B)/tests/check_g6_accuracy: tests/check_g6_accuracy.c $(wildcard tests/*.h) $(B)/libg6gl.a \
                              $(B)/libglnbody.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ihost -Isrc -Iglsl -Itools/g6 $$(pkg-config --cflags $(PKGS) check) -o $@ $< \
	    $(B)/libg6gl.a $(B)/libglnbody.a $$(pkg-config --libs $(PKGS) check) $(LDLIBS)
$(B)/tests/check_g6_jmem: tests/check_g6_jmem.c $(wildcard tests/*.h) $(B)/libg6gl.a $(B)/libglnbody.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ihost -Isrc -Iglsl -Itools/g6 $$(pkg-config --cflags $(PKGS) check) -o $@ $< \
	    $(B)/libg6gl.a $(B)/libglnbody.a $$(pkg-config --libs $(PKGS) check) $(LDLIBS)
$(B)/tests/check_g6_probe: tests/check_g6_probe.c $(wildcard tests/*.h) $(B)/libg6gl.a $(B)/libglnbody.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ihost -Isrc -Iglsl -Itools/g6 $$(pkg-config --cflags $(PKGS) check) -o $@ $< \
	    $(B)/libg6gl.a $(B)/libglnbody.a $$(pkg-config --libs $(PKGS) check) $(LDLIBS)
# Run by make sanitize (tools/scripts/sanitize.mk), not make test: N = 262,144 in eight modes.
$(B)/tests/check_g6_large: tests/check_g6_large.c $(wildcard tests/*.h) $(B)/libg6gl.a $(B)/libglnbody.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -Ihost -Isrc -Iglsl -Itools/g6 $$(pkg-config --cflags $(PKGS) check) -o $@ $< \
	    $(B)/libg6gl.a $(B)/libglnbody.a $$(pkg-config --libs $(PKGS) check) $(LDLIBS)

# ---- the browser build: the stream path on WebGL 2 (tools/web/) -----------
# make web: Emscripten builds the fragment engine, Hermite block steps
# with host prediction, the CPU reference and the renderer into a static
# page, $(B)/web/ (index.html, glnbody.js, glnbody.wasm, glnbody.data:
# glsl/ packed).  The same sources as natively, less the compute pipeline
# (WebGL 2 has none), EGL (context_web.c makes the canvas's context), the
# PNG and movie writers and zlib.  tools/docs/web.md.
EMCC     ?= emcc
WEB_NATIVE_ONLY := host/png_write.c src/context.c src/gl_info.c src/render_frames.c \
            src/force_compute.c src/force_precision.c src/gaj_compute.c src/gaj_precision.c \
            src/gaj_correct.c src/gaj_planned.c src/g6_block.c src/g6_launch.c src/g6_scales.c \
            src/md_compute.c src/md_compute_force.c src/md_cells.c src/md_clock.c \
            src/md_triangular.c src/md_precision.c
WEB_SRC  := $(filter-out $(WEB_NATIVE_ONLY),$(HOST_SRC) $(GL_SRC)) src/context_web.c \
            $(wildcard tools/web/*.c)
WEB_OBJ  := $(WEB_SRC:%.c=$(B)/web/obj/%.o)
WEB_CFLAGS := -O2 -std=c11 -Wall -Wextra -Wpedantic -D_POSIX_C_SOURCE=200809L \
            -DNB_NO_ZLIB -DNB_SHADER_DIR='"/glnbody"' -Ihost -Isrc -Iglsl -Itools/web
WEB_LDFLAGS := -O2 -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2 -sALLOW_MEMORY_GROWTH=1 \
            -sENVIRONMENT=web -sEXPORTED_RUNTIME_METHODS=ccall,UTF8ToString \
            --preload-file glsl@/glnbody/glsl
# Emscripten's -O2 runs acorn-optimizer.js: Debian's node-acorn, found there.
WEB_ENV  := NODE_PATH=/usr/share/nodejs

.PHONY: web test-web
web: $(B)/web/index.html

$(B)/web/obj/%.o: %.c $(HOST_H) $(GL_H) $(wildcard tools/web/*.h) Makefile
	@mkdir -p $(@D)
	$(WEB_ENV) $(EMCC) $(WEB_CFLAGS) -c -o $@ $<

$(B)/web/obj/tools/web/web_view.o: WEB_CFLAGS += -DNB_GIT_COMMIT='"$(NB_GIT_COMMIT)"'
$(B)/web/obj/tools/web/web_view.o: $(B)/commit

$(B)/web/glnbody.js: $(WEB_OBJ) $(GLSL)
	$(WEB_ENV) $(EMCC) -o $@ $(WEB_OBJ) $(WEB_LDFLAGS)

$(B)/web/index.html: tools/web/index.html tools/web/page.js $(B)/web/glnbody.js
	cp tools/web/index.html tools/web/page.js $(B)/web/

# The page in headless Chromium (SwiftShader): forces, a Hermite run, a
# picture and the report (tools/scripts/test_web.sh).
test-web: web $(B)/glnbody
	@tools/scripts/test_web.sh $(B)/web $(B)/glnbody; s=$$?; \
	if [ $$s -eq 77 ]; then echo "test-web: skipped"; elif [ $$s -ne 0 ]; then exit $$s; fi

run: all
	$(B)/glnbody run

# The suites, then the installed library: install into a temporary prefix,
# build and run tools/examples/ against it, uninstall (tools/scripts/test_install.sh);
# then the browser page (test-web).
test: all $(TEST_BINS) $(REPLAY_BINS)
	@tools/scripts/run_tests.sh $(TEST_BINS) $(REPLAY_BINS)
	@MAKE='$(MAKE)' tools/scripts/test_install.sh
	@$(MAKE) --no-print-directory test-python
	@$(MAKE) --no-print-directory test-web

# The suites as on a machine without GL: EGL (glvnd) finds no vendor
# library, so the GL suites must say "skipped" while the CPU ones pass.
test-nogl: all $(TEST_BINS) $(REPLAY_BINS)
	@__EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent tools/scripts/run_tests.sh $(TEST_BINS) $(REPLAY_BINS)
	@__EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent MAKE='$(MAKE)' tools/scripts/test_install.sh

# The GL suites on a second implementation: Mesa's zink (OpenGL on Vulkan)
# over lavapipe, whose own GLSL -> SPIR-V path catches shader mistakes
# llvmpipe forgives.  A subset chosen by cost (tools/docs/implementations.md):
# the force kernels through the API, the MD and precision kernels, the block
# steps and a restart of glnbody run and md; the last four skip where the driver's loop-bound
# uniforms go stale (tests/loop_uniform_probe.h).
ZINK_TESTS := tests/check_api tests/check_md_forces tests/check_md_gpu \
              tests/check_precision tests/check_gaj_precision tests/check_levels \
              tests/check_restart tests/check_md_precision tests/check_md_cell_precision \
              tests/check_triangular tests/check_fragment_precision tests/check_gaj_positions
test-zink: all $(addprefix $(B)/,$(ZINK_TESTS))
	@tools/scripts/test_zink.sh $(B)/glnbody $(addprefix $(B)/,$(ZINK_TESTS))

bench: all
	$(B)/glnbody bench --kernel ga --backend compute,fragment --variant all \
	    --n 1024,4096,16384 --csv bench.csv

# Every exported symbol of the library carries the nb_ prefix.
check-symbols: $(B)/libglnbody.a
	@bad=$$(nm -g --defined-only $(B)/libglnbody.a | awk 'NF==3 {print $$3}' | grep -v '^nb_'); \
	if [ -n "$$bad" ]; then echo "symbols without nb_ prefix:"; echo "$$bad"; exit 1; fi

# The layout's arrows and src/'s acyclic calls (tools/scripts/check_layers.sh).
check-layers: $(B)/glnbody $(B)/libglnbody.so $(B)/tools/g6/g6gl.o
	@tools/scripts/check_layers.sh $(B)/$(SOFILE) $(B)

# The .so exports exactly the NB_API names of host/glnbody.h and its parts.
check-exports: $(B)/libglnbody.so
	@tools/scripts/check_exports.sh $(B)/$(SOFILE) host/glnbody.h

include tools/scripts/sanitize.mk

# ---- Python (tools/python/) -----------------------------------------------
# Debian's own interpreter: another python3 first on PATH may lack numpy.
PYTHON   ?= /usr/bin/python3
# Where the build leaves libglnbody.so.MAJOR and the program glnbody.
NB_BUILD ?= $(CURDIR)/$(B)
PY_ENV    = GLNBODY_LIBRARY='$(NB_BUILD)/$(SONAME)' GLNBODY_PROGRAM='$(NB_BUILD)/glnbody' \
            PYTHONPATH='$(CURDIR)/tools/python'
.PHONY: test-python python

# The package's tests against the build, then its notebook executed.
test-python: $(B)/libglnbody.so $(B)/glnbody $(SPIRV_STAMP)
	$(PY_ENV) $(PYTHON) -m pytest -q -p no:cacheprovider tools/python/tests
	PYDEVD_DISABLE_FILE_VALIDATION=1 $(PY_ENV) $(PYTHON) -m nbconvert --to notebook --execute --stdout \
	    --ExecutePreprocessor.timeout=120 tools/python/examples/plummer.ipynb > /dev/null

# The library and the package into PREFIX (pip, offline): the package goes to
# PREFIX/lib/python3/dist-packages and finds the library in PREFIX/lib.
#   make python PREFIX=/tmp/nb
python: install
	DEB_PYTHON_INSTALL_LAYOUT=deb_system $(PYTHON) -m pip install --no-index --no-build-isolation --no-warn-script-location \
	    --prefix '$(DESTDIR)$(PREFIX)' ./tools/python

# ---- install ------------------------------------------------------------
# tools/scripts/install.sh holds the one list of installed files, so that uninstall
# removes exactly what install put there.
INSTALL_ENV = DESTDIR='$(DESTDIR)' PREFIX='$(PREFIX)' VERSION='$(VERSION)' B='$(B)' \
              SOFILE='$(SOFILE)' SONAME='$(SONAME)' G6_SOFILE='$(G6_SOFILE)' G6_SONAME='$(G6_SONAME)'

install: all
	@$(INSTALL_ENV) tools/scripts/install.sh install

uninstall:
	@$(INSTALL_ENV) tools/scripts/install.sh uninstall

# The examples, built against an installed copy through pkg-config only:
#   make install PREFIX=/tmp/nb && make examples PREFIX=/tmp/nb
EXAMPLES := $(B)/examples/plummer $(B)/examples/forces $(B)/examples/lj
examples: $(EXAMPLES)

$(B)/examples/%: tools/examples/%.c
	@mkdir -p $(@D)
	PKG_CONFIG_PATH='$(DESTDIR)$(PREFIX)/lib/pkgconfig' sh -c \
	    '$(CC) -O2 -g -std=c11 -Wall -Wextra -o $@ $< $$(pkg-config --cflags --libs glnbody) -lm'

clean:
	rm -f spirv/*.spv spirv/MANIFEST bench.csv
	rm -rf $(B)
