#!/usr/bin/env python3
"""Stages the Python package (python/winnow) for `make install`.

    python_package.py --source PYTHON_DIR --prefix PREFIX --libdir LIBDIR --stage DIR

Run by cmake --install (CMakeLists.txt) with the Python named by
WINNOW_PYTHON (Debian's /usr/bin/python3 by default). It writes into DIR:

  winnow/          the package's modules and _installed.py, which records
                   PREFIX/LIBDIR: where the installed package loads
                   libwinnow.so.0 from (python/winnow/_ffi.py)
  winnow-VERSION-py3-none-any.whl
                   the same package as a wheel, for `pip install --no-index`
                   into a virtual environment (docs/python.md); written with
                   the standard library only, with fixed timestamps, so the
                   same sources give the same file
  site-dir         one line: the directory the package is installed into

The site directory is the one this Python reads packages from under PREFIX,
when it reads one there (site.getsitepackages() and the user site: on
Debian, /usr -> lib/python3/dist-packages, /usr/local ->
lib/python3.X/dist-packages, ~/.local -> lib/python3.X/site-packages), else
PREFIX/lib/python3/site-packages (the package is pure Python and runs on
any python3: no version in the name), which is then named on stdout for
PYTHONPATH.
"""
import argparse
import base64
import hashlib
import os
import re
import shutil
import site
import sys
import zipfile

# the timestamp every member of the wheel gets (zip's epoch)
ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def project_metadata(pyproject):
    """name, version, description, requires-python and dependencies of
    python/pyproject.toml's [project] table."""
    with open(pyproject, "rb") as f:
        data = f.read()
    try:
        import tomllib
        project = tomllib.loads(data.decode("utf-8"))["project"]
    except ImportError:  # Python < 3.11: the few plain fields read by hand
        text = data.decode("utf-8").split("[project]", 1)[1].split("\n[", 1)[0]
        project = {k: v for k, v in re.findall(r'^([\w-]+) = "([^"]*)"', text, re.M)}
        deps = re.search(r"^dependencies = \[(.*?)\]", text, re.M | re.S)
        project["dependencies"] = re.findall(r'"([^"]+)"', deps.group(1)) if deps else []
    return project


def site_dir(prefix):
    """The directory for the package under prefix (see the module's doc)."""
    prefix = os.path.normpath(prefix)
    dirs = list(site.getsitepackages())
    if site.ENABLE_USER_SITE:
        dirs.append(site.getusersitepackages())
    for d in dirs:
        rel = os.path.relpath(os.path.normpath(d), prefix)
        # directly under PREFIX/lib: /usr/local/lib/... is not /usr's
        if rel.split(os.sep)[0] == "lib":
            return os.path.join(prefix, rel), True
    return os.path.join(prefix, "lib", "python3", "site-packages"), False


def modules(source):
    pkg = os.path.join(source, "winnow")
    return sorted(n for n in os.listdir(pkg) if n.endswith(".py") and n != "_installed.py")


def installed_py(libdir):
    return ('"""Written by make install (scripts/python_package.py): where this installed\n'
            'package loads libwinnow from (winnow._ffi)."""\n'
            "LIBDIR = %r\n" % libdir)


def record_hash(data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "sha256=" + digest


def write_wheel(path, project, files):
    """A pure-Python wheel (PEP 427) of files: [(name in the wheel, bytes)]."""
    name, version = project["name"], project["version"]
    info = "%s-%s.dist-info" % (name, version)
    meta = ["Metadata-Version: 2.1", "Name: " + name, "Version: " + version]
    if project.get("description"):
        meta.append("Summary: " + project["description"])
    if project.get("requires-python"):
        meta.append("Requires-Python: " + project["requires-python"])
    meta += ["Requires-Dist: " + d for d in project.get("dependencies", [])]
    wheel = ["Wheel-Version: 1.0", "Generator: winnow scripts/python_package.py", "Root-Is-Purelib: true",
             "Tag: py3-none-any"]
    files = files + [(info + "/METADATA", ("\n".join(meta) + "\n").encode()),
                     (info + "/WHEEL", ("\n".join(wheel) + "\n").encode())]
    record = ["%s,%s,%d" % (n, record_hash(d), len(d)) for n, d in files] + [info + "/RECORD,,"]
    files.append((info + "/RECORD", ("\n".join(record) + "\n").encode()))
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for n, d in files:
            zi = zipfile.ZipInfo(n, ZIP_TIME)
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o644 << 16
            z.writestr(zi, d)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description="Stages python/winnow for make install.")
    ap.add_argument("--source", required=True, help="the checkout's python/ folder")
    ap.add_argument("--prefix", required=True, help="the install prefix (without DESTDIR)")
    ap.add_argument("--libdir", required=True, help="the library's folder, absolute or under the prefix")
    ap.add_argument("--stage", required=True, help="the folder to write into (emptied first)")
    args = ap.parse_args()
    prefix = os.path.abspath(args.prefix)
    libdir = os.path.normpath(os.path.join(prefix, args.libdir))
    project = project_metadata(os.path.join(args.source, "pyproject.toml"))

    if os.path.isdir(args.stage):
        shutil.rmtree(args.stage)
    pkg = os.path.join(args.stage, "winnow")
    os.makedirs(pkg)
    files = []
    for n in modules(args.source):
        with open(os.path.join(args.source, "winnow", n), "rb") as f:
            files.append(("winnow/" + n, f.read()))
    files.append(("winnow/_installed.py", installed_py(libdir).encode()))
    for n, d in files:
        with open(os.path.join(args.stage, n), "wb") as f:
            f.write(d)
    wheel = "%s-%s-py3-none-any.whl" % (project["name"], project["version"])
    write_wheel(os.path.join(args.stage, wheel), project, files)

    dest, on_path = site_dir(prefix)
    with open(os.path.join(args.stage, "site-dir"), "w") as f:
        f.write(dest + "\n")
    with open(os.path.join(args.stage, "wheel"), "w") as f:
        f.write(wheel + "\n")
    if not on_path:
        print("winnow: %s does not read packages under %s: run it with PYTHONPATH=%s, or install the wheel "
              "(share/winnow/python/%s) into a virtual environment" % (sys.executable, prefix, dest, wheel))
    return 0


if __name__ == "__main__":
    sys.exit(main())
