# Thin wrapper over CMake. `make` builds, `make check` runs the test suite
# under AddressSanitizer + UndefinedBehaviorSanitizer (with the fuzz target
# when clang is present), `make bench CORPUS=DIR` prints throughput figures,
# `make install` installs under PREFIX (staged under DESTDIR when set).
# Nothing here installs system packages: `make deps` (scripts/install-deps.sh)
# does, and is run once by hand or by CI before building.
BUILD ?= build
CHECK_BUILD ?= build-check
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CLANG := $(shell command -v clang 2>/dev/null)
CORPUS ?= ../shared/bench/aeb/html
PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: all deps check bench samples golden model df install clean
all:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$(PREFIX)" >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

deps:
	@scripts/install-deps.sh

# The CLI, libwinnow (.so with its soname links, and .a), winnow.h, winnow.pc,
# the CMake package (find_package(winnow)) and the man page. Installed for
# real (no DESTDIR) by root, the loader's cache is refreshed so that programs
# linked with -lwinnow find libwinnow.so in a standard directory.
install: all
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD) --prefix "$(PREFIX)"
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" -eq 0 ] && command -v ldconfig >/dev/null; then ldconfig; fi

check:
	cmake -S . -B $(CHECK_BUILD) -DCMAKE_BUILD_TYPE=Debug -DWINNOW_SANITIZE=ON \
	  $(if $(CLANG),-DCMAKE_C_COMPILER=$(CLANG) -DWINNOW_FUZZ=ON,) >/dev/null
	cmake --build $(CHECK_BUILD) -j $(JOBS)
	cd $(CHECK_BUILD) && ctest --output-on-failure -j $(JOBS)

bench: all
	$(BUILD)/winnow-bench $(CORPUS)

# The main job on the shipped sample pages: each page's main text, printed.
samples: all
	@for f in samples/*.html; do echo "==> $$f"; $(BUILD)/winnow extract "$$f" || exit 1; echo; done

# The renderers' expected outputs (tests/golden/, checked by the golden test):
# rewritten from the current build when a change is meant to alter them;
# read `git diff tests/golden/` before committing them.
golden: all
	tests/golden.sh $(BUILD)/winnow --update

# The default node classifier (compiled into the library): 50 rounds of boosted
# trees (100 score the same on the evaluation corpora and cost 10% more extraction time),
# trained on the site corpus with fixed seeds, without the nine Big9 news
# sites so that bench/big9 stays unseen. Rebuild afterwards to embed it.
CORPUS_SITES ?= ../shared/corpus/sites
BIG9_SITES := arstechnica.com,news.yahoo.com,nymag.com,nypost.com,www.bbc.co.uk,www.cnn.com,www.forbes.com,www.foxnews.com,www.latimes.com
model: all
	$(BUILD)/winnow train $(CORPUS_SITES)/*.warc.gz --exclude $(BIG9_SITES) --kind boost --rounds 50 --seed 1 -o models/default.wmodel
	cmake --build $(BUILD) -j $(JOBS)

# The keywords' default document-frequency table (compiled into the library):
# the main text (page mode, the default model) of every page of the site
# corpus, one document each; terms in fewer than 3 pages and phrases in fewer
# than 6 left out. Rebuild afterwards to embed it.
df: all
	$(BUILD)/winnow keywords -q --build-df --min-df 3 $(CORPUS_SITES)/*.warc.gz -o models/default.df.gz
	cmake --build $(BUILD) -j $(JOBS)

clean:
	rm -rf $(BUILD) $(CHECK_BUILD)
