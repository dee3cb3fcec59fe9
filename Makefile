# The README's two commands are `make demo` and `make test`; both run set-up first (idempotent).
SWIFT ?= swift
SETUP := scripts/setup.sh

.PHONY: setup build release demo test test-interactive test-distributed bench sanitize fuzz docs clean

setup:
	@bash $(SETUP)

build: setup
	$(SWIFT) build

release: setup
	$(SWIFT) build -c release --product feedlayout

# The main job: a terminal preview of the bundled demo feed.
demo: release
	@.build/release/feedlayout preview

# Every test: the documents' check (scripts/check-docs.sh), unit, conformance, goldens, end-to-end CLI
# runs (XCTest, then the swift-testing suites: the exit tests of preconditions), the tmux-driven
# interactive preview and a dependent package built against the library products from the
# README's example (scripts/test-dependent-package.sh).
test: setup
	bash scripts/check-docs.sh
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	bash scripts/test-interactive.sh
	bash scripts/test-dependent-package.sh

# The Spark job of examples/spark on a local cluster against the single-process export, byte for
# byte (sets up Java and a pyspark venv in .venv-spark/ first; README "Running at scale").
test-distributed: setup
	bash scripts/test-distributed.sh

bench: setup
	cd benchmarks && bash run.sh

# ASan: a small quarantine keeps the RSS-bound tests meaningful; LeakSanitizer is off (false positives
# on Swift's multi-payload enums, Foundation's own leaks: docs/hardening.md). TSan runs without
# suppressions: every lock of the package is a pthread mutex, which TSan intercepts.
sanitize: setup
	SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=quarantine_size_mb=4:detect_leaks=0 $(SWIFT) test --sanitize=address --scratch-path .build-asan
	SWIFT_BACKTRACE=enable=no $(SWIFT) test --sanitize=thread --scratch-path .build-tsan --filter 'Parallel|Concurrent|Cache|Relayout|HeightsOnly|ThreadState'

fuzz: setup
	bash scripts/fuzz.sh

# DocC archives of the six library products in .build/docs/ (swift-docc-plugin); fails on any
# DocC warning.
docs: setup
	bash scripts/docs.sh

clean:
	rm -rf .build .build-*
