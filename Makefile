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

# Installation (make install, make deb). The binary, its manual page and the board files:
# systemd units, sysusers and tmpfiles entries, udev rules, and /etc/romdev/romdev.conf.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
SYSCONFDIR ?= /etc
# systemd, udev, systemd-sysusers and systemd-tmpfiles read /etc, /run, /usr/local/lib and
# /usr/lib, nothing else. PREFIX=/usr takes the directories Debian's systemd.pc and udev.pc name
# (/lib/systemd/system and /lib/udev on bookworm, /usr/lib/… on trixie); PREFIX=/usr/local uses
# /usr/local/lib; any other prefix also uses /usr/local/lib, where the files are still read.
ifeq ($(PREFIX),/usr)
SYSTEM_LIBDIR := /usr/lib
UNITDIR ?= $(shell pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null || echo /usr/lib/systemd/system)
UDEVRULESDIR ?= $(shell pkg-config --variable=udevdir udev 2>/dev/null || echo /usr/lib/udev)/rules.d
else
SYSTEM_LIBDIR := /usr/local/lib
UNITDIR ?= $(SYSTEM_LIBDIR)/systemd/system
UDEVRULESDIR ?= $(SYSTEM_LIBDIR)/udev/rules.d
endif
SYSUSERSDIR ?= $(SYSTEM_LIBDIR)/sysusers.d
TMPFILESDIR ?= $(SYSTEM_LIBDIR)/tmpfiles.d
# The romdev to install; empty = the static release build (make release). Any built romdev will
# do for trying the layout, e.g. ROMDEV_BIN=.build/debug/romdev.
ROMDEV_BIN ?=
# A romdev that runs here, built from the same sources, to write the manual page and the default
# configuration when ROMDEV_BIN is for another architecture; empty = ROMDEV_BIN.
ROMDEV_RUN ?=
STRIP ?= strip
# As Debian's dh_strip does: symbols not needed for relocation, and the compilers' comments.
STRIP_FLAGS := --strip-unneeded --remove-section=.comment --remove-section=.note
# The manual page's date: SOURCE_DATE_EPOCH, else the last commit's, so that the same sources
# give the same page.
MAN_DATE_EPOCH := $(or $(SOURCE_DATE_EPOCH),$(shell git log -1 --format=%ct 2>/dev/null))
DEB_DIR := .build/deb
ROMDEV_VERSION := $(shell sed -n 's/.*static let version = "\(.*\)"/\1/p' Sources/RomdevCLI/Romdev.swift)
# The packages' Debian revision: romdev 0.1.0 packaged the first time is 0.1.0-1.
DEB_REVISION ?= 1
DEB_VERSION := $(ROMDEV_VERSION)-$(DEB_REVISION)
# The release the host package is for (its libgpiod: bookworm's v1, trixie's v2).
HOST_DISTRIBUTION := $(shell . /etc/os-release && echo $$VERSION_CODENAME)
DEB_MAINTAINER ?= $(shell git config user.name) <$(shell git config user.email)>

.PHONY: all deps apt-install build test format test-kernel test-system check-debian-swift demo report-demo bench bench-broad release install uninstall deb deb-arm64 check-deb-arm64 lint-deb clean

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

## test: the code's format, then every test, from a clean clone
test: deps
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(TEST_APT_PACKAGES)"
	$(SWIFT) format lint --strict --recursive $(FORMATTED)
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

## format: formats the code as .swift-format says, in place (make test checks it)
FORMATTED := Package.swift Sources Tests
format:
	$(SWIFT) format --in-place --recursive $(FORMATTED)

## test-kernel: the KernelTests against Linux's own i2c-dev, i2c-stub and gpio-sim, in a QEMU guest
## booting Debian's kernel with this machine's root read-only (x86_64 Debian; the guest is built once)
KERNEL_GUEST := Tests/KernelTests/Guest/kernel-guest
test-kernel: deps
	$(SWIFT) build --build-tests
	@bundle="$(BIN_DIR)/romdevPackageTests.xctest"; \
	suites=$$("$$bundle" --list-tests | sed -n 's|^\(KernelTests\.[^/]*\)/.*|\1|p' | sort -u | paste -sd, -); \
	[ -n "$$suites" ] || { echo "error: $$bundle lists no KernelTests" >&2; exit 1; }; \
	echo "$(KERNEL_GUEST) $$bundle $$suites"; \
	$(KERNEL_GUEST) "$$bundle" "$$suites"

