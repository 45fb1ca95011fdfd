"""The strategy interface: how a crawl strategy plugs into the crawl loop.

A strategy never fetches. The loop gives it each fetched HTML page and that page's links;
the strategy answers, for every link, follow or skip, with a priority and a reason. The
frontier owns the order (highest priority first, FIFO among equals).

Learned strategies (SOUrCe, iRobot, ACEBot, focused) add a learning phase: while
`learning` is true the loop is sampling the site for them (their `decide` chooses the
sample), then the loop calls `fit()`, asks the strategy to `rescore` what is already
queued, and harvests with the fitted model.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from archiver.page import Link, Page

if TYPE_CHECKING:
    from typing import Self

    from archiver.profile import SiteProfile


@dataclass(frozen=True, slots=True)
class Decision:
    """What to do with one link: follow it (with a priority) or skip it, and why."""

    url: str
    follow: bool
    priority: float = 0.0
    reason: str = ""
    cluster: int | None = None   # predicted cluster of the destination, stored on the URL row


@dataclass(frozen=True, slots=True)
class Visit:
    """A fetched HTML page as the loop hands it to a strategy."""

    page: Page
    depth: int                 # link hops from a seed
    anchor_path: str = ""      # anchor path of the link that led here ('' for seeds)
    parent_cluster: int | None = None
    digest: bytes = b""        # what a reader gets: `archiver.page.page_digest`


@dataclass(frozen=True, slots=True)
class Queued:
    """A queued (not yet fetched) URL, as given to `Strategy.rescore`."""

    id: int
    url: str
    depth: int
    anchor_path: str
    parent_url: str | None


@dataclass(frozen=True, slots=True)
class ClusterInfo:
    """A learned page cluster as stored in the `cluster` table (the admin's sitemap)."""

    id: int                  # -1: outliers
    size: int                # sampled pages in it
    score: float             # the strategy's value of the cluster
    label: str = ""
    info: dict[str, Any] = field(default_factory=dict)  # example_urls, top_xpaths, hub, ...


@dataclass(slots=True)
class PageInfo:
    """What the strategy made of a page, recorded in the crawl DB and WARC metadata."""

    cluster: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class Strategy(ABC):
    """Decide which discovered links to follow, and with what priority."""

    name: ClassVar[str]              # the YAML `strategy.name` value
    learns: ClassVar[bool] = False   # has a learning phase before harvest
    # The `strategy.params` it reads, each with the types its value may have (the profile
    # check rejects any other name or type: a misspelt parameter must not be ignored)
    PARAMS: ClassVar[Mapping[str, tuple[type, ...]]] = {}

    def __init__(self, profile: SiteProfile) -> None:
        self.profile = profile

    @classmethod
    def from_profile(cls, profile: SiteProfile) -> Self:
        """Build the strategy from a validated profile (the only place config is read)."""
        return cls(profile)

    def params(self) -> dict[str, Any]:
        """The parameters in force, logged at start-up and written to warcinfo."""
        return {}

    @abstractmethod
    def decide(self, visit: Visit, links: Sequence[Link]) -> list[Decision]:
        """Return one Decision per navigation link (links in scope, not yet judged by traps)."""

    def seed_priority(self) -> float:
        """Priority of seed URLs."""
        return 0.0

    def describe(self, visit: Visit) -> PageInfo:
        """Classify a fetched page (e.g. its cluster) for the DB and the WARC metadata."""
        return PageInfo()

    # --- learning phase (learned strategies override these) -----------------------------
    @property
    def learning(self) -> bool:
        """True while the strategy still samples the site before it can harvest."""
        return False

    def fit(self) -> None:  # noqa: B027 - optional hook; strategies that learn override it
        """End the learning phase: build the model from the pages seen while learning."""

    def rescore(self, queued: Iterable[Queued]) -> Iterator[tuple[int, Decision]]:
        """After `fit`, re-decide URLs queued during learning; yields (url id, decision)."""
        return iter(())

    def save(self, folder: Path) -> None:  # noqa: B027 - optional hook, as fit()
        """Store the learned model as data (JSON + npz, never pickle) in `folder`."""

    def load(self, folder: Path) -> bool:
        """Load a model saved by `save`; False when there is none (then learn)."""
        return False

    def extra_seeds(self) -> list[str]:
        """URLs the strategy needs fetched besides the profile's seeds (a target example)."""
        return []

    def defer(self, url: str) -> float | None:
        """While learning, asked before a popped URL is fetched: a lower priority to requeue
        it at when the strategy no longer needs it now, or None to fetch it. The loop asks
        `learning` right after a deferral, as after a fetch."""
        return None

    def precluded(self, url: str) -> None:  # noqa: B027 - optional hook, as fit()
        """Told that a queued URL will not be fetched: robots.txt disallows it (it is
        marked skipped when popped, the one check a link is not judged by before
        `decide`). A learning strategy stops waiting for it."""

    def respelled(self, url: str, stored: str) -> None:  # noqa: B027 - optional hook
        """Told, while learning, that a link `decide` followed is another spelling of a URL
        the frontier holds already (the same canonical URL: `archiver.urls.canonicalize`):
        it is fetched as `stored`, or was, or will not be, and never as `url`. A learning
        strategy that waits for `url` takes `stored`'s outcome for it."""

    def fetched_by(self, url: str, parent_url: str, anchor_path: str) -> None:  # noqa: B027
        """Told, before a fetch's page or outcome, which link the frontier followed to it:
        the page it was on and its anchor path ('' for a seed; a redirect's target has the
        redirecting URL and ''). Not always the first link that showed the URL: a URL
        skipped at one link and followed at another is fetched for the second
        (`archiver.linking`)."""

    def observe_fetch(self, url: str, status: int | None, is_page: bool,  # noqa: B027
                      location: str = "", content_type: str = "") -> None:
        """Told the outcome of every fetch (status None: no response; is_page: parsed HTML;
        location: a redirect's absolute target, '' otherwise; content_type: the response's
        media type, lower-case, without parameters)."""

    @property
    def rescore_interval(self) -> int:
        """During harvest, re-rank the queue with `rescore` every this many requests (pages,
        redirects, files, errors alike; 0: never)."""
        return 0

    @property
    def requeue_share(self) -> float:
        """During harvest, a popped URL queued at a priority above 0 whose priority, judged
        again by `rescore`, has fallen below this share of it is put back at its new
        priority instead of fetched (0: never): the queue's order mended one URL at a time
        between two re-rankings of `rescore_interval`."""
        return 0.0

    def rescore_due(self) -> bool:
        """During harvest, asked after every request when `rescore_interval` is set: True when
        the strategy's values moved so far since it last said so that the queue should be
        re-ranked now, before the interval is up."""
        return False

    def clusters(self) -> list[ClusterInfo]:
        """The learned clusters, for the crawl DB's `cluster` table (after fit or load)."""
        return []

    def edges(self) -> list[tuple[int, int, float]]:
        """The learned sitemap's edges (source cluster, destination cluster, weight)."""
        return []
