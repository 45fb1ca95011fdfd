"""Forum variant 0: phpBB 3 "prosilver"-like markup (divs, dl/dd rows, `./`-relative hrefs)."""

from __future__ import annotations

from archiver.zoo.forum_pages import ForumPages
from archiver.zoo.markup import a, ad_block, document, esc, link_list, maybe, pager
from archiver.zoo.site import Ctx
from archiver.zoo.text import rng_for

FIRST = ' class="first"'
RANKS = ("Newbie", "Member", "Regular", "Senior Member", "Veteran", "Moderator")


class PhpbbPages(ForumPages):
    """Renders a phpBB-like forum."""

    generator = "phpBB"
    css = "/styles/prosilver/theme/stylesheet.css"
    js = "/assets/javascript/core.js"
    logo = "/styles/prosilver/theme/images/site_logo.svg"

    def h(self, path: str) -> str:
        return "." + path

    def rank(self, uid: int) -> str:
        return RANKS[min(len(RANKS) - 2, self.s.users[uid].posts // 8)]

    def user(self, uid: int) -> str:
        return a(self.h(self.u.profile(uid)), self.s.users[uid].name, "username")

    def shell(self, ctx: Ctx, title: str, body: str, crumbs: list[tuple[str, str]],
              *, canonical: str = "", robots: str = "") -> str:
        s, u, h = self.s, self.u, self.h
        trail = "".join(f'<span class="crumb"><a href="{esc(h(p))}">{esc(t)}</a></span>'
                        for p, t in crumbs)
        rng = rng_for(s.seed, "chrome", ctx.url)
        header = (
            '<div id="wrap" class="wrap"><a id="top" class="top-anchor" accesskey="t"></a>'
            '<div id="page-header"><div class="headerbar" role="banner"><div class="inner">'
            f'<div id="site-description" class="site-description">'
            f'<a id="logo" class="logo" href="{esc(ctx.base)}/" title="Board index">'
            f'<img src="{h(self.logo)}" alt="" width="160" height="40"></a>'
            f"<h1>{esc(s.name)}</h1><p>{esc(s.tagline)}</p></div>"
            '<div id="search-box" class="search-box search-header" role="search">'
            '<form action="./search.php" method="get" id="search"><fieldset>'
            '<input name="keywords" id="keywords" type="search" maxlength="128" '
            'class="inputbox search tiny" placeholder="Search…"><button class="button '
            'button-search" type="submit">Search</button></fieldset></form></div>'
            "</div></div>"
            '<div class="navbar" role="navigation"><div class="inner">'
            '<ul id="nav-main" class="nav-main linklist" role="menubar">'
            f'<li class="rightside">{a(h(u.faq()), "FAQ", rel="help")}</li>'
            f'<li class="rightside">{a(h(u.memberlist()), "Members")}</li>'
            f'<li class="rightside">{a(h(u.register()), "Register")}</li>'
            f'<li class="rightside">{a(h(u.login()), "Login", accesskey="x")}</li></ul>'
            '<ul id="nav-breadcrumbs" class="nav-breadcrumbs linklist navlinks" role="menubar">'
            f'<li class="breadcrumbs"><span class="crumb"><a href="./index.php" accesskey="h">'
            f"Board index</a></span>{trail}</li></ul></div></div></div>"
            '<a id="start_here" class="anchor"></a><div id="page-body" class="page-body" '
            'role="main">')
        footer = (
            "</div>"
            f'{maybe(rng, 0.5, lambda: ad_block(rng, "ad-slot ad-footer"))}'
            '<div id="page-footer" class="page-footer" role="contentinfo">'
            '<div class="navbar" role="navigation"><div class="inner">'
            '<ul id="nav-footer" class="nav-footer linklist" role="menubar">'
            '<li class="breadcrumbs"><span class="crumb"><a href="./index.php">Board index</a>'
            "</span></li>"
            f'<li class="rightside">{a(h(u.team()), "The team")}</li>'
            f'<li class="rightside">{a("help/rules/", "Board rules")}</li>'
            '<li class="rightside">All times are <span title="UTC">UTC</span></li></ul>'
            '</div></div><div class="copyright">Powered by '
            '<a href="https://www.phpbb.example/">phpBB</a>® Forum Software © phpBB Limited'
            "</div></div></div>")
        return document(f"{title} - {s.name}", header + body + footer, css=[h(self.css)],
                        scripts=[h(self.js)], description=s.tagline, canonical=canonical,
                        generator=self.generator,
                        head_extra=(f'<meta name="robots" content="{robots}">' if robots else
                                    "") + f'<link rel="alternate" type="application/atom+xml" '
                        f'title="Feed - {esc(s.name)}" href="{h(u.feed())}">',
                        body_attrs='id="phpbb" class="nojs notouch section-index ltr"')

    # -- page types ---------------------------------------------------------------
    def index(self, ctx: Ctx) -> str:
        s, u, h = self.s, self.u, self.h
        blocks = []
        for ci, cat in enumerate(s.categories):
            rows = "".join(self.board_row(b, sid=True) for b, bd in s.boards.items()
                           if bd.cat == ci and bd.parent is None)
            blocks.append(self.board_table(cat, rows))
        online = sorted(s.users)[:: max(1, len(s.users) // 6)]
        n_posts = len(s.post_topic) - 1
        newest = max(s.users)
        body = (
            f'<p class="right responsive-center time">It is currently '
            f"{self.when(max(t.last_day for t in s.topics.values()) + 1, 600)}</p>"
            '<div class="action-bar compact"><ul class="linklist bulletin">'
            f'<li>{a(h(u.search("unanswered")), "Unanswered topics")}</li>'
            f'<li>{a(h(u.search("active")), "Active topics")}</li>'
            f'<li class="rightside">{a(h(u.feed()), "Feed - all boards", "feed")}</li></ul></div>'
            + "".join(blocks) +
            '<form method="post" action="./ucp.php?mode=login" class="headerspace">'
            '<h3><a href="./ucp.php?mode=login">Login</a> • '
            f'{a(h(u.register()), "Register")}</h3><fieldset class="quick-login">'
            '<label for="username"><span>Username:</span> <input type="text" tabindex="1" '
            'name="username" id="username" size="10" class="inputbox" title="Username">'
            '</label><label for="password"><span>Password:</span> <input type="password" '
            'tabindex="2" name="password" id="password" size="10" class="inputbox" '
            'title="Password" autocomplete="off"></label>'
            f'<input type="submit" tabindex="5" name="login" value="Login" class="button2">'
            f' {a(h(u.sso()), "Login with ExampleID", "button sso")}</fieldset></form>'
            '<div class="stat-block online-list"><h3>Who is online</h3><p>In total there are '
            f"<strong>{len(online) + 11}</strong> users online :: {len(online)} registered, "
            "0 hidden and 11 guests<br>Registered users: "
            + ", ".join(self.user(x) for x in online) + "</p></div>"
            '<div class="stat-block statistics"><h3>Statistics</h3><p>Total posts '
            f"<strong>{n_posts}</strong> • Total topics <strong>{len(s.topics)}</strong> • "
            f"Total members <strong>{len(s.users)}</strong> • Our newest member "
            f"<strong>{self.user(newest)}</strong></p></div>")
        return self.shell(ctx, "Index page", body, [], canonical=ctx.base + "/")

    def board_table(self, title: str, rows: str) -> str:
        return ('<div class="forabg"><div class="inner"><ul class="topiclist"><li class="header">'
                f'<dl class="row-item"><dt><div class="list-inner">{esc(title)}</div></dt>'
                '<dd class="topics">Topics</dd><dd class="posts">Posts</dd>'
                '<dd class="lastpost"><span>Last post</span></dd></dl></li></ul>'
                f'<ul class="topiclist forums">{rows}</ul></div></div>')

    def board_row(self, b: int, sid: bool = False) -> str:
        s, u, h = self.s, self.u, self.h
        bd = s.boards[b]
        link = h(u.board(b)) + (f"&sid={s.sid}" if sid else "")
        subs = ""
        if bd.children:
            subs = "<br><strong>Subforum:</strong> " + ", ".join(
                a(h(u.board(c)), s.boards[c].title, "subforum read") for c in bd.children)
        all_topics = bd.topics + [t for c in bd.children for t in s.boards[c].topics]
        n_posts = sum(s.topics[t].n_posts for t in all_topics)
        last = ""
        if all_topics:
            t = max(all_topics, key=lambda x: s.topics[x].last_day)
            tp = s.topics[t]
            lp = tp.first_post + tp.n_posts - 1
            last = (f'<span><a href="{esc(h(u.permalink(lp)))}#p{lp}" class="lastsubject" '
                    f'title="{esc(tp.title)}">{esc(tp.title[:40])}</a><br>by '
                    f"{self.user(s.post_author[lp])}<br>{self.when(tp.last_day, lp)}</span>")
        return ('<li class="row"><dl class="row-item forum_read"><dt title="No unread posts">'
                f'<div class="list-inner">{a(link, bd.title, "forumtitle")}<br>{esc(bd.desc)}'
                f'{subs}</div></dt><dd class="topics">{len(all_topics)}</dd>'
                f'<dd class="posts">{n_posts}</dd><dd class="lastpost">{last}</dd></dl></li>')

    def board(self, ctx: Ctx, b: int, page: int, sort: str) -> str:
        s, u, h = self.s, self.u, self.h
        bd = s.boards[b]
        last = s.board_pages(b)
        topics = list(bd.topics)
        if sort == "subject":
            topics.sort(key=lambda t: s.topics[t].title.lower())
        elif sort == "replies":
            topics.sort(key=lambda t: -s.topics[t].n_posts)
        per = s.topics_per_page
        shown = topics[(page - 1) * per: page * per]
        pag = pager(lambda n: h(u.board(b, n, sort)), page, last)
        bar = (f'<div class="pagination">{len(topics)} topics • Page <strong>{page}</strong> '
               f"of <strong>{last}</strong>{pag}</div>")
        rows = "".join(self.topic_row(t, i) for i, t in enumerate(shown))
        subs = ""
        if bd.children:
            subs = self.board_table("Forum", "".join(self.board_row(c) for c in bd.children))
        rng = rng_for(s.seed, "board-noise", b, page, sort)
        crumbs = ([(u.board(bd.parent), s.boards[bd.parent].title)] if bd.parent else [])
        body = (
            f'<h2 class="forum-title">{a(h(u.board(b)), bd.title)}</h2>'
            f"<div><p>{esc(bd.desc)}</p></div>{subs}"
            '<div class="action-bar bar-top">'
            f'{a(h(u.new_topic(b)), "New Topic", "button", title="Post a new topic")}{bar}</div>'
            f'{maybe(rng, 0.6, lambda: ad_block(rng))}'
            '<div class="forumbg"><div class="inner"><ul class="topiclist"><li class="header">'
            '<dl class="row-item"><dt><div class="list-inner">Topics</div></dt>'
            '<dd class="posts">Replies</dd><dd class="views">Views</dd>'
            '<dd class="lastpost"><span>Last post</span></dd></dl></li></ul>'
            f'<ul class="topiclist topics">{rows}</ul></div></div>'
            '<div class="sort-links">Sort by: '
            f'{a(h(u.board(b)), "Post time")} · {a(h(u.board(b, 1, "subject")), "Subject")} · '
            f'{a(h(u.board(b, 1, "replies")), "Replies")}</div>'
            f'<div class="action-bar bar-bottom">{bar}</div>'
            f'<p class="feed">{a(h(u.feed(b)), "Feed - " + bd.title)}</p>'
            '<div class="stat-block online-list"><h3>Who is online</h3><p>Users browsing '
            f"this forum: {self.user(rng.choice(list(s.users)))} and "
            f"{rng.randint(1, 9)} guests</p></div>")
        return self.shell(ctx, bd.title, body, [*crumbs, (u.board(b), bd.title)],
                          canonical=ctx.base + u.board(b, page))

    def topic_row(self, t: int, i: int) -> str:
        s, u, h = self.s, self.u, self.h
        tp = s.topics[t]
        n_pages = -(-tp.n_posts // s.posts_per_page)
        mini = ""
        if n_pages > 1:
            mini = '<div class="pagination"><ul>' + "".join(
                f"<li>{a(h(u.topic(t, n)), str(n))}</li>" for n in range(1, n_pages + 1)
                if n <= 3 or n == n_pages) + "</ul></div>"
        lp = tp.first_post + tp.n_posts - 1
        kind = "sticky" if tp.sticky else ""
        return (f'<li class="row bg{1 + i % 2} {kind}"><dl class="row-item topic_read">'
                f'<dt title="No unread posts"><div class="list-inner">'
                f'{"<strong>Sticky: </strong>" if tp.sticky else ""}'
                f'{a(h(u.topic(t)), tp.title, "topictitle")}{mini}'
                f'<div class="responsive-hide">by {self.user(tp.author)} » '
                f"{self.when(tp.day, t)}</div></div></dt>"
                f'<dd class="posts">{tp.n_posts - 1}</dd><dd class="views">{tp.views}</dd>'
                f'<dd class="lastpost"><span>by {self.user(s.post_author[lp])} '
                f'<a href="{esc(h(u.permalink(lp)))}#p{lp}" title="Go to last post">»</a>'
                f"<br>{self.when(tp.last_day, lp)}</span></dd></dl></li>")

    def topic(self, ctx: Ctx, t: int, page: int) -> str:
        s, u, h = self.s, self.u, self.h
        tp = s.topics[t]
        bd = s.boards[tp.board]
        last = -(-tp.n_posts // s.posts_per_page)
        start = tp.first_post + (page - 1) * s.posts_per_page
        posts = range(start, min(start + s.posts_per_page, tp.first_post + tp.n_posts))
        pag = pager(lambda n: h(u.topic(t, n)), page, last)
        bar = (f'<div class="pagination">{tp.n_posts} posts • Page <strong>{page}</strong> of '
               f"<strong>{last}</strong>{pag}</div>")
        buttons = (f'{a(h(u.reply(t)), "Post Reply", "button", title="Post a reply")}'
                   f'<div class="dropdown-container">{a(h(u.print_view(t)), "Print view")}'
                   "</div>")
        rng = rng_for(s.seed, "topic-noise", t, page)
        similar = [(h(u.topic(x)), s.topics[x].title)
                   for x in rng.sample(bd.topics, min(4, len(bd.topics))) if x != t]
        body = (
            f'<h2 class="topic-title">{a(h(u.topic(t)), tp.title)}</h2>'
            f'<div class="action-bar bar-top">{buttons}{bar}</div>'
            + "".join(self.post(p, i) for i, p in enumerate(posts)) +
            f'<div class="action-bar bar-bottom">{buttons}{bar}</div>'
            f'<p class="jumpbox-return">{a(h(u.board(tp.board)), "Return to “" + bd.title + "”", "left-box arrow-left", accesskey="r")}</p>'  # noqa: E501
            f'{maybe(rng, 0.7, lambda: link_list(similar, cls="panel similar-topics", title="Similar topics"))}'  # noqa: E501
            f'{maybe(rng, 0.5, lambda: ad_block(rng))}')
        crumbs = ([(u.board(bd.parent), s.boards[bd.parent].title)] if bd.parent else [])
        return self.shell(ctx, tp.title, body, [*crumbs, (u.board(tp.board), bd.title)],
                          canonical=ctx.base + u.topic(t, page))

    def post(self, p: int, i: int) -> str:
        s, u, h = self.s, self.u, self.h
        uid = s.post_author[p]
        user = s.users[uid]
        tp = s.topics[s.post_topic[p]]
        day, minute = self.post_time(p)
        subject = tp.title if p == tp.first_post else "Re: " + tp.title
        loc = f'<dd class="profile-location"><strong>Location:</strong> {esc(user.location)}</dd>' \
            if user.location else ""
        sig = self.signature(uid)
        return (
            f'<div id="p{p}" class="post has-profile bg{2 - i % 2}"><div class="inner">'
            f'<dl class="postprofile" id="profile{p}"><dt class="has-profile-rank">'
            f"{self.user(uid)}</dt><dd class=\"profile-rank\">{self.rank(uid)}</dd>"
            f'<dd class="profile-posts"><strong>Posts:</strong> '
            f'{a(h(u.search("user", uid)), str(user.posts))}</dd>'
            f'<dd class="profile-joined"><strong>Joined:</strong> {self.when(user.joined - 900, 0)}'
            f"</dd>{loc}</dl>"
            f'<div class="postbody"><div id="post_content{p}">'
            f'<h3{FIRST if i == 0 else ""}><a href="#p{p}">{esc(subject)}</a></h3>'
            '<ul class="post-buttons"><li><a href="#top" class="button button-icon-only" '
            'title="Top">Top</a></li></ul>'
            f'<p class="author"><span class="responsive-hide">by <strong>{self.user(uid)}'
            f"</strong> » </span>{self.when(day, minute)}</p>"
            f'<div class="content">{self.post_body(p)}</div>'
            + (f'<div id="sig{p}" class="signature">{sig}</div>' if sig else "") +
            '</div></div><div class="back2top"><a href="#top" class="top" title="Top">Top</a>'
            '</div></div></div><hr class="divider">')

    def print_view(self, ctx: Ctx, t: int) -> str:
        s, u = self.s, self.u
        tp = s.topics[t]
        posts = []
        for p in range(tp.first_post, tp.first_post + tp.n_posts):
            day, minute = self.post_time(p)
            posts.append(f'<div class="post"><h3>{"Re: " if p > tp.first_post else ""}'
                         f'{esc(tp.title)}</h3><div class="date">Posted: <strong>'
                         f'{self.when(day, minute)}</strong></div><div class="author">by '
                         f"<strong>{esc(s.users[s.post_author[p]].name)}</strong></div>"
                         f'<div class="content">{self.post_body(p)}</div></div><hr>')
        body = (f'<div id="wrap"><a id="top" class="top-anchor"></a><div id="page-header">'
                f"<h1>{esc(s.name)}</h1><p>{esc(ctx.base)}/</p><h2>{esc(tp.title)}</h2>"
                f'<p><a href="{esc(self.h(u.topic(t)))}">{esc(ctx.base + u.topic(t))}</a></p>'
                '</div><div id="page-body" class="page-body"><div class="page-number">Page '
                '<strong>1</strong> of <strong>1</strong></div>' + "".join(posts) +
                '</div><div id="page-footer" class="page-footer"><div class="copyright">'
                "Powered by phpBB® Forum Software © phpBB Limited</div></div></div>")
        return document(f"{s.name} • View topic - {tp.title}", body,
                        head_extra='<meta name="robots" content="noindex">')

    def profile(self, ctx: Ctx, uid: int) -> str:
        s, u, h = self.s, self.u, self.h
        user = s.users[uid]
        about = self.about(uid)
        sig = self.signature(uid)
        rng = rng_for(s.seed, "profile", uid)
        boards = [b for b in s.boards if s.boards[b].topic == user.interest] or list(s.boards)
        recent = [(h(u.topic_short(t)), s.topics[t].title) for t in user.recent[-5:]]
        body = (
            f'<h2 class="memberlist-title">Viewing profile - {esc(user.name)}</h2>'
            '<div class="panel bg1"><div class="inner"><dl class="left-box details '
            f'profile-details"><dt>Username:</dt><dd><span>{esc(user.name)}</span></dd>'
            f"<dt>Rank:</dt><dd>{self.rank(uid)}</dd>"
            + (f"<dt>Location:</dt><dd>{esc(user.location)}</dd>" if user.location else "")
            + f"<dt>Interests:</dt><dd>{esc(user.interest)}</dd></dl></div></div>"
            '<div class="panel bg2"><div class="inner"><div class="column1"><h3>Contact '
            f'{esc(user.name)}</h3><dl class="details"><dt>PM:</dt><dd>'
            f'{a(h(u.pm(uid)), "Send private message")}</dd>'
            + (f'<dt>Website:</dt><dd><a href="http://blog.example.org/{esc(user.name)}">'
               f"blog.example.org/{esc(user.name)}</a></dd>" if rng.random() < 0.3 else "")
            + '</dl></div><div class="column2"><h3>User statistics</h3><dl class="details">'
            f"<dt>Joined:</dt><dd>{self.when(user.joined - 900, 0)}</dd>"
            f"<dt>Total posts:</dt><dd>{user.posts} | "
            f'{a(h(u.search("user", uid)), "Search user’s posts")}</dd>'
            f"<dt>Most active forum:</dt><dd>{a(h(u.board(boards[0])), s.boards[boards[0]].title)}"
            "</dd></dl></div></div></div>"
            + (('<div class="panel bg1"><div class="inner"><h3>About me</h3><div class="postbody">'
                '<div class="content">' + "".join(f"<p>{esc(p)}</p>" for p in about)
                + "</div></div></div></div>") if about else "")
            + link_list(recent, cls="panel recent-topics", title="Recent topics")
            + (f'<div class="panel bg1"><div class="inner"><h3>Signature</h3><div class="postbody">'
               f'<div class="signature standalone">{sig}</div></div></div></div>' if sig else ""))
        return self.shell(ctx, f"Viewing profile - {user.name}", body, [])

    def memberlist(self, ctx: Ctx, page: int) -> str:
        return self.login(ctx)

    def login(self, ctx: Ctx) -> str:
        u, h = self.u, self.h
        register = "mode=register" in ctx.url
        notice = ("<p>The board requires you to be registered and logged in to view this page."
                  "</p>" if ("redirect=" in ctx.url or "memberlist" in ctx.url) else "")
        title = "Register" if register else "Login"
        body = (f'<form action="./ucp.php?mode=login" method="post" id="login"><div class="panel">'
                f'<div class="inner"><div class="content"><h2 class="login-title">{title}</h2>'
                f"{notice}<fieldset class=\"fields1\"><dl><dt><label for=\"username\">Username:"
                '</label></dt><dd><input type="text" tabindex="1" name="username" id="username" '
                'size="25" class="inputbox autowidth"></dd></dl><dl><dt><label for="password">'
                'Password:</label></dt><dd><input type="password" tabindex="2" id="password" '
                'name="password" size="25" class="inputbox autowidth" autocomplete="off"></dd>'
                '</dl><dl><dd><input type="submit" name="login" tabindex="6" value="Login" '
                'class="button1"></dd></dl></fieldset></div></div></div>'
                '<div class="panel"><div class="inner"><div class="content"><h3>Register</h3>'
                "<p>In order to login you must be registered. Registering takes only a few "
                f'moments.</p><p>{a(h(u.register()), "Register", "button2")}</p></div></div>'
                "</div></form>")
        return self.shell(ctx, title, body, [], robots="noindex,nofollow")

    def faq(self, ctx: Ctx) -> str:
        qa = (("What is this board for?", self.s.tagline),
              ("Why can’t I reply?", "You need to register and log in before you can post."),
              ("What are the board rules?", "Be kind, stay on topic, and search first."),
              ("Why is my post not shown?", "New members’ first posts are reviewed by staff."))
        body = ('<h2 class="faq-title">Frequently Asked Questions</h2><div class="panel bg1">'
                '<div class="inner">' + "".join(f"<dl class=\"faq\"><dt><strong>{esc(q)}"
                                                f"</strong></dt><dd>{esc(r)}</dd></dl>"
                                                for q, r in qa) + "</div></div>")
        return self.shell(ctx, "FAQ", body, [])

    def soft404(self, ctx: Ctx) -> str:
        body = ('<div class="panel" id="message"><div class="inner"><h2 class="message-title">'
                "Information</h2><p>The requested page does not exist.</p>"
                f'<p><a href="rules/">Board rules</a> • <a href="{esc(ctx.base)}/">Board index</a>'
                "</p>"
                "</div></div>")
        return document(f"Information - {self.s.name}", body, css=[self.css])
