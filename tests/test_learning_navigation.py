"""Navigation table (eq. 3–6), HITS (eq. 7–9), cluster and link scores (eq. 10–12), and the
back-off for (cluster, Apath) pairs the sample never saw."""

from __future__ import annotations

import math

import numpy as np
import pytest

from archiver.learning.features import canonical_apath
from archiver.learning.model import SourceModel
from archiver.learning.navigation import (
    CONTENT_FULL,
    MIN_OUTLINE_PATTERNS,
    LinkScorer,
    NavigationTable,
    cluster_content,
    dsim,
    hits,
    walk_values,
)
from archiver.learning.sampling import SiteSampler
from archiver.learning.urlshape import UrlPatterns
from tests.test_learning_sites import HOST, Forum, sample_site

X_LIST = "/html/body/ul/li/a"
X_LOGIN = '/html/body/div/a[@class="login"]'


def hand_table(**kwargs) -> NavigationTable:
    # Two pages of cluster 0 (a list page) and one of cluster 1. u4 was never sampled.
    groups = {
        "p1": {X_LIST: ["u1", "u2", "u3", "u4"], X_LOGIN: ["u5"]},
        "p2": {X_LIST: ["u6"], X_LOGIN: ["u5"]},
        "u1": {X_LOGIN: ["u5", "u7"]},
    }
    clusters = {"p1": 0, "p2": 0, "u1": 1, "u2": 1, "u3": 2, "u5": -1, "u6": 1, "u7": 2}
    return NavigationTable(**kwargs).fit(groups, clusters, n_clusters=3)


def test_navigation_table_probabilities_are_exact() -> None:
    t = hand_table()
    # (0, X_LIST): sampled destinations u1, u2, u6 in C1 and u3 in C2 (eq. 4 concatenates
    # U(p1,x) and U(p2,x); eq. 5 counts only sampled destinations).
    p, level = t.distribution(0, X_LIST)
    assert level == "exact"
    assert p.tolist() == [0.0, 0.75, 0.25, 0.0]
    p, _ = t.distribution(0, X_LOGIN)
    assert p.tolist() == [0.0, 0.0, 0.0, 1.0]          # the outlier column
    p, _ = t.distribution(1, X_LOGIN)
    assert p.tolist() == [0.0, 0.0, 0.5, 0.5]
    assert sorted(t.keys_) == [(0, X_LOGIN), (0, X_LIST), (1, X_LOGIN)]
    assert dict(zip(t.keys_, t.sizes_.tolist(), strict=True))[(0, X_LIST)] == 5.0


def test_adjacency_matrix_is_eq6() -> None:
    A = hand_table().adjacency_
    # A_0j = P(C_j|0,list)·|U| (5) + P(C_j|0,login)·|U| (2, all to outliers, dropped)
    # A_1j = P(C_j|1,login)·|U| (2)
    assert np.allclose(A, [[0, 3.75, 1.25], [0, 0, 1.0], [0, 0, 0]])


def test_hits_matches_a_hand_computation() -> None:
    # A = 0→1, 0→2, 1→2. AᵀA has principal eigenvalue φ² = (3+√5)/2 with eigenvector
    # (0, 1, φ); hubs are A·a, normalised.
    A = np.array([[0, 1, 1], [0, 0, 1], [0, 0, 0]], dtype=float)
    hub, auth = hits(A)
    phi = (1 + math.sqrt(5)) / 2
    a = np.array([0, 1, phi]) / math.sqrt(1 + phi**2)
    h = A @ a / np.linalg.norm(A @ a)
    assert np.allclose(auth, a, atol=1e-8)
    assert np.allclose(hub, h, atol=1e-8)


def test_hits_target_mode_fixes_the_authority() -> None:
    A = np.array([[0, 2, 1], [0, 0, 3], [0, 0, 0]], dtype=float)
    hub, auth = hits(A, target=2)
    assert auth.tolist() == [0, 0, 1]
    assert np.allclose(hub, np.array([1, 3, 0]) / math.sqrt(10))
    with pytest.raises(ValueError, match="target"):
        hits(A, target=5)


def test_randomized_hits_gives_a_minority_community_what_its_links_earn() -> None:
    """Two communities: lists (0) linking 900 tickets (1), and an index (2) linking 30 wiki
    pages (3). Kleinberg's principal eigenvector gives the wiki pages nothing (a real Trac
    at 1,500 tickets: authority 0.000, and its wiki was left as low-value); randomized HITS
    (Ng, Zheng & Jordan 2001) gives each community its walk's share, and with reset 0 is
    Kleinberg's."""
    A = np.array([[0, 900, 0, 0], [0, 0, 0, 0], [0, 0, 0, 30], [0, 0, 0, 0]], dtype=float)
    _, auth = hits(A)
    assert auth[3] < 1e-6 and auth[1] > 0.999
    hub_r, auth_r = hits(A, reset=0.1)
    assert auth_r[3] == pytest.approx(auth_r[1]) and auth_r[3] > 0.5   # the walk's view
    assert hub_r[2] == pytest.approx(hub_r[0])
    assert np.isclose(np.linalg.norm(auth_r), 1) and np.isclose(np.linalg.norm(hub_r), 1)
    B = np.array([[0, 1, 1], [0, 0, 1], [0, 0, 0]], dtype=float)
    assert np.allclose(hits(B, reset=0.0)[1], hits(B)[1])


