# glnbody - direct N-body forces on any OpenGL 4.3 GPU.
# make run | make test | make bench | make install | make clean   (see README.md)
# make sanitize | make fuzz   (tools/sanitize.mk)

CC      ?= cc
PKGS    := epoxy egl libpng zlib
# The window viewer's (the program only): GLFW, FreeType, fontconfig.
VIEW_PKGS := glfw3 freetype2 fontconfig
# The program alone: JSON reports (jansson) and their plots (cairo).
CLI_PKGS := jansson cairo
CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -Wall -Wextra -Wpedantic -fopenmp -D_POSIX_C_SOURCE=200809L \
           -DNB_SHADER_DIR='"$(CURDIR)"'
LDLIBS  += -lm -fopenmp -ldl
GLSLANG ?= glslangValidator
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

MD_SRC   := host/md_engine.c host/md_potential.c host/md_force_cpu.c host/md_engine_cpu.c host/md_sim.c host/md_sim_checkpoint.c
MD_IO_SRC := host/md_ic.c host/md_files.c host/md_exclusions.c host/md_interactions.c
HOST_SRC := host/version.c host/accuracy.c host/error.c host/text_reader.c host/particles.c host/rng.c host/snapshot.c \
            host/outfile.c host/png_write.c host/force_cpu.c host/backend_cpu.c host/partition.c host/timing.c host/checkpoint.c \
            host/plummer.c host/potential.c host/sim.c host/sim_checkpoint.c host/block_clock.c host/integrator_hermite4.c host/hermite_device.c host/integrator_verlet.c host/diagnostics.c \
            $(MD_SRC) $(MD_IO_SRC)
GL_SRC   := src/context.c src/shader.c src/programs.c src/gpu_timer.c src/staging.c src/gaj_compute.c \
            src/gaj_precision.c \
            src/force_compute.c src/force_precision.c src/force_fragment.c src/fragment_passes.c src/fragment_hermite.c src/backends.c src/gl_buffers.c src/gl_targets.c src/gl_limits.c src/gl_dispatch.c \
            src/md_compute.c src/md_compute_force.c src/md_clock.c src/md_cells.c src/md_fragment.c src/md_triangular.c src/md_precision.c \
            src/md_params.c src/fragment_precision.c src/precision.c src/shader_dir.c src/gl_level.c src/gl_info.c src/shader_names.c \
            src/api_forces.c src/api_hermite.c src/api_md.c src/api_checkpoint.c src/api_md_forces.c src/api_shaders.c src/g6_block.c src/g6_launch.c src/gaj_correct.c src/gaj_planned.c \
            src/render.c src/render_frames.c src/render_sources.c src/render_inspect.c
CLI_SRC  := $(addprefix tools/glnbody/,main.c options.c measure.c cmd_forces.c cmd_bench.c \
            cmd_compare.c cmd_shaders.c cmd_run.c cmd_precision.c cmd_md.c md_options.c md_system.c \
            md_outputs.c cmd_newton3.c man_text.c progress.c mpi_world.c frames.c \
            cmd_view.c view_input.c view_md.c view_text.c interrupt.c ckpt_text.c \
            run_checkpoint.c run_outputs.c md_checkpoint.c \
            report_bench.c report_machine.c report_read.c report_plot.c cmd_report.c)
