"""Forum variant 1: vBulletin 3-like markup (nested tables, `<base href>` with
base-relative hrefs, friendly URLs, `s=` session ids, quote buttons on every post)."""

from __future__ import annotations

from archiver.zoo.forum_pages import ForumPages
from archiver.zoo.markup import a, ad_block, attr, document, esc, maybe, pages_window
from archiver.zoo.site import Ctx
from archiver.zoo.text import rng_for

RANKS = ("Junior Member", "Member", "Senior Member", "Super Moderator")
TB = 'class="tborder" cellpadding="6" cellspacing="1" border="0" width="100%" align="center"'


class VbPages(ForumPages):
    """Renders a vBulletin-like forum."""

    generator = "vBulletin 3.8.7"
    css = "/clientscript/vbulletin_css/style-00001.css"
    js = "/clientscript/vbulletin_global.js"
    logo = "/images/misc/vbulletin_logo.svg"

    def h(self, path: str) -> str:
        return path.lstrip("/")

    def user(self, uid: int, cls: str = "") -> str:
        return a(self.h(self.u.profile(uid)), self.s.users[uid].name, cls, rel="nofollow")

    def rank(self, uid: int) -> str:
        return RANKS[min(2, self.s.users[uid].posts // 10)]

    def pagenav(self, url: object, page: int, last: int, total: int, per: int) -> str:
        if last <= 1:
            return ""
        assert callable(url)
        cells = [f'<td class="vbmenu_control" style="font-weight:normal">Page {page} of {last}'
                 "</td>"]
        if page > 1:
            cells.append(f'<td class="alt1"><a rel="prev" class="smallfont" href="{attr(url(page - 1))}" '  # noqa: E501
                         f'title="Prev Page">&lt;</a></td>')
        for n in pages_window(page, last, 3):
            if n is None:
                continue
            lo, hi = (n - 1) * per + 1, min(total, n * per)
            if n == page:
                cells.append(f'<td class="alt2"><span class="smallfont" title="Showing results '
                             f'{lo} to {hi} of {total}"><strong>{n}</strong></span></td>')
            else:
                cells.append(f'<td class="alt1"><a class="smallfont" href="{attr(url(n))}" '
                             f'title="Show results {lo} to {hi} of {total}">{n}</a></td>')
        if page < last:
            cells.append(f'<td class="alt1"><a rel="next" class="smallfont" href="{attr(url(page + 1))}" '  # noqa: E501
                         'title="Next Page">&gt;</a></td>'
                         f'<td class="alt1" nowrap="nowrap"><a class="smallfont" href="{attr(url(last))}" '  # noqa: E501
                         'title="Last Page">Last <strong>&raquo;</strong></a></td>')
        return ('<div class="pagenav" align="right"><table class="tborder" cellpadding="3" '
                f'cellspacing="1" border="0"><tr>{"".join(cells)}</tr></table></div>')

    def shell(self, ctx: Ctx, title: str, body: str, crumbs: list[tuple[str, str]],
              *, canonical: str = "", robots: str = "") -> str:
        s, u, h = self.s, self.u, self.h
        nav = "".join(f'<span class="navbar">&gt; {a(h(p), t)}</span> ' for p, t in crumbs)
        rng = rng_for(s.seed, "chrome", ctx.url)
        top = (
            f'<a name="top"></a><div class="page" style="width:100%; text-align:left">'
            f'<div style="padding:0px 25px 0px 25px" align="left"><table {TB}><tr>'
            f'<td class="alt1" width="100%"><a href="{attr(ctx.base)}/forum.php">'
            f'<img src="{h(self.logo)}" border="0" alt="{attr(s.name)}"></a></td>'
            '<td class="alt2" nowrap="nowrap" style="padding:0px"><form '
            'action="login.php?do=login" '
            'method="post"><table cellpadding="0" cellspacing="3" border="0"><tr><td class='
            '"smallfont"><label for="navbar_username">User Name</label></td><td><input type='
            '"text" class="bginput" style="font-size: 11px" name="vb_login_username" id='
            '"navbar_username" size="10" accesskey="u" tabindex="101"></td></tr></table></form>'
            "</td></tr></table><br>"
            f'<div id="navbar"><table {TB}><tr><td class="alt1" width="100%">'
            f'<span class="navbar"><a href="forum.php" accesskey="1">{esc(s.name)}</a></span> '
            f"{nav}<h1 class=\"navbar-title\"><strong>{esc(title)}</strong></h1></td></tr></table>"
            f'<table {TB} id="navbar_links"><tr align="center">'
            f'<td class="vbmenu_control">{a(h(u.register()), "Register", rel="nofollow")}</td>'
            f'<td class="vbmenu_control">{a(h(u.faq()), "FAQ", accesskey="5")}</td>'
            f'<td class="vbmenu_control">{a(h(u.memberlist()), "Members List")}</td>'
            f'<td class="vbmenu_control">{a(h(u.search("active")), "New Posts", accesskey="2")}</td>'  # noqa: E501
            f'<td class="vbmenu_control">{a(h(u.sso()), "Log in with ExampleID")}</td>'
            "</tr></table></div><br>")
        bottom = (
            f'{maybe(rng, 0.6, lambda: ad_block(rng, "vb-ad"))}'
            '<br><div class="smallfont" align="center">All times are GMT. The time now is '
            '<span class="time">09:41 PM</span>.</div><br></div></div>'
            '<form action="forum.php" method="get"><table cellpadding="6" cellspacing="0" '
            'border="0" width="100%" class="page" align="center"><tr><td class="tfoot" '
            f'align="right" width="100%"><div class="smallfont"><strong>{a("content/news/", "Articles")}'  # noqa: E501
            f' - {a(h(u.team()), "Forum Leaders")} - {a(h(u.feed()), "RSS")} - '
            '<a href="#top" onclick="self.scrollTo(0, 0); return false;">Top</a></strong></div>'
            '</td></tr></table></form><div align="center"><div class="smallfont" align="center">'
            "Powered by vBulletin® Version 3.8.7<br>Copyright ©2000 - 2024, vBulletin Solutions"
            ", Inc.</div></div>")
        return document(f"{title} - {s.name}", top + body + bottom, css=[h(self.css)],
                        scripts=[h(self.js)], description=s.tagline, canonical=canonical,
                        base=ctx.base + "/", generator=self.generator,
                        head_extra=(f'<meta name="robots" content="{robots}">' if robots else ""))

    def index(self, ctx: Ctx) -> str:
        s = self.s
        parts = []
        for ci, cat in enumerate(s.categories):
            rows = "".join(self.board_row(b) for b, bd in s.boards.items()
                           if bd.cat == ci and bd.parent is None)
            parts.append(self.board_table(cat, ci, rows))
        n_posts = len(s.post_topic) - 1
        online = sorted(s.users)[:: max(1, len(s.users) // 5)]
        parts.append(
            f'<br><table {TB}><thead><tr><td class="tcat" colspan="2">What\'s Going On?</td></tr>'
            '</thead><tbody><tr><td class="thead" colspan="2">Currently Active Users</td></tr>'
            f'<tr><td class="alt1" width="100%"><div class="smallfont">'
            + ", ".join(self.user(x) for x in online) + "</div></td></tr>"
            f'<tr><td class="thead" colspan="2">{esc(s.name)} Statistics</td></tr><tr><td '
            f'class="alt1"><div class="smallfont">Threads: {len(s.topics)}, Posts: {n_posts}, '
            f"Members: {len(s.users)}</div><div>Welcome to our newest member, "
            f"{self.user(max(s.users))}</div></td></tr></tbody></table>")
        return self.shell(ctx, s.name, "".join(parts), [], canonical=ctx.base + "/")

    def board_table(self, cat: str, ci: int, rows: str) -> str:
        return (f'<table {TB}><thead><tr align="center"><td class="thead">&nbsp;</td><td '
                'class="thead" width="100%" align="left">Forum</td><td class="thead" width="175">'
                'Last Post</td><td class="thead">Threads</td><td class="thead">Posts</td></tr>'
                f'</thead><tbody><tr><td class="tcat" colspan="5">{esc(cat)}</td></tr></tbody>'
                f'<tbody id="collapseobj_forumbit_{ci}">{rows}</tbody></table><br>')

    def board_row(self, b: int, sid: bool = True) -> str:
        s, u, h = self.s, self.u, self.h
        bd = s.boards[b]
        link = h(u.board(b)) + (f"?s={s.sid}" if sid else "")
        subs = ""
        if bd.children:
            subs = ('<div class="smallfont" style="margin-top:6px"><strong>Sub-Forums:</strong> '
                    + ", ".join(a(h(u.board(c)), s.boards[c].title) for c in bd.children)
                    + "</div>")
        topics = bd.topics + [t for c in bd.children for t in s.boards[c].topics]
        last = "<div class=\"smallfont\" align=\"center\">Never</div>"
        if topics:
            t = max(topics, key=lambda x: s.topics[x].last_day)
            tp = s.topics[t]
            lp = tp.first_post + tp.n_posts - 1
            last = (f'<div class="smallfont" align="left"><div style="clear:both">'
                    f'<a href="{attr(h(u.permalink(lp)))}" title="Go to first unread post in '
                    f'thread \'{attr(tp.title)}\'"><strong>{esc(tp.title[:32])}</strong></a></div>'
                    f"<div>by {self.user(s.post_author[lp])}</div><div align=\"right\">"
                    f"{self.when(tp.last_day, lp)}</div></div>")
        return (f'<tr align="center"><td class="alt1Active" colspan="2" align="left" id="f{b}">'
                f'<div><a href="{attr(link)}"><strong>{esc(bd.title)}</strong></a></div>'
                f'<div class="smallfont">{esc(bd.desc)}</div>{subs}</td>'
                f'<td class="alt2" nowrap="nowrap">{last}</td><td class="alt1">{len(topics)}</td>'
                f'<td class="alt2">{sum(s.topics[t].n_posts for t in topics)}</td></tr>')

    def board(self, ctx: Ctx, b: int, page: int, sort: str) -> str:
        s, u, h = self.s, self.u, self.h
        bd = s.boards[b]
        topics = list(bd.topics)
        if sort == "subject":
            topics.sort(key=lambda t: s.topics[t].title.lower())
        elif sort == "replies":
            topics.sort(key=lambda t: -s.topics[t].n_posts)
        per, last = s.topics_per_page, s.board_pages(b)
        shown = topics[(page - 1) * per: page * per]
        nav = self.pagenav(lambda n: h(u.board(b, n, sort)), page, last, len(topics), per)
        rows = "".join(self.thread_row(t) for t in shown)
        subs = ""
        if bd.children:
            subs = self.board_table("Sub-Forums", 99,
                                    "".join(self.board_row(c, False) for c in bd.children))
        rng = rng_for(s.seed, "board-noise", b, page, sort)
        body = (
            f"{subs}<table {TB}><tr><td class=\"tcat\" width=\"100%\">Threads in Forum<span "
            f'class="normal"> : {esc(bd.title)}</span></td></tr></table>'
            '<table cellpadding="0" cellspacing="0" border="0" width="100%" style="margin-bottom'
            f':3px"><tr valign="bottom"><td class="smallfont">{a(h(u.new_topic(b)), "Post New Thread", rel="nofollow")}'  # noqa: E501
            f'</td><td align="right">{nav}</td></tr></table>'
            f'<table {TB} id="threadslist"><tbody><tr><td class="thead" colspan="2">&nbsp;</td>'
            f'<td class="thead" width="100%">{a(h(u.board(b, 1, "subject")), "Thread")} / '
            'Thread Starter</td><td class="thead" width="150" align="center" nowrap="nowrap">'
            f'{a(h(u.board(b)), "Last Post")}</td><td class="thead" align="center">'
            f'{a(h(u.board(b, 1, "replies")), "Replies")}</td><td class="thead" align="center">'
            f'Views</td></tr></tbody><tbody id="threadbits_forum_{b}">{rows}</tbody></table>'
            f'<div style="margin-top:3px">{nav}</div>'
            f'{maybe(rng, 0.5, lambda: ad_block(rng, "vb-ad"))}'
            f'<div class="smallfont">{a(h(u.feed(b)), "RSS feed for this forum")}</div>')
        crumbs = ([(u.board(bd.parent), s.boards[bd.parent].title)] if bd.parent else [])
        return self.shell(ctx, bd.title, body, crumbs, canonical=ctx.base + u.board(b, page))

    def thread_row(self, t: int) -> str:
        s, u, h = self.s, self.u, self.h
        tp = s.topics[t]
        n_pages = -(-tp.n_posts // s.posts_per_page)
        multi = ""
        if n_pages > 1:
            multi = (' <span class="smallfont" style="white-space:nowrap">(' + " ".join(
                a(h(u.topic(t, n)), str(n) if n < n_pages or n <= 3 else "Last Page")
                for n in range(1, n_pages + 1) if n <= 3 or n == n_pages) + ")</span>")
        lp = tp.first_post + tp.n_posts - 1
        status = "Closed Thread" if tp.locked else ""
        return (f'<tr><td class="alt1" id="td_threadstatusicon_{t}">{status}</td>'
                f'<td class="alt2">&nbsp;</td><td class="alt1" id="td_threadtitle_{t}"><div>'
                f'{"Sticky: " if tp.sticky else ""}<a href="{attr(h(u.topic(t)))}" '
                f'id="thread_title_{t}">{esc(tp.title)}</a>{multi}</div><div class="smallfont">'
                f"<span style=\"cursor:pointer\" onclick=\"window.open('{attr(h(u.profile(tp.author)))}'"  # noqa: E501
                f", '_self')\">{esc(s.users[tp.author].name)}</span></div></td>"
                f'<td class="alt2" title="Replies: {tp.n_posts - 1}, Views: {tp.views}"><div '
                f'class="smallfont" style="text-align:right; white-space:nowrap">'
                f"{self.when(tp.last_day, lp)}<br>by {self.user(s.post_author[lp])} "
                f'<a href="{attr(h(u.permalink(lp)))}">»</a></div></td>'
                f'<td class="alt1" align="center">{tp.n_posts - 1}</td>'
                f'<td class="alt2" align="center">{tp.views}</td></tr>')

    def topic(self, ctx: Ctx, t: int, page: int) -> str:
        s, u, h = self.s, self.u, self.h
        tp = s.topics[t]
        bd = s.boards[tp.board]
        per = s.posts_per_page
        last = -(-tp.n_posts // per)
        start = tp.first_post + (page - 1) * per
        posts = range(start, min(start + per, tp.first_post + tp.n_posts))
        nav = self.pagenav(lambda n: h(u.topic(t, n)), page, last, tp.n_posts, per)
        reply = ("<strong>Closed Thread</strong>" if tp.locked else
                 a(h(u.reply(t)), "Reply", rel="nofollow"))
        rng = rng_for(s.seed, "topic-noise", t, page)
        similar = [x for x in rng.sample(bd.topics, min(5, len(bd.topics))) if x != t]
        sim_rows = "".join(f'<tr><td class="alt1">{a(h(u.topic(x)), s.topics[x].title)}</td>'
                           f'<td class="alt2">{esc(s.users[s.topics[x].author].name)}</td></tr>'
                           for x in similar)
        body = (
            '<table class="tborder" cellpadding="3" cellspacing="0" border="0" width="100%"><tr>'
            f'<td class="smallfont">{reply}</td><td align="right">{nav}</td></tr></table>'
            f'<table {TB} id="threadtools"><tr><td class="thead">'
            f'{a(h(u.print_view(t)), "Show Printable Version", accesskey="3", rel="nofollow")}'
            f'</td></tr></table><div id="posts">'
            + "".join(self.post(p, p - tp.first_post + 1, tp.locked) for p in posts)
            + f'</div><table cellpadding="0" cellspacing="0" border="0" width="100%"><tr><td '
            f'class="smallfont">{reply}</td><td align="right">{nav}</td></tr></table>'
            + maybe(rng, 0.75, lambda: f'<br><table {TB} id="similarthreads"><tr><td class="tcat"'
                    f' colspan="2">Similar Threads</td></tr>{sim_rows}</table>')
            + f'<div class="smallfont">« {a(h(u.board(tp.board)), "Back to " + bd.title)} »</div>')
        crumbs = ([(u.board(bd.parent), s.boards[bd.parent].title)] if bd.parent else [])
        return self.shell(ctx, tp.title, body, [*crumbs, (u.board(tp.board), bd.title)],
                          canonical=ctx.base + u.topic(t, page))

    def quote(self, who: str, text: str) -> str:
        return ('<div style="margin:20px; margin-top:5px; "><div class="smallfont" style="margin-'
                'bottom:2px">Quote:</div><table cellpadding="6" cellspacing="0" border="0" '
                'width="100%"><tr><td class="alt2" style="border:1px inset"><div>Originally '
                f'Posted by <strong>{esc(who)}</strong></div><div style="font-style:italic">'
                f"{esc(text)}</div></td></tr></table></div>")

    def post(self, p: int, n: int, locked: bool) -> str:
        s, u, h = self.s, self.u, self.h
        uid = s.post_author[p]
        user = s.users[uid]
        day, minute = self.post_time(p)
        tp = s.topics[s.post_topic[p]]
        subject = (f'<div class="smallfont"><strong>{esc(tp.title)}</strong></div><hr size="1">'
                   if n == 1 else "")
        sig = self.signature(uid)
        quote = "" if locked else a(h(u.quote_post(p)), "Reply With Quote", rel="nofollow")
        loc = f"<div>Location: {esc(user.location)}</div>" if user.location else ""
        return (
            f'<div id="edit{p}" style="padding:0px 0px 6px 0px"><table id="post{p}" '
            'class="tborder" cellpadding="6" cellspacing="0" border="0" width="100%" '
            'align="center"><tr><td class="thead" style="font-weight:normal"><a name="post'
            f'{p}"></a>{self.when(day, minute)}</td><td class="thead" style="font-weight:normal" '
            f'align="right">&nbsp;#<a href="#post{p}" rel="nofollow" id="postcount{p}" '
            f'name="{n}"><strong>{n}</strong></a></td></tr><tr valign="top"><td class="alt2" '
            f'width="175"><div id="postmenu_{p}">{self.user(uid, "bigusername")}</div>'
            f'<div class="smallfont">{self.rank(uid)}</div><div class="smallfont">&nbsp;<br>'
            f"<div>Join Date: {self.s.date(user.joined - 900):%b %Y}</div>{loc}"
            f"<div>Posts: {user.posts}</div></div></td>"
            f'<td class="alt1" id="td_post_{p}">{subject}<div id="post_message_{p}">'
            f"{self.post_body(p)}</div>"
            + (f"<div>__________________<br>{sig}</div>" if sig else "")
            + f'</td></tr><tr><td class="alt2">&nbsp;</td><td class="alt1" align="right">{quote}'
            "</td></tr></table></div>")

    def print_view(self, ctx: Ctx, t: int) -> str:
        s, u = self.s, self.u
        tp = s.topics[t]
        rows = []
        for p in range(tp.first_post, tp.first_post + tp.n_posts):
            day, minute = self.post_time(p)
            rows.append(f'<table class="tborder" cellpadding="6" cellspacing="1" border="0" '
                        f'width="100%"><tr><td class="page"><div class="smallfont" style="float:'
                        f'right">{self.when(day, minute)}</div><div class="smallfont"><strong>'
                        f"{esc(s.users[s.post_author[p]].name)}</strong></div><hr>"
                        f"<div>{self.post_body(p)}</div></td></tr></table><br>")
        body = (f'<table cellpadding="0" cellspacing="0" border="0" width="100%"><tr><td><div '
                f'class="largefont"><strong>{esc(s.name)}</strong></div><div class="smallfont">'
                f'{a(ctx.base + u.topic(t), ctx.base + u.topic(t))}</div></td></tr></table><br>'
                f'<div class="largefont">{esc(tp.title)}</div><br>' + "".join(rows))
        return document(f"{s.name} - Printable Version", body, css=[self.css.lstrip("/")],
                        base=ctx.base + "/")

    def profile(self, ctx: Ctx, uid: int) -> str:
        s, u, h = self.s, self.u, self.h
        user = s.users[uid]
        about = self.about(uid)
        recent = "".join(f"<li>{a(h(u.topic(t)), s.topics[t].title)}</li>"
                         for t in user.recent[-6:])
        body = (
            f'<div id="main_userinfo" class="floatcontainer"><h1>{esc(user.name)}</h1>'
            f'<h2>{self.rank(uid)}</h2></div><div id="profile_tabs"><ul class="tab_list">'
            f'<li>{a(h(u.profile_tab(uid)), "About Me")}</li>'
            f'<li>{a(h(u.pm(uid)), "Send a private message", rel="nofollow")}</li></ul>'
            '<div id="view-aboutme" class="subsection"><dl class="list_no_decoration '
            'profilefield_list">'
            + (f"<dt>Location</dt><dd>{esc(user.location)}</dd>" if user.location else "")
            + f"<dt>Interests</dt><dd>{esc(user.interest)}</dd></dl>"
            + "".join(f"<p>{esc(p)}</p>" for p in about)
            + f'<h3>Statistics</h3><div class="smallfont">Total Posts: {user.posts} '
            f'({a(h(u.search("user", uid)), "Find all posts by " + user.name)})</div>'
            f'<h3>Recent Threads</h3><ul class="recent-threads">{recent}</ul></div></div>')
        return self.shell(ctx, f"View Profile: {user.name}", body,
                          [(u.memberlist(), "Members List")])

    def memberlist(self, ctx: Ctx, page: int) -> str:
        s, u, h = self.s, self.u, self.h
        users = sorted(s.users, key=lambda x: s.users[x].name.lower())
        if "sort=posts" in ctx.url:
            users.sort(key=lambda x: -s.users[x].posts)
        last = -(-len(users) // 30)
        shown = users[(page - 1) * 30: page * 30]
        rows = "".join(f'<tr><td class="alt1Active">{self.user(x)}</td><td class="alt2">'
                       f"{s.users[x].posts}</td></tr>" for x in shown)
        nav = self.pagenav(lambda n: h(u.memberlist(n)), page, last, len(users), 30)
        body = (f'{nav}<table {TB} id="memberlist_table"><tr><td class="thead">'
                f'{a(h(u.memberlist()), "User Name")}</td><td class="thead">'
                f'{a(h(u.memberlist(sort=True)), "Posts")}</td></tr>{rows}</table>{nav}')
        return self.shell(ctx, "Members List", body, [])

    def login(self, ctx: Ctx) -> str:
        title = "Register" if "register" in ctx.url else "Log in"
        body = (f'<table {TB}><tr><td class="tcat">{esc(self.s.name)} Message</td></tr><tr>'
                '<td class="panelsurround" align="center"><div class="panel"><div align="left">'
                "<p>You are not logged in or you do not have permission to access this page. "
                "This could be due to one of several reasons:</p><ol><li>You are not logged in. "
                "Fill in the form at the bottom of this page and try again.</li><li>You may not "
                "have sufficient privileges to access this page.</li></ol>"
                '<form action="login.php?do=login" method="post"><fieldset class="fieldset">'
                '<legend>Log in</legend><input type="text" class="bginput" name='
                '"vb_login_username" size="50"><input type="password" class="bginput" name='
                '"vb_login_password" size="50"><input type="submit" class="button" value='
                f'"Log in"></fieldset></form></div></div></td></tr></table>')
        return self.shell(ctx, title, body, [], robots="noindex")

    def faq(self, ctx: Ctx) -> str:
        items = ("Why should I register?", "How do I use the search feature?",
                 "Can I get email notifications of new posts?", "What are signatures?")
        body = (f'<table {TB}><tr><td class="tcat">Frequently Asked Questions</td></tr>'
                + "".join(f'<tr><td class="alt1"><strong>{esc(q)}</strong><div class="smallfont">'
                          f"{esc(self.s.tagline)}</div></td></tr>" for q in items) + "</table>")
        return self.shell(ctx, "FAQ", body, [])

    def soft404(self, ctx: Ctx) -> str:
        body = ('<div class="page"><table class="tborder" cellpadding="6" width="100%"><tr><td '
                'class="tcat">Page not found</td></tr><tr><td class="alt1">The article you '
                'requested could not be found. <a href="news/">Latest news</a> · '
                f'<a href="{attr(ctx.base)}/forum.php">Forum home</a></td></tr></table></div>')
        return document(f"{self.s.name} - Articles", body, css=[ctx.base + self.css])
