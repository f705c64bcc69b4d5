"""The static files' storage: WhiteNoise's compressed, hashed copies (docs/deployment.md,
"Static files")."""
from __future__ import annotations

from django.conf import settings
from django.contrib.staticfiles.apps import StaticFilesConfig as BaseStaticFilesConfig
from django.contrib.staticfiles.storage import StaticFilesStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage


class HashedStaticStorage(CompressedManifestStaticFilesStorage):
    """Names with a hash of their content once `collectstatic` has run, in DEBUG too (Django
    keeps plain names in DEBUG, which `make run` would then serve without a cache lifetime).

    A file missing from the manifest (collectstatic never ran in this checkout, or the file is
    new) keeps its plain name in DEBUG, where WhiteNoise serves it from the finders; without
    DEBUG that is the manifest's error, as it would be in production."""

    def url(self, name, force=False):
        try:
            return super().url(name, force=True)
        except ValueError:
            if not settings.DEBUG:
                raise
            return StaticFilesStorage.url(self, name)


class StaticFilesConfig(BaseStaticFilesConfig):
    """django.contrib.staticfiles, leaving out what the npm packages ship besides the two files
    the pages load (vendor/htmx/htmx.min.js, vendor/idiomorph/idiomorph.min.js): their other
    builds, extensions, sources and type declarations would only slow collectstatic down."""

    ignore_patterns = [*BaseStaticFilesConfig.ignore_patterns, "ext", "*.md", "*.d.ts", "*.gz", "*.esm.js",
                       "*.amd.js", "*.cjs.js", "htmx.js", "idiomorph.js", "idiomorph-*.js"]
