"""Engines are pure Python: every module of every engine package imports with Django (and the
rest of the web stack) unavailable, and pulls none of it in."""
from __future__ import annotations

import json
import subprocess
import sys

from django.conf import settings

from games.sites import get_site, offered_sites

WEB_STACK = ("django", "channels", "celery", "daphne", "redis", "psycopg")

# Runs in a fresh interpreter: block the web stack, then import each engine package and walk it.
IMPORT_EVERYTHING = r"""
import importlib, json, pkgutil, sys, traceback
blocked = {blocked!r}
for name in blocked:
    sys.modules[name] = None  # "import django" now raises ImportError
failures, imported = {{}}, []
for package_name in {packages!r}:
    try:
        package = importlib.import_module(package_name)
        imported.append(package_name)
        for info in pkgutil.walk_packages(package.__path__, prefix=package_name + "."):
            try:
                importlib.import_module(info.name)
                imported.append(info.name)
            except BaseException:
                failures[info.name] = traceback.format_exc(limit=-4)
    except BaseException:
        failures[package_name] = traceback.format_exc(limit=-4)
leaked = sorted(name for name, module in sys.modules.items()
                if module is not None and name.split(".")[0] in blocked)
print(json.dumps({{"failures": failures, "imported": imported, "leaked": leaked}}))
"""


def engine_packages() -> list[str]:
    return [site.engine_path for site in offered_sites()] + [get_site("toy").engine_path]


def test_every_engine_module_imports_without_django():
    packages = engine_packages()
    script = IMPORT_EVERYTHING.format(blocked=WEB_STACK, packages=packages)
    done = subprocess.run([sys.executable, "-c", script], cwd=settings.BASE_DIR, capture_output=True, text=True,
                          timeout=120, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(settings.BASE_DIR)})
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert not report["failures"], "\n".join(f"{name}:\n{tb}" for name, tb in report["failures"].items())
    assert not report["leaked"], f"engines imported the web stack: {report['leaked']}"
    # Not vacuous: every package and the modules beside it (rules, views, bots) were imported.
    for package in packages:
        assert package in report["imported"] and f"{package}.ai" in report["imported"]
    assert len(report["imported"]) > 3 * len(packages)
