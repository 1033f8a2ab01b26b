# Thin wrapper over CMake. `make` builds, `make check` runs the test suite
# under AddressSanitizer + UndefinedBehaviorSanitizer (with the fuzz target
# when clang is present), `make bench CORPUS=DIR` prints throughput figures.
BUILD ?= build
CHECK_BUILD ?= build-check
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CLANG := $(shell command -v clang 2>/dev/null)
CORPUS ?= ../shared/bench/aeb/html

.PHONY: all deps check bench samples clean
all: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

deps:
	@scripts/install-deps.sh

check: deps
	cmake -S . -B $(CHECK_BUILD) -DCMAKE_BUILD_TYPE=Debug -DWINNOW_SANITIZE=ON \
	  $(if $(CLANG),-DCMAKE_C_COMPILER=$(CLANG) -DWINNOW_FUZZ=ON,) >/dev/null
	cmake --build $(CHECK_BUILD) -j $(JOBS)
	cd $(CHECK_BUILD) && ctest --output-on-failure -j $(JOBS)

bench: all
	$(BUILD)/winnow-bench $(CORPUS)

# The main job on the shipped sample pages: each page's main text, printed.
samples: all
	@for f in samples/*.html; do echo "==> $$f"; $(BUILD)/winnow extract "$$f" || exit 1; echo; done

clean:
	rm -rf $(BUILD) $(CHECK_BUILD)
