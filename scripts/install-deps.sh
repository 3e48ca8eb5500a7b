#!/bin/sh
# Installs everything the project needs to build and test, from Debian's
# packages only. Run as root on Debian 12.
#
#   scripts/install-deps.sh          build and unit-test dependencies
#   scripts/install-deps.sh --pcp    also PCP 6.0.3 itself (the oracle and
#                                    interop peer for tests and benchmarks)
#                                    and its QA suite (pcp-testsuite)
#   scripts/install-deps.sh --fuzz   also clang and its libFuzzer and
#                                    sanitizer runtimes (scripts/fuzz.sh)
set -eu

BUILD_PKGS="cmake g++ ninja-build pkg-config xz-utils bzip2 gzip zstd libabsl-dev libicu-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  liblzma-dev libssl-dev libsasl2-dev dpkg-dev groff-base file lintian man-db ccache"
PCP_PKGS="pcp libpcp3-dev libpcp-pmda3-dev python3 openssl sasl2-bin libsasl2-modules libsasl2-modules-db"
# PCP's own QA suite (tests/pcpqa): the tests, sudo and ip for its private
# namespaces, make and the headers its helper programs are built with.
PCPQA_PKGS="pcp-testsuite sudo iproute2 make libpcp-archive1-dev libpcp-mmv1-dev libpcp-gui2-dev"
FUZZ_PKGS="clang libclang-rt-14-dev"

missing() {
  for p in "$@"; do
    dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' || echo "$p"
  done
}

apt_install() {
  need=$(missing "$@")
  [ -z "$need" ] && return 0
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # Debian's pcp postinst calls systemctl, which fails where PID 1 is not
  # systemd; a no-op systemctl on dpkg's PATH lets it configure.
  stub=$(mktemp -d)
  printf '#!/bin/sh\nexit 0\n' > "$stub/systemctl"
  chmod +x "$stub/systemctl"
  # shellcheck disable=SC2086
  apt-get install -y -qq -o DPkg::Path="$stub:/usr/sbin:/usr/bin:/sbin:/bin" $need ||
    PATH="$stub:$PATH" dpkg --configure -a
  rm -rf "$stub"
  still=$(missing "$@")
  if [ -n "$still" ]; then
    echo "install-deps: could not install: $still" >&2
    exit 1
  fi
}

# shellcheck disable=SC2086
apt_install $BUILD_PKGS
if [ "${1:-}" = "--pcp" ]; then
  # shellcheck disable=SC2086
  apt_install $PCP_PKGS $PCPQA_PKGS
fi
if [ "${1:-}" = "--fuzz" ]; then
  # shellcheck disable=SC2086
  apt_install $FUZZ_PKGS
fi