def test_walk_values_keep_a_minority_page_type_above_the_low_value_line() -> None:
    """A Trac-like cluster graph: lists (0) and the timeline (1) link tickets (2) by the
    thousand, an index (3) links 30 wiki pages (4), which link each other, and every page
    links the index. By Kleinberg's HITS the wiki pages are worth nearly nothing next to the
    tickets (under SOUrCe's 5% low-value line); randomized HITS values them as a page type
    of their own."""
    A = np.array([[0, 0, 900, 1, 0], [0, 0, 800, 1, 0], [0, 0, 40, 1, 0],
                  [0, 0, 0, 0, 30], [0, 0, 0, 1, 20]], dtype=float)
    dsim = np.array([0.4, 0.2, 0.3, 0.1, 0.4])
    hub, auth = hits(A)
    kleinberg = (0.5 * auth + 0.5 * hub) * dsim
    assert kleinberg[4] / kleinberg.max() < 0.05
    walk = walk_values(A, dsim, 0.5, 0.1)
    assert walk.max() == pytest.approx(1.0) and walk[4] > 0.2
    assert walk_values(np.zeros((0, 0)), np.zeros(0), 0.5, 0.1).size == 0


REPORT_DSIM = np.array([0.4, 0.4, 0.4, 0.4, 0.4, 0.2])


def report_site_table() -> NavigationTable:
    """A Fossil-like site's sample: a chain of page types (C0 to C4: the timeline, check-ins,
    files, ...), each page linking 50 of the next type, and one ticket report, an outlier
    ("report"), linking the 20 tickets (C5, two of them sampled) under `X_LOGIN`."""
    groups: dict[str, dict[str, list[str]]] = {}
    clusters = {"report": -1, "t0": 5, "t1": 5}
    for c in range(4):
        for i in range(4):
            groups[f"p{c}-{i}"] = {X_LIST: [f"p{c + 1}-{i}",
                                            *(f"x{c}-{i}-{j}" for j in range(49))]}
            clusters[f"p{c}-{i}"] = c
    clusters.update({f"p4-{i}": 4 for i in range(4)})
    groups["report"] = {X_LOGIN: [f"t{j}" for j in range(20)]}
    return NavigationTable().fit(groups, clusters, n_clusters=6)


def test_walk_values_count_the_outlier_pages_links() -> None:
    """A Fossil-like site: a chain of page types, each page linking 50 of the next (the
    timeline, check-ins, files, ...), and one ticket report, an outlier (the only page of
    its type), linking the 20 tickets, which nothing else links. Without the outlier pages'
    links the tickets are worth what a random jump gives them, under SOUrCe's 5% low-value
    line; with them (the outliers one more hub of the walk), what the report's links earn."""
    t = report_site_table()
    assert t.outlier_links_.tolist() == [0, 0, 0, 0, 0, 20]
    assert not t.adjacency_[:, 5].any()
    scorer = LinkScorer(t, dsim=REPORT_DSIM)
    without, with_outliers = scorer.walk_values(0.1), scorer.walk_values(0.1, outliers=True)
    assert without[5] < 0.05 < 0.2 < with_outliers[5]
    assert np.allclose(without[:5], with_outliers[:5], atol=0.01)   # the others keep theirs
    assert with_outliers.max() == pytest.approx(1.0)
    # a sample whose outlier pages link nothing walks as it did
    plain = LinkScorer(hand_table(), dsim=np.array([0.5, 0.4, 0.2]))
    assert plain.walk_values(0.1, outliers=True).tolist() == plain.walk_values(0.1).tolist()


def test_dsim_is_the_mean_distance_to_the_centroid() -> None:
    X = np.array([[0.0, 0.0], [2.0, 0.0], [5.0, 5.0], [5.0, 5.0]])
    assert np.allclose(dsim(X, np.array([0, 0, 1, 1]), 2), [1.0, 0.0])


def test_cluster_and_link_scores_follow_eq_9_to_12() -> None:
    t = hand_table()
    scorer = LinkScorer(t, dsim=np.array([0.5, 0.4, 0.2]))
    info = 0.5 * scorer.authority_ + 0.5 * scorer.hub_
    assert np.allclose(scorer.cluster_scores(), np.append(info * [0.5, 0.4, 0.2], 0.0))
    scores, levels = scorer.score(0, [X_LIST, X_LOGIN])
    expected = 0.75 * scorer.cluster_scores()[1] + 0.25 * scorer.cluster_scores()[2]
    assert scores[0] == pytest.approx(expected)
    assert scores[1] == 0.0                              # leads to outliers only
    assert levels == ["exact", "exact"]
    # Balance: once every crawled page is in cluster 1, Score(C1) drops to 0.
    scorer.observe(1)
    scorer.observe(1)
    assert scorer.balance().tolist() == [1.0, 0.0, 1.0]
    assert scorer.cluster_scores()[1] == 0.0
    target = LinkScorer(t, dsim=np.ones(3), mode="target", target=2)
    assert target.alpha == 0.8
    assert target.cluster_scores()[2] == pytest.approx(0.8 + 0.2 * target.hub_[2])


