#!/usr/bin/env bash
# Builds hane's Debian package with cargo-deb, installs it and asks the
# installed hane `name`, `version` and `protocol_version` over GTP, and
# `hane --version` and `hane analysis`'s query_version: what a user who
# installed the .deb would see. Not part of `cargo test` (it needs dpkg and
# cargo-deb, and --system needs root); run it by hand or in a release job:
#
#   scripts/deb_install_test.sh            # into a private dpkg root under /tmp
#   scripts/deb_install_test.sh --system   # dpkg -i for real (root), then dpkg -r
#
# Needs: cargo-deb (cargo install cargo-deb --locked), dpkg, dpkg-deb.
# Exits 0 when every answer is as expected, 1 (saying which) otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-private}
for tool in cargo-deb dpkg dpkg-deb; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "deb_install_test: $tool is missing (cargo-deb: cargo install cargo-deb --locked)" >&2
    exit 1
  fi
done

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
cargo deb --locked >&2
deb=$(ls -t target/debian/hane_"${version}"*.deb | head -n 1)
echo "deb_install_test: $deb" >&2

fail() {
  echo "deb_install_test: $*" >&2
  exit 1
}

# The package's own fields: name, version, the binary, a libc dependency.
[ "$(dpkg-deb --field "$deb" Package)" = hane ] || fail "package name is not hane"
dpkg-deb --field "$deb" Version | grep -q "^${version}" || fail "package version is not $version"
dpkg-deb --field "$deb" Depends | grep -q libc6 || fail "no dependency on libc6"
dpkg-deb --contents "$deb" | grep -q '\./usr/bin/hane$' || fail "no /usr/bin/hane in the package"

case "$mode" in
  --system)
    [ "$(id -u)" = 0 ] || fail "--system installs with dpkg -i: run it as root"
    dpkg -i "$deb" >&2
    trap 'dpkg -r hane >&2 || true' EXIT
    hane=/usr/bin/hane
    dpkg -s hane | grep -q '^Status: install ok installed' || fail "dpkg -s: not installed"
    ;;
  private)
    # A dpkg database of its own: the install touches nothing outside it.
    # Its database lists no libc6, which the system has: --force-depends.
    root=$(mktemp -d /tmp/hane-deb-root.XXXXXX)
    trap 'rm -rf "$root"' EXIT
    mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
    touch "$root/var/lib/dpkg/status" "$root/var/lib/dpkg/available"
    dpkg --root="$root" --force-not-root --force-depends --force-script-chrootless \
      --log=/dev/null -i "$deb" >&2
    dpkg --root="$root" -s hane | grep -q '^Status: install ok installed' \
      || fail "dpkg -s: not installed"
    hane="$root/usr/bin/hane"
    ;;
  *)
    fail "unknown mode $mode (expected nothing or --system)"
    ;;
esac

answers=$(printf '1 name\n2 version\n3 protocol_version\n4 quit\n' | "$hane")
expected=$(printf '=1 hane\n\n=2 %s\n\n=3 2\n\n=4 \n' "$version")
[ "$answers" = "$expected" ] || fail "GTP answered:
$answers
expected:
$expected"
"$hane" --version | grep -qx "hane $version" || fail "hane --version: $("$hane" --version)"
echo '{"id":"v","action":"query_version"}' | "$hane" analysis \
  | grep -q "\"version\":\"$version\"" || fail "hane analysis: no query_version answer"
echo "deb_install_test: installed hane answers name, version $version and protocol_version 2" >&2