GLSL     := $(wildcard glsl/*.glsl glsl/*.frag glsl/*.vert glsl/*.comp glsl/*.h)
TESTS    := tests/check_host tests/check_gpu tests/check_cli_forces tests/check_cli_errors \
            tests/check_cli_help tests/check_cli_bench tests/check_cli_shaders tests/check_run \
            tests/check_precision tests/check_md_laws tests/check_md_forces \
            tests/check_md_dynamics tests/check_md_checks tests/check_md_io tests/check_md_gpu \
            tests/check_md_fragment tests/check_md_cli tests/check_triangular \
            tests/check_md_precision tests/check_md_cell_precision tests/check_gaj_precision \
            tests/check_fragment_precision tests/check_md_run_precision tests/check_text \
            tests/check_snapshot tests/check_md_ic tests/check_run_cli tests/check_run_gpu \
            tests/check_api tests/check_api_contexts tests/check_cli_text tests/check_progress tests/check_hostile \
            tests/check_g6 tests/check_g6_jmem tests/check_g6_accuracy tests/check_mpi tests/check_partition tests/check_render tests/check_restart tests/check_levels tests/check_report

# The parsers' fuzz targets (tests/fuzz/fuzz_NAME.c, tools/sanitize.mk); make
# test replays each one's regression corpus, tests/corpus/NAME/.
FUZZ_TARGETS := snapshot dump types exclusions md_options options checkpoint
REPLAYS  := $(FUZZ_TARGETS:%=tests/fuzz/replay_%)

LIB_OBJ  := $(HOST_SRC:.c=.o) $(GL_SRC:.c=.o)
CLI_OBJ  := $(CLI_SRC:.c=.o)

.PHONY: all deps run test test-nogl bench clean check-symbols check-layers check-exports \
        install uninstall examples sanitize fuzz fuzz-build replay
all: deps glnbody libglnbody.so spirv/.stamp libg6gl.so libg6gl.a tools/g6/g6_bench

deps:
	@tools/deps.sh

# Each layer sees only the headers of the layers below it:
# tools/glnbody -> src -> host, and src -> glsl.
HOST_H   := $(wildcard host/*.h host/glnbody/*.h)
GL_H     := $(wildcard src/*.h) glsl/nb_config.h glsl/nb_precision.h

# (The library's objects also depend on the Makefile, so that a change of
# flags, such as -fPIC, rebuilds them.)
host/%.o: host/%.c $(HOST_H) Makefile
	$(CC) $(CFLAGS) $(LIB_CFLAGS) -Ihost -c -o $@ $<

src/%.o: src/%.c $(HOST_H) $(GL_H) Makefile
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

# Beside it the system headers of jansson (reports) and cairo (plots).
tools/glnbody/%.o: tools/glnbody/%.c $(wildcard tools/glnbody/*.h) $(PUBLIC_H)
	$(CC) $(CFLAGS) -Ibuild/include $$(pkg-config --cflags $(VIEW_PKGS) $(CLI_PKGS)) -c -o $@ $<

# The git commit a report names, baked in at build time: the stamp changes
# (and report_machine.o is rebuilt) only when the commit or its dirty
# state does.
NB_GIT_COMMIT := $(shell git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
tools/glnbody/.commit: FORCE
	@echo '$(NB_GIT_COMMIT)' | cmp -s - $@ || echo '$(NB_GIT_COMMIT)' > $@
tools/glnbody/report_machine.o: CFLAGS += -DNB_GIT_COMMIT='"$(NB_GIT_COMMIT)"'
tools/glnbody/report_machine.o: tools/glnbody/.commit
FORCE:

# Open MPI (Debian's libopenmpi-dev, through pkg-config ompi-c): `mpirun -np
# P glnbody run|forces` shares the forces over P ranks (Harfst et al. 2007).
# Only the program's tools/glnbody/mpi_world.c sees MPI; the library stays
# MPI-free.  make NB_MPI=0 builds the program without it (one rank, as
# before); the setting is remembered in tools/glnbody/.nb_mpi so that a
# change rebuilds and relinks.
NB_MPI ?= 1
ifeq ($(NB_MPI),1)
MPI_CFLAGS = -DNB_HAVE_MPI $$(pkg-config --cflags ompi-c)
MPI_LIBS   = $$(pkg-config --libs ompi-c)
endif
MPI_STAMP := tools/glnbody/.nb_mpi
.PHONY: nb-mpi-setting
$(MPI_STAMP): nb-mpi-setting
	@echo '$(NB_MPI)' | cmp -s - $@ || echo '$(NB_MPI)' > $@

# The MPI_Allreduce alone, for tools/device_mpi.sh and tools/fit_mpi_model.py.
build/mpi_allreduce_bench: tools/mpi_allreduce_bench.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $$(pkg-config --cflags ompi-c) -o $@ $< $$(pkg-config --libs ompi-c)

tools/glnbody/mpi_world.o: tools/glnbody/mpi_world.c tools/glnbody/mpi_world.h $(PUBLIC_H) \
        $(MPI_STAMP)
	$(CC) $(CFLAGS) -Ibuild/include $(MPI_CFLAGS) -c -o $@ $<

libglnbody.a: $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

# The shared library exports only the NB_API functions (tools/check_exports.sh);
# -z defs: every symbol it uses must come from the libraries named here.
$(SOFILE): $(LIB_OBJ)
	$(CC) $(CFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,-z,defs -o $@ $(LIB_OBJ) \
	    $$(pkg-config --libs $(PKGS)) $(LDLIBS)

libglnbody.so: $(SOFILE)
	ln -sf $(SOFILE) $(SONAME)
	ln -sf $(SONAME) $@

glnbody: $(CLI_OBJ) libglnbody.a $(MPI_STAMP)
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) libglnbody.a $$(pkg-config --libs $(PKGS) $(VIEW_PKGS) $(CLI_PKGS)) \
	    $(LDLIBS) $(MPI_LIBS)

# Every program the binary can load is emitted exactly as the GLSL loader
# assembles it, then compiled to SPIR-V for OpenGL; any error fails the build.
spirv/.stamp: glnbody $(GLSL) tools/build_spirv.sh
	@tools/build_spirv.sh ./glnbody $(GLSLANG) spirv
	@touch $@

# The renderer's rate (tools/device_view.sh): only the public API.
tools/render_bench: tools/render_bench.c libglnbody.a
	$(CC) $(CFLAGS) -Ihost -o $@ $< libglnbody.a $$(pkg-config --libs $(PKGS)) $(LDLIBS)

tests/%: tests/%.c $(wildcard tests/*.h) libglnbody.a
	$(CC) $(CFLAGS) -Ihost -Isrc -Iglsl $$(pkg-config --cflags $(PKGS) check $(TEST_PKGS)) -o $@ $< \
	    libglnbody.a $$(pkg-config --libs $(PKGS) check $(TEST_PKGS)) $(LDLIBS)

# check_report reads the reports back with jansson.
tests/check_report: TEST_PKGS := jansson

# ---- libg6gl: the GRAPE-6 interface on the public API (tools/g6/) ---------
# Same version as libglnbody; links on libglnbody.so (its only dependency).
G6_SONAME := libg6gl.so.$(call nb_version_part,MAJOR)
G6_SOFILE := libg6gl.so.$(VERSION)

tools/g6/g6gl.o: tools/g6/g6gl.c tools/g6/g6gl.h $(HOST_H) Makefile
	$(CC) $(CFLAGS) -fPIC -Ihost -Itools/g6 -c -o $@ $<

libg6gl.a: tools/g6/g6gl.o
	rm -f $@
	$(AR) rcs $@ $^

$(G6_SOFILE): tools/g6/g6gl.o libglnbody.so
	$(CC) $(CFLAGS) -shared -Wl,-soname,$(G6_SONAME) -Wl,-z,defs -o $@ tools/g6/g6gl.o \
	    -L. -lglnbody

libg6gl.so: $(G6_SOFILE)
	ln -sf $(G6_SOFILE) $(G6_SONAME)
	ln -sf $(G6_SONAME) $@

# The block-step benchmark (tools/device_g6.sh), static like the drivers.
tools/g6/g6_bench: tools/g6/g6_bench.c tools/g6/g6gl.h libg6gl.a libglnbody.a
	$(CC) $(CFLAGS) -Itools/g6 -o $@ $< $(G6_STATIC)

# The block-step drivers of tests/check_g6 (a GRAPE code's view: g6gl.h
# only), linked statically so that they run from the build tree.
G6_STATIC = libg6gl.a libglnbody.a $$(pkg-config --libs $(PKGS)) $(LDLIBS)
tests/g6_driver: tests/g6_driver.c tools/g6/g6gl.h libg6gl.a libglnbody.a
	$(CC) $(CFLAGS) -Itools/g6 -o $@ $< $(G6_STATIC)
tests/g6_driver_f: tests/g6_driver.f90 libg6gl.a libglnbody.a
	gfortran -O2 -g -fopenmp -static-libgfortran -o $@ $< $(G6_STATIC)
tests/check_g6: tests/check_g6.c $(wildcard tests/*.h) libg6gl.a libglnbody.a \
                tests/g6_driver tests/g6_driver_f
	$(CC) $(CFLAGS) -Ihost -Isrc -Iglsl -Itools/g6 $$(pkg-config --cflags $(PKGS) check) -o $@ $< \
	    libg6gl.a libglnbody.a $$(pkg-config --libs $(PKGS) check) $(LDLIBS)
tests/check_g6_accuracy: tests/check_g6_accuracy.c $(wildcard tests/*.h) libg6gl.a libglnbody.a
	$(CC) $(CFLAGS) -Ihost -Isrc -Iglsl -Itools/g6 $$(pkg-config --cflags $(PKGS) check) -o $@ $< \
	    libg6gl.a libglnbody.a $$(pkg-config --libs $(PKGS) check) $(LDLIBS)
tests/check_g6_jmem: tests/check_g6_jmem.c $(wildcard tests/*.h) libg6gl.a libglnbody.a
	$(CC) $(CFLAGS) -Ihost -Isrc -Iglsl -Itools/g6 $$(pkg-config --cflags $(PKGS) check) -o $@ $< \
	    libg6gl.a libglnbody.a $$(pkg-config --libs $(PKGS) check) $(LDLIBS)

run: all
	./glnbody run

# The suites, then the installed library: install into a temporary prefix,
# build and run tools/examples/ against it, uninstall (tools/test_install.sh).
test: all $(TESTS) $(REPLAYS)
	@tools/run_tests.sh $(TESTS) $(REPLAYS)
	@MAKE='$(MAKE)' tools/test_install.sh

# The suites as on a machine without GL: EGL (glvnd) finds no vendor
# library, so the GL suites must say "skipped" while the CPU ones pass.
test-nogl: all $(TESTS) $(REPLAYS)
	@__EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent tools/run_tests.sh $(TESTS) $(REPLAYS)
	@__EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent MAKE='$(MAKE)' tools/test_install.sh

bench: all
	./glnbody bench --kernel ga --backend compute,fragment --variant all \
	    --n 1024,4096,16384 --csv bench.csv

# Every exported symbol of the library carries the nb_ prefix.
check-symbols: libglnbody.a
	@bad=$$(nm -g --defined-only libglnbody.a | awk 'NF==3 {print $$3}' | grep -v '^nb_'); \
	if [ -n "$$bad" ]; then echo "symbols without nb_ prefix:"; echo "$$bad"; exit 1; fi

# The layout's arrows and src/'s acyclic calls (tools/check_layers.sh).
check-layers: glnbody libglnbody.so
	@tools/check_layers.sh $(SOFILE)

# The .so exports exactly the NB_API names of host/glnbody.h and its parts.
check-exports: libglnbody.so
	@tools/check_exports.sh $(SOFILE) host/glnbody.h

include tools/sanitize.mk

# ---- install ------------------------------------------------------------
# tools/install.sh holds the one list of installed files, so that uninstall
# removes exactly what install put there.
INSTALL_ENV = DESTDIR='$(DESTDIR)' PREFIX='$(PREFIX)' VERSION='$(VERSION)' \
              SOFILE='$(SOFILE)' SONAME='$(SONAME)' G6_SOFILE='$(G6_SOFILE)' G6_SONAME='$(G6_SONAME)'

install: all
	@$(INSTALL_ENV) tools/install.sh install

uninstall:
	@$(INSTALL_ENV) tools/install.sh uninstall

# The examples, built against an installed copy through pkg-config only:
#   make install PREFIX=/tmp/nb && make examples PREFIX=/tmp/nb
EXAMPLES := tools/examples/plummer tools/examples/forces tools/examples/lj
examples: $(EXAMPLES)

tools/examples/%: tools/examples/%.c
	PKG_CONFIG_PATH='$(DESTDIR)$(PREFIX)/lib/pkgconfig' sh -c \
	    '$(CC) -O2 -g -std=c11 -Wall -Wextra -o $@ $< $$(pkg-config --cflags --libs glnbody) -lm'

clean:
	rm -f glnbody libglnbody.a libglnbody.so libglnbody.so.* libg6gl.a libg6gl.so libg6gl.so.* tools/g6/*.o \
	    tests/g6_driver tests/g6_driver_f tools/g6/g6_bench host/*.o src/*.o tools/glnbody/*.o \
	    $(TESTS) $(REPLAYS) $(EXAMPLES) spirv/*.spv spirv/.stamp bench.csv
	rm -rf build
