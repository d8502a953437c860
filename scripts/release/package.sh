#!/usr/bin/env bash
# Packs a built `site` binary into the release files (make release, make test-release):
#   OUT/site-<version>-x86_64-linux-gnu.tar.gz   the binary, deploy/, docs/operations.md, CHANGELOG.md
#   OUT/site_<version>-1_amd64.deb               the Debian package (dpkg-deb, server/debian/)
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
# The test build's files are compressed lightly: only their contents are checked, and its
# binary is large (a release's are compressed hard, once).
case $profile in
    release) bin_dir=release gzip_level=-9 deb_compression="-Zxz" ;;
    dev) bin_dir=debug gzip_level=-1 deb_compression="-Zgzip -z1" ;;
    *) echo "profile: release or dev" >&2; exit 2 ;;
esac
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
    -C "$stage" -cf - "$name" | gzip "$gzip_level" -n > "$out/$name.tar.gz"

# The Debian package, made with Debian's own dpkg-deb from server/debian/ (the control fields,
# the maintainer scripts, the copyright file, the man pages), deploy/ (the unit, the user, the
# state directory, the environment file) and the docs. Its changelog says the version, dated
# by the commit; its libraries come from dpkg-shlibdeps.
pkg=$stage/debian/site
doc=$pkg/usr/share/doc/site
install -D -m 0755 "$binary" "$pkg/usr/bin/site"
# As Debian's dh_strip does (a release binary is stripped already; the test build's is not).
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$pkg/usr/bin/site"
install -D -m 0755 deploy/site-admin "$pkg/usr/bin/site-admin"
install -D -m 0644 deploy/site.env "$pkg/etc/site/site.env"
install -D -m 0644 deploy/site.service "$pkg/usr/lib/systemd/system/site.service"
install -D -m 0644 deploy/site.sysusers "$pkg/usr/lib/sysusers.d/site.conf"
install -D -m 0644 deploy/site.tmpfile "$pkg/usr/lib/tmpfiles.d/site.conf"
install -D -m 0644 server/debian/site.lintian-overrides "$pkg/usr/share/lintian/overrides/site"
install -D -m 0644 server/debian/copyright "$doc/copyright"
install -D -m 0644 -t "$doc" docs/operations.md
install -D -m 0644 deploy/Caddyfile "$doc/examples/Caddyfile"
mkdir -p "$pkg/usr/share/man/man1"
for page in site site-admin; do
    gzip -9n < "server/debian/$page.1" > "$pkg/usr/share/man/man1/$page.1.gz"
done
gzip -9n < CHANGELOG.md > "$doc/changelog.gz"
{
    echo "site ($version-1) unstable; urgency=medium"
    echo
    echo "  * Release $version: see /usr/share/doc/site/changelog.gz."
    echo
    echo " -- RingReady operations <ops@ringready.example>  $(LC_ALL=C date -u -R -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n > "$doc/changelog.Debian.gz"
chmod 0644 "$pkg"/usr/share/man/man1/*.gz "$doc"/*.gz
mkdir -p "$pkg/DEBIAN" # where dpkg-shlibdeps finds the package's root
printf 'Source: site\n\nPackage: site\nArchitecture: amd64\n' > "$stage/debian/control"
shlibs=$(cd "$stage" && dpkg-shlibdeps -O -edebian/site/usr/bin/site | sed -n 's/^shlibs:Depends=//p')
[ -n "$shlibs" ] || { echo "dpkg-shlibdeps found no libraries for $binary" >&2; exit 1; }
installed_size=$(du -sk --apparent-size --exclude=DEBIAN "$pkg" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@INSTALLED_SIZE@/$installed_size/" -e "s/@SHLIBS@/$shlibs/" \
    server/debian/control > "$pkg/DEBIAN/control"
echo /etc/site/site.env > "$pkg/DEBIAN/conffiles"
install -m 0755 server/debian/postinst server/debian/prerm server/debian/postrm "$pkg/DEBIAN/"
(cd "$pkg" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) > "$pkg/DEBIAN/md5sums"
chmod 0644 "$pkg/DEBIAN/control" "$pkg/DEBIAN/conffiles" "$pkg/DEBIAN/md5sums"
find "$pkg" -type d -exec chmod 0755 {} +
find "$pkg" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
# shellcheck disable=SC2086 # two options in one variable
dpkg-deb --root-owner-group $deb_compression --build "$pkg" "$out/site_${version}-1_amd64.deb" >/dev/null

(cd "$out" && sha256sum "$name.tar.gz" "site_${version}-1_amd64.deb" > SHA256SUMS)
cat "$out/SHA256SUMS"