def test_balance_off_keeps_score_c_as_crawling_goes_on() -> None:
    scorer = LinkScorer(hand_table(), dsim=np.array([0.5, 0.4, 0.2]), balance=False)
    before = scorer.cluster_scores().copy()
    scorer.observe(1)
    scorer.observe(1)
    assert scorer.balance().tolist() == [1.0, 1.0, 1.0]
    assert np.array_equal(scorer.cluster_scores(), before)
    assert before[1] > 0


def test_unseen_pairs_fall_back_level_by_level() -> None:
    t = hand_table()
    # (1, X_LIST) was never sampled, but X_LIST was, from cluster 0: pooled over clusters.
    p, level = t.distribution(1, X_LIST)
    assert level == "any" and p.tolist() == [0.0, 0.75, 0.25, 0.0]
    # a deeper nesting of the same list generalises to it
    p, level = t.distribution(0, "/html/body/ul/li/ul/li/a")
    assert level == "general" and p.tolist() == [0.0, 0.75, 0.25, 0.0]
    # same path with another class: the class-less ("coarse") Apath
    p, level = t.distribution(0, '/html/body/ul/li/a[@class="x"]')
    assert level == "coarse"
    # nothing alike: the source cluster's outgoing distribution (its row of eq. 6)
    p, level = t.distribution(0, "/html/body/form/a")
    assert level == "cluster"
    assert np.allclose(p, np.array([0, 3.75, 1.25, 2.0]) / 7.0)
    # an unknown source cluster with an unknown Apath: the prior over every link
    p, level = t.distribution(2, "/html/body/form/a")
    assert level == "prior" and p.sum() == pytest.approx(1.0)
    # back-off switched off
    p, level = hand_table(backoff=("exact",)).distribution(1, X_LIST)
    assert level == "none" and not p.any()
    with pytest.raises(ValueError, match="backoff"):
        hand_table(backoff=("exact", "nearest"))


def test_links_to_content_outrank_links_to_login_walls_and_duplicates() -> None:
    site = Forum(seed=11, n_topics=120, n_users=40)
    s = sample_site(site, SiteSampler(1000, random_state=1))      # default saturation rule
    model = SourceModel().fit(s.urls, s.bags, s.sampler.groups_, s.sampler.aliases_)
    scorer = model.scorer()
    by_type: dict[str, list[float]] = {}
    for path in ("/board/1", "/board/2?page=2", "/topic/3", "/topic/40", "/user/4", "/"):
        page = site.fetch(HOST + path)
        assert page is not None and page.tree is not None
        cluster = model.classify(page.tree)
        links = [link for link in page.links if link.kind == "link"]
        scores, _ = scorer.score(cluster, [canonical_apath(k.anchor_path) for k in links])
        mine: dict[str, list[float]] = {}
        for link, score in zip(links, scores, strict=True):
            mine.setdefault(site.page_type(link.url) or "?", []).append(float(score))
        for kind, values in mine.items():
            by_type.setdefault(kind, []).extend(values)
        if "topic" in mine:   # on every page, topic links come first
            worthless = mine.get("login", []) + mine.get("print", []) + mine.get("static", [])
            assert min(mine["topic"]) > max(worthless), (path, mine)
    ucc = by_type["topic"] + by_type["profile"]
    assert np.mean(ucc) > 3 * np.mean(by_type["login"])
    assert np.mean(ucc) > 3 * np.mean(by_type["print"])


def test_ucc_hits_drops_self_links_and_target_keeps_them() -> None:
    """Kleinberg's intrinsic-link rule at the cluster level: A_ii (pagination, sidebars)
    confers no authority in UCC mode; eq. 12 still uses the full P(C | C(p), x)."""
    t = hand_table()
    t.adjacency_ = A = t.adjacency_ + np.diag([6.0, 2.0, 0.0])   # pagination-like self-links
    ucc = LinkScorer(t, dsim=np.ones(3))
    hub, auth = hits(A - np.diag(np.diag(A)))
    assert np.allclose(ucc.hub_, hub) and np.allclose(ucc.authority_, auth)
    kept = LinkScorer(t, dsim=np.ones(3), self_links=True)
    hub, auth = hits(A)
    assert np.allclose(kept.hub_, hub) and np.allclose(kept.authority_, auth)
    target = LinkScorer(t, dsim=np.ones(3), mode="target", target=2)
    assert target.self_links and np.allclose(target.hub_, hits(A, target=2)[0])


def test_dead_destinations_and_redirects_count() -> None:
    """A sampled link that gave nothing (an error, a redirect to a page never fetched) leads
    to no cluster: the outlier column, not "unseen"; a redirect chain leads to its end."""
    groups = {"p1": {X_LIST: ["u1", "u2"], X_LOGIN: ["fave1", "fave2"]}}
    clusters = {"p1": 0, "u1": 1, "final": 1}
    t = NavigationTable().fit(groups, clusters, n_clusters=2,
                              aliases={"u2": "hop", "hop": "final", "fave1": "/signin/"},
                              dead={"fave1", "fave2"})
    assert t.distribution(0, X_LIST)[0].tolist() == [0.0, 1.0, 0.0]     # u2 → hop → final
    p, level = t.distribution(0, X_LOGIN)
    assert (p.tolist(), level) == ([0.0, 0.0, 1.0], "exact")
    without = NavigationTable().fit(groups, clusters, n_clusters=2)
    assert without.distribution(0, X_LOGIN)[1] != "exact"               # unseen before


