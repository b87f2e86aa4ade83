"""The files part of the settings, read by base.py: uploaded and generated files (a capture's receipt or
statement, an account export) on the local disk under MEDIA_ROOT, or in an S3-compatible bucket (django-storages)
when CAPTURE_S3_BUCKET is set. Never served as static files: the owner reads a file through its own view, which
checks who asks."""

from pathlib import Path

import environ

env = environ.Env()
BASE_DIR = Path(__file__).resolve().parent.parent.parent

MEDIA_ROOT = env.path("MEDIA_ROOT", default=BASE_DIR / "media")
MEDIA_URL = "media/"
_S3_BUCKET = env("CAPTURE_S3_BUCKET", default="")
STORAGES = {
    "default": (
        {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                "bucket_name": _S3_BUCKET,
                "endpoint_url": env("CAPTURE_S3_ENDPOINT_URL", default="") or None,
                "region_name": env("CAPTURE_S3_REGION", default="") or None,
                "access_key": env("CAPTURE_S3_ACCESS_KEY_ID", default="") or None,
                "secret_key": env("CAPTURE_S3_SECRET_ACCESS_KEY", default="") or None,
                "location": env("CAPTURE_S3_PREFIX", default="zeus"),
                "default_acl": None,
                "querystring_auth": True,
                "file_overwrite": False,
            },
        }
        if _S3_BUCKET
        else {"BACKEND": "django.core.files.storage.FileSystemStorage"}
    ),
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
