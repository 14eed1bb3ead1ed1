# romdev — build, test, demo and benchmarks. Every target installs the Debian packages it needs.

SHELL := /bin/bash
# The Swift toolchain lives in /opt/swift on our build machines; a system-wide install works too.
export PATH := $(PATH):/opt/swift/usr/bin
SWIFT ?= swift

APT_PACKAGES := pkg-config libsqlite3-dev libi2c-dev libgpiod-dev
# Formatters the manual page's lint test runs (it skips those that are missing).
TEST_APT_PACKAGES := groff-base mandoc
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
BIN_DIR = $(shell $(SWIFT) build --show-bin-path)
RELEASE_BIN_DIR = $(shell $(SWIFT) build -c release --show-bin-path)

.PHONY: all deps apt-install build test demo bench clean

all: build

## deps: install the Debian packages the build needs, only those missing (apt-get, sudo when not root)
deps:
	@command -v $(SWIFT) >/dev/null || { echo "error: no Swift toolchain on PATH (expected swift 6, e.g. /opt/swift/usr/bin)" >&2; exit 1; }
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(APT_PACKAGES)"

# apt-install PACKAGES="…": installs those of the packages that are missing.
apt-install:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi

## build: debug build of romdev
build: deps
	$(SWIFT) build

## test: every test, from a clean clone
test: deps
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(TEST_APT_PACKAGES)"
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

## demo: the care plan end to end (init, onboard, check-in, today's feed) and a measurement on the simulated sensor, in a throwaway directory
demo: build
	@set -e; dir=$$(mktemp -d); trap 'rm -rf "$$dir"' EXIT; \
	export ROMDEV_STORE="$$dir/care.sqlite"; r="$(BIN_DIR)/romdev"; \
	step() { printf '\n$$ romdev'; for a in "$$@"; do case "$$a" in *" "*) printf " '%s'" "$$a";; *) printf ' %s' "$$a";; esac; done; \
	  echo; "$$r" "$$@"; }; \
	echo "romdev demo on a throwaway care store: ROMDEV_STORE=$$ROMDEV_STORE"; \
	step init; \
	step today; \
	step onboard --consent-by "Demo Patient"; \
	step checkin --pain 3 --sleep 7; \
	step checkin --pain 11 --sleep 7 || echo "(refused with exit status $$?; the store is unchanged)"; \
	step today; \
	step export --format csv; \
	step doctor --simulate; \
	step record --simulate --seconds 12 --output "$$dir/session.csv"; \
	step replay "$$dir/session.csv"

## bench: figures for the store, the driver and fusion (release build)
bench: deps
	$(SWIFT) build -c release --static-swift-stdlib --product romdev
	$(SWIFT) build -c release --static-swift-stdlib --product romdev-bench
	"$(RELEASE_BIN_DIR)/romdev-bench" --romdev "$(RELEASE_BIN_DIR)/romdev"

clean:
	rm -rf .build
