"""archiver: learn a CMS site's structure from a small sample, then harvest its
user-created content into standard WARC files."""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
