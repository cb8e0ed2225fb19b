# aquavate-bridge: build, install as a service, test.
#
#   make build                  release build (scripts/release-build.sh: Swift runtime linked in, hot code laid out together)
#   sudo make install           install the service (scripts/install.sh --no-build)
#   sudo make uninstall         remove it; keeps the history and the config (PURGE=1 removes them)
#   make deb                    the Debian package dist/aquavate-bridge_<version>_<arch>.deb
#                               (make build, then scripts/build-deb.sh); install it with
#                               sudo apt install ./dist/aquavate-bridge_<version>_<arch>.deb
#   make test                   swift test
#
# PREFIX (/usr/local), DESTDIR (staging root) and SCRATCH (SwiftPM scratch folder, .build) pass through;
# DIST (dist) is where make deb puts the package.

PREFIX  ?= /usr/local
DESTDIR ?=
SCRATCH ?= .build
BIN     ?= $(SCRATCH)/release/aquavate-bridge
DIST    ?= dist

.PHONY: build deb install uninstall test

build:
	scripts/release-build.sh --scratch-path $(SCRATCH)

deb: build
	scripts/build-deb.sh BIN="$(BIN)" OUT="$(DIST)" SCRATCH="$(SCRATCH)"

install:
	@test -f "$(BIN)" || { echo "no binary at $(BIN): run 'make build' first (as yourself, not root)"; exit 1; }
	scripts/install.sh --no-build BIN="$(abspath $(BIN))" PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" $(if $(NO_START),--no-start)

uninstall:
	scripts/uninstall.sh PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" $(if $(PURGE),--purge)

test:
	swift test
