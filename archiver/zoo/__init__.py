"""The site zoo: deterministic generated CMS sites with ground truth, served on loopback.

Five families (forum, blog, qa, media, wiki), each in two template variants with different
markup and URL schemes but the same conventions, so knowledge reuse across one family's
sites can be measured. Every URL's truth (page type, user-created content, valid/duplicate/
invalid, entity, topics) is known to the generator and exported as a JSON manifest.

    site = make_site("forum", variant=0, size="small", seed=0)
    site.truth("/viewtopic.php?f=2&t=5")      # PageTruth(page_type="topic", ucc=True, ...)
    with serve(site) as served:                # threaded HTTP/1.1 server on 127.0.0.1
        requests.get(served.url + "/")
"""

from __future__ import annotations

from functools import lru_cache

from archiver.zoo.server import ServedSite, serve
from archiver.zoo.site import SIZES, PageTruth, Response, Site

FAMILIES = ("forum", "blog", "qa", "media", "wiki")

__all__ = ["FAMILIES", "SIZES", "PageTruth", "Response", "ServedSite", "Site", "make_site",
           "serve"]


def make_site(family: str, variant: int = 0, size: str | int = "small", seed: int = 0) -> Site:
    """Build (or reuse: sites are immutable) the zoo site of `family` and `variant`.

    `size` is "demo" (~200-600 URLs), "small" (unit tests), "full" (5,000-20,000 URLs)
    or an int scale factor.
    """
    if family not in FAMILIES:
        raise ValueError(f"unknown zoo family {family!r}; known: {', '.join(FAMILIES)}")
    return _make(family, variant, size, seed)


@lru_cache(maxsize=32)
def _make(family: str, variant: int, size: str | int, seed: int) -> Site:
    if family == "forum":
        from archiver.zoo.forum import ForumSite
        return ForumSite(variant, size, seed)
    if family == "blog":
        from archiver.zoo.blog import BlogSite
        return BlogSite(variant, size, seed)
    if family == "qa":
        from archiver.zoo.qa import QaSite
        return QaSite(variant, size, seed)
    if family == "media":
        from archiver.zoo.media import MediaSite
        return MediaSite(variant, size, seed)
    from archiver.zoo.wiki import WikiSite
    return WikiSite(variant, size, seed)