# --- URL patterns split mixed pairs ----------------------------------------------------------
X_TABS = '/html/body/ul/li/a[@class="tab"]'


def tab_table(**kwargs) -> NavigationTable:
    """Profile pages (cluster 0) whose tab menu, one Apath, links a contact list (cluster 1)
    and an album list (cluster 2); 12 profiles sampled, each with one tab link sampled."""
    groups: dict[str, dict[str, list[str]]] = {}
    clusters: dict[str, int] = {}
    for i in range(12):
        name = f"user{i}"
        contacts, albums = f"/people/{name}/contacts/", f"/photos/{name}/albums/"
        groups[f"/people/{name}/"] = {X_TABS: [contacts, albums], X_LIST: [albums]}
        clusters[f"/people/{name}/"] = 0
        clusters[contacts if i % 3 else albums] = 1 if i % 3 else 2   # 8 contacts, 4 albums
    return NavigationTable(**kwargs).fit(groups, clusters, n_clusters=3)


def test_url_patterns_split_a_mixed_pair() -> None:
    t = tab_table()
    pair, level = t.distribution(0, X_TABS)
    assert level == "exact" and pair.tolist() == pytest.approx([0, 8 / 12, 4 / 12, 0])
    contacts = t.url_key("/people/zed/contacts/")
    albums = t.url_key("/photos/zed/albums/")
    assert (contacts, albums) == ("/people/*/contacts", "/photos/*/albums")
    # 8 sampled contact links, shrunk towards the pair by one link (PATTERN_PRIOR)
    p, level = t.distribution(0, X_TABS, contacts)
    assert level == "exact+url"
    assert p.tolist() == pytest.approx([0, (8 + 8 / 12) / 9, (4 / 12) / 9, 0])
    p, _ = t.distribution(0, X_TABS, albums)
    assert p.tolist() == pytest.approx([0, (8 / 12) / 5, (4 + 4 / 12) / 5, 0])
    # a pattern the pair never sampled keeps eq. 5
    assert t.distribution(0, X_TABS, "/people/*")[1] == "exact"
    # the pooled level is split the same way for a source cluster never seen with the Apath
    p, level = t.distribution(1, X_TABS, albums)
    assert level == "any+url" and p[2] > 0.8
    # the adjacency matrix is eq. 6, unsplit
    assert np.allclose(t.adjacency_, tab_table(url_patterns=False).adjacency_)


X_DROP = '/html/body/div/div/a[@class="dropdown-item"]'


def wiki_table(child_sections: tuple[str, ...], **kwargs) -> NavigationTable:
    """Articles (cluster 0) of four sections, ``/SECTION/aI/``, listed by an unsampled home
    page. Each article's breadcrumb dropdown, one Apath, links its "add article" view (a
    login redirect: cluster 1) and a child article (cluster 0). One link per article is
    sampled: a child on two articles of each of `child_sections`, else the add view."""
    groups: dict[str, dict[str, list[str]]] = {"/": {X_LIST: []}}
    clusters: dict[str, int] = {}
    for section in ("garden", "cycling", "hiking", "woodwork"):
        for i in range(6):
            page, kid = f"/{section}/a{i}/", f"/{section}/a{i}/{section}-kid{i}/"
            groups["/"][X_LIST].append(page)
            groups[page] = {X_DROP: [page + "_create/", kid]}
            clusters[page] = 0
            if section in child_sections and i < 2:
                clusters[kid] = 0
            else:
                clusters[page + "_create/"] = 1
    return NavigationTable(**kwargs).fit(groups, clusters, n_clusters=2)


def test_a_pattern_the_pair_never_sampled_takes_its_outlines_row() -> None:
    """The section names are keywords of the pattern tree, so a child article's link has a
    pattern per section; woodwork's was never sampled at the dropdown pair. Its outline
    (``/*/*/*``) is that of the three sections' sampled child links, and their pooled row,
    not the pair's mixture of add views, predicts it."""
    t = wiki_table(("garden", "cycling", "hiking"))
    kid = t.url_key("/woodwork/a3/woodwork-kid3/")
    assert kid == "/woodwork/*/*" and t.sampled(0, X_DROP, kid) == 0
    assert t.patterns_.outline(kid) == t.patterns_.outline("/garden/*/*") == "/*/*/*"
    assert t.patterns_.outline("/woodwork/*/_create") == "/*/*/_create"
    pair, level = t.distribution(0, X_DROP)
    assert level == "exact" and pair.tolist() == pytest.approx([6 / 24, 18 / 24, 0])
    p, level = t.distribution(0, X_DROP, kid)
    assert level == "exact+outline"
    # 6 sampled child links (3 patterns), shrunk towards the pair by one link
    assert p.tolist() == pytest.approx([(6 + 6 / 24) / 7, (18 / 24) / 7, 0])
    # a pattern the pair sampled keeps its own row: woodwork's add views
    p, level = t.distribution(0, X_DROP, t.url_key("/woodwork/a3/_create/"))
    assert level == "exact+url" and p[1] > 0.95
    # switched off, eq. 5: the add views' share
    t.outlines = False
    assert t.distribution(0, X_DROP, kid) == (pytest.approx(pair), "exact")
    assert not NavigationTable(outlines=False).outlines


