#!/usr/bin/env python3
"""Checks the release files in DIR (make release, make test-release) as an operator's machine
would take them: the Debian package's fields, files, owners and modes, conffile, unit and
maintainer scripts, the archive's contents, and SHA256SUMS. Reads the package with dpkg-deb;
runs the packaged binary's --version. Exits 1 naming every difference.

Usage: scripts/release/check_package.py DIR
"""
import glob
import hashlib
import os
import re
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def run(*argv):
    return subprocess.run(argv, check=True, capture_output=True, text=True).stdout


def cargo_version():
    with open(os.path.join(ROOT, "Cargo.toml")) as f:
        m = re.search(r'^\[workspace\.package\][^\[]*?^version = "([^"]+)"', f.read(), re.M | re.S)
    if not m:
        sys.exit("no version in Cargo.toml's [workspace.package]")
    return m.group(1)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    version = cargo_version()
    deb = os.path.join(out, f"site_{version}-1_amd64.deb")
    archive = os.path.join(out, f"site-{version}-x86_64-linux-gnu.tar.gz")
    for path in (deb, archive, os.path.join(out, "SHA256SUMS")):
        if not os.path.isfile(path):
            sys.exit(f"{path} is missing: run make release (or make test-release)")
    others = sorted(set(glob.glob(os.path.join(out, "site*"))) - {deb, archive})
    check(not others, f"only this version's files in {out} ({others or 'none other'})")

    # --- The package's control fields.
    fields = {k: run("dpkg-deb", "-f", deb, k).strip() for k in ("Package", "Version", "Architecture", "Depends", "Section")}
    check(fields["Package"] == "site", f"Package: site ({fields['Package']})")
    check(fields["Version"] == f"{version}-1", f"Version: {version}-1, from Cargo.toml ({fields['Version']})")
    check(fields["Architecture"] == "amd64", f"Architecture: amd64 ({fields['Architecture']})")
    check("systemd" in fields["Depends"] and "libc6" in fields["Depends"], f"Depends names libc6 and systemd ({fields['Depends']})")

    # --- What lands where, with which owner and mode.
    listing = {}
    for line in run("dpkg-deb", "-c", deb).splitlines():
        perms, owner, _size, _date, _time, path = line.split(None, 5)
        listing[path.split(" -> ")[0].removeprefix(".")] = (perms, owner)
    expected = {
        "/usr/bin/site": "-rwxr-xr-x",
        "/usr/bin/site-admin": "-rwxr-xr-x",
        # As shipped it holds no secret; postinst makes it 0640 root:site (checked below).
        "/etc/site/site.env": "-rw-r--r--",
        "/usr/share/lintian/overrides/site": "-rw-r--r--",
        "/usr/lib/systemd/system/site.service": "-rw-r--r--",
        "/usr/lib/sysusers.d/site.conf": "-rw-r--r--",
        "/usr/lib/tmpfiles.d/site.conf": "-rw-r--r--",
        "/usr/share/man/man1/site.1.gz": "-rw-r--r--",
        "/usr/share/man/man1/site-admin.1.gz": "-rw-r--r--",
        "/usr/share/doc/site/copyright": "-rw-r--r--",
        "/usr/share/doc/site/changelog.gz": "-rw-r--r--",
        "/usr/share/doc/site/changelog.Debian.gz": "-rw-r--r--",
        "/usr/share/doc/site/operations.md": "-rw-r--r--",
        "/usr/share/doc/site/examples/Caddyfile": "-rw-r--r--",
    }
    for path, mode in expected.items():
        got = listing.get(path)
        check(got in ((mode, "root/root"), (mode, "0/0")), f"{path} {mode} root/root ({got or 'missing'})")
    files = {p for p, (perms, _) in listing.items() if not perms.startswith("d")}
    check(files == set(expected), f"no other file in the package ({sorted(files - set(expected)) or 'none'})")
    check(not any(p.startswith("/usr/local") for p in listing), "nothing under /usr/local")

    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.join(tmp, "root")
        control = os.path.join(tmp, "control")
        run("dpkg-deb", "-x", deb, root)
        run("dpkg-deb", "-e", deb, control)

        def read(base, path):
            with open(os.path.join(base, path.lstrip("/"))) as f:
                return f.read()

        # The unit is deploy/site.service as it is, and runs the packaged binary.
        unit = read(root, "/usr/lib/systemd/system/site.service")
        check(unit == read(ROOT, "deploy/site.service"), "the packaged unit is deploy/site.service")
        exec_start = re.findall(r"^ExecStart=(\S+)", unit, re.M)
        check(exec_start == ["/usr/bin/site"], f"ExecStart runs /usr/bin/site ({exec_start})")
        check("EnvironmentFile=/etc/site/site.env" in unit and "User=site" in unit, "the unit reads /etc/site/site.env as user site")
        admin = read(root, "/usr/bin/site-admin")
        check('/usr/bin/site "$@"' in admin, "site-admin runs /usr/bin/site")
        # The user and the state directory.
        sysusers = [l for l in read(root, "/usr/lib/sysusers.d/site.conf").splitlines() if l and not l.startswith("#")]
        check(len(sysusers) == 1 and sysusers[0].split()[:2] == ["u", "site"] and "/var/lib/site" in sysusers[0]
              and sysusers[0].endswith("/usr/sbin/nologin"), f"sysusers.d makes the system user site, home /var/lib/site, no shell ({sysusers})")
        tmpfiles = [l for l in read(root, "/usr/lib/tmpfiles.d/site.conf").splitlines() if l and not l.startswith("#")]
        check(tmpfiles == ["d /var/lib/site 0750 site site -"], f"tmpfiles.d makes /var/lib/site 0750 site:site ({tmpfiles})")
        # The conffile, and the scripts that make the user, the directory and the env file's group.
        conffiles = read(control, "conffiles").split()
        check(conffiles == ["/etc/site/site.env"], f"conffiles: /etc/site/site.env ({conffiles})")
        postinst = read(control, "postinst")
        user = postinst.find("systemd-sysusers")
        for part, what in [("systemd-sysusers", "makes the user (sysusers.d)"),
                           ("systemd-tmpfiles --create", "makes /var/lib/site (tmpfiles.d)"),
                           ("install -d -m 0750 -o site -g site /var/lib/site", "makes /var/lib/site without systemd"),
                           ("chgrp site /etc/site/site.env", "gives the env file to group site"),
                           ("chmod 0640 /etc/site/site.env", "makes the env file unreadable to others"),
                           ("deb-systemd-helper", "registers the unit")]:
            check(part in postinst, f"postinst {what}")
        check(0 <= user < postinst.find("chgrp site"), "postinst makes the user before it uses its group")
        enables = [i for i, l in enumerate(postinst.splitlines()) if "deb-systemd-helper enable" in l]
        lines = postinst.splitlines()
        check("deb-systemd-invoke start" not in postinst and all(any("was-enabled" in l for l in lines[max(0, i - 3):i]) for i in enables),
              "a first install neither enables nor starts the service (its settings come first; an upgrade keeps it enabled if it was)")
        check("#DEBHELPER#" not in postinst and postinst.count("systemd-sysusers") == 1, "the debhelper snippets are in once")
        check("restart" in postinst, "an upgrade restarts a running service")
        for script in ("postinst", "prerm", "postrm"):
            path = os.path.join(control, script)
            check(os.path.isfile(path) and os.access(path, os.X_OK), f"{script} is there, executable")
            if os.path.isfile(path):
                check(subprocess.run(["sh", "-n", path]).returncode == 0, f"{script} is valid sh")
        check("userdel" not in read(control, "postrm") and "rm -rf /var/lib/site" not in read(control, "postrm"),
              "removing or purging keeps the user and the leads in /var/lib/site")
        # The binary is this version, and answers.
        said = run(os.path.join(root, "usr/bin/site"), "--version")
        check(version in said.split("\n", 1)[0], f"usr/bin/site --version says {version} ({said.splitlines()[0]})")
        check(read(root, "/usr/share/doc/site/operations.md") == read(ROOT, "docs/operations.md"), "operations.md is the repository's")

    # --- The archive.
    name = f"site-{version}-x86_64-linux-gnu"
    with tarfile.open(archive) as tar:
        members = {m.name: m for m in tar.getmembers()}
    want = {f"{name}/site", f"{name}/CHANGELOG.md", f"{name}/docs/operations.md", f"{name}/deploy/site.service",
            f"{name}/deploy/site.env", f"{name}/deploy/site-admin", f"{name}/deploy/Caddyfile", f"{name}/deploy/site.sysusers",
            f"{name}/deploy/site.tmpfile"}
    check(want <= set(members), f"the archive holds the binary, deploy/, docs/operations.md, CHANGELOG.md ({sorted(want - set(members)) or 'all'})")
    deploy = {f"{name}/deploy/{f}" for f in os.listdir(os.path.join(ROOT, "deploy"))}
    check(set(members) - {name, f"{name}/deploy", f"{name}/docs"} == (want | deploy), "nothing else in the archive")
    check(all(m.uid == 0 and m.gid == 0 and m.uname in ("", "root") for m in members.values()), "owned by 0:0")
    check(len({m.mtime for m in members.values()}) == 1, "one time for every member (the commit's)")
    check(members[f"{name}/site"].mode & 0o111 == 0o111, "the binary is executable")

    # --- SHA256SUMS covers both, and they match.
    sums = {}
    with open(os.path.join(out, "SHA256SUMS")) as f:
        for line in f:
            digest, path = line.split()
            sums[path] = digest
    check(set(sums) == {os.path.basename(archive), os.path.basename(deb)}, f"SHA256SUMS names the archive and the package ({sorted(sums)})")
    for path, digest in sums.items():
        with open(os.path.join(out, path), "rb") as f:
            check(hashlib.sha256(f.read()).hexdigest() == digest, f"{path}'s SHA-256 matches")

    if failures:
        print(f"{len(failures)} failed:\n  " + "\n  ".join(failures))
        sys.exit(1)
    print(f"the release files in {out} are as an operator expects")


if __name__ == "__main__":
    main()
