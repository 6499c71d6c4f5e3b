"""Static files in production: hashed names (long caching) served by WhiteNoise."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):  # type: ignore[misc]
    # The table page is ES modules importing each other: rewrite those imports to the
    # hashed names too, or a browser could mix a new module with a cached old one.
    support_js_module_import_aggregation = True
