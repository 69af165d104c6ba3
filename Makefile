# glnbody - direct N-body forces on any OpenGL 4.3 GPU.
# make run | make test | make bench | make clean   (see README.md)

CC      ?= cc
PKGS    := epoxy egl
CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -Wall -Wextra -Wpedantic -fopenmp -D_POSIX_C_SOURCE=200809L \
           -DNB_SHADER_DIR='"$(CURDIR)"'
LDLIBS  += -lm -fopenmp
GLSLANG ?= glslangValidator

MD_SRC   := host/md_engine.c host/md_potential.c host/md_force_cpu.c host/md_engine_cpu.c host/md_sim.c
MD_IO_SRC := host/md_ic.c host/md_files.c host/md_exclusions.c
HOST_SRC := host/version.c host/accuracy.c host/error.c host/text_reader.c host/particles.c host/rng.c host/snapshot.c \
            host/outfile.c host/force_cpu.c host/backend_cpu.c host/timing.c \
            host/plummer.c host/potential.c host/sim.c host/integrator_hermite4.c host/integrator_verlet.c host/diagnostics.c \
            $(MD_SRC) $(MD_IO_SRC)
GL_SRC   := src/context.c src/shader.c src/programs.c src/gpu_timer.c src/staging.c src/gaj_compute.c \
            src/gaj_precision.c \
            src/force_compute.c src/force_precision.c src/force_fragment.c src/fragment_passes.c src/fragment_hermite.c src/backends.c src/gl_buffers.c src/gl_targets.c \
            src/md_compute.c src/md_compute_force.c src/md_clock.c src/md_cells.c src/md_fragment.c src/md_triangular.c src/md_precision.c \
            src/md_params.c src/fragment_precision.c src/precision.c \
            src/api_forces.c src/api_hermite.c src/api_md.c
CLI_SRC  := $(addprefix tools/glnbody/,main.c options.c measure.c cmd_forces.c cmd_bench.c \
            cmd_compare.c cmd_shaders.c cmd_run.c cmd_precision.c cmd_md.c md_options.c \
            md_outputs.c cmd_newton3.c)
GLSL     := $(wildcard glsl/*.glsl glsl/*.frag glsl/*.vert glsl/*.comp glsl/*.h)
TESTS    := tests/check_host tests/check_gpu tests/check_cli_forces tests/check_cli_errors \
            tests/check_cli_help tests/check_cli_bench tests/check_cli_shaders tests/check_run \
            tests/check_precision tests/check_md_laws tests/check_md_forces \
            tests/check_md_dynamics tests/check_md_checks tests/check_md_io tests/check_md_gpu \
            tests/check_md_fragment tests/check_md_cli tests/check_triangular \
            tests/check_md_precision tests/check_md_cell_precision tests/check_gaj_precision \
            tests/check_fragment_precision tests/check_md_run_precision tests/check_text \
            tests/check_snapshot tests/check_md_ic tests/check_run_cli tests/check_run_gpu \
            tests/check_api

LIB_OBJ  := $(HOST_SRC:.c=.o) $(GL_SRC:.c=.o)
CLI_OBJ  := $(CLI_SRC:.c=.o)

.PHONY: all deps run test test-nogl bench clean check-symbols check-layers
all: deps glnbody spirv/.stamp

deps:
	@tools/deps.sh

# Each layer sees only the headers of the layers below it:
# tools/glnbody -> src -> host, and src -> glsl.
HOST_H   := $(wildcard host/*.h)
GL_H     := $(wildcard src/*.h) glsl/nb_config.h glsl/nb_precision.h

host/%.o: host/%.c $(HOST_H)
	$(CC) $(CFLAGS) -Ihost -c -o $@ $<

src/%.o: src/%.c $(HOST_H) $(GL_H)
	$(CC) $(CFLAGS) -Ihost -Isrc -Iglsl $$(pkg-config --cflags $(PKGS)) -c -o $@ $<

tools/glnbody/%.o: tools/glnbody/%.c $(wildcard tools/glnbody/*.h) $(HOST_H) $(GL_H)
	$(CC) $(CFLAGS) -Ihost -Isrc -Iglsl $$(pkg-config --cflags $(PKGS)) -c -o $@ $<

libglnbody.a: $(LIB_OBJ)
	$(AR) rcs $@ $^

glnbody: $(CLI_OBJ) libglnbody.a
	$(CC) $(CFLAGS) -o $@ $(CLI_OBJ) libglnbody.a $$(pkg-config --libs $(PKGS)) $(LDLIBS)

# Every program the binary can load is emitted exactly as the GLSL loader
# assembles it, then compiled to SPIR-V for OpenGL; any error fails the build.
spirv/.stamp: glnbody $(GLSL) tools/build_spirv.sh
	@tools/build_spirv.sh ./glnbody $(GLSLANG) spirv
	@touch $@

tests/%: tests/%.c $(wildcard tests/*.h) libglnbody.a
	$(CC) $(CFLAGS) -Ihost -Isrc -Iglsl $$(pkg-config --cflags $(PKGS) check) -o $@ $< libglnbody.a \
	    $$(pkg-config --libs $(PKGS) check) $(LDLIBS)

run: all
	./glnbody run

test: all $(TESTS)
	@tools/run_tests.sh $(TESTS)

# The suites as on a machine without GL: EGL (glvnd) finds no vendor
# library, so the GL suites must say "skipped" while the CPU ones pass.
test-nogl: all $(TESTS)
	@__EGL_VENDOR_LIBRARY_FILENAMES=/nonexistent tools/run_tests.sh $(TESTS)

bench: all
	./glnbody bench --kernel ga --backend compute,fragment --variant all \
	    --n 1024,4096,16384 --csv bench.csv

# Every exported symbol of the library carries the nb_ prefix.
check-symbols: libglnbody.a
	@bad=$$(nm -g --defined-only libglnbody.a | awk 'NF==3 {print $$3}' | grep -v '^nb_'); \
	if [ -n "$$bad" ]; then echo "symbols without nb_ prefix:"; echo "$$bad"; exit 1; fi

# The layout's arrows and src/'s acyclic calls (tools/check_layers.sh).
check-layers: glnbody
	@tools/check_layers.sh

clean:
	rm -f glnbody libglnbody.a host/*.o src/*.o tools/glnbody/*.o $(TESTS) spirv/*.spv spirv/.stamp bench.csv
	rm -rf build