## test-system: make deb (and make deb-arm64), then each package installed in a booted guest of its architecture with systemd as PID 1 (amd64 with the host's release, arm64 with trixie on qemu-system-aarch64 -M virt; SYSTEM_ARCHS=amd64 or arm64 runs one; root: the guests' Debian roots are made once with debootstrap): READY, users and modes, the command line for group romdev, restarts, the unit's sandbox score, udev, a gpio-sim button press, a power cut, the USB export, a measurement through mpu6050-sim's FIFO
SYSTEM_GUEST := Tests/SystemTests/system-guest
SYSTEM_ARCHS := amd64 arm64
SYSTEM_APT_PACKAGES := dosfstools e2fsprogs cpio busybox-static kmod xz-utils debootstrap wget \
  $(if $(filter amd64,$(SYSTEM_ARCHS)),qemu-system-x86) $(if $(filter arm64,$(SYSTEM_ARCHS)),qemu-system-arm qemu-user-static binfmt-support)
test-system: $(if $(filter amd64,$(SYSTEM_ARCHS)),deb) $(if $(filter arm64,$(SYSTEM_ARCHS)),deb-arm64)
	@$(MAKE) --no-print-directory apt-install PACKAGES="$(SYSTEM_APT_PACKAGES)"
	@# Every guest runs even when an earlier one failed; the target fails if any did.
	@status=0; for arch in $(SYSTEM_ARCHS); do \
	  echo "== make test-system: the $$arch guest"; \
	  $(SYSTEM_GUEST) $(DEB_DIR)/romdev_$(DEB_VERSION)_$$arch.deb || { echo "make test-system: the $$arch guest failed" >&2; status=1; }; \
	done; exit $$status

## check-debian-swift: builds and runs every test with Debian trixie's Swift (6.0.3, the oldest the
## manifest allows) in a trixie root made once with debootstrap in .build/debian-trixie (root only)
DEBIAN_ROOT_TOOL := packaging/debian-root
DEBIAN_SWIFT_ROOT := .build/debian-trixie/$(shell dpkg --print-architecture)
DEBIAN_SWIFT_PACKAGES := swiftlang pkg-config libsqlite3-dev libi2c-dev libgpiod-dev make groff-base mandoc
check-debian-swift:
	@$(MAKE) --no-print-directory apt-install PACKAGES="debootstrap wget"
	$(DEBIAN_ROOT_TOOL) ensure $(DEBIAN_SWIFT_ROOT) trixie $(shell dpkg --print-architecture) $(DEBIAN_SWIFT_PACKAGES)
	@# The checkout is read-only at /src; the build stays in the root, so later runs are incremental.
	$(DEBIAN_ROOT_TOOL) run $(DEBIAN_SWIFT_ROOT) . /bin/sh -ec 'cd /src; swift --version; \
	  swift build --build-tests --scratch-path /var/cache/romdev-build; \
	  swift test --skip-build --scratch-path /var/cache/romdev-build'

