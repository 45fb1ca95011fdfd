"""Q&A themes: variant 0 StackExchange-like (s-post-summary, votecell/postcell), variant 1
Question2Answer-like (qa-q-list-item, qa-a-list, depth-relative `../` hrefs)."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from archiver.zoo.markup import a, ad_block, attr, document, esc, maybe, pager, spice
from archiver.zoo.site import Ctx
from archiver.zoo.text import body_length, rng_for, writer

if TYPE_CHECKING:
    from archiver.zoo.qa import QaSite

EPOCH = dt.date(2012, 6, 1)
NETWORK = ("https://travel.stack.example/questions/", "https://cooking.stack.example/questions/",
           "https://math.stack.example/questions/", "https://superuser.example/questions/")


class QaPages:
    """Renders both Q&A themes."""

    def __init__(self, site: QaSite) -> None:
        self.s = site
        self.u = site.url
        self.v = site.variant

    def h(self, ctx: Ctx, path: str) -> str:
        """v0 root-relative hrefs; v1 hrefs relative to the page's depth, as Q2A writes them."""
        if self.v == 0:
            return path
        depth = ctx.url.split("?")[0].count("/") - 1
        return ("../" * depth or "./") + path.lstrip("/")

    def date(self, day: int) -> str:
        return f"{EPOCH + dt.timedelta(days=day):%b %-d, %Y}"

    def body(self, pid: int, words: int) -> str:
        s = self.s
        rng = rng_for(s.seed, self.v, "qa-post", pid)
        w = writer(s.topic)
        paras = w.paragraphs(rng, body_length(rng, words, 0.9, 1400))
        html = spice(rng, paras, w.terms)
        if rng.random() < 0.35:   # code or a quoted error, as Q&A posts have
            term = rng.choice(w.terms)
            html += (f"<pre><code>{esc(term)} = load('{esc(rng.choice(w.terms))}')\n"
                     f"{esc(term)}.run(retries={rng.randint(1, 9)})</code></pre>")
        return html

    def user_link(self, ctx: Ctx, uid: int) -> str:
        cls = "" if self.v == 0 else "qa-user-link"
        return a(self.h(ctx, self.u.user(uid)), self.s.users[uid].name, cls)

    def tag_links(self, ctx: Ctx, tags: tuple[str, ...]) -> str:
        if self.v == 0:
            return ('<ul class="ml0 list-ls-none js-post-tag-list-wrapper d-inline">' + "".join(
                f'<li class="d-inline mr4 js-post-tag-list-item">'
                f'{a(self.h(ctx, self.u.tag(t)), t, "post-tag", rel="tag")}</li>' for t in tags)
                + "</ul>")
        return ('<ul class="qa-q-item-tag-list">' + "".join(
            f'<li class="qa-q-item-tag-item">{a(self.h(ctx, self.u.tag(t)), t, "qa-tag-link")}'
            "</li>" for t in tags) + "</ul>")

    # -- chrome -----------------------------------------------------------------------
    def shell(self, ctx: Ctx, title: str, main: str, side: str = "", robots: str = "") -> str:
        s, u = self.s, self.u

        def h(p: str) -> str:
            return self.h(ctx, p)

        rng = rng_for(s.seed, "qa-chrome", ctx.url)
        ad = maybe(rng, 0.4, lambda: ad_block(rng, "s-sidebarwidget ad" if self.v == 0 else
                                              "qa-widget-ad"))
        if self.v == 0:
            body = (
                '<header class="s-topbar"><div class="s-topbar--container"><a href="/" class="s-'
                f'topbar--logo"><span class="-img _glyph">{esc(s.name)}</span></a><form '
                'id="search" '
                'role="search" action="/search" class="s-topbar--searchbar"><input name="q" '
                'type="text" class="s-input s-input__search"></form><ol class="s-topbar--content">'
                f'<li>{a(u.login(), "Log in", "s-topbar--item s-btn s-btn__filled")}</li>'
                f'<li>{a(u.signup(), "Sign up", "s-topbar--item s-btn s-btn__primary")}</li>'
                f'<li>{a(u.sso(), "Log in with Google", "s-topbar--item")}</li></ol></div></header>'
                '<div class="container"><div id="left-sidebar" class="left-sidebar"><nav role='
                '"navigation"><ol class="nav-links">'
                f'<li>{a("/", "Home", "nav-links--link")}</li>'
                f'<li>{a(u.questions(), "Questions", "nav-links--link", id="nav-questions")}</li>'
                f'<li>{a(u.tags(), "Tags", "nav-links--link", id="nav-tags")}</li>'
                f'<li>{a(u.users(), "Users", "nav-links--link", id="nav-users")}</li></ol></nav>'
                f'</div><div id="content"><div id="mainbar" role="main">{main}</div><div id="'
                f'sidebar" class="show-votes" role="complementary">{side}{ad}</div></div></div>'
                '<footer id="footer" class="site-footer"><div class="site-footer--container"><nav '
                'class="site-footer--nav"><ul class="-list">'
                f'<li>{a(u.feed(), "Site feed", "js-gps-track -link")}</li>'
                f'<li>{a(u.soft404_entry(), "Documentation", "-link")}</li></ul></nav><p '
                'class="site-'
                'footer--copyright">Site design / logo © 2024; user contributions licensed under '
                '<a href="https://creativecommons.example/licenses/by-sa/4.0/" rel="license">CC '
                "BY-SA</a>.</p></div></footer>")
        else:
            body = (
                '<div class="qa-body-wrapper"><div class="qa-header"><div class="qa-logo">'
                f'<a href="{h("/")}" class="qa-logo-link">{esc(s.name)}</a></div><div class="qa-'
                'nav-user"><ul class="qa-nav-user-list">'
                f'<li class="qa-nav-user-item">{a(h(u.login()), "Login", "qa-nav-user-link")}</li>'
                f'<li class="qa-nav-user-item">{a(h(u.signup()), "Register", "qa-nav-user-link")}'
                f'</li><li class="qa-nav-user-item">{a(h(u.sso()), "Facebook login", "qa-nav-user-link")}'  # noqa: E501
                '</li></ul></div><div class="qa-nav-main"><ul class="qa-nav-main-list">'
                + "".join(f'<li class="qa-nav-main-item">{a(h(p), t, "qa-nav-main-link")}</li>'
                          for p, t in (("/", "Home"), (u.questions(), "Questions"),
                                       (u.tags(), "Tags"), (u.users(), "Users")))
                + f'</ul></div></div><div class="qa-main-wrapper"><div class="qa-main">{main}</div>'
                f'<div class="qa-sidepanel">{side}{ad}</div></div><div class="qa-footer"><div '
                f'class="qa-nav-footer"><ul class="qa-nav-footer-list"><li class="qa-nav-footer-'
                f'item">{a(h(u.soft404_entry()), "FAQ", "qa-nav-footer-link")}</li><li class="qa-'
                f'nav-footer-item">{a(h(u.feed()), "RSS", "qa-nav-footer-link")}</li></ul></div>'
                '<div class="qa-attribution">Powered by <a href="http://www.question2answer.'
                'example/">Question2Answer</a></div></div></div>')
        head = f'<meta name="robots" content="{robots}">' if robots else ""
        return document(f"{title} - {s.name}" if title else s.name, body,
                        css=[h("/content/site.css")], head_extra=head,
                        body_attrs=('class="question-page"' if self.v == 0 else
                                    'class="qa-template"'))

    # -- lists ---------------------------------------------------------------------
    def summary(self, ctx: Ctx, q: int) -> str:
        s = self.s
        qq = s.questions[q]
        link = a(self.h(ctx, self.u.question(q)), qq.title, "s-link" if self.v == 0 else "")
        if self.v == 0:
            acc = " has-accepted-answer" if qq.accepted else ""
            return (f'<div id="question-summary-{q}" class="s-post-summary js-post-summary" data-'
                    f'post-id="{q}"><div class="s-post-summary--stats"><div class="s-post-summary--'
                    'stats-item s-post-summary--stats-item__emphasized"><span '
                    'class="s-post-summary'
                    f'--stats-item-number">{qq.votes}</span> votes</div><div '
                    'class="s-post-summary--'
                    f'stats-item has-answers{acc}"><span>{len(qq.answers)}</span> '
                    'answers</div><div '
                    f'class="s-post-summary--stats-item">{qq.views} views</div></div><div class="s-'
                    f'post-summary--content"><h3 class="s-post-summary--content-title">{link}</h3>'
                    '<div class="s-post-summary--meta"><div class="s-post-summary--meta-tags '
                    'tags">'
                    f'{self.tag_links(ctx, qq.tags)}</div><div class="s-user-card s-user-card__'
                    f'minimal">{self.user_link(ctx, qq.asker)} <time '
                    'class="s-user-card--time">asked '
                    f"{self.date(qq.day)}</time></div></div></div></div>")
        return (f'<div class="qa-q-list-item" id="q{q}"><div class="qa-q-item-stats"><span class='
                f'"qa-netvote-count"><span class="qa-netvote-count-data">{qq.votes}</span> votes'
                f'</span><span class="qa-a-count"><span class="qa-a-count-data">{len(qq.answers)}'
                f'</span> answers</span></div><div class="qa-q-item-main"><div class="qa-q-item-'
                f'title">{link}</div><span class="qa-q-item-meta">asked {self.date(qq.day)} by '
                f'{self.user_link(ctx, qq.asker)}</span><div class="qa-q-item-tags">'
                f"{self.tag_links(ctx, qq.tags)}</div></div></div>")

    def _list(self, ctx: Ctx, title: str, qs: list[int], n: int, url: object,
              tabs: str = "") -> str:
        per = self.s.per_page
        last = max(1, -(-len(qs) // per))
        items = "".join(self.summary(ctx, q) for q in qs[(n - 1) * per: n * per])
        nav = pager(lambda i: self.h(ctx, url(i)), n, last,  # type: ignore[operator]
                    cls="s-pagination" if self.v == 0 else "qa-page-links-list", tag="div")
        cls = "flush-left" if self.v == 0 else "qa-q-list"
        return self.shell(ctx, title, f"<h1>{esc(title)}</h1>{tabs}<div class=\"{cls}\">"
                          f"{items}</div>{nav}")

    def home(self, ctx: Ctx, tab: str) -> str:
        s = self.s
        qs = s.by_votes if tab else s.order
        tabs = self._tabs(ctx, [("/", "Interesting"), *((self.u.home(t), t.capitalize())
                                                       for t in (("hot", "week") if self.v == 0
                                                                 else ("hot",)))])
        return self._list(ctx, "Top Questions", qs[: s.per_page], 1, lambda i: "/", tabs)

    def _tabs(self, ctx: Ctx, tabs: list[tuple[str, str]]) -> str:
        cls = "s-btn-group" if self.v == 0 else "qa-nav-sub-list"
        return (f'<div class="{cls}">' + "".join(a(self.h(ctx, p), t, "s-btn s-btn__muted"
                                                    if self.v == 0 else "qa-nav-sub-link")
                                                  for p, t in tabs) + "</div>")

    def question_list(self, ctx: Ctx, n: int, tab: str) -> str:
        s, u = self.s, self.u
        qs = s.by_votes if tab else s.order
        tabs = self._tabs(ctx, [(u.questions(), "Newest"), (u.questions(1, "votes"), "Votes")])
        return self._list(ctx, "All Questions", qs, n, lambda i: u.questions(i, tab), tabs)

    def tag(self, ctx: Ctx, t: str, n: int) -> str:
        u = self.u
        return self._list(ctx, f"Questions tagged [{t}]", self.s.tag_index.get(t, []), n,
                          lambda i: u.tag(t, i))

    def tags(self, ctx: Ctx) -> str:
        s = self.s
        items = "".join(f'<div class="s-card">{a(self.h(ctx, self.u.tag(t)), t, "post-tag")} × '
                        f"{len(qs)}</div>" for t, qs in sorted(s.tag_index.items()))
        searches = " · ".join(a(self.h(ctx, self.u.search(t)), f"search {t}")
                              for t in sorted(s.tag_index)[:3])
        return self.shell(ctx, "Tags", f'<h1>Tags</h1><div id="tags-browser">{items}</div>'
                          f'<p class="tag-searches">{searches}</p>')

    def users(self, ctx: Ctx, n: int, tab: str) -> str:
        s, u = self.s, self.u
        ids = sorted(s.users, key=lambda x: -s.users[x].rep if not tab else -s.users[x].day)
        shown = ids[(n - 1) * 36: n * 36]
        cards = "".join(f'<div class="user-info"><div class="user-details">'
                        f"{self.user_link(ctx, x)}<span class=\"reputation-score\">"
                        f"{s.users[x].rep}</span></div></div>" for x in shown)
        last = -(-len(ids) // 36)
        nav = pager(lambda i: self.h(ctx, u.users(i, tab)), n, last, tag="div")
        tabs = self._tabs(ctx, [(u.users(), "Reputation"), (u.users(1, "newusers"), "New users")])
        return self.shell(ctx, "Users", f'<h1>Users</h1>{tabs}<div id="user-browser">{cards}'
                          f"</div>{nav}")

    def user(self, ctx: Ctx, uid: int, tab: str) -> str:
        s, u = self.s, self.u
        user = s.users[uid]
        posts = s.user_posts.get(uid, [])
        about = ""
        if user.about:
            rng = rng_for(s.seed, self.v, "qa-about", uid)
            about = "".join(f"<p>{esc(p)}</p>" for p in writer(s.topic).paragraphs(
                rng, body_length(rng, 50, 0.8, 300)))
        lst = "".join(f"<li>{a(self.h(ctx, u.question(q)), s.questions[q].title)}</li>"
                      for q in (posts if tab else posts[:5]))
        act = (a(self.h(ctx, u.user(uid, "answers" if self.v else "activity")), "All activity")
               if posts and not tab else "")
        body = (f'<div id="user-card" class="profile-card"><h1 class="fs-headline2">'
                f'{esc(user.name)}</h1><div class="reputation">{user.rep} reputation</div>'
                f'<div class="profile-about">{about}</div><h2>Top posts</h2><ul class="user-'
                f'posts">{lst}</ul>{act}</div>')
        return self.shell(ctx, f"User {user.name}", body)

    # -- questions -----------------------------------------------------------------
    def question(self, ctx: Ctx, q: int, tab: str) -> str:
        s, u = self.s, self.u
        qq = s.questions[q]

        def h(p: str) -> str:
            return self.h(ctx, p)

        answers = list(qq.answers)
        if tab in ("oldest", "votes"):
            answers.sort()
        elif tab == "active":
            answers.reverse()
        elif qq.accepted:
            answers.remove(qq.accepted)
            answers.insert(0, qq.accepted)
        rng = rng_for(s.seed, "qa-q", q)
        related = [x for x in rng.sample(s.order, min(6, len(s.order))) if x != q]
        comments = "".join(
            f'<li class="comment">{esc(writer(s.topic).sentence(rng))} – '
            f"{self.user_link(ctx, rng.choice(list(s.users)))}</li>"
            for _ in range(rng.choice((0, 0, 1, 2, 3))))
        if q % 13 == 4:
            comments += f'<li class="comment">Duplicate of {a(h(u.dead()), "this question")}</li>'
        if self.v == 0:
            main = self._q_se(ctx, q, answers, comments)
            side = ('<div class="module sidebar-related"><h4>Related</h4>'
                    + "".join(f'<div class="spacer">{a(u.question(x), s.questions[x].title, "question-hyperlink")}</div>'  # noqa: E501
                              for x in related)
                    + '</div><div id="hot-network-questions" class="module tex2jax_ignore"><h4>'
                    "Hot Network Questions</h4><ul>"
                    + "".join(f'<li>{a(NETWORK[i % 4] + str(1000 + q * 7 + i), writer(s.topic).title(rng))}</li>'  # noqa: E501
                              for i in range(4))
                    + f'</ul></div><a href="{u.feed(q)}" class="s-link">Question feed</a>')
        else:
            main = self._q_q2a(ctx, q, answers, comments)
            side = ('<div class="qa-widgets-side"><div class="qa-related-qs"><h2>Related '
                    'questions</h2><ul class="qa-related-q-list">'
                    + "".join(f'<li class="qa-related-q-item">{a(h(u.question(x)), s.questions[x].title)}</li>'  # noqa: E501
                              for x in related)
                    + f'</ul></div></div><div class="qa-feed">{a(h(u.feed(q)), "Question feed", "qa-feed-link")}</div>')  # noqa: E501
        return self.shell(ctx, qq.title, main, side)

    def _q_se(self, ctx: Ctx, q: int, answers: list[int], comments: str) -> str:
        s, u = self.s, self.u
        qq = s.questions[q]
        edited = (f'<div class="post-signature flex--item"><div class="user-action-time">'
                  f'{a(u.revisions(q), "edited " + self.date(qq.day + 2))}</div></div>'
                  if qq.edited else "")
        tabs = ""
        if len(qq.answers) > 1:
            tabs = ('<div class="answers-subheader"><label>Sorted by:</label> '
                    + " | ".join(a(u.question(q, t) + "#tab-top", label) for t, label in
                                 (("", "Highest score (default)"), ("oldest", "Date created "
                                  "(oldest first)"), ("active", "Date modified (newest first)")))
                    + "</div>")
        ans = "".join(self._a_se(ctx, aid) for aid in answers)
        return (f'<div id="question-header"><h1 itemprop="name" class="fs-headline1">'
                f'{a(u.question(q), qq.title, "question-hyperlink")}</h1></div><div class="d-flex '
                f'fw-wrap pb8 mb16"><div class="flex--item ws-nowrap mr16 mb8"><span class="fc-'
                f'light mr2">Asked</span> <time>{self.date(qq.day)}</time></div><div class="flex--'
                f'item ws-nowrap mb8"><span class="fc-light mr2">Viewed</span> {qq.views} times'
                '</div></div><div class="question js-question" id="question" '
                f'data-questionid="{q}">'
                f'<div class="post-layout"><div class="votecell post-layout--left"><div class="js-'
                f'voting-container"><button class="js-vote-up-btn s-btn">▲</button><div class="js-'
                f'vote-count" itemprop="upvoteCount">{qq.votes}</div><button class="js-vote-down-'
                f'btn s-btn">▼</button></div></div><div class="postcell post-layout--right"><div '
                f'class="s-prose js-post-body" itemprop="text">{self.body(q, 110)}</div><div class='
                f'"post-taglist">{self.tag_links(ctx, qq.tags)}</div><div class="js-post-menu">'
                f'{a(u.short(q), "Share", "js-share-link", rel="nofollow")} '
                f'{a(u.edit(q), "Improve this question", "js-suggest-edit-post")}</div>{edited}'
                f'<div class="post-signature owner flex--item"><div class="user-info"><div class="'
                f'user-action-time">asked {self.date(qq.day)}</div><div class="user-details">'
                f'{self.user_link(ctx, qq.asker)}</div></div></div></div></div><div class="comments'
                f' js-comments-container" id="comments-{q}"><ul class="comments-list">{comments}'
                '</ul></div></div><div id="answers"><a name="tab-top"></a><div '
                'id="answers-header">'
                f'<h2 data-answercount="{len(answers)}">{len(answers)} Answers</h2>{tabs}</div>'
                f"{ans}</div>")

    def _a_se(self, ctx: Ctx, aid: int) -> str:
        s, u = self.s, self.u
        q = s.answer_q[aid]
        acc = " accepted-answer" if s.questions[q].accepted == aid else ""
        edited = (f'<div class="user-action-time">{a(u.revisions(aid), "edited")}</div>'
                  if aid in s.edited_answers else "")
        return (f'<a name="{aid}"></a><div id="answer-{aid}" class="answer js-answer{acc}" data-'
                f'answerid="{aid}" data-parentid="{q}"><div class="post-layout"><div class="vote'
                f'cell post-layout--left"><div class="js-vote-count">{(aid * 7) % 13 - 2}</div>'
                f'</div><div class="answercell post-layout--right"><div class="s-prose js-post-'
                f'body" itemprop="text">{self.body(aid, 80)}</div><div class="js-post-menu">'
                f'{a(u.answer_link(aid), "Share", "js-share-link", rel="nofollow")}</div>{edited}'
                f'<div class="post-signature flex--item"><div class="user-info"><div class="user-'
                f'details">{self.user_link(ctx, s.answer_author[aid])}</div></div></div>'
                "</div></div>"
                "</div>")

    def _q_q2a(self, ctx: Ctx, q: int, answers: list[int], comments: str) -> str:
        s, u = self.s, self.u
        qq = s.questions[q]

        def h(p: str) -> str:
            return self.h(ctx, p)

        edited = f' {a(h(u.revisions(q)), "edited")}' if qq.edited else ""
        ans = "".join(
            f'<div class="qa-a-list-item{" qa-a-list-item-selected" if qq.accepted == aid else ""}"'
            f' id="a{aid}"><div class="qa-a-item-main"><span class="qa-a-item-meta">'
            f'{a(h(u.answer_link(aid)) + f"#a{aid}", "answered", "qa-a-item-what")} by '
            f"{self.user_link(ctx, s.answer_author[aid])}"
            + (f' {a(h(u.revisions(aid)), "edited")}' if aid in s.edited_answers else "")
            + f'</span><div class="qa-a-item-content qa-post-content"><a name="{aid}"></a><div '
            f'itemprop="text">{self.body(aid, 80)}</div></div></div></div>' for aid in answers)
        sort = (f'<div class="qa-a-sort">Sort: {a(h(u.question(q)), "default")} · '
                f'{a(h(u.question(q, "votes")), "votes")}</div>' if len(qq.answers) > 1 else "")
        return (f'<h1><a href="{attr(h(u.question(q)))}"><span class="entry-title">'
                f'{esc(qq.title)}</span></a></h1><div class="qa-part-q-view"><div class="qa-q-view"'
                f' id="q{q}"><div class="qa-q-view-stats"><span class="qa-netvote-count-data">'
                f'{qq.votes}</span></div><div class="qa-q-view-main"><span class="qa-q-view-meta">'
                f"asked {self.date(qq.day)} by {self.user_link(ctx, qq.asker)}{edited}</span><div "
                f'class="qa-q-view-content qa-post-content"><a name="{q}"></a><div itemprop="text">'
                f'{self.body(q, 110)}</div></div><div class="qa-q-view-tags">'
                f'{self.tag_links(ctx, qq.tags)}</div><div class="qa-q-view-buttons">'
                f'{a(h(u.edit(q)), "edit", "qa-form-light-button qa-form-light-button-edit")}</div>'
                f'<div class="qa-q-view-c-list"><ul>{comments}</ul></div></div></div></div>'
                f'<div class="qa-part-a-list"><h2 id="a_list_title">{len(answers)} Answers</h2>'
                f'{sort}<div class="qa-a-list" id="a_list">{ans}</div></div><div class="qa-part-a-'
                f'form"><h2>Please {a(h(u.login(u.question(q))), "log in")} or '
                f'{a(h(u.signup()), "register")} to answer this question.</h2></div>')

    def revisions(self, ctx: Ctx, pid: int) -> str:
        s = self.s
        rng = rng_for(s.seed, self.v, "rev", pid)
        revs = "".join(f'<div class="revision"><div class="revcell">{n}</div><div class="rev-'
                       f'comment">{esc(writer(s.topic).sentence(rng))}</div><div class="s-prose">'
                       f"{self.body(pid, 60) if n == 1 else ''}</div></div>" for n in (2, 1))
        return self.shell(ctx, "Revisions", f'<h1>Revisions to post {pid}</h1>{revs}',
                          robots="noindex")

    def feed(self, ctx: Ctx, q: int | None) -> str:
        s, u = self.s, self.u
        qs = [q] if q is not None else s.order[:15]
        entries = "".join(f'<entry><id>{esc(ctx.base + u.question(x))}</id><title>'
                          f'{esc(s.questions[x].title)}</title><link rel="alternate" href="'
                          f'{attr(ctx.base + u.question(x))}"/></entry>' for x in qs)
        return ('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">'
                f"<title>{esc(s.name)}</title>{entries}</feed>\n")

    def login(self, ctx: Ctx) -> str:
        title = "Sign up" if ("signup" in ctx.url or "register" in ctx.url) else "Log in"
        form = ('<form id="login-form" method="POST"><label for="email">Email</label><input '
                'type="email" name="email" id="email"><label for="password">Password</label><input '
                'type="password" name="password" id="password"><button class="s-btn" type='
                f'"submit">{title}</button></form>')
        return self.shell(ctx, title, f"<h1>{title}</h1>{form}", robots="noindex")

    def error(self, ctx: Ctx) -> str:
        return ("<!DOCTYPE html>\n<html><head><title>Internal Server Error</title></head><body>"
                "<h1>Something went wrong</h1><p>We are looking into it.</p></body></html>\n")

    def not_found(self, ctx: Ctx) -> str:
        return self.shell(ctx, "Page not found", "<h1>Page not found</h1><p>This question was "
                          "removed.</p>", robots="noindex")

    def soft404(self, ctx: Ctx) -> str:
        return document(f"Documentation - {self.s.name}", '<div class="doc-missing"><h1>'
                        "This topic has moved</h1><p><a href=\"topics/\">All topics</a> · "
                        f'<a href="{attr(ctx.base)}/">Home</a></p></div>')

    def asset(self, ctx: Ctx) -> str:
        return (".s-post-summary{display:flex}.post-tag{background:#e1ecf4}"
                ".qa-q-list-item{margin:4px}\n")