def test_an_outline_one_sampled_pattern_has_is_no_evidence() -> None:
    """Only garden's child links were sampled at the pair: one pattern of the outline is no
    sign that the section's name can vary (a blog's ``/blog`` and a static page's ``/*``
    share the outline ``/*``), so woodwork's child link keeps eq. 5 (MIN_OUTLINE_PATTERNS)."""
    assert MIN_OUTLINE_PATTERNS == 2
    t = wiki_table(("garden",))
    assert t.sampled(0, X_DROP, "/garden/*/*") == 2
    assert t.distribution(0, X_DROP, t.url_key("/woodwork/a3/woodwork-kid3/"))[1] == "exact"
    assert wiki_table(("garden", "cycling")).distribution(
        0, X_DROP, t.url_key("/woodwork/a3/woodwork-kid3/"))[1] == "exact+outline"


def test_a_pattern_the_pair_never_sampled_takes_the_apaths_row_for_it_elsewhere() -> None:
    """The breadcrumb dropdown on articles (cluster 0), on directory views (cluster 2) and
    on history views (cluster 1): woodwork's child links were sampled only on directory
    views. On an article, and on a history view whose own sampled links were all "add
    article" links (a pair not split), they take the Apath's row for their pattern over
    every cluster's pages (``pooled_patterns``: a menu means the same on every page)."""
    x = X_DROP
    sub = [(0, x, "/garden/*/_create"), (0, x, "/garden/*/*"), (1, x, "/garden/*/_create"),
           (2, x, "/woodwork/*/*"), (2, x, "/woodwork/*/_create")]
    rows = np.array([[0.0, 6, 0, 0], [2, 0, 0, 0], [0, 3, 0, 0], [3, 0, 0, 0], [0, 2, 0, 0]])
    keys = [(0, x), (1, x), (2, x)]
    counts = np.array([rows[0] + rows[1], rows[2], rows[3] + rows[4]])
    t = NavigationTable.from_arrays(keys, counts, np.array([8.0, 3, 5]), 3,
                                    patterns=UrlPatterns(endings=["_create"]),
                                    sub_keys=sub, sub_counts=rows)
    kid = "/woodwork/*/*"
    p, level = t.distribution(0, x, kid)
    assert level == "exact+any-url"
    assert p.tolist() == pytest.approx([(3 + 2 / 8) / 4, (6 / 8) / 4, 0, 0])
    assert t.distribution(1, x, kid)[1] == "exact+any-url"          # its pair is not split
    assert t.distribution(1, x, "/garden/*/_create")[1] == "exact"   # sampled there: eq. 5
    t.pooled_patterns = False
    assert t.distribution(0, x, kid) == (pytest.approx([2 / 8, 6 / 8, 0, 0]), "exact")
    assert not NavigationTable(pooled_patterns=False).pooled_patterns


def test_an_outline_whose_patterns_disagree_is_no_kind_of_link() -> None:
    """A MediaWiki tools menu: the contributions and the logs of a user, two patterns of the
    outline ``/*/Special:/*/*``, led to two clusters, so the special page's name is a word
    that matters, and an unseen special page keeps eq. 5."""
    keys = [(0, X_TABS)]
    sub = [(0, X_TABS, "/index.php/*"), (0, X_TABS, "/index.php/Special:/Contributions/*"),
           (0, X_TABS, "/index.php/Special:/Log/*")]
    rows = np.array([[20.0, 0, 0, 0], [0, 4, 0, 0], [0, 0, 1, 0]])
    t = NavigationTable.from_arrays(keys, rows.sum(axis=0, keepdims=True), np.array([25.0]),
                                    3, patterns=UrlPatterns(), sub_keys=sub, sub_counts=rows)
    unseen = "/index.php/Special:/WhatLinksHere/*"
    assert t.patterns_.outline(unseen) == "/*/Special:/*/*"
    assert t.distribution(0, X_TABS, unseen) == (pytest.approx([0.8, 0.16, 0.04, 0]), "exact")
    rows[2] = [0, 1, 0, 0]                          # both led to the contributions' cluster
    t = NavigationTable.from_arrays(keys, rows.sum(axis=0, keepdims=True), np.array([25.0]),
                                    3, patterns=UrlPatterns(), sub_keys=sub, sub_counts=rows)
    assert t.distribution(0, X_TABS, unseen)[1] == "exact+outline"


def test_clusters_one_kind_of_link_leads_to_are_one_page_type() -> None:
    """A wiki's directory (cluster 0) lists articles, which the clustering split by an
    optional block (clusters 1 and 2), and every article's tab links its history (cluster
    3). The directory's links led to both article clusters: they are co-destinations. The
    history tab's never led anywhere else, and a kind that led to one of each (a single
    coincidence) is not enough (`MIN_SHARED`)."""
    groups: dict[str, dict[str, list[str]]] = {}
    clusters: dict[str, int] = {}
    for i in range(8):
        article = f"/wiki/page{i}/"
        groups[f"/dir/{i}/"] = {X_LIST: [article, f"/wiki/other{i}/"]}
        clusters[f"/dir/{i}/"] = 0
        clusters[article] = 1 if i % 2 else 2
        groups[article] = {X_TABS: [f"/wiki/page{i}/_history"]}
        clusters[f"/wiki/page{i}/_history"] = 3
    t = NavigationTable().fit(groups, clusters, n_clusters=4)
    assert t.co_destinations(1) == [2] and t.co_destinations(2) == [1]
    assert t.co_destinations(3) == [] and t.co_destinations(0) == []
    assert t.co_destinations(-1) == [] and t.co_destinations(9) == []
    # one history page sampled through the directory as well: one shared link, not enough
    groups["/dir/0/"][X_LIST].append("/wiki/page1/_history")
    t = NavigationTable().fit(groups, clusters, n_clusters=4)
    assert t.co_destinations(3) == []
    # the stored table gives the same answer
    again = NavigationTable.from_arrays(t.keys_, t.counts_, t.sizes_, t.n_clusters_,
                                        patterns=t.patterns_, sub_keys=t.sub_keys_,
                                        sub_counts=t.sub_counts_)
    assert again.co_destinations(1) == [2]


