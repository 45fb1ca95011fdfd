"""One error tree for archiver. Messages say what went wrong, where, and how to fix it.

Only the CLI turns these into exit codes; unexpected exceptions keep their traceback.
"""

from __future__ import annotations

from collections.abc import Sequence


class ArchiverError(Exception):
    """Base class of every error a user can cause and fix."""


class ProfileError(ArchiverError, ValueError):
    """A site profile is unreadable or invalid; `problems` holds one line per problem."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


class FetchError(ArchiverError, OSError):
    """A fetch failed in a way the caller must handle (not an expected outcome)."""

    def __init__(self, message: str, url: str, status: int | None = None) -> None:
        self.url = url
        self.status = status
        super().__init__(message)


class WarcError(ArchiverError, OSError):
    """A WARC file is unreadable, corrupt, or cannot be written."""


class JobError(ArchiverError, RuntimeError):
    """A crawl job folder is unusable (locked by a running crawl, wrong version, ...)."""


class ModelFormatError(ArchiverError, ValueError):
    """A stored model or knowledge-base bundle is malformed or of an unsupported version."""


class KnowledgeBaseMissing(ArchiverError, LookupError):
    """No model is stored for the requested CMS family or job."""
