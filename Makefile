# SPDX-License-Identifier: GPL-3.0-or-later
# raudio: build, test and try it. `make help` lists the targets.
# Every target that builds first runs scripts/install-deps.sh, which installs only what is missing.

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
SAMPLE ?= samples/gull-rock.audiobook
# The release build is the one that ships: the Swift standard library and Foundation linked into the binary
# (--static-swift-stdlib), so an installed raudio needs no Swift toolchain, only Debian's C libraries; no
# $$ORIGIN run path (--disable-local-rpath): it loads no library from beside itself, and Debian forbids one.
# RELEASE_SCRATCH: where it is built (SwiftPM's --scratch-path): .build, beside the debug build, unless set
# (CI builds it in .build-release, at the same time as the debug build: SwiftPM locks its scratch path).
RELEASE_SCRATCH ?= .build
SWIFT_RELEASE = $(SWIFT) build -c release --scratch-path $(RELEASE_SCRATCH) --static-swift-stdlib --disable-local-rpath
RELEASE_BIN = $$($(SWIFT) build -c release --scratch-path $(RELEASE_SCRATCH) --show-bin-path)
# make install / uninstall: where (DESTDIR is prepended to every path, for packaging).
PREFIX ?= /usr/local
DESTDIR ?=

.DEFAULT_GOAL := help
.PHONY: help deps build release install install-piper uninstall install-check deb docs test spdx conformance locators readalong render-check align-set align-check soak state-stress security demo bench samples fuzz sanitize clean

help: ## List the targets
	@echo "raudio: make TARGET"
	@awk 'BEGIN { FS = ":.*## " } /^[a-z-]+:.*## / { printf "  %-13s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

deps: ## Install the missing Debian and Python packages (quiet when all are present)
	@bash scripts/install-deps.sh

build: deps ## Debug build of the raudio command line (.build/debug/raudio)
	$(SWIFT) build --product raudio

release: deps ## Release build of the raudio command line (.build/release/raudio; Swift runtime linked statically)
	$(SWIFT_RELEASE) --product raudio

install: release ## Install raudio, its voice presets, man pages and completions into DESTDIR/PREFIX (/usr/local)
	$(SWIFT_RELEASE) --product generate-manual
	@RAUDIO_BINARY="$(RELEASE_BIN)/raudio" GENERATE_MANUAL="$(RELEASE_BIN)/generate-manual" \
		PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" bash scripts/install.sh install

PIPER_VENV ?= $(DESTDIR)$(PREFIX)/share/raudio/piper-venv

install-piper: ## Make the Python environment of neural Piper voices for an installed raudio (PIPER_VENV, from PyPI)
	@RAUDIO_PIPER_VENV="$(PIPER_VENV)" bash scripts/install-piper.sh

uninstall: ## Remove what make install put in DESTDIR/PREFIX (give the same PREFIX)
	@PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" bash scripts/install.sh uninstall

install-check: release ## make install into a temporary DESTDIR, run the installed raudio, then make uninstall
	@bash scripts/test-install.sh

deb: release ## Build build/deb/raudio_VERSION_amd64.deb (dpkg-deb; Depends from dpkg-shlibdeps; lintian)
	$(SWIFT_RELEASE) --product generate-manual
	@bash scripts/make-deb.sh "$(RELEASE_BIN)/raudio" "$(RELEASE_BIN)/generate-manual"

CORPUS ?= $(or $(RAUDIO_CORPUS),../shared/corpus)

# The tests that start raudio run the release build (RAUDIO_TEST_BINARY), as in CI (.ci/run): the binary that
# ships, and half the CPU of the debug one. The other checks of make test use it too.
test: deps spdx release ## Run the whole test suite (tests start their own PulseAudio daemon), then the corpus sweep
	RAUDIO_TEST_BINARY="$(RELEASE_BIN)/raudio" $(SWIFT) test --no-parallel
	@if [ -d "$(CORPUS)" ]; then $(MAKE) --no-print-directory conformance; else echo "make test: no corpus at $(CORPUS): conformance skipped"; fi
	@$(MAKE) --no-print-directory locators
	@$(MAKE) --no-print-directory readalong SCREENSHOT=build/readalong/page.png
	@$(MAKE) --no-print-directory install-check

spdx: ## Check that every source file starts with its SPDX licence line (FIX=1 adds the missing ones)
	@bash scripts/check-spdx.sh $(if $(FIX),--fix)