def test_url_patterns_leave_pure_pairs_and_can_be_switched_off() -> None:
    t = tab_table()
    # X_LIST only ever led to album lists (cluster 2): one column, nothing to split
    assert t.distribution(0, X_LIST, t.url_key("/photos/zed/albums/"))[1] == "exact"
    off = tab_table(url_patterns=False)
    assert off.url_key("/people/zed/contacts/") == ""
    assert off.distribution(0, X_TABS, "/people/*/contacts")[1] == "exact"


def test_link_scores_follow_the_url_pattern() -> None:
    """Crawling for contact lists (cluster 1), the contacts tab outranks the albums tab
    although both are the same Apath; without URLs eq. 12 ranks them level."""
    scorer = LinkScorer(tab_table(), dsim=np.ones(3), mode="target", target=1)
    urls = ["/people/zed/contacts/", "/photos/zed/albums/"]
    split, levels = scorer.score(0, [X_TABS, X_TABS], urls)
    assert levels == ["exact+url", "exact+url"] and split[0] > 2 * split[1]
    unsplit, _ = scorer.score(0, [X_TABS, X_TABS])
    assert unsplit[0] == unsplit[1]


# --- content share (an extension of eq. 11) -------------------------------------------------
X_LISTS = '/html/body/nav/a[@class="lists"]'
X_PHOTO = '/html/body/nav/a[@class="photo"]'
X_THUMB, X_NEXT = "/html/body/ul/li/a", '/html/body/a[@class="next"]'


def listing_site_table() -> NavigationTable:
    """A Flickr-like site: home (C0), thumbnail lists (C1), photo pages (C2). Lists link to
    many photos and to the next list; photos link back to their owner's lists."""
    groups = {
        "h": {X_LISTS: ["l1"], X_PHOTO: ["d1"]},
        "l1": {X_THUMB: ["d1", "d2", "d3", "d4"], X_NEXT: ["l2"]},
        "l2": {X_THUMB: ["d5", "d6", "d7", "d8"], X_NEXT: ["l3"]},
        "d1": {'/html/body/p/a[@class="owner"]': ["l1"], '/html/body/p/a[@class="sets"]': ["l2"]},
        "d2": {'/html/body/p/a[@class="owner"]': ["l3"]},
    }
    clusters = {"h": 0, "l1": 1, "l2": 1, "l3": 1, **{f"d{i}": 2 for i in range(1, 9)}}
    return NavigationTable().fit(groups, clusters, n_clusters=3)


LISTING_DSIM = np.array([0.1, 0.42, 0.35])        # the list cluster spreads more (media: 0.416)
LISTING_CONTENT = np.array([0.4, 0.14, 0.78])     # medians measured on the zoo's media site


def test_cluster_content_pools_text_by_length_and_skips_tiny_pages() -> None:
    texts = [(80, 100), (10, 300), (0, 24), (90, 100), (5, 10), (50, 100)]
    labels = np.array([0, 0, 0, 1, 2, -1])
    got = cluster_content(texts, labels, 4)
    # C0: (80 + 10) / (100 + 300), the 24-character redirect body left out; C1: one page;
    # C2: only a tiny page, C3: no page -> 1 (no evidence); the outlier counts nowhere.
    assert got.tolist() == pytest.approx([90 / 400, 0.9, 1.0, 1.0])
    assert cluster_content(texts, labels, 4, min_chars=10)[2] == pytest.approx(0.5)
    with pytest.raises(ValueError):
        cluster_content(texts[:2], labels, 4)


def test_content_share_ranks_a_hub_listing_below_content_in_ucc_mode_only() -> None:
    t = listing_site_table()
    plain = LinkScorer(t, dsim=LISTING_DSIM)
    scored = LinkScorer(t, dsim=LISTING_DSIM, content=LISTING_CONTENT)
    # The paper's eq. 11 puts the hub listing first: highest hub score and DSim ...
    assert plain.hub_.argmax() == 1
    to_list, to_photo = plain.score(0, [X_LISTS, X_PHOTO])[0]
    assert to_list > to_photo
    # ... times Content(C) the photo pages come first.
    to_list, to_photo = scored.score(0, [X_LISTS, X_PHOTO])[0]
    assert to_photo > to_list > 0
    # Content(C) = min(1, s / CONTENT_FULL): text-rich clusters count in full.
    assert CONTENT_FULL == 0.5 and scored.content_.tolist() == pytest.approx([0.8, 0.28, 1.0])
    assert np.allclose(scored.cluster_scores()[:3],
                       plain.cluster_scores()[:3] * [0.8, 0.28, 1.0])
    # Balance still multiplies in.
    scored.observe(2)
    assert scored.cluster_scores()[2] == 0.0
    # Crawling for a target, Score(C) = Info (§4.4.2): no content factor.
    target = LinkScorer(t, dsim=LISTING_DSIM, mode="target", target=2, content=LISTING_CONTENT)
    assert np.allclose(target.cluster_scores()[:3], target.info_)
    assert target.content_.tolist() == [1.0, 1.0, 1.0]