## demo: the whole device on the simulator in a throwaway directory: the care plan (init, onboard, check-in), the daemon on a range-of-motion day (reminder chime, a scripted press, the guided session, the stored result), today's feed and export, the sensor checks
demo: build
	@set -e; dir=$$(mktemp -d); trap 'rm -rf "$$dir"' EXIT; \
	export ROMDEV_STORE="$$dir/care.sqlite" ROMDEV_RUNTIME_DIR="$$dir/run"; r="$(BIN_DIR)/romdev"; \
	today=$$(date +%F); tomorrow=$$(date -d tomorrow +%F); \
	step() { printf '\n$$ romdev'; for a in "$$@"; do case "$$a" in *" "*) printf " '%s'" "$$a";; *) printf ' %s' "$$a";; esac; done; \
	  echo; "$$r" "$$@"; }; \
	echo "romdev demo on a throwaway care store: ROMDEV_STORE=$$ROMDEV_STORE"; \
	step init --start "$$today"; \
	step today; \
	step onboard --consent-by "Demo Patient"; \
	step checkin --pain 3 --sleep 7; \
	step checkin --pain 11 --sleep 7 || echo "(refused with exit status $$?; the store is unchanged)"; \
	step today; \
	echo; echo "# The appliance on the simulator, tomorrow (day 1: a range-of-motion day) from 08:59:55:"; \
	echo "# the 09:00 reminder chimes, the button is pressed at 8 s, the guided session runs"; \
	echo "# (hold still, go, done) and the daemon stops after storing the result. Log on stderr."; \
	step daemon --simulate --start-at "$${tomorrow}T08:59:55" --press-at 8s --exit-after 1 2>&1; \
	step today --date "$$tomorrow"; \
	step export --format csv; \
	step doctor --simulate; \
	step record --simulate --seconds 12 --output "$$dir/session.csv"; \
	step replay "$$dir/session.csv"

## report-demo: a month of simulated care (check-ins, the daemon's daily then weekly measurements, missed days, one flagged and one unscheduled result) and its report in .build/report-demo: report.html, and with headless Chromium report.png and report.pdf
REPORT_DEMO_DIR := .build/report-demo
report-demo: build
	$(SWIFT) build --product report-demo
	@set -e; dir="$(REPORT_DEMO_DIR)"; rm -rf "$$dir"; mkdir -p "$$dir"; \
	export ROMDEV_STORE="$$PWD/$$dir/care.sqlite" ROMDEV_RUNTIME_DIR="$$PWD/$$dir/run"; r="$(BIN_DIR)/romdev"; \
	day() { date -d "$$start + $$1 days" +%F; }; \
	start=$$(date -d "29 days ago" +%F); \
	"$$r" init --start "$$start" --limb left; \
	"$$r" onboard --consent-by "Demo Patient" >/dev/null; \
	echo "check-ins: days 0-29 but 4, 11 and 17; pain easing from 7, sleep improving from 5 h"; \
	for n in $$(seq 0 29); do \
	  case $$n in 4|11|17) continue;; esac; \
	  pain=$$(( 7 - n / 6 )); sleep=$$(( 5 + (n + 2) / 8 )); \
	  "$$r" checkin --pain "$$pain" --sleep "$$sleep" --date "$$(day $$n)" >/dev/null; \
	done; \
	echo "measurements: the daemon on the simulator on days 0-6, 7, 21 and 28; days 3 and 14 missed; day 21 flagged"; \
	for n in 0 1 2 4 5 6 7 28; do \
	  "$$r" daemon --simulate --seed "$$n" --start-at "$$(day $$n)T08:59:55" --press-at 8s --exit-after 1 --time-scale 50 2>&1 \
	    | grep "stored range" | sed "s/^<[0-9]>/  day $$n: /"; \
	done; \
	"$(BIN_DIR)/report-demo" "$$ROMDEV_STORE" "$$(day 21)" | sed 's/^/  /'; \
	echo "an unscheduled measurement today (simulated, real time):"; \
	"$$r" measure --simulate --seed 30 --unscheduled | tail -n 2 | sed 's/^/  /'; \
	"$$r" today | tail -n 1; \
	"$$r" report --output "$$dir/report.html"
	@$(MAKE) --no-print-directory apt-install PACKAGES="chromium" || echo "(chromium could not be installed: no PNG or PDF)"
	@set -e; dir="$$PWD/$(REPORT_DEMO_DIR)"; \
	if command -v chromium >/dev/null; then \
	  flags="--headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir=$$dir/chromium-profile"; \
	  chromium $$flags --window-size=980,1140 --screenshot="$$dir/report.png" "file://$$dir/report.html" 2>/dev/null; \
	  chromium $$flags --no-pdf-header-footer --print-to-pdf="$$dir/report.pdf" "file://$$dir/report.html" 2>/dev/null; \
	  rm -rf "$$dir/chromium-profile"; \
	  echo "wrote $(REPORT_DEMO_DIR)/report.html, report.png and report.pdf"; \
	else \
	  echo "wrote $(REPORT_DEMO_DIR)/report.html (no chromium: no PNG or PDF)"; \
	fi