conformance: release ## Run raudio over every corpus file (+ DIRS="..."); fails on crash/hang/bad exit; writes docs/CONFORMANCE.md
	@RAUDIO_CORPUS="$(CORPUS)" bash scripts/conformance.sh "$(RELEASE_BIN)/raudio" $(DIRS)

locators: release ## Resolve every locator of the corpus and sample EPUBs in headless Chromium; writes docs/LOCATORS.md
	@RAUDIO_CORPUS="$(CORPUS)" bash scripts/locators/run.sh "$(RELEASE_BIN)/raudio"

SCREENSHOT ?= docs/readalong.png

readalong: release ## Test the read-along page (--web) in headless Chromium while raudio speaks and plays; screenshot to SCREENSHOT
	@mkdir -p "$(dir $(SCREENSHOT))"
	@RAUDIO_CORPUS="$(CORPUS)" python3 scripts/readalong/page-test.py --raudio "$(RELEASE_BIN)/raudio" --screenshot "$(SCREENSHOT)"

render-check: release ## Render every corpus EPUB to EPUB 3 with Media Overlays and run EPUBCheck on each book and render (not in CI); writes docs/RENDER-EPUBCHECK.md
	@RAUDIO_CORPUS="$(CORPUS)" python3 scripts/render-epubcheck.py "$(RELEASE_BIN)/raudio"

align-set: build ## Make the alignment evaluation set under build/align-set (SUBSET=ci|full; cached; scripts/align/make-align-set.py)
	python3 scripts/align/make-align-set.py --raudio "$$($(SWIFT) build --show-bin-path)/raudio" --subset $(or $(SUBSET),full) --out build/align-set --corpus "$(CORPUS)"

align-check: release ## Align every book of the evaluation set (SUBSET=ci|full) with raudio align and score it; writes build/align-check.md
	@RAUDIO_CORPUS="$(CORPUS)" bash scripts/align/align-check.sh "$(RELEASE_BIN)/raudio" $(or $(SUBSET),full)

soak: release ## Long runs (not in CI): a 10-hour book and a whole EPUB spoken, to null; writes docs/SOAK.md
	@bash scripts/soak.sh "$(RELEASE_BIN)/raudio"

state-stress: release ## Kill players with SIGKILL 1,000 times (KILLS=...) mid-save, then check the listening-state store (not in CI)
	@bash scripts/state-kill-stress.sh "$(RELEASE_BIN)/raudio" $(or $(KILLS),1000)

security: deps release ## Run the security suites (Security*: forged requests, exhaustion, framing, bombs, state store, signals; docs/SECURITY.md) on the release build, as CI
	$(SWIFT) build --build-tests
	RAUDIO_TEST_BINARY="$(RELEASE_BIN)/raudio" $(SWIFT) test --skip-build --no-parallel --filter Security

demo: build ## Play the sample audiobook (or render it to build/demo/ without a sound server)
	@bash scripts/demo.sh "$$($(SWIFT) build --show-bin-path)/raudio" "$(SAMPLE)"

bench: release ## Run the benchmarks against their targets and reference tools; writes BENCHMARKS.md
	$(SWIFT_RELEASE) --product raudio-bench
	@bash scripts/bench.sh "$(RELEASE_BIN)/raudio"

DOCC_TARGETS = ReadiumShared ReadiumStreamer ReadiumNavigator RAudioEngine RAudioPlayer ReadiumOPDS

docs: deps ## Build the DocC documentation of the six libraries as static HTML in build/docs (fails on a warning)
	@bash scripts/docs.sh "$(SWIFT)" build/docs $(DOCC_TARGETS)

samples: deps ## Regenerate samples/ from its text (see samples/README.md)
	@bash scripts/make-samples.sh

FUZZ_SECONDS ?= 60
CORPUS ?= ../shared/corpus

fuzz: deps ## Fuzz each parser for FUZZ_SECONDS (default 60) with libFuzzer; not part of CI
	$(SWIFT) build --scratch-path .build-fuzz --product raudio-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING
	FUZZ_SECONDS=$(FUZZ_SECONDS) bash scripts/fuzz/run.sh .build-fuzz/debug/raudio-fuzz "$(CORPUS)" $(FUZZ_TARGETS)

sanitize: deps ## Run the test suite under AddressSanitizer, then ThreadSanitizer (suppressions in scripts/sanitizers/)
	SWIFT=$(SWIFT) bash scripts/sanitizers/run.sh all

clean: ## Remove the build products (.build/, .build-*/ and build/)
	rm -rf .build .build-release .build-fuzz .build-asan .build-tsan build
