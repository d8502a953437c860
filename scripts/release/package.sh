#!/usr/bin/env bash
# Packs a built `site` binary into the release files (make release, make test-release):
#   OUT/site-<version>-x86_64-linux-gnu.tar.gz   the binary, deploy/, docs/operations.md, CHANGELOG.md
#   OUT/site_<version>-1_amd64.deb               the Debian package (cargo-deb, server/Cargo.toml)
#   OUT/SHA256SUMS                               both files' SHA-256
# Usage: scripts/release/package.sh PROFILE OUT   (PROFILE: release, or dev for the test build;
# CARGO_TARGET_DIR names the target directory the binary was built in, target by default).
# Reproducible: every time and owner inside comes from SOURCE_DATE_EPOCH (the commit's time,
# set by the Makefile), names are sorted and gzip records no name or time.
set -euo pipefail
profile=$1
out=$2
cd "$(dirname "$0")/../.."
: "${SOURCE_DATE_EPOCH:?set SOURCE_DATE_EPOCH (the Makefile sets the commit time)}"
target_dir=${CARGO_TARGET_DIR:-target}
case $profile in release) bin_dir=release ;; dev) bin_dir=debug ;; *) echo "profile: release or dev" >&2; exit 2 ;; esac
binary=$target_dir/$bin_dir/site
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
[ -n "$version" ] || { echo "no version in Cargo.toml's [workspace.package]" >&2; exit 1; }
"$binary" --version | grep -q "$version" || { echo "$binary does not say version $version" >&2; exit 1; }
mkdir -p "$out"
rm -f "$out"/site-*.tar.gz "$out"/site_*.deb "$out"/SHA256SUMS

# The archive.
name=site-$version-x86_64-linux-gnu
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name/docs"
install -m 0755 "$binary" "$stage/$name/site"
cp -r deploy "$stage/$name/deploy"
install -m 0644 -t "$stage/$name/docs" docs/operations.md
install -m 0644 CHANGELOG.md "$stage/$name/CHANGELOG.md"
chmod -R u=rwX,go=rX "$stage/$name"
chmod 0755 "$stage/$name/site" "$stage/$name/deploy/site-admin"
tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
    --pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime --format=posix \
    -C "$stage" -cf - "$name" | gzip -9n > "$out/$name.tar.gz"

# The Debian package: its changelog says the version, dated by the commit.
mkdir -p target/dist
{
    echo "site ($version-1) unstable; urgency=medium"
    echo
    echo "  * Release $version: see /usr/share/doc/site/changelog.gz."
    echo
    echo " -- RingReady operations <ops@ringready.example>  $(LC_ALL=C date -u -R -d "@$SOURCE_DATE_EPOCH")"
} > target/dist/changelog
cargo_deb=${CARGO_DEB:-.tools/cargo/bin/cargo-deb}
"$cargo_deb" --no-build --profile "$profile" -p site-server --output "$out/site_${version}-1_amd64.deb" >/dev/null

(cd "$out" && sha256sum "$name.tar.gz" "site_${version}-1_amd64.deb" > SHA256SUMS)
cat "$out/SHA256SUMS"