# --- hubs per sampled page (crawling for a target) ------------------------------------------
X_TOPICS, X_PAGES = '/html/body/table/tr/td/a[@class="topic"]', '/html/body/div/a[@class="page"]'
X_NEXT_TOPIC, X_POSTS = '/html/body/nav/a[@class="next"]', '/html/body/ol/li/a[@class="post"]'
FORUM_PAGES = {"topics": 40, "forum": 2, "user": 30}


def forum_site_table() -> NavigationTable:
    """A FlaskBB-like sample: topics (C0, the target, 40 pages each linking the next topic),
    a forum's topic list (C1, met twice: 5 topics and the next list per page) and users'
    post lists (C2, 30 pages each linking 2 topics)."""
    groups: dict[str, dict[str, list[str]]] = {}
    clusters: dict[str, int] = {}
    for i in range(FORUM_PAGES["topics"]):
        groups[f"t{i}"] = {X_NEXT_TOPIC: [f"t{(i + 1) % 40}"]}
        clusters[f"t{i}"] = 0
    for i in range(FORUM_PAGES["forum"]):
        groups[f"f{i}"] = {X_TOPICS: [f"t{5 * i + j}" for j in range(5)], X_PAGES: [f"f{i + 1}"]}
        clusters[f"f{i}"] = 1
    for i in range(FORUM_PAGES["user"]):
        groups[f"u{i}"] = {X_POSTS: [f"t{i}", f"t{i + 1}"]}
        clusters[f"u{i}"] = 2
    clusters["f2"] = 1                 # the second list's next page, sampled, links nothing
    return NavigationTable().fit(groups, clusters, n_clusters=3)


def test_hubs_per_sampled_page_do_not_grow_with_the_sample() -> None:
    """Eq. 6 sums the links of all a cluster's sampled pages, so a page type met twice is a
    weak hub beside one met thirty times, whatever each page holds; per page, the forum
    list (5 topics a page) is the best hub, the users' lists (2) next."""
    t = forum_site_table()
    counted = LinkScorer(t, np.ones(3), mode="target", target=0)
    pages = np.array([FORUM_PAGES["topics"], FORUM_PAGES["forum"] + 1, FORUM_PAGES["user"]])
    per_page = LinkScorer(t, np.ones(3), mode="target", target=0, pages=pages)
    assert t.adjacency_[:, 0].tolist() == [40.0, 10.0, 60.0]
    assert counted.hub_[2] > counted.hub_[0] > counted.hub_[1]
    expected = np.array([40 / 40, 10 / 3, 60 / 30])
    assert np.allclose(per_page.hub_, expected / np.linalg.norm(expected))
    assert per_page.hub_[1] > per_page.hub_[2] > per_page.hub_[0]
    assert per_page.authority_.tolist() == [1.0, 0.0, 0.0]
    # HITS in full (crawling for UCC) divides the same rows
    ucc = LinkScorer(t, np.ones(3), pages=pages)
    A = t.adjacency_ / pages[:, None]
    assert np.allclose(ucc.hub_, hits(A - np.diag(np.diag(A)))[0])
    # a cluster with no sampled page keeps a zero row, not a division by zero
    empty = LinkScorer(t, np.ones(3), mode="target", target=0, pages=np.array([40, 0, 30]))
    assert empty.hub_[1] == 0.0 and np.isfinite(empty.hub_).all()


X_SIDEBAR = '/html/body/aside/ul/li/a'
X_ENTRY = '/html/body/main/article/h2/a'


def sidebar_blog_table() -> NavigationTable:
    """A blog whose every page has a sidebar of the same twelve archive links (real Puput:
    tags, months, authors), listings (C0) of which four were sampled, each previewing three
    entries (C1) of its own, and twelve sampled entries."""
    archives = [f"tag{i}" for i in range(12)]
    groups: dict[str, dict[str, list[str]]] = {}
    for n in range(4):
        groups[f"tag{n}"] = {X_ENTRY: [f"e{3 * n + k}" for k in range(3)], X_SIDEBAR: archives}
    for n in range(12):
        groups[f"e{n}"] = {X_SIDEBAR: archives}
    clusters = {**{a: 0 for a in archives}, **{f"e{n}": 1 for n in range(12)}}
    return NavigationTable().fit(groups, clusters, n_clusters=2)