## bench: figures for the store, the driver, fusion and the daemon (release build)
bench: deps
	@# valgrind counts the sampling path's heap allocations per tick.
	@$(MAKE) --no-print-directory apt-install PACKAGES="valgrind"
	$(SWIFT) build -c release --static-swift-stdlib --product romdev
	$(SWIFT) build -c release --static-swift-stdlib --product romdev-bench
	"$(RELEASE_BIN_DIR)/romdev-bench" --romdev "$(RELEASE_BIN_DIR)/romdev"

## bench-broad: BROAD=DIR: inclination accuracy on the public BROAD IMU dataset (DIR holds its data_hdf5 or data_mat files)
# Python with h5py and scipy reads the dataset's HDF5 and MATLAB files; the venv is only for this target.
BROAD_VENV := .build/broad-venv
BROAD_OUT := .build/broad
bench-broad: deps
	@if [ -z "$(BROAD)" ]; then \
	  echo "usage: make bench-broad BROAD=DIR" >&2; \
	  echo "  DIR: the data_hdf5 (or data_mat) folder of the BROAD dataset (Laidig et al., Data 2021, CC BY 4.0):" >&2; \
	  echo "    git clone https://github.com/dlaidig/broad && make bench-broad BROAD=broad/data_hdf5" >&2; \
	  exit 64; \
	fi
	@[ -d "$(BROAD)" ] || { echo "error: BROAD=$(BROAD) is not a directory" >&2; exit 66; }
	@$(MAKE) --no-print-directory apt-install PACKAGES="python3-venv"
	$(SWIFT) build -c release --static-swift-stdlib --product romdev
	$(SWIFT) build -c release --static-swift-stdlib --product romdev-bench
	@[ -x "$(BROAD_VENV)/bin/python" ] && "$(BROAD_VENV)/bin/python" -c "import h5py, scipy" 2>/dev/null || { \
	  python3 -m venv "$(BROAD_VENV)" && "$(BROAD_VENV)/bin/pip" install --quiet h5py numpy scipy; }
	rm -rf "$(BROAD_OUT)" && "$(BROAD_VENV)/bin/python" bench/broad/convert.py "$(BROAD)" "$(BROAD_OUT)"
	@# The store path names a directory that does not exist, so no calibration.json is found: the
	@# samples are replayed as recorded. Each trial's printed result is kept next to its trace.
	@set -e; romdev="$(RELEASE_BIN_DIR)/romdev"; \
	for truth in "$(BROAD_OUT)"/*.truth.csv; do \
	  trial="$${truth%.truth.csv}"; \
	  "$$romdev" replay "$$trial.csv" --store "$(BROAD_OUT)/no-store/care.sqlite" --trace "$$trial.trace.csv" > "$$trial.replay.txt"; \
	  grep -q "^  calibration none" "$$trial.replay.txt" || { echo "error: $$trial was replayed with a calibration" >&2; exit 1; }; \
	done
	"$(RELEASE_BIN_DIR)/romdev-bench" broad "$(BROAD_OUT)"

## release: the board build, with the Swift runtime linked in (only the system's C libraries stay shared)
# Bound at load time (BIND_NOW), so the relocations are read-only from the start, as Debian's
# hardening flags make C programs.
RELEASE_LINK_FLAGS := -Xlinker -z -Xlinker now
release: deps
	$(SWIFT) build -c release --static-swift-stdlib $(RELEASE_LINK_FLAGS) --product romdev

## install: PREFIX=/usr/local DESTDIR= [ROMDEV_BIN=path]: the binary, romdev(8), units, udev rules, sysusers, config
install: $(if $(ROMDEV_BIN),,release)
	@set -euo pipefail; \
	bin="$(or $(ROMDEV_BIN),$(RELEASE_BIN_DIR)/romdev)"; run="$(or $(ROMDEV_RUN),$$bin)"; d="$(DESTDIR)"; \
	[ -x "$$bin" ] || { echo "error: $$bin is not an executable romdev" >&2; exit 1; }; \
	[ -x "$$run" ] || { echo "error: $$run is not an executable romdev" >&2; exit 1; }; \
	install -d "$$d$(BINDIR)" "$$d$(MANDIR)/man8" "$$d$(UNITDIR)" "$$d$(UDEVRULESDIR)" \
	  "$$d$(SYSUSERSDIR)" "$$d$(TMPFILESDIR)" "$$d$(SYSCONFDIR)/romdev"; \
	install -m 0755 "$$bin" "$$d$(BINDIR)/romdev"; \
	if [ -n "$(STRIP)" ]; then $(STRIP) $(STRIP_FLAGS) "$$d$(BINDIR)/romdev"; fi; \
	$(if $(MAN_DATE_EPOCH),SOURCE_DATE_EPOCH=$(MAN_DATE_EPOCH)) "$$run" help --man | gzip -9n > "$$d$(MANDIR)/man8/romdev.8.gz"; \
	for unit in systemd/*.service; do \
	  sed 's|/usr/bin/romdev\b|$(BINDIR)/romdev|g' "$$unit" > "$$d$(UNITDIR)/$${unit#systemd/}"; \
	  chmod 0644 "$$d$(UNITDIR)/$${unit#systemd/}"; \
	done; \
	install -m 0644 udev/*.rules "$$d$(UDEVRULESDIR)/"; \
	install -m 0644 systemd/romdev.sysusers "$$d$(SYSUSERSDIR)/romdev.conf"; \
	install -m 0644 systemd/romdev.tmpfiles "$$d$(TMPFILESDIR)/romdev.conf"; \
	conf="$$d$(SYSCONFDIR)/romdev/romdev.conf"; \
	if [ -e "$$conf" ]; then \
	  echo "kept $$conf (compare with 'romdev daemon --print-config')"; \
	else \
	  "$$run" daemon --print-config > "$$conf.tmp" || { rm -f "$$conf.tmp"; exit 1; }; \
	  chmod 0644 "$$conf.tmp"; mv "$$conf.tmp" "$$conf"; \
	fi; \
	echo "installed romdev in $$d$(PREFIX) (units $(UNITDIR), udev rules $(UDEVRULESDIR))"; \
	if [ -z "$$d" ]; then \
	  echo "then, as root: systemd-sysusers romdev.conf && systemd-tmpfiles --create romdev.conf &&"; \
	  echo "  udevadm control --reload && udevadm trigger --action=change --subsystem-match=i2c-dev --subsystem-match=gpio --subsystem-match=pwm &&"; \
	  echo "  systemctl daemon-reload && systemctl enable --now romdev.service"; \
	fi

## uninstall: removes what install put in place, except /etc/romdev/romdev.conf and the care store
uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/romdev" "$(DESTDIR)$(MANDIR)/man8/romdev.8.gz" \
	  $(patsubst systemd/%,"$(DESTDIR)$(UNITDIR)/%",$(wildcard systemd/*.service)) \
	  $(patsubst udev/%,"$(DESTDIR)$(UDEVRULESDIR)/%",$(wildcard udev/*.rules)) \
	  "$(DESTDIR)$(SYSUSERSDIR)/romdev.conf" "$(DESTDIR)$(TMPFILESDIR)/romdev.conf"

## deb: [ROMDEV_BIN=path] a Debian package of the release build (or of ROMDEV_BIN, without building) in .build/deb, for this machine's release and architecture
deb: $(if $(ROMDEV_BIN),,release)
	@$(MAKE) --no-print-directory apt-install PACKAGES="dpkg-dev"
	@set -euo pipefail; arch=$$(dpkg --print-architecture); root="$(DEB_DIR)/root-$$arch"; \
	rm -rf "$$root"; \
	$(MAKE) --no-print-directory install PREFIX=/usr DESTDIR="$$root" SYSCONFDIR=/etc \
	  ROMDEV_BIN="$(or $(ROMDEV_BIN),$(RELEASE_BIN_DIR)/romdev)"; \
	SOURCE_DATE_EPOCH=$(MAN_DATE_EPOCH) DEB_MAINTAINER="$(DEB_MAINTAINER)" \
	  packaging/build-deb "$$root" "$$arch" $(DEB_VERSION) $(HOST_DISTRIBUTION) $(DEB_DIR)

## deb-arm64: romdev_<version>_arm64.deb for Debian 13 trixie / Raspberry Pi OS trixie (libgpiod v2), cross-built here with Debian's Swift in the root of check-debian-swift (root only)
ARM64_OUT := /var/cache/romdev-arm64/out
deb-arm64: build
	@$(MAKE) --no-print-directory apt-install PACKAGES="debootstrap wget dpkg-dev"
	$(DEBIAN_ROOT_TOOL) ensure $(DEBIAN_SWIFT_ROOT) trixie $(shell dpkg --print-architecture) $(DEBIAN_SWIFT_PACKAGES) binutils-aarch64-linux-gnu
	$(DEBIAN_ROOT_TOOL) run $(DEBIAN_SWIFT_ROOT) . /src/packaging/cross-arm64 build $(ARM64_OUT)
	@set -euo pipefail; root="$(DEB_DIR)/root-arm64"; controls="$(CURDIR)/$(DEBIAN_SWIFT_ROOT)/var/cache/romdev-arm64/controls"; \
	rm -rf "$$root"; \
	$(MAKE) --no-print-directory install PREFIX=/usr DESTDIR="$$root" SYSCONFDIR=/etc STRIP= \
	  UNITDIR=/usr/lib/systemd/system UDEVRULESDIR=/usr/lib/udev/rules.d \
	  ROMDEV_BIN="$(DEBIAN_SWIFT_ROOT)$(ARM64_OUT)/romdev" ROMDEV_RUN="$(BIN_DIR)/romdev"; \
	SOURCE_DATE_EPOCH=$(MAN_DATE_EPOCH) DEB_MAINTAINER="$(DEB_MAINTAINER)" \
	  packaging/build-deb "$$root" arm64 $(DEB_VERSION) trixie $(DEB_DIR) $$(for d in "$$controls"/*; do printf -- '-S%s ' "$$d"; done)

## check-deb-arm64: installs the arm64 package with apt in an arm64 trixie root (.build/debian-trixie/arm64, programs run by qemu-user) and runs romdev there: --version, init, today, doctor --simulate, onboard, checkin, a simulated daemon measurement (root only)
ARM64_CHECK_ROOT := .build/debian-trixie/arm64
check-deb-arm64:
	@[ -e "$(DEB_DIR)/romdev_$(DEB_VERSION)_arm64.deb" ] || { echo "error: no $(DEB_DIR)/romdev_$(DEB_VERSION)_arm64.deb (make deb-arm64)" >&2; exit 1; }
	@$(MAKE) --no-print-directory apt-install PACKAGES="debootstrap wget qemu-user-static binfmt-support"
	$(DEBIAN_ROOT_TOOL) ensure $(ARM64_CHECK_ROOT) trixie arm64
	$(DEBIAN_ROOT_TOOL) run $(ARM64_CHECK_ROOT) $(DEB_DIR) /bin/sh -ec '\
	  apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends /src/romdev_$(DEB_VERSION)_arm64.deb >/dev/null; \
	  echo "$$(uname -m): $$(dpkg-query -W -f="\$${Package} \$${Version} \$${Architecture}" romdev), user $$(id -u romdev):$$(id -g romdev)"; \
	  dir=$$(mktemp -d); export ROMDEV_STORE=$$dir/care.sqlite ROMDEV_RUNTIME_DIR=$$dir/run; set -x; \
	  romdev --version; romdev init --start $$(date +%F); romdev today; romdev doctor --simulate; \
	  romdev onboard --consent-by "Check Patient"; romdev checkin --pain 3 --sleep 7; \
	  romdev daemon --simulate --start-at "$$(date -d tomorrow +%F)T08:59:55" --press-at 8s --exit-after 1; \
	  romdev today --date $$(date -d tomorrow +%F)'

## lint-deb: make deb, then lintian (installed when missing) on it and on an arm64 package already built; fails on errors and warnings
lint-deb: deb
	@$(MAKE) --no-print-directory apt-install PACKAGES="lintian"
	lintian --fail-on error,warning --display-info $(DEB_DIR)/romdev_$(DEB_VERSION)_*.deb

clean:
	rm -rf .build