def test_distinct_links_keep_a_sidebar_from_making_its_listings_the_authority() -> None:
    """Eq. 4 concatenates every page's links, so each entry's sidebar counts again and the
    entries become the hub, the listings the authority, from the sidebars alone. Counting
    each pair's distinct URLs (Bharat & Henzinger's 1/k for k links to one page) gives the
    listings' links to their entries their weight back."""
    table = sidebar_blog_table()
    i = table.keys_.index((1, X_SIDEBAR))
    assert (table.sizes_[i], table.distinct_sizes_[i]) == (12 * 12, 12)
    assert np.allclose(table.adjacency_, [[48, 12], [144, 0]])
    assert np.allclose(table.distinct_adjacency_, [[12, 12], [12, 0]])
    plain = LinkScorer(table, np.ones(2))
    distinct = LinkScorer(table, np.ones(2), distinct=True)
    # eq. 6: every entry a hub of the listings, the listings the authority
    assert plain.authority_[0] > plain.authority_[1] and plain.hub_[1] > plain.hub_[0]
    # distinct URLs: the listings and the entries link each other's twelve pages alike
    assert distinct.authority_[1] == pytest.approx(distinct.authority_[0])
    assert distinct.info_[1] / distinct.info_[0] > plain.info_[1] / plain.info_[0]
    # the table's probabilities (eq. 5) do not change, only A does
    assert np.array_equal(LinkScorer(table, np.ones(2)).table.proba_, table.proba_)


def split_blog_model() -> SourceModel:
    """A blog sample: twelve tag lists (`/tag/tN/`), each previewing three posts, and
    twenty-four posts in two markups (a list in their text, or a table and a quote), all
    with a sidebar linking every tag list. The posts' URLs have one form, and the lists'
    title links lead to both markups."""
    tags = [f"http://b.test/tag/t{i}/" for i in range(12)]
    lists = [f"http://b.test/2024/01/{i + 1:02d}/post-{i}/" for i in range(12)]
    tables = [f"http://b.test/2024/02/{i + 1:02d}/note-{i}/" for i in range(12)]
    urls: list[str] = []
    bags: list[dict[str, int]] = []
    groups: dict[str, dict[str, list[str]]] = {}
    for i, url in enumerate(tags):
        urls.append(url)
        bags.append({X_SIDEBAR: 12, X_ENTRY: 3, "/html/body/main/article/p": 3,
                     "/html/body/main/h1": 1, "/html/body/main/nav/a": 1 + i % 3})
        groups[url] = {X_ENTRY: [lists[i], tables[i], lists[(i + 1) % 12]], X_SIDEBAR: tags}
    for i, url in enumerate(lists + tables):
        own = {"/html/body/main/article/ul/li": 2 + i % 4} if i < 12 else \
            {"/html/body/main/article/table/tr/td": 3 + i % 4,
             "/html/body/main/article/blockquote": 1 + i % 2}
        urls.append(url)
        bags.append({X_SIDEBAR: 12, "/html/body/main/article/h1": 1,
                     "/html/body/main/article/p": 4 + i % 5, **own})
        groups[url] = {X_SIDEBAR: tags}
    return SourceModel().fit(urls, bags, groups)


def test_clusters_all_of_one_page_type_are_scored_apart(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    """A real MHonArc archive's index and message pages share one URL form and one row of
    links (prev/next, the indexes), so `page_types` made every cluster one type: one HITS
    node, no edge once self links are left out, every score 0, and the harvest went in the
    order links were found. Clusters all of one type are scored apart, as without
    ``by_type``; two types or more are scored by type."""
    import archiver.learning.model as model_module

    model = split_blog_model()
    per_cluster = model.scorer("ucc").cluster_scores()
    monkeypatch.setattr(model_module, "page_types", lambda urls, labels, n, *a: [0] * n)
    one_type = model.scorer("ucc", by_type=True)
    assert one_type.types_ is None
    assert one_type.cluster_scores() == pytest.approx(per_cluster)
    assert per_cluster[:model.n_clusters_].max() > 0
    monkeypatch.setattr(model_module, "page_types",
                        lambda urls, labels, n, *a: [0] * (n - 1) + [1])
    assert model.scorer("ucc", by_type=True).types_ is not None


def test_a_page_type_split_in_clusters_is_scored_as_one() -> None:
    """Every post's sidebar links the tag lists, so eq. 6 makes the lists the authority,
    and the clustering split the posts by their markup: each half has little DSim and
    Score(C) ranks the lists first (real Pelican and Puput blogs: all the listings fetched
    before the posts). Scored per page type (`page_types`: one URL form, reached by one
    kind of link), the posts are one HITS node, their DSim is their spread over both
    markups, and a crawled post counts against both halves' Balance."""
    model = split_blog_model()
    assert model.n_clusters_ == 3 and (model.labels_ >= 0).all()
    tag, post, note = (int(model.labels_[i]) for i in (0, 12, 24))
    assert len({tag, post, note}) == 3
    per_cluster = model.scorer("ucc")
    s = per_cluster.cluster_scores()
    assert s[tag] > max(s[post], s[note])
    typed = model.scorer("ucc", by_type=True)
    s = typed.cluster_scores()
    assert s[post] == s[note] > s[tag]
    assert typed.dsim_[post] > max(model.dsim_[post], model.dsim_[note])
    assert typed.dsim_[tag] == pytest.approx(model.dsim_[tag])
    assert typed.adjacency_.shape == (2, 2)
    assert typed.hub_[post] == typed.hub_[note] and typed.authority_[post] == \
        typed.authority_[note]
    typed.observe(post)
    typed.observe(tag)
    assert typed.balance()[note] == typed.balance()[post] == pytest.approx(0.5)
    assert typed.walk_values(0.1).shape == (3,)
    # crawling for a target the clusters stay apart (the target's page type is held at 1)
    target = model.scorer("target", target=[post, note], by_type=True)
    assert target.adjacency_.shape == (3, 3)
