"""SOUrCe (Xu, Gao & Callan 2018) as two crawl strategies: `source-ucc` (§4.4.1) and
`source-target` (§4.4.2), on top of the learning core in `archiver.learning`.

Learning (§4.1): the loop fetches what `SiteSampler` asks for (one random URL per unseen
(page, Apath) group); every other link is queued in a low "deferred" band so that nothing
is lost. `fit` clusters the sample and builds the navigation table (§4.2–4.3). Harvest
(§4.4): each page is classified into a cluster, and each link scored by eq. 12.

Knowing when to stop: a link whose *expected* value is below `low_value` of the best
cluster's value (Balance left out, so that the verdict does not depend on crawl order) is
not followed; it is recorded as skipped with reason ``strategy:low-value:<cluster>`` and its
predicted cluster, so the report lists what was left unfetched, by cluster, with examples.
A kind of link whose recent destinations brought nothing new (no new text, no new link
that led to new text) is skipped as ``strategy:exhausted:<cluster>`` (an extension after
ACEBot's redundancy test, parameter ``exhaustion``; see `archiver.learning.discovery`). On
a real 1,000-post WordPress, source-ucc went on fetching tag, date, category and author
archives once every post was known (550 requests); with it the crawl stops after 1,292
requests instead of 1,704. The cluster the frontier ranks first, or the target's, is never
judged exhausted, except through links to another view of the page they are on (its own
path and query, with arguments added) of a kind that never brought anything
(`_barren_view`). The other views of a page that is not content (an outlier, or marked
noindex), its links to its own path with another query, are one kind whatever their Apath
(`_kind`): a real MediaWiki's Special:NewPages links its next pages, sizes and filters
from six Apaths, and per Apath none reached `exhaustion` misses before source-ucc had
fetched 72 of its views (979 -> 907 requests, recall unchanged). Kinds of link from one
cluster whose sampled links led mostly to one cluster form a family (`_family`, parameter
``families``), which also shares a run of misses (`archiver.learning.discovery`): a real
WordPress's archive widgets, page numbers and previous-page links stopped together (579 ->
541 requests, recall 1.000 unchanged), the zoo blog's too (1,133 -> 1,077). Off by
default, ``listing_exhaustion`` judges a listing's own pagination per listing (`_kind`):
it puts completeness before cost. A page waits for the new links it found only when they
rank at least as high as itself (`_rank_now`): a real Askbot's lists each link a feedback
form of their own, ranked last, and at 1,000 questions source-ucc waited on the forms and
fetched 2,700 lists after the last question was known (4,128 -> 1,473 requests, VR 0.261
-> 0.733, recall 1.000).

Live outliers (an extension of §4.2, parameter ``live_outliers``, crawling for UCC,
`archiver.learning.liveoutliers`): a trusted sample's outliers are worth 0, but an outlier
that is indexable, no duplicate, brought new text and has a URL pattern of the content (or
of a content page's companion pages, a talk tab's) is *live*: a (cluster, Apath) pair's
outlier destinations are worth, in the verdict, the best cluster's value in the share that
were live. On a real DokuWiki the namespace start pages, on a real MediaWiki the talk pages
were outliers, and skipped without it. A harvested page of a cluster under the line counts
toward its URL pattern's proof as an outlier does (parameter ``live_clusters``): a page
type the sample met a few times can form a cluster the verdict calls low-value (a real
Redmine's forum topics, at one draw).

Listings of the content (an extension, parameter ``hub_share``, crawling for UCC): eq. 11
values a cluster by its own pages, so a forum's topic list, whose pages are all alike,
is worth 0.013 of the topics on a real FlaskBB and its pagination was skipped; the crawl
then found the topics through users' post lists and the posts' permalinks (a redirect,
then the topic page). A cluster that sends at least ``hub_share`` (1/3) of its sampled
links to the content cluster P and is low-value by itself is valued, in the verdict, at
that share of P's value, and in the frontier's order at L/(L+1) of P's Score, L being the
links to P a page of it holds on average in the sample: fetching the page and the L pages
it lists costs L + 1 requests for L pages of content. Exhaustion stops its links once they
bring nothing new. Real FlaskBB, with ``redirect_cost``: source-ucc 993 -> 781 requests,
recall 0.996 -> 1.000, 95% of the UCC after 904 -> 734 requests. Crawling for a target,
Score(C) = Info(C) keeps the hub part of HITS and the floor is not used; ``hub_share`` is
0 there by default (1/3 took the zoo forum's detail harvest rate 0.980 -> 0.767).
The content's links are counted into every cluster of its page type (parameter
``page_family``, `archiver.learning.urlshape.page_family`: the clusters most of whose
sampled URLs have the form most of P's have, ``forum/*/topic/*``), not into P alone: one
template can fall in several clusters. On a real django-machina the topics fell in five
(one post against fifteen, ``?post=`` views against plain URLs); a forum's list sent 0.18
of its links to P and 0.44 to the five, its pager links were skipped as low-value, and
source-ucc reached the topics through the members' post lists: 1,097 requests, 95% of
the UCC after 955. Counted into the five, the lists are a listing of the content: 786
requests, 95% after 596 (1.53 of the floor; recall 1.000 both). A cluster the site marks
noindex (a wiki's revision lists, forms and index views) still counts into P alone: every
page of a wiki links pages, and a wiki's pages fall in several clusters by what they hold,
so counted into them a revision list sent a third of its links to the content and was
followed as a listing (a DokuWiki-like test wiki, tests/test_source_query_modes.py: 235 ->
249 requests; the real DokuWiki 589 -> 603).
A page of such a listing too short to judge by its text (under `MIN_SHINGLES` shingles:
`archiver.learning.discovery.News`) is worth the pages it lists (parameter
``listings_by_links``): exhaustion and `Worth` count it as new only through the new pages
it found. The zoo's 500px-like site values a member's contacts page as a listing of
profiles, and each, a list of names in links with no shingle, counted as new: source-ucc
fetched all 302 contacts pages, 289 of them in a row after every member was known. With
it, 33, and the crawl stops after 2,737 requests instead of 3,529 (95% of the UCC after
2,495 instead of 2,752). A listing long enough to judge keeps its text: a Q&A site's
question lists show excerpts of questions not yet fetched, and judged by their links
alone their kinds ran out before every question was found (tests/test_source_listing_space.py).
A page with no text at all (no shingle and no new word) is likewise new only through the
new pages it found, whatever its cluster, except in the content cluster, where a photo
without a caption is still content (parameter ``empty_by_links``, `_empty`). On the same
site a member's galleries, thumbnails without captions, sit in one cluster with the
photostreams, tag lists and explore pages, which is not valued as a listing; each gallery
counted as new by `News.novel`'s no-shingle clause, so their kind of link was never
exhausted, and source-ucc fetched 520 of them in a row once every photo they showed was
known, while the photos still unknown waited behind them. With it (and ``split_kinds``)
the crawl stops after 2,234 requests instead of 2,738, 95% of the UCC entities after
1,964 instead of 2,491, and within the budget (25% of the site's URLs) VR 0.609 -> 0.788
and recall 0.719 -> 0.935 (bfs: 0.599 and 0.722). Until 2026-11-27 it was off: on two
other zoo seeds the Flickr-like site's album pages (thumbnails, no text) were misses, and
a profile's album list and its "following" list are one class-less Apath, so twenty
albums exhausted the kind of link to members as well; the crawl stopped without 81 and 74
of the members (5% of the UCC). Exhaustion now judges such a pair per cluster its URL
patterns lead to (`_kind`), and every member is archived on the three seeds.

Hubs per page (an extension of eq. 6–8, parameter ``hub_per_page``, on crawling for a
target): eq. 6 sums the links of all of a cluster's sampled pages, so a page type the
sample met four times is a weak hub beside one it met forty times, whatever each page
holds. Crawling for a target, HITS runs over A with each row divided by its cluster's
sampled pages (`LinkScorer`, ``pages``): a hub is valued by what one of its pages links.
On a real FlaskBB at 1,500 topics a near tie in the choice of eps made a forum's topic
list a cluster of 4 sampled pages, hub 0.05 against 0.3 for the users' post lists (36
pages); its pagination was skipped as low-value and source-target's recall was 0.524 for
1,602 requests. Per page the forum list is the best hub (0.7): recall 1.000 for 2,972
requests, and 1.000 for 2,946 on the other cut, where eq. 6 took 2,692 (users' lists, a
few topics a page each, are read further). FlaskBB 300 topics: recall 0.895 -> 0.986 (668
-> 806 requests); Askbot 300 questions 0.937 -> 1.000 (598 -> 643), 1,000 questions 0.981
-> 1.000 (1,347 -> 1,409). The zoo's detail and profile targets average the same harvest
rate (0.876); its media site's list target drops (0.554 -> 0.048: after the example's
explore pages the crawl goes to photos, not to other kinds of list). Off crawling for
UCC, where session 4 measured per-page hubs in the order and dropped them (zoo Q&A VR
0.733 -> 0.657).

Redirect cost and files (extensions of eq. 12, parameters ``redirect_cost`` and ``files``,
`archiver.learning.hops`): a link's score is divided by the requests per page its (cluster,
Apath) pair has cost (a redirect costs two), and links of a URL kind most of whose requests
gave files (an image, a document), or of a kind never followed whose pair's did, are
followed at `FILE_PRIORITY`, after every link to a page.

Alternates (an extension, parameter ``alternates``): a page may declare itself in other
formats, ``<link rel="alternate">`` in its head without ``hreflang`` (`Page.alternates`),
and link the same URLs in its body. These are the page again (a feed, a CSV or plain-text
export, the wiki source or edit form), not pages the navigation table can learn: a link of
the page to one of its own alternates is skipped, while sampling and harvesting, as
``strategy:alternate:<c>`` (c: the page's cluster). On a real Trac every ticket links its
RSS, CSV and TSV exports, every wiki page its plain text and every query its three: the
sample spent 222 of its requests on them, and source-ucc, which counts a CSV as a file
(`archiver.learning.hops`), went on to 1,036 exports after the content
(`benchmarks/results/realsite-trac.md`).

Duplicate views (an extension, `archiver.learning.duplicates`): eq. 12 cannot tell a link to
a page from a link to another view of it when both lead to the same cluster. Each link score
is multiplied by the share of new pages its (cluster, Apath) pair has been giving — pages
whose ``rel=canonical`` names another URL, that repeat the title, text and links of one
already fetched (`archiver.page.page_digest`: per-request tokens do not count), or (with
``near_duplicates``, off by default) which are near-duplicates of one (same title, nearly
the same words outside links; see `archiver.learning.neardup`) count as duplicates — and by
a factor for pages marked ``noindex`` by their robots meta or X-Robots-Tag (learned per pair
and per URL kind of the destination), learned on the sample and updated while harvesting. A
link whose value falls below `low_value` only because of these factors is skipped as
``strategy:duplicate-views:<c>``.

Self views (an extension, `archiver.learning.selfviews`, parameter ``self_views``): the
duplicate rates say how often a kind of link led to a known page, not to which one. A kind
of link whose fetched links led back to the very page holding them (a forum post's
permalink on its topic page, a Q&A answer's share link on its question page) is learned as
a self view; its links on a fetched page are then known views of that page, skipped as
``strategy:self-view:<cluster>`` there and wherever else the crawl finds them (a user's
post list links the same permalinks), and dropped when popped if queued before. On a real
FlaskBB, 567 of source-ucc's 759 permalink requests went to topic pages already fetched.

Content share (an extension of eq. 11, parameter ``content``): crawling for UCC, Score(C) =
Info(C) · DSim(C) · Balance(C) · Content(C), where Content(C) = min(1, s(C) / 0.5) and s(C)
is the share of the visible text of C's sampled pages that is not link text. The paper
takes the clusters of largest DSim to be the UCC; on listing-heavy sites a listing cluster
has the larger DSim (on the zoo's Flickr-like site, thumbnail lists 0.416 against photo
pages 0.354) and a high hub score, and eq. 11 spent 803 of its 1,928 requests on list pages
while 485 known photo links were still queued at the end. Listings are mostly link text,
content pages mostly not, so the factor fetches known content links first (media: valid
ratio 0.496 -> 0.725, recall 0.581 -> 0.857). It orders the frontier only: the low-value
verdict leaves it out, so listings stay worth following and are fetched once the content
links run out (they are how new content is found). See `LinkScorer`.

Page types (an extension of eq. 7–11, parameter ``type_scores``, crawling for UCC): the
clustering splits one template by what its pages hold (a blog's posts with and without a
list or a picture), and eq. 11 then values each part apart: each gets a share of the
type's hub and authority, and DSim measures only the spread within it. On a real Pelican
blog the sample's 38 posts fell in four clusters, every post links its tags, category
and author, and the tag lists ranked first (0.094 against 0.087 for the best part of the
posts): 80 listings were fetched after the sample before the first post. Clusters of one
URL form (`page_family`) that one kind of sampled link led to alike
(`NavigationTable.co_destinations`) are scored as one page type (`page_types`,
`LinkScorer` ``types``): one HITS node, DSim over all its sampled pages, one share of
Balance. Pelican source-ucc: 95% of the posts after 373 requests instead of 451 (1.30 of
the floor instead of 1.57); Puput 592 -> 486 requests, 95% after 1.43 instead of 1.98. By
URL form alone, a user's two tabs (FlaskBB's ``/user/NAME/posts`` and ``.../topics``)
joined (95% after 1.57 instead of 1.50) and so did Roundup's issues and messages (641 ->
813 requests); a cluster the site marks noindex stays a type of its own, or a DokuWiki's
links to pages not written yet were followed as pages (598 -> 635 requests).

Randomized HITS (a second opinion for the verdict, parameter ``verdict_reset``, default
0.1; in the order too, parameter ``hits_reset``, default 0: off): eq. 7–8's HITS gives a
cluster outside the community that dominates its principal eigenvector no authority. On a
real Trac at 1,500 tickets the ticket cluster took authority 0.994 and the
project's wiki pages, linked only from the home page, the wiki's indexes and each other,
0.000: Score(C) 0.2% of the tickets', under the low-value line, and source-ucc stopped with
12 of the 375 wiki pages (recall 0.806). ``hits_reset`` ε > 0 takes Ng, Zheng & Jordan's
randomized HITS (`archiver.learning.navigation.hits`): with ε = 0.1 that crawl archives every
page (recall 1.000, 95% after 2,142 requests, 1.20 of the floor), and at 300 tickets 95%
after 612 instead of 675. It is off because it moves every cluster's value on every site:
zoo forum v1 VR at the budget 0.854 -> 0.690 and recall 0.788 -> 0.646, zoo wiki v1 recall
0.751 -> 0.693, zoo media v0 recall 0.884 -> 0.852; real FlaskBB 95% after 754 instead of
734, real Askbot 567 instead of 542 (`benchmarks/results/realsite-trac.md`). What lost the
wiki was the verdict, not the order, so the verdict asks randomized HITS as well
(``verdict_reset``, ε = 0.1, crawling for UCC): a link is low-value only when its pair's
value is under the line by Kleinberg's Info·DSim and by randomized HITS's
(`archiver.learning.navigation.walk_values`); the order stays eq. 12's. The 1,500-ticket
crawl then archives every wiki page after the tickets (recall 1.000, 2,340 requests, 95%
after 2,242, 1.26 of the floor); at 300 tickets the order is unchanged and the crawl goes on
51 requests longer before it stops (888 instead of 837). Elsewhere, against the run
before it: zoo media v0 stops after 3,418 requests instead of 3,102 (95% of the entities
after 2,770 instead of 2,743), zoo wiki v1 recall at the budget 0.751 -> 0.747, real
MediaWiki one request more; every other zoo crawl and real site identical. The outlier
pages are one more node of that walk (parameter ``outlier_hubs``, default true,
`LinkScorer.walk_values`): a hub whose links are theirs and whose own value is dropped.
Eq. 6 leaves their links out, and a site's one ticket report or forum index is an outlier
(one page of its type) whose links are the only ones to the pages it lists: on a real
Fossil the walk valued the tickets and the wiki pages, reached from the timeline now and
then and from the report and the wiki index always, at 0.031 and 0.038 of the check-ins,
and they were skipped as low-value; with the report's links, 0.091 and 0.088.
Fossil's source-ucc recall at 2,000 requests 0.292 -> 0.310 (the order is eq. 12's, and
the check-ins still come first); at 5,000 it stopped by itself after 3,652 requests with
recall 0.680, against 3,032 and 0.292, its tickets and wiki pages skipped for good. On the
22 other real sites, one changed beyond the drift: Trac's source-ucc, where links to the
built-in help pages (outliers) were skipped as duplicate views or exhausted instead of as
low-value, and the crawl parted after 633 identical fetches (737 -> 724 requests, 95% of
the UCC after 699 instead of 682); every zoo crawl identical (session 52).

Worth (an extension of eq. 11, parameter ``worth``, `archiver.learning.discovery.Worth`):
eq. 11 values a cluster by its sampled pages and never by what its pages bring once
known. Crawling for UCC, Score(C) is also multiplied by min(1, w(C) / 0.5), where the
worth w(C) is the mean, over C's harvested pages that are neither duplicate views nor
noindex, of 1 for a page that brought new text and y/(y+1) for one that did not, y being
the new links it found to clusters whose pages still bring text (a prior of 1 weighs as
four pages). A cluster at least half of whose pages bring something keeps eq. 11's value:
text is a proxy, and the zoo Q&A site's profiles (a name and titles already seen) are
content; multiplied by w(C) itself they fell behind the questions' duplicate views (95% of
the UCC after 1,416 requests instead of 1,066). It orders the frontier only. In
both modes a page that found new links only to clusters whose pages bring no text of their
own is settled at once as a miss for exhaustion instead of waiting for them, and the
protected cluster crawling for UCC is only protected while its pages bring text. On a real
Askbot the question and tag lists carry dates and counts outside links (content share
0.95) and are the hub of HITS, so eq. 11 ranked them above the questions; every tag link on
a tag list adds a tag (``tags:a,b``), each list comes in 16 sorts and scopes, and each new
list found more, so the lists never settled: 873 of source-ucc's 1,500 requests were tag
lists and the questions came last (VR 0.233). With worth (and short pages judged by their
words, `archiver.learning.discovery.News`): 946 requests, stopped by itself, VR 0.401, 95%
of the UCC after 584 requests instead of 1,465; source-target 1,500 -> 637 requests, VR
0.227 -> 0.554, recall 0.937 both. Zoo qa 2,133 -> 1,721 requests (VR 0.616 -> 0.796, 95%
after 1,066 instead of 1,301), zoo media 3,408 -> 3,147, real WordPress 506 -> 487; the
other zoo sites and real sites within 7 requests (benchmarks/results/source-zoo-summary.md,
"Session 20"). The queue is re-ranked every `rescore_every` requests (counted in pages until
2026-11-27: on the zoo's vBulletin-like forum a run of 376 redirects, 314 of them to
threads already fetched, was never re-ranked below the member profiles), and worth can fall faster:
when a cluster's factor falls below half, or rises above twice, what it was when it last did
(parameter ``worth_rescore``), the queue is re-ranked at once (`rescore_due`). On a real
Trac the timeline, a hub that eq. 11 ranks above the project's wiki pages, kept its rank for
some 70 pages after the last ticket was known, none bringing anything, until the next
periodic re-ranking; with it, 95% of the UCC after 675 requests instead of 701. On the zoo's
blog v1 source-ucc had stopped before 95% of the entities (recall at the budget 0.921); now
it reaches them after 1,086 requests (recall 1.000, 1,213 requests instead of 1,132); real
Askbot 95% after 542 instead of 556. The queue is also re-ranked at once when more than
half of the last `WASTE_WINDOW` (32) harvest requests gave nothing new (parameter
``waste_rescore``): a redirect to a URL already fetched, a client error, a duplicate view
(`_duplicate_seen`). What made them waste is then known (the pairs' duplicate factors, the
harvest evidence), and the ranking they were fetched by is stale. A real Misago's thread
lists link every thread by its title and by a "last activity" link that redirects to the
thread's last page; at one draw those links kept the rank the model gave them at the end
of the sample, and 190 of them were fetched, nearly all redirects to pages already
fetched, before the periodic re-ranking 200 requests later. With it the queue is
re-ranked once such a run fills most of the window: 95% of the UCC after 530 requests
instead of 675 (1.35 of the floor instead of 1.72), and the crawl stops by itself after
569 instead of 715. Over the 22 other real sites at three draws, and the full-size zoo,
the crawls are the same or within 24 requests, but Fossil's, which vary from run to run
either way (benchmarks/results/waste-rescore.md).

Re-ranking one URL at a time (an extension, parameter ``requeue_share``, default 0: off):
between two periodic re-rankings a queued URL keeps the priority it was given, though what
the harvest learns since (a pair's duplicate views, harvest evidence) may have cut it. With
a share, the loop judges a popped URL again (`archiver.crawl`); one whose priority has
fallen below that share of the one it was queued at goes back at the new one, not fetched,
and the next best is popped. This is a looser form of Minoux's (1978) lazy greedy, which
recomputes the top score and takes it only if it still beats the next stored one; here
only a fall below the share sends it back, and small drifts wait for the periodic
re-ranking (Balance in every popped URL's order cost the small zoo forum valid ratio 0.777
-> 0.723). A URL queued at or below 0 (a file) is fetched at its turn. On a real Misago
(draw 0) the sample saw the threads' "last activity" links (`/t/SLUG/ID/last/`) redirect
to threads not yet fetched; in the harvest every thread came first by its title, and the
last-activity links, still at the sample's value until the re-ranking at request 643, were
fetched 190 times between requests 442 and 715, most of them redirects to threads already
fetched; the thread pages' own pagination waited below them. At 0.5, once a few had
redirected to threads already fetched the rest went back below the pagination: 44 were
fetched in the harvest instead of 190, source-ucc 715 -> 569 requests, 95% of the UCC after
1.72 -> 1.36 of the floor. It is off because it acts sooner on what the model believes,
right or wrong: on all 23 real sites at three draws the mean of the median ratios moved
1.477 -> 1.478 (source-ucc) and 1.473 -> 1.467 (source-target); a real Redmine's forum
topics, which the harvest evidence wrongly predicts to be outliers, were put back and then
skipped as low-value (draw 2: 39 instead of 9 skipped, recall 0.984 -> 0.944), and the zoo
Q&A and media sites lost valid ratio at the budget (0.652 -> 0.634, 0.797 -> 0.779)
(benchmarks/results/requeue-share.md).

Target URL shape (an extension, `archiver.learning.urlshape`): when the example's cluster
also holds pages of other types (WordPress renders author, category and date archives with
one template), a link into that cluster whose URL does not have the example's shape is
valued as a hub of the cluster only, (1 − α)·h(T), not as a target. Used only when at least
minPts sampled pages of the cluster have the shape and at least minPts have another path
(the same path with another query, ``?answertab=oldest``, is a view of the same pages, not
another type); it orders the frontier and leaves the stop verdict alone.

The target's page type (an extension of §4.4.2, parameter ``target_family``, crawling for a
target): the paper fixes the authority of the example's cluster at 1, but one template can
fall in several clusters (by length, by an optional block). The authority is held at 1 for
every cluster of the example's page type, the clusters most of whose sampled URLs have the
URL form most of the example cluster's have (`archiver.learning.urlshape.page_family`, as
for ``page_family`` crawling for UCC), and the URL shape above is learned over all of
them; a wiki's namespaced page (``Talk:X``) does not have an article's shape. On a real
Puput blog the entries fell in three clusters (44, 5 and 11 sampled pages): source-target
724 -> 679 requests, 95% of the entries after 508 -> 479 (one more entry never found,
recall 0.997 -> 0.993: a home pagination exhausted early, as before). On a real MediaWiki
the example's cluster held 14 sampled articles and another 27 more with their talk pages:
recall of the UCC 0.916 -> 1.000, 95% of the articles found after 596 -> 562 requests (719
-> 775 requests in all: the talk pages of that cluster are fetched after the articles).
Where the URLs keep a section's name (a hierarchical wiki: ``/garden/x/``, ``/cycling/y/``)
no form is most of a cluster's, so the page type also holds the clusters one kind of
sampled link (a (cluster, Apath) pair and a URL pattern) led to with the example's (and,
crawling for UCC, the content's page type those the content's cluster's led to; parameter
``link_family``, `archiver.learning.navigation.NavigationTable.co_destinations`).
On a real django-wiki the articles fell in four clusters (by a list or a table of contents
in their text): recall of the articles 0.943 -> 0.957, for 1,023 -> 1,222 requests. On a
real Misago the threads of one page and of several, apart in the sample, joined (560 ->
573 requests, all thread pages both), and a django-qa's questions. On the eighteen real
sites no kind of sampled link led to two page types (MoinMoin's help pages joined its
articles: one template, the help shipped by MoinMoin, so not UCC by the benchmark's truth).

URL patterns (an extension of eq. 5, parameter ``url_patterns``, see
`archiver.learning.navigation.NavigationTable`): a link whose (cluster, Apath) pair led to
several clusters in the sample, and whose URL pattern was sampled there, is scored with
that pattern's row. Like Content, this orders the frontier only: the low-value verdict uses
the pair's row. Otherwise the split turns the verdict against clusters that HITS values
little although they are content: on the zoo wiki, the talk tab shares its Apath with the
article, edit and history tabs, and the talk cluster's Info is 0.005 (only article tabs link
to it), so with the split as verdict 430 talk pages went unfetched (talk pages fetched 197
-> 16, recall 0.881 -> 0.714).

Harvest evidence (an extension of eq. 5, parameter ``evidence``, `archiver.learning.evidence`):
each harvested page is one more observed destination of the link that found it, and a
(cluster, Apath) pair's row becomes a posterior of the sample and the harvest. Both the
order and the verdict use the corrected rows; the loop re-judges a URL when it is popped
(see `archiver.crawl`), so a correction applies to the queued links at once.
"""

from __future__ import annotations

import logging
import re
import zlib
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from archiver.errors import ProfileError
from archiver.learning.clustering import TYPE_SHARE
from archiver.learning.duplicates import DuplicateRates
from archiver.learning.dust import Dust
from archiver.learning.evidence import EVIDENCE_PRIOR, HarvestEvidence
from archiver.learning.hops import HopCounts
from archiver.learning.liveoutliers import LiveOutliers
from archiver.learning.neardup import NearDuplicates
from archiver.learning.selfviews import SelfViews, same_path_queries
from archiver.learning.urlshape import UrlPatterns, UrlShape, learn_shape, page_family
from archiver.page import Link
from archiver.strategies.base import ClusterInfo, Decision, PageInfo, Queued, Strategy, Visit
from archiver.urls import path_of

if TYPE_CHECKING:
    import numpy as np

    from archiver.learning.discovery import News, Shingles, Worth
    from archiver.learning.model import SourceModel
    from archiver.learning.navigation import LinkScorer
    from archiver.learning.sampling import SiteSampler
    from archiver.profile import SiteProfile

logger = logging.getLogger(__name__)

SAMPLE_BAND = 1000.0   # sample requests (and seeds) pop before anything else while learning
DEFERRED = -1.0        # links not chosen for the sample wait below every sample request
# Expected value of a link's destination (eq. 12 without Balance) relative to the best
# cluster's, below which the link is not followed. 0.05: a link must be worth at least a
# twentieth of a link known to lead to the best cluster. Measured on the zoo (see
# tests/test_source_strategy.py): links to login walls, print views and outliers score
# exactly 0, links to listings and UCC 0.1–1, so the verdict is not sensitive in 0.01–0.1.
LOW_VALUE = 0.05
# Parameter ``hub_share`` (crawling for UCC; 0, off, crawling for a target): a cluster at
# least this share of whose sampled links lead to the protected cluster (the content, or
# the target) is never low-value, only exhausted, and crawling for UCC a low-value one is
# ranked as a listing of the content (module docstring, `_use`). On a real FlaskBB a
# forum's topic list sends 0.38 of its links to topics and scores 0.013 of the topics'
# value (its pages are alike: DSim 0.018); on a real MediaWiki no cluster sends more than
# 0.27 of its links to the content cluster. Crawling for a target, 1/3 took FlaskBB's
# source-target recall 0.895 -> 0.994 for 1,175 requests instead of 730 and the zoo
# forum's detail harvest rate 0.980 -> 0.767 (benchmarks/results/source-zoo-summary.md).
HUB_SHARE = 1 / 3
# The mark of a kind of link whose URL's path (no query, no fragment) another fetched URL
# already had: another view of a page fetched (parameter ``path_views``, `_kind`)
VIEW_MARK = " ^view"
ANY_HOLDER = -3      # the holder of a destination family's key (`_destination_family`)
# Pages between two re-rankings of the queue as Balance changes (§4.4.1: "the uncrawled URL
# with the highest score in the queue is selected next"). Balance moves by at most 1/n per
# page after n pages, so re-ranking every 200 pages keeps priorities within a few percent
# while costing one pass over the queued rows.
RESCORE_EVERY = 200
# Factor by which a cluster's worth must move before the queue is re-ranked at once
# (`SourceStrategy.rescore_due`)
WORTH_MOVE = 2.0
# The queue is re-ranked at once when more than half of the last this many harvest requests
# gave nothing new (parameter ``waste_rescore``; module docstring, "Worth")
WASTE_WINDOW = 32
REQUEUE_SHARE = 0.0    # `requeue_share` (off; module docstring, "Re-ranking one URL at a time")
# ε of the randomized HITS that must also find a page type low-value before it is skipped
# (parameter ``verdict_reset``; module docstring, "Randomized HITS")
VERDICT_RESET = 0.1
# Machine-readable views of a site's pages (plus every XML and JSON type, see
# `is_machine_readable`): JSON and JSONP API output, scripts and style sheets reached by a link
MACHINE_TYPES = frozenset({"application/json", "text/json", "application/javascript",
                           "text/javascript", "application/x-javascript", "text/css"})
TRUSTED_SAMPLE = 200   # sampled pages from which outlier destinations count as worthless
# A link worth the threshold itself (an "unknown" destination) is followed: the harvest
# evidence's posterior rows sum to 1 only up to rounding
VALUE_TOLERANCE = 1e-9
# Sampled pages of the target cluster that must have the example's URL shape, and that
# must have another path, before the shape is trusted to split the cluster (minPts, as for
# a cluster): the cluster then mixes page types.
MIN_SHAPE_PAGES = 4
# Priority of a link to a file (`HopCounts.files`): after every followed link to a page,
# whose eq. 12 score is positive, or 0 for an outlier credited as live. Until 2026-11 files
# were at 0 too, tied with those outliers: a real Redmine fetched 50 CSV and PDF exports of
# sorted issue lists before its last 12 forum topics.
FILE_PRIORITY = -0.5
FILE_REASON = "source:file"
ALTERNATE_REASON = "alternate"   # a link to the holder page in another format
# Largest relative raise of a link's priority by the hash of its URL (`_spread`): far
# below any difference eq. 12 makes between kinds of link, enough to order equal ones.
ORDER_SPREAD = 1e-6


class SourceStrategy(Strategy):
    """Shared machinery of the two SOUrCe modes; see the module docstring.

    Profile keys: ``strategy.sample_size`` (upper bound on |D|; the sampler stops early on
    saturation), ``strategy.params``: ``low_value`` (default 0.05), ``rescore_every``
    (200), ``alpha`` (eq. 9; default 0.5 for UCC, 0.8 for target, §5.3–5.4),
    ``random_state`` (0), ``min_pages`` (min(200, sample_size)), ``self_links`` (keep A_ii
    in HITS; default false for UCC, true for target, see `LinkScorer`), ``duplicates``
    (weigh links by their pair's share of new pages; default true, see the module docstring),
    ``content`` (crawling for UCC, multiply Score(C) by the cluster's content share;
    default true, see the module docstring; no effect crawling for a target),
    ``url_shape`` (target mode: prefer the example's URL shape inside its cluster; default
    true, see the module docstring), ``url_patterns`` (split mixed (cluster, Apath) pairs
    of the navigation table by the URL pattern of the link; default true, see
    `archiver.learning.navigation.NavigationTable`), ``evidence`` (correct the navigation
    table with the clusters of harvested pages; default true, see the module docstring),
    ``balance`` (crawling for UCC, multiply Score(C) by eq. 10's Balance; default false
    since 2026-11: Balance makes the crawl alternate between clusters, so a blog fetched tag
    and date listings while known posts waited; off, a real 1,000-post WordPress reached 95%
    of its posts after 1,109 requests instead of 1,654, and full-size zoo VR and recall were
    equal or better on every family; the paper's diversity (entropy) is what it costs, see
    benchmarks/results/source-zoo-summary.md), ``exhaustion`` (settled destinations in a
    row that brought nothing new, after which a kind of link is skipped; default 20, 0
    turns it off; see the module docstring), ``near_duplicates`` (count near-duplicate
    views as duplicate views; default false: on the
    zoo qa site it takes R_dup 16.2% -> 9.5% and requests to 95% of the UCC 1,318 -> 1,079,
    but the paper's VR, which counts duplicate views of UCC as UCC, 0.595 -> 0.497, and F
    below bfs's), ``self_views`` (skip links of a kind that leads back to the page holding
    it, a forum post's permalink on its topic page, wherever the crawl finds them; default
    true; see the module docstring), ``dust`` (skip another URL of a fetched page by the
    rewrite rules learned from same-page fetches; default true; see
    `archiver.learning.dust`), ``listing_exhaustion`` (judge a listing's own pagination per
    listing; default false; see `_kind`), ``hub_share`` (share of a cluster's links into
    the protected cluster from which it is valued as a listing of it; default 1/3 crawling
    for UCC, 0 (off) crawling for a target; see the module docstring),
    ``listings_by_links`` (a page of such a listing too short to judge by its text counts
    as new only through the new pages it found; default true; same place),
    ``empty_by_links`` (so does a page with no text at all outside the content cluster;
    default true; same place), ``block_shingles`` (new text is judged by word shingles
    within a page's blocks, across their emphases, not within each text node;
    default true since session 45, measured in benchmarks/results/source-zoo-summary.md,
    "Session 44" and "Session 45"; see `archiver.learning.discovery.Shingles.judge`),
    ``split_kinds`` (exhaustion judges a pair the sample split by URL pattern per
    destination cluster; default true; see `_kind`), ``redirect_cost``
    (divide a link's score by the requests per page its pair has cost; default true; see
    `archiver.learning.hops`), ``files`` (follow links of a pair that led mostly to files
    after every link to a page; default true; same place), ``alternates`` (skip a
    page's links to the formats its head declares, rel=alternate; default true; same
    place), ``live_outliers``
    (crawling for UCC, value a pair's outlier destinations by the share that were live
    pages with a URL pattern of the content; default true; see the module docstring),
    ``live_views`` (another URL of a page found live, the same digest, is live too;
    default true; see `archiver.learning.liveoutliers`), ``live_clusters`` (a harvested
    page of a cluster under the low-value line counts toward its URL pattern's proof as an
    outlier does; default true; same place), ``families`` (kinds of link
    from one cluster leading mostly to one cluster also share a run of misses; default
    true; see
    `archiver.learning.discovery`), ``family_runs`` (a page is not credited by the new
    links it found of its own link's family, as it is not by its own kind's; default
    true; see `_same_run`), ``destination_families`` (so do all kinds leading
    mostly to one cluster from other clusters; default true; same place),
    ``noindex_kinds`` (the sampler stops choosing URLs of a kind whose first 4 sampled
    pages were marked noindex and linked no more than a few
    new pages; default true; see `archiver.learning.sampling.SiteSampler`), ``query_modes``
    (the sampler's kinds also tell apart the modes of a query, ``do=login`` from
    ``do=index``; default true; same place), ``walls`` (the sampler stops choosing URLs of
    a kind whose first 4 sampled URLs all redirected to one path and structure, a login
    wall; default true; same place), ``login_kinds`` (the sampler stops choosing URLs of a
    kind whose first 4 sampled pages all asked for a password, a sign-in form; default
    true; same place), ``widen`` (a sample that runs out of requests before
    ``min_pages`` draws from the groups it gave nothing for holding a known URL, URLs of
    kinds it knows fewer than 4 of; default true; same place), ``menu_sections`` (and,
    while it has fewer than 16 pages, from a held menu one URL under a first path segment
    no known URL has, whatever its kind; default true; same place), ``redraws`` (and,
    while it has fewer than 8 pages, too few for a model, another URL of each group it
    drew from, of a kind it knows fewer than 4 of; default true; same place), ``menus`` (a
    group held
    for a known URL that repeats its Apath's URLs of the page before, a menu, still gets
    one URL under a first path segment the sample has not requested yet; default false;
    same place), ``kind_draws`` (a group of unknown URLs gets one URL of each kind of URL
    it holds; default false; same place), ``section_priority`` (the sample's priorities
    count an Apath's requests per section of the page holding it; default false; same
    place), ``content_guard``
    (crawling for UCC, the cluster ranked first is never one most of whose sampled pages
    are marked noindex; default true; see `_use`), ``worth``
    (weigh a cluster's links by what its harvested pages brought, and settle at once a page
    that found only links to clusters bringing no text; default true; see the module
    docstring), ``worth_rescore`` (re-rank the queue at once when a cluster's worth factor
    falls below half or rises above twice what it was; default true; same place),
    ``waste_rescore`` (re-rank the queue at once when more than half of the last 32
    harvest requests gave nothing new; default true; same place), ``hits_reset`` (ε of
    randomized HITS for eq. 7–8; default 0, Kleinberg's HITS; see the module docstring),
    ``verdict_reset`` (ε of the randomized HITS whose values the
    low-value verdict also asks, crawling for UCC; default 0.1, 0 turns it off; same
    place), ``outlier_hubs`` (that randomized HITS counts the outlier pages' links, the
    outliers one more hub of its walk; default true; same place), ``type_share`` (the
    clustering's eps stays below the first merge of two groups of this share of the
    sample in two sections of the site; default 0.1, 0 turns it off; see
    `archiver.learning.clustering.select_eps`), ``requeue_share`` (a popped URL whose
    priority has fallen below this share of its queued one goes back at the new one;
    default 0, off; see the module docstring), ``spread_ties`` (links
    equal by eq. 12 are popped in an order a hash of their URL gives, not in discovery
    order; default false; see `_spread`),
    ``hub_per_page`` (HITS over A with each row divided by its cluster's sampled pages;
    default true crawling for a target, false crawling for UCC, as source-target does when
    its example falls in no cluster; see the module docstring), ``distinct_links`` (HITS
    over A with each (cluster, Apath) pair weighing as its distinct URLs, a sidebar's links
    counted once per cluster, not once per page; default false; see `LinkScorer`,
    ``distinct``), ``path_views`` (exhaustion judges links to other views of a fetched
    page's path apart from the rest of their kind; default true; see `_kind`),
    ``page_family`` (``hub_share`` counts links into every cluster of the content's page
    type by URL form, not into its one cluster; default true; see the module docstring),
    ``target_family`` (crawling for a target, the authority is held at 1 for every
    cluster of the example's page type by URL form; default true; same place),
    ``type_scores`` (crawling for UCC, the clusters of one page type are scored as one;
    default true; see the module docstring, "Page types"),
    ``link_family`` (both page types, the content's and the target's, also hold the
    clusters one kind of sampled link led to with theirs; default true; same place),
    ``homing`` (the sampler settles an Apath whose first sampled links all redirected to
    the page holding them; default true; see `archiver.learning.sampling.SiteSampler`),
    ``alias_links`` (it also settles an Apath whose first sampled links all redirected to
    URLs the page holding them links under other Apaths; default true; same place),
    ``refusals`` (the sampler counts a client error as a destination and closes a kind of
    URL whose first sampled URLs were all refused; default true; same place),
    ``pooled_patterns`` (a link whose URL pattern its (cluster, Apath) pair never sampled,
    where the pair or its Apath is split by pattern, takes the row of its pattern at the
    same Apath on any cluster's pages;
    default true; see `archiver.learning.navigation.NavigationTable`),
    ``pattern_outlines`` (else the row of the pair's sampled patterns of its outline;
    default true; same place), ``duplicate_endings`` (a link's duplicate rate is its path
    ending's, ``_create``, over all pairs then at its own, not its pair's; default true;
    see `archiver.learning.duplicates`).

    References
    ----------
    Xu, Gao & Callan (2018), §4.1–4.4, eq. 9–12.
    """

    learns = True
    mode: ClassVar[str] = "ucc"
    PARAMS: ClassVar[Mapping[str, tuple[type, ...]]] = {
        **{name: (bool,) for name in (
            "alias_links", "alternates", "balance", "block_shingles", "content", "content_guard",
            "distinct_links",
            "duplicate_endings", "duplicates", "dust",
            "destination_families", "empty_by_links", "evidence", "families",
            "family_runs", "files",
            "homing", "refusals",
            "link_family", "listing_exhaustion", "login_kinds",
            "kind_draws", "listings_by_links", "live_clusters", "live_outliers", "live_views",
            "menu_sections",
            "menus",
            "near_duplicates", "redraws", "section_priority",
            "noindex_kinds", "outlier_hubs",
            "page_family", "path_views", "pattern_outlines", "pooled_patterns", "query_modes",
            "redirect_cost", "self_views",
            "split_kinds", "spread_ties", "target_family", "type_scores",
            "url_patterns", "url_shape", "walls", "waste_rescore", "widen", "worth",
            "worth_rescore")},
        **{name: (bool, type(None)) for name in ("hub_per_page", "self_links")},
        **{name: (int,) for name in ("exhaustion", "min_pages", "random_state",
                                      "rescore_every")},
        **{name: (int, float) for name in ("hits_reset", "hub_share", "low_value",
                                            "requeue_share", "type_share",
                                            "verdict_reset")},
        "alpha": (int, float, type(None)),
    }

    def __init__(self, profile: SiteProfile) -> None:
        super().__init__(profile)
        from archiver.learning.discovery import RUN_LENGTH, Discovery, Shingles
        from archiver.learning.sampling import SiteSampler

        cfg = profile.strategy
        params: Mapping[str, Any] = cfg.params or {}
        self.sample_size = int(cfg.sample_size)
        self.low_value = float(params.get("low_value", LOW_VALUE))
        self.rescore_every = int(params.get("rescore_every", RESCORE_EVERY))
        alpha = params.get("alpha")
        self.alpha = None if alpha is None else float(alpha)
        self_links = params.get("self_links")
        self.self_links = None if self_links is None else bool(self_links)
        self.random_state = int(params.get("random_state", 0))
        self.use_duplicates = bool(params.get("duplicates", True))
        self.duplicate_endings = bool(params.get("duplicate_endings", True))
        self.use_near_duplicates = bool(params.get("near_duplicates", False))
        self.use_content = bool(params.get("content", True))
        self.use_url_shape = bool(params.get("url_shape", True))
        self.use_url_patterns = bool(params.get("url_patterns", True))
        self.use_evidence = bool(params.get("evidence", True))
        self.use_balance = bool(params.get("balance", False))   # see the class docstring
        self.distinct_links = bool(params.get("distinct_links", False))   # class docstring
        self.type_scores = bool(params.get("type_scores", True))   # module docstring
        self.use_self_views = bool(params.get("self_views", True))
        self.use_dust = bool(params.get("dust", True))
        self.exhaustion = int(params.get("exhaustion", RUN_LENGTH))
        self.hub_share = float(params.get("hub_share",
                                          HUB_SHARE if self.mode == "ucc" else 0.0))
        self.listing_exhaustion = bool(params.get("listing_exhaustion", False))
        self.split_kinds = bool(params.get("split_kinds", True))   # see `_kind`
        self.path_views = bool(params.get("path_views", True))     # see `_kind`
        self.use_page_family = bool(params.get("page_family", True))   # module docstring
        self.target_family = bool(params.get("target_family", True))   # module docstring
        self.link_family = bool(params.get("link_family", True))   # module docstring
        self.pattern_outlines = bool(params.get("pattern_outlines", True))   # class docstring
        self.pooled_patterns = bool(params.get("pooled_patterns", True))     # class docstring
        self.use_alternates = bool(params.get("alternates", True))
        self.listings_by_links = bool(params.get("listings_by_links", True))
        self.empty_by_links = bool(params.get("empty_by_links", True))   # module docstring
        self.use_live_outliers = bool(params.get("live_outliers", True))
        self.live_clusters = bool(params.get("live_clusters", True))   # module docstring
        self.use_worth = bool(params.get("worth", True))
        self.worth_rescore = bool(params.get("worth_rescore", True))
        self.waste_rescore = bool(params.get("waste_rescore", True))
        self._recent: deque[bool] = deque(maxlen=WASTE_WINDOW)  # harvest requests: wasted?
        self._wasted = False                      # the request being told of (`_recent`)
        self.hits_reset = float(params.get("hits_reset", 0.0))
        self.type_share = float(params.get("type_share", TYPE_SHARE))
        self._requeue_share = float(params.get("requeue_share", REQUEUE_SHARE))
        self.outlier_hubs = bool(params.get("outlier_hubs", True))
        self.verdict_reset = float(params.get("verdict_reset", VERDICT_RESET))
        for key, value in (("hits_reset", self.hits_reset),
                           ("verdict_reset", self.verdict_reset)):
            if not 0.0 <= value < 1.0:
                raise ProfileError([f"strategy.params.{key}: {value} is not a probability "
                                    "in [0, 1); 0 is Kleinberg's HITS, e.g. 0.1"])
        for key, value, of, example in (
                ("type_share", self.type_share, "the sample", 0.1),
                ("requeue_share", self._requeue_share, "a priority", 0.5)):
            if not 0.0 <= value <= 1.0:
                raise ProfileError([f"strategy.params.{key}: {value} is not a share of {of} "
                                    f"in [0, 1]; 0 turns it off, e.g. {example}"])
        self._ranked_worth: np.ndarray | None = None   # `rescore_due`
        self.content_guard = bool(params.get("content_guard", True))
        self.spread_ties = bool(params.get("spread_ties", False))   # see `_spread`
        hub_per_page = params.get("hub_per_page")   # None: as the crawl's mode (`_use`)
        self.hub_per_page = None if hub_per_page is None else bool(hub_per_page)
        self.worth: Worth | None = None           # set by `_use` (module docstring)
        self.target_example = cfg.target_example
        self.sampler: SiteSampler = SiteSampler(
            self.sample_size, min_pages=int(params.get("min_pages", min(200, self.sample_size))),
            noindex_kinds=bool(params.get("noindex_kinds", True)),
            query_modes=bool(params.get("query_modes", True)),
            walls=bool(params.get("walls", True)), widen=bool(params.get("widen", True)),
            homing=bool(params.get("homing", True)),
            alias_links=bool(params.get("alias_links", True)),
            refusals=bool(params.get("refusals", True)),
            login_kinds=bool(params.get("login_kinds", True)),
            menu_sections=bool(params.get("menu_sections", True)),
            redraws=bool(params.get("redraws", True)),
            menus=bool(params.get("menus", False)),
            kind_draws=bool(params.get("kind_draws", False)),
            section_priority=bool(params.get("section_priority", False)),
            random_state=self.random_state)
        self._widened: dict[str, float] = {}     # sample requests of a widened sample
        self.sampler.add_seeds([*profile.seeds, *self.extra_seeds()])
        self._bags: dict[str, Mapping[str, int]] = {}
        self._texts: dict[str, tuple[int, int]] = {}   # sampled page → `text_chars`
        self._fitted = False
        self.model: SourceModel | None = None
        self.scorer: LinkScorer | None = None
        self.target: int | None = None
        self.targets: list[int] = []              # the target's page type (``target_family``)
        self.target_shape: UrlShape | None = None
        self._cluster_of: dict[str, int] = {}     # fetched page URL → its cluster
        self._nav: dict[tuple[int, str, str], tuple[np.ndarray, str]] = {}
        self._static: np.ndarray | None = None    # Score(C) without Balance, max-normalised
        self._low: np.ndarray | None = None       # 1 for clusters under the line (`_use`)
        self.dups = DuplicateRates()
        self._via: dict[str, tuple[str, str]] = {}   # link URL → (page found on, anchor path)
        self._digests: set[bytes] = set()            # bodies fetched so far
        self._near = NearDuplicates()                # fingerprints of the pages so far
        self.views = SelfViews(self._holder_cluster)  # links back to the page holding them
        self.dust = Dust(lambda url: self._cluster_of.get(url, -1))  # other URLs of a page
        # sampled URL → (duplicate, noindex, duplicate by its rel=canonical)
        self._sample_dup: dict[str, tuple[bool, bool, bool]] = {}
        self._sample_rates = DuplicateRates()   # the same, site-wide, for the signals' guards
        # Live outliers (`archiver.learning.liveoutliers`): a pair's row is its Apath's
        # pooled over the clusters when the navigation table backs off to it
        self.live = LiveOutliers(
            self._pattern, lambda pair: self._distribution((*pair, ""))[1].startswith("any"))
        self._fetched: set[str] = set()              # URLs fetched so far
        self._paths: dict[str, str] = {}             # path fetched → the first URL with it
        self._redirected_to: set[str] = set()        # targets of redirects so far
        self._cause: dict[str, str] = {}             # redirect target → the link followed
        # [requests, redirects, files] of the links followed, per (cluster, Apath)
        # (`archiver.learning.hops`); the sample's fetches wait for the fit, when their
        # pairs are known
        self.hops = HopCounts(files=bool(params.get("files", True)),
                              redirect_cost=bool(params.get("redirect_cost", True)))
        self._sample_hops: list[tuple[str, bool, bool]] = []
        self.evidence = HarvestEvidence()          # destinations fetched while harvesting
        self._patterns: dict[str, str] = {}         # link URL → its URL pattern
        # Exhausted kinds of link (module docstring, "Knowing when to stop")
        self.use_families = bool(params.get("families", True))
        self.family_runs = bool(params.get("family_runs", True))   # `_same_run`
        self.destination_families = bool(params.get("destination_families", True))
        self.discovery = Discovery(
            self.exhaustion, family=self._family if self.use_families else None,
            destination=self._destination_family if self.destination_families else None)
        self._families: dict[tuple[int, str], tuple[int, str] | None] = {}
        self.block_shingles = bool(params.get("block_shingles", True))  # `Shingles.judge`
        self._shingles: Shingles | None = Shingles(blocks=self.block_shingles) \
            if self.exhaustion > 0 else None
        self._novel: dict[str, bool] = {}          # harvested page → brought new text
        self.live_views = bool(params.get("live_views", True))   # `LiveOutliers`
        self._live_digests: set[bytes] = set()     # digests of the pages found live
        self._noindex: set[str] = set()            # harvested pages marked noindex
        self._duplicates: set[str] = set()         # harvested duplicate views
        self._protected = -2                       # the cluster never judged exhausted

    def params(self) -> dict[str, Any]:
        return {"mode": self.mode, "sample_size": self.sample_size, "low_value": self.low_value,
                "rescore_every": self.rescore_every, "alpha": self.alpha,
                "self_links": self.self_links, "duplicates": self.use_duplicates,
                "duplicate_endings": self.duplicate_endings,
                "content": self.use_content,
                "url_shape": self.use_url_shape, "url_patterns": self.use_url_patterns,
                "evidence": self.use_evidence, "near_duplicates": self.use_near_duplicates,
                "balance": self.use_balance, "distinct_links": self.distinct_links,
                "type_scores": self.type_scores,
                "exhaustion": self.exhaustion, "block_shingles": self.block_shingles,
                "hub_share": self.hub_share, "listing_exhaustion": self.listing_exhaustion,
                "split_kinds": self.split_kinds, "path_views": self.path_views,
                "page_family": self.use_page_family, "target_family": self.target_family,
                "link_family": self.link_family, "pattern_outlines": self.pattern_outlines,
                "pooled_patterns": self.pooled_patterns,
                "redirect_cost": self.hops.use_redirect_cost, "files": self.hops.use_files,
                "alternates": self.use_alternates,
                "listings_by_links": self.listings_by_links,
                "empty_by_links": self.empty_by_links,
                "live_outliers": self.use_live_outliers, "live_views": self.live_views,
                "live_clusters": self.live_clusters,
                "families": self.use_families, "family_runs": self.family_runs,
                "destination_families": self.destination_families, "worth": self.use_worth,
                "worth_rescore": self.worth_rescore,
                "waste_rescore": self.waste_rescore, "hits_reset": self.hits_reset,
                "type_share": self.type_share, "requeue_share": self._requeue_share,
                "verdict_reset": self.verdict_reset, "outlier_hubs": self.outlier_hubs,
                "query_modes": self.sampler.query_modes, "walls": self.sampler.walls,
                "homing": self.sampler.homing, "alias_links": self.sampler.alias_links,
                "refusals": self.sampler.refusals,
                "login_kinds": self.sampler.login_kinds, "widen": self.sampler.widen_held,
                "menu_sections": self.sampler.menu_sections,
                "menus": self.sampler.menus, "redraws": self.sampler.redraws,
                "kind_draws": self.sampler.kind_draws,
                "section_priority": self.sampler.section_priority,
                "content_guard": self.content_guard,
                "spread_ties": self.spread_ties, "self_views": self.use_self_views,
                "dust": self.use_dust, "hub_per_page": self.hub_per_page,
                "target_example": self.target_example, "random_state": self.random_state}

    @property
    def content_cluster(self) -> int:
        """The cluster never judged exhausted: the target, or crawling for UCC the one
        ranked first that the site does not mark noindex (-2 before a model)."""
        return self._protected

    def seed_priority(self) -> float:
        return SAMPLE_BAND + 2.0

    # --- learning -------------------------------------------------------------------------
    @property
    def learning(self) -> bool:
        return not self._fitted and not self.sampler.done

    def _widen(self) -> None:
        """A sample that ran out of requests before `min_pages` is widened
        (`SiteSampler.widen`): the held groups' requests, which `rescore` raises into the
        sample band. Asked after every page or failure the sampler is told of."""
        if self.sampler.done:
            self._widened.update((r.url, r.priority) for r in self.sampler.widen())

    def defer(self, url: str) -> float | None:
        """An Apath settled since `url` was requested: fetch it later, not as a sample.
        Letting go of the sample's last pending request ends it, or widens it (`_widen`).
        Until 2026-11-28 neither happened here: the loop fetched the next URL queued, a
        link deferred while sampling, and only then ended the sample (in six of the 44
        real-site crawls; in five that URL was a sample page the sampler never requested,
        `sample_unrequested`)."""
        if self.sampler.still_wanted(url):
            return None
        self._widen()
        return DEFERRED

    def precluded(self, url: str) -> None:
        """A URL robots.txt disallows is no sample request the sampler waits for
        (`SiteSampler.drop`). Until 2026-11-28 it stayed pending: a real Misago's
        robots.txt disallows its profiles and search, 27 of the URLs its sample chose, so
        the sample never ran out of requests, was never widened, and took the links
        deferred while sampling in the order they were found (44 requests, 18 of them
        redirects)."""
        if not self._fitted:
            self.sampler.drop(url)
            self._widen()

    def respelled(self, url: str, stored: str) -> None:
        """A sample request that is another spelling of a URL the frontier holds takes that
        URL's outcome (`SiteSampler.add_spelling`). Until 2026-11-28 the sampler waited for
        it for ever, as for a URL robots.txt disallows (`precluded`)."""
        if not self._fitted:
            self.sampler.add_spelling(url, stored)
            self._widen()

    def fetched_by(self, url: str, parent_url: str, anchor_path: str) -> None:
        """The link the frontier followed is the one a fetch counts for (duplicate views,
        harvest evidence, exhausted kinds), as it is the one `rescore` re-judges the URL
        by. `_via` first holds the first page that showed the link; a URL skipped there
        and followed from another page was counted against the first page's kind. On the
        zoo blog, day archives shown first by post pages' calendars (a kind exhausted early)
        and followed from listings' calendars were counted against the posts' calendars,
        so the listings' calendar kind was never exhausted: 559 day archives were fetched
        and the crawl stopped at 1,692 requests, 1,147 with this."""
        if parent_url and anchor_path:
            self._via[url] = (parent_url, anchor_path)

    def observe_fetch(self, url: str, status: int | None, is_page: bool,
                      location: str = "", content_type: str = "") -> None:
        """`_observe_fetch`; then, harvesting, remember whether the request was wasted
        (`_duplicate_seen`, told of a page's verdict before this; `rescore_due`)."""
        self._observe_fetch(url, status, is_page, location, content_type)
        if self._fitted:
            self._recent.append(self._wasted)
        self._wasted = False

    def _observe_fetch(self, url: str, status: int | None, is_page: bool,
                       location: str, content_type: str) -> None:
        """A requested URL that gave no HTML page leaves the sampler's pending set (as dead
        unless it was a 2xx document). Machine-readable output (a feed: RSS, Atom, any XML;
        API output: any JSON; a script or style sheet) is a copy of pages for programs, not
        content of its own: a dead destination, and a duplicate view for its link's pair.
        A redirect to a URL already fetched or already redirected to (a login wall behind
        "reply" or "fave") gave nothing new: a duplicate view for its link's pair. A
        redirect to a new URL makes the link the cause of that URL's fetch: what the page
        turns out to be counts against the link (its pair, URL kind and pattern), even when
        the page was also linked elsewhere. (Until 2026-11 the page kept its own link when
        it had one: on a real MediaWiki the 121 `Special:ApiHelp/X` links, each a 302 to an
        `api.php` help page already listed on the API's index, never learned that they lead
        to noindex outliers, and all 242 requests were made.)"""
        self._fetched.add(url)
        self._paths.setdefault(path_of(url), url)
        machine = not is_page and is_machine_readable(content_type)
        ok = status is not None and 200 <= status < 300 and not machine
        # a file: a document, an image, a sound (`archiver.learning.hops`)
        file = ok and not is_page and not location
        if self._fitted:
            self._count_hop(url, bool(location), file)
        else:
            self._sample_hops.append((url, bool(location), file))
        if not self._fitted and not is_page:
            from archiver.learning.sampling import is_refusal

            # ok: a document, an image; refused for good: a client error (not a feed:
            # `SiteSampler`, "Refused kinds")
            refused = str(status) if status is not None and is_refusal(status) else ""
            self.sampler.add_failure(url, dead=not ok, refused=refused)
            self._widen()
        if machine:
            self._duplicate_seen(url, True)
        elif status is not None and 400 <= status < 500:
            # a client error: no content, like noindex (a 5xx may be the server's passing
            # trouble, not the link's)
            self._duplicate_seen(url, False, True)
        if self._fitted and not is_page and not location:
            if not ok:
                self._observe_destination(url, -1)  # a dead destination, as while sampling
            if status is not None and status < 500:  # (a 5xx may be passing: left open)
                self.discovery.settle(*self._discovery_key(url), productive=ok)
        if not location:
            return
        if not self._fitted:
            self.sampler.add_redirect(url, location)
        if location in self._fetched or location in self._redirected_to:
            self._duplicate_seen(url, True)
            if self.use_self_views:
                self.views.landed_on(url, location)
            if self._fitted:
                self.discovery.settle(*self._discovery_key(url), productive=False)
        elif (via := self._via.get(url)) is not None:
            self._via.setdefault(location, via)
            self._cause.setdefault(location, self._cause.get(url, url))
        self._redirected_to.add(location)

    def describe(self, visit: Visit) -> PageInfo:
        tree = visit.page.tree
        if tree is None:
            return PageInfo()
        duplicate, by_canonical = self._is_duplicate(visit)
        noindex = visit.page.noindex
        url = visit.page.url
        if self.use_self_views:
            self.views.landed(url, visit.digest)
            self.views.landed(self._cause.get(url, url), visit.digest)  # a redirect followed
        if self.use_dust:
            self.dust.page(url, visit.digest)
        bag = visit.page.bag()
        news = self._shingles.judge(tree, visit.page.body_text()) \
            if self._shingles is not None else None
        novel = news is None or news.novel
        # new text judged on enough shingles, indexable, no duplicate: a live outlier if it
        # is one and has a URL pattern of the content or of its pair's companion pages
        # (module docstring, checked by `_observe_destination`)
        live = news is not None and news.judged and news.novel and not duplicate \
            and not noindex
        if live and visit.digest:
            self._live_digests.add(visit.digest)
        elif self.live_views and duplicate and not noindex \
                and visit.digest in self._live_digests:
            live = True       # another URL of a live page (`archiver.learning.liveoutliers`)
        self._duplicate_seen(visit.page.url, duplicate, noindex, by_canonical, page=True)
        extra: dict[str, Any] = {"duplicate_view": duplicate}
        if noindex:
            extra["noindex"] = True
        if not self._fitted:
            from archiver.learning.features import text_chars

            self._bags[visit.page.url] = bag
            self._texts[visit.page.url] = text_chars(tree, visit.page.body_text())
            if live:             # the URL's pattern is checked at the fit
                self.live.sampled.add(visit.page.url)
            return PageInfo(extra={"phase": "sample", **extra})
        if self.model is None or self.scorer is None:
            return PageInfo()
        cluster = self.model.classify(bag)
        self.scorer.observe(cluster)
        self._cluster_of[visit.page.url] = cluster
        # a listing of the content too short to judge by its text is worth the pages it
        # lists: a member's contacts, names in links, are "new" by no shingle at all
        # (module docstring)
        self._novel[visit.page.url] = novel and not duplicate and not noindex and not (
            self.listings_by_links and (news is None or not news.judged)
            and self.scorer.is_listing(cluster)) and not self._empty(news, cluster)
        if duplicate:
            self._duplicates.add(visit.page.url)
        if noindex:
            self._noindex.add(visit.page.url)
        # a page the site asks robots not to index is not content, whatever its template
        self._observe_destination(url, -1 if noindex and self.use_duplicates
                                  and self.dups.signals()[1] else cluster,
                                  live)
        return PageInfo(cluster=cluster, extra=extra)

    def _empty(self, news: News | None, cluster: int) -> bool:
        """Whether a harvested page is new only through the pages it found (parameter
        ``empty_by_links``): it has no text at all (no shingle, no new word), and it is not
        of the content cluster, where an image without a caption is still content. A
        gallery of thumbnails is "new" by `News.novel`'s no-shingle clause: on the zoo's
        500px-like site source-ucc fetched 520 members' galleries in a row, 299 of them
        counted as new, after every photo they showed was known."""
        return self.empty_by_links and news is not None and news.shingles == 0 \
            and news.words == 0 and cluster != self._protected

    def _is_duplicate(self, visit: Visit) -> tuple[bool, bool]:
        """Another view of a known page: its rel=canonical names another URL, or (without a
        rel=canonical) it repeats the title, text and links of one already fetched
        (`archiver.page.page_digest`), or it is a near-duplicate of
        one (same title, nearly the same words outside links: `archiver.learning.neardup`)
        (module docstring). A page that names itself canonical is the page, even when a
        duplicate view of it came first. Also returns whether the rel=canonical decided
        (the signal's reliability guard counts only those: `DuplicateRates.signals`)."""
        page = visit.page
        repeated = False
        if visit.digest:
            repeated = visit.digest in self._digests
            self._digests.add(visit.digest)
        near = self.use_duplicates and self.use_near_duplicates and page.tree is not None and \
            self._near.repeats(page.title, page.tree, page.body_text())  # remembered always
        if page.canonical:
            other = _same_page_key(page.canonical) != _same_page_key(page.url)
            return other, other
        return repeated or near, False

    def _duplicate_seen(self, url: str, duplicate: bool, noindex: bool = False,
                        canonical: bool = False, *, page: bool = False) -> None:
        """Record a fetch's verdicts: counted now while harvesting, at `fit` while sampling
        (the pairs' clusters are not known before). A duplicate view, and a client error
        (`noindex` of no `page`), is a request wasted (`rescore_due`)."""
        if self._fitted:
            self._wasted = self._wasted or duplicate or (noindex and not page)
            self._observe_duplicate(url, duplicate, noindex, canonical)
        else:
            self._sample_dup[url] = (duplicate, noindex, canonical)
            self._sample_rates.observe((-1, ""), duplicate, noindex, canonical=canonical)

    def _link_key(self, url: str) -> tuple[str, tuple[int, str] | None]:
        """The link that led to fetching `url` (for a redirect's target, the link that
        redirected: `observe_fetch`) and its (cluster, Apath), None for a seed."""
        from archiver.learning.features import canonical_apath

        link, via = self._followed(url)
        if via is None:
            return link, None
        parent, anchor_path = via
        return link, (self._cluster_of.get(parent, -1), canonical_apath(anchor_path))

    def _discovery_key(self, url: str) -> tuple[str, tuple[int, str] | None]:
        """`_link_key` for exhaustion: the kind of the link, per listing for a link within
        its holder's listing (`_kind`)."""
        link, via = self._followed(url)
        if via is None:
            return link, None
        parent, anchor_path = via
        return link, self._kind(self._cluster_of.get(parent, -1), anchor_path, parent, link)

    def _followed(self, url: str) -> tuple[str, tuple[str, str] | None]:
        """The link followed to fetch `url` (a redirect's target: the link that redirected)
        and the (page, anchor path) it was on, None for a seed."""
        link = self._cause.get(url, url)
        return link, self._via.get(link)

    def _kind(self, cluster: int, anchor_path: str, holder: str, link: str,
              apath: str | None = None) -> tuple[int, str]:
        """The kind of link exhaustion judges: (cluster, Apath), and for a pair the sample
        split by URL pattern (its links of different patterns led to different clusters,
        `NavigationTable.is_split`) the cluster the link's pattern leads to most as well
        (``split_kinds``; its family is that cluster's, `_family`): on the zoo's
        Flickr-like site (seed 1) a profile's album list and "following" list are one
        class-less Apath, twenty album pages that brought nothing exhausted it, and 104
        members were never fetched. One kind per pattern instead cost a few requests more
        (real photologue 909 -> 912, Askbot 735 -> 737): patterns that lead to one
        cluster each needed their own misses. For a link on a page that is
        not content (an outlier, or marked noindex) to its own path with another query,
        (cluster, "views @" that path): all of that page's other views, whatever their Apath
        (module docstring); with ``listing_exhaustion`` (off by default), for a link to the
        holder's own path with another query (a listing's next page, another sort of it), the
        listing too: that path with the query arguments both URLs share. Twenty known pages
        in a row of one forum's topic list say nothing of another forum's; per kind, they
        ended every forum's pagination on a real FlaskBB. Per listing, source-ucc's recall
        there rose 0.996 -> 1.000, but every user's post list was read to its end: 1,213
        requests instead of 1,088, and 95% of the UCC after 1,103 instead of 999.

        With ``path_views``, a link whose path (its URL without query and fragment) another
        fetched URL already had is a kind apart, marked `VIEW_MARK`, in the same family:
        another view of a page already fetched, which the link's own Apath says nothing
        of. On a real django-machina forum every line of a member's post list links its
        post as ``?post=N``, a 200 view of the topic page holding it. Most named topics
        already archived, so the kind ran out of new pages and was exhausted, and with it
        the last known links to 10 topics no other route had reached (14 pages; recall
        0.966). Apart, the views of archived topics ran out alone and the links to topics
        never fetched were followed: recall 1.000, 1,158 -> 1,097 requests, 95% of the
        UCC after 1,116 -> 955. A link is settled under the kind it had when followed: the
        first fetched URL of a path is no view."""
        from archiver.learning.features import canonical_apath

        apath = canonical_apath(anchor_path) if apath is None else apath
        closed = cluster < 0 or holder in self._noindex
        queries = same_path_queries(holder, link) \
            if self.listing_exhaustion or closed else None
        if queries is None:
            label = apath
            if self.split_kinds and self.scorer is not None \
                    and self.scorer.table.is_split(cluster, apath):
                label = f"{apath} ~{self._destination((cluster, apath, self._pattern(link)))}"
            if self.path_views and self._paths.get(path_of(link), link) != link:
                label += VIEW_MARK
            return cluster, label
        if closed:
            return cluster, f"views @{holder.partition('?')[0]}"
        common = "&".join(f"{n}={v}" for n, v in sorted(queries[0] & queries[1]))
        return cluster, f"{apath} @{link.partition('?')[0]}?{common}"

    def _family(self, kind: tuple[int, str]) -> tuple[int, str] | None:
        """The family of a kind of link (cluster, Apath): the holder's cluster and the
        cluster its sampled links led to most; None for the other views of a page and for
        a listing's own pagination (`_kind`), and before the fit."""
        if kind in self._families:
            return self._families[kind]
        cluster, apath = kind
        apath = apath.removesuffix(VIEW_MARK)     # a kind's views of fetched paths: its own
        family = None
        if self.scorer is not None and " @" not in apath:   # both `_kind`s of a listing
            apath, split, to = apath.partition(" ~")   # a split pair's kind names it
            if not split and (dest := self._destination((cluster, apath, ""))) is not None:
                to = str(dest)
            family = (cluster, f"to {to}") if to else None
        self._families[kind] = family
        return family

    def _destination_family(self, kind: tuple[int, str]) -> tuple[int, str] | None:
        """The wider family of a kind of link (``destination_families``): every kind whose
        family leads to the same cluster, whatever cluster holds it; None for a kind without
        a family, for kinds leading to outliers (pages of no one type) and for kinds leading
        to their holder's own cluster (a listing's pages: a real HyperKitty's thread pages
        link every month of their list, and those months' misses ended the months' own
        pagination before it had listed every thread, recall 0.203 -> 0.147)."""
        family = self._family(kind)
        if family is None or family[1] in ("to -1", f"to {kind[0]}"):
            return None
        return ANY_HOLDER, family[1]

    def _count_hop(self, url: str, redirect: bool, file: bool = False) -> None:
        """Count one request (a redirect or not, a file or not) against the (cluster, Apath)
        of the link followed, and its URL kind; a redirect's target counts for the link that
        redirected."""
        link, key = self._link_key(url)
        if key is not None:
            self.hops.count(key, redirect, file, link)

    def _observe_duplicate(self, url: str, duplicate: bool, noindex: bool = False,
                           canonical: bool = False) -> None:
        """Count a fetched page against the (cluster, Apath) of the link that found it."""
        link, key = self._link_key(url)
        if key is not None:
            self.dups.observe(key, duplicate, noindex, link, self._pattern(link), canonical)

    def _observe_destination(self, url: str, cluster: int, live: bool = False) -> None:
        """Count a harvested page's cluster (-1: outlier or dead; `live`, indexable, no
        duplicate and new text: a live outlier if its URL pattern is one `LiveOutliers.share`
        credits) against the (cluster, Apath, URL pattern) of the link that found it
        (`archiver.learning.evidence`; module docstring, "Live outliers"). An outlier, or
        with ``live_clusters`` a page of a cluster under the line, also counts toward its
        URL pattern's proof (`LiveOutliers.observe_pattern`)."""
        link, pair = self._link_key(url)     # a redirect's target counts for the link
        if pair is None or self.scorer is None or not self.use_evidence:
            return
        self.evidence.observe(pair, self._pattern(link), cluster,
                              self.scorer.table.n_clusters_ + 1)
        if cluster < 0:
            self.live.observe(pair, live, url)
        elif self._low is not None and self._low[cluster]:
            self.live.observe_pattern(live, url)        # module docstring, live clusters

    def decide(self, visit: Visit, links: Sequence[Link]) -> list[Decision]:
        alternates = self._alternates(visit)
        if alternates:
            page_links = [link for link in links if link.url not in alternates]
            skip = {d.url: d for d in self._skip_alternates(visit, links, alternates)}
            kept = iter(self._decide(visit, page_links))
            return [skip.get(link.url) or next(kept) for link in links]
        return self._decide(visit, links)

    def _alternates(self, visit: Visit) -> frozenset[str]:
        """The page's own alternates (module docstring, "Alternates"), empty when not in use."""
        return visit.page.alternates if self.use_alternates else frozenset()

    def _skip_alternates(self, visit: Visit, links: Sequence[Link],
                         alternates: frozenset[str]) -> Iterator[Decision]:
        """The skips of the page's links to its own alternates."""
        cluster = self._cluster_of.get(visit.page.url, -1) if self._fitted else -1
        for link in links:
            if link.url in alternates:
                yield Decision(link.url, False, 0.0, f"{ALTERNATE_REASON}:{cluster}",
                               cluster)

    def _decide(self, visit: Visit, links: Sequence[Link]) -> list[Decision]:
        """`decide` for the page's links other than its alternates."""
        if not self._fitted:
            return self._sample(visit, links)
        url = visit.page.url
        cluster = self._cluster_of.get(url, -1)
        new = {link.url for link in links
               if link.url not in self._via and link.url not in self._fetched}
        self._remember(visit, links)
        decisions = self._judge_page(cluster, links, url)
        # what a cluster's new, indexable pages bring (the duplicate rates judge the rest):
        # new links to files count as content found, not as links to a cluster
        if self.worth is not None and url not in self._duplicates and url not in self._noindex:
            news = [d for d in decisions if d.follow and d.url in new]
            self.worth.observe(cluster, self._novel.get(url, True),
                               [-1 if d.cluster is None else d.cluster for d in news
                                if d.reason != FILE_REASON],
                               sum(d.reason == FILE_REASON for d in news))
            if self.scorer is not None:
                self.scorer.set_worth(self.worth.factors())
        if self.exhaustion > 0:
            # New links of the kind that led here bring no credit of their own: otherwise
            # tag pages that list tags of their posts wait on each other to the last tag
            link, key = self._discovery_key(url)
            novel = self._novel.pop(url, True)
            # nor do links to pages that bring no text of their own (`Worth`): a page that
            # found only those is settled at once; nor links ranked below the page itself
            # (`_rank_now`). A page with new text is settled at once whatever it found.
            floor = float("inf") if novel else self._rank_now(link)
            found = sorted({d.url for d, x in zip(decisions, links, strict=True)
                            if d.follow and d.url in new and d.priority >= floor
                            and not self._same_run(
                                self._kind(cluster, x.anchor_path, url, x.url), key)
                            and self._brings(-1 if d.cluster is None else d.cluster)})
            self.discovery.fetched(link, key, novel=novel, found=found)
        return decisions

    def _same_run(self, kind: tuple[int, str], key: tuple[int, str] | None) -> bool:
        """Whether a new link of `kind`, found on a page reached by a link of `key`, shares
        its run of misses: the same kind, or with ``family_runs`` a kind of the same family
        (`_family`). Such links bring the page no credit (`_decide`).

        Kinds of one family share a run of misses (`archiver.learning.discovery`), but a
        page waited on every new link of its family but its own kind, and a listing's
        pages link more of the listing by several kinds (its other pages, each page size,
        each column's sort): such a page stayed open, neither hit nor miss, until the
        pages it found were settled. Real Trac 740 -> 737 requests, the zoo's forum v1
        2,098 -> 2,097, the other real sites unchanged (`benchmarks/results/
        source-zoo-summary.md`, session 46). A real Redmine's sorted issue lists were not
        held so: their links ranked below the lists themselves (`_rank_now`)."""
        if kind == key:
            return True
        if not self.family_runs or key is None:
            return False
        family = self._family(key)
        return family is not None and self._family(kind) == family

    def _rank_now(self, link: str) -> float:
        """The priority the link followed to a page has now (-inf for a seed). A page waits
        for exhaustion (`archiver.learning.discovery`) only on the new links it found that
        rank at least as high as itself: a link ranked lower is fetched after the rest of
        the page's kind, too late to say whether that kind is worth going on with. On a
        real Askbot at 1,000 questions every question list links a feedback form of its
        own (``/feedback/?next=<the list>``), ranked below every list; each list waited on
        its form, no run of misses formed, and the forms came last: 2,700 list pages after
        the last question was known."""
        via = self._via.get(link)
        if via is None:
            return -float("inf")
        holder, anchor_path = via
        return self._judge(link, self._cluster_of.get(holder, -1), anchor_path,
                           holder=holder).priority

    def _remember(self, visit: Visit, links: Sequence[Link]) -> None:
        """Which page and anchor path found each link first, for `_observe_duplicate`; and
        the page's links for the self views (`archiver.learning.selfviews`)."""
        from archiver.learning.features import canonical_apath

        url = visit.page.url
        via = self._via
        for link in links:
            if link.url not in via:
                via[link.url] = (url, link.anchor_path)
        if self.use_self_views:
            self.views.page(url, visit.digest,
                            [(link.url, canonical_apath(link.anchor_path)) for link in links],
                            [link.url for link in links if link.current])

    def _holder_cluster(self, url: str) -> int | None:
        """A fetched page's cluster for `SelfViews`; None before the fit."""
        return self._cluster_of.get(url, -1) if self._fitted else None

    def _sample(self, visit: Visit, links: Sequence[Link]) -> list[Decision]:
        from archiver.learning.features import signature

        url = visit.page.url
        self._remember(visit, links)
        bag = self._bags.get(url)
        if bag is None:  # no parse tree: not a sample page, but keep its links
            self.sampler.add_failure(url)
            chosen = {}
        else:
            chosen = {r.url: r.priority for r in
                      self.sampler.add_page(url, links, signature=signature(bag),
                                            noindex=self._sample_noindex(url),
                                            login=visit.page.asks_password)}
        self._widen()
        return [Decision(link.url, True, SAMPLE_BAND + chosen[link.url], "sample")
                if link.url in chosen else Decision(link.url, True, DEFERRED, "deferred")
                for link in links]

    def _sample_noindex(self, url: str) -> bool:
        """A sampled page is marked noindex, and the sample so far trusts the signal
        (`DuplicateRates.signals`; the sampler's "Noindex kinds")."""
        noindex = self._sample_dup.get(url, (False, False, False))[1]
        return noindex and self._sample_rates.signals()[1]

    def fit(self) -> None:
        """Cluster the sample and build the navigation table (§4.2–4.3); pick the scorer."""
        from archiver.learning.model import SourceModel

        self._fitted = True
        s = self.sampler
        urls = [u for u in s.order_ if u in self._bags]
        info = {"mode": self.mode, "sample_stop": s.stop_reason() or "ended",
                "sample_pages": len(urls), "sample_unrequested": len(s.unrequested_),
                "missing_mass": s.missing_mass_,
                "closed_kinds": sorted(s.closed_kinds_),
                "target_example": self.target_example}
        if s.unrequested_:
            logger.warning("SOUrCe: %d of the %d sampled pages were links deferred while"
                           " sampling (first: %s), fetched while the sample waited for"
                           " requests the crawl did not fetch", len(s.unrequested_),
                           s.n_pages, s.unrequested_[0])
        if len(urls) < 2 * 4:  # DBSCAN with minPts = 4 needs a few pages per cluster
            logger.warning("SOUrCe: only %d sampled pages; harvesting without a model", len(urls))
            self._bags.clear()
            self._texts.clear()
            self.views.flush()
            return
        model = SourceModel(type_share=self.type_share).fit(
            urls, [self._bags[u] for u in urls], s.groups_, s.aliases_, info=info,
            dead=s.dead_, texts=[self._texts.get(u, (0, 0)) for u in urls])
        target = None
        if self.mode == "target":
            target = self._target_cluster(model)
            model.info["target"] = target
            shape = self._target_shape(model, target) \
                if target is not None and self.use_url_shape else None
            model.info["target_shape"] = None if shape is None else shape.to_json()
        self._cluster_of = dict(zip(model.urls_, model.labels_.tolist(), strict=True))
        model.info["noindex_clusters"] = self._noindex_clusters(model)
        model.info["query_modes"] = self.dups.modes = s.modes_
        self.dups.ending = self._ending(model.navigation_.patterns_)
        for page_url, (duplicate, noindex, canonical) in self._sample_dup.items():
            self._observe_duplicate(page_url, duplicate, noindex, canonical)
        model.info["duplicate_views"] = list(self.dups.rows())
        model.info["canonical_views"] = self.dups.canonical
        self._sample_dup.clear()
        for hop_url, redirect, file in self._sample_hops:
            self._count_hop(hop_url, redirect, file)
        model.info["redirects"] = self.hops.rows()
        model.info["file_kinds"] = self.hops.kind_rows()
        self._bags.clear()
        self._texts.clear()
        self._use(model)
        if self.live.on:      # the content's URL patterns need the protected cluster
            self.live.learn(s.groups_, s.aliases_, s.dead_, self._cluster_of, self._protected,
                            model.info)
            self.live.read(model.info)
        self.live.sampled.clear()
        logger.info("SOUrCe: %d clusters from %d pages (eps %.3f, %d outliers, sample %s)",
                    model.n_clusters_, len(urls), model.eps_, int((model.labels_ < 0).sum()),
                    info["sample_stop"])

    def _noindex_clusters(self, model: SourceModel) -> list[int]:
        """The clusters most of whose sampled pages the site marks noindex, while the sample
        trusts the signal (`DuplicateRates.signals`): never the content (`_use`)."""
        import numpy as np

        if not self._sample_rates.signals()[1]:
            return []
        pages = np.zeros(model.n_clusters_, dtype=np.int64)
        marked = np.zeros(model.n_clusters_, dtype=np.int64)
        for url, label in zip(model.urls_, model.labels_.tolist(), strict=True):
            if label >= 0:
                pages[label] += 1
                marked[label] += self._sample_dup.get(url, (False, False, False))[1]
        return [int(c) for c in np.flatnonzero(2 * marked > pages)]

    def _target_cluster(self, model: SourceModel) -> int | None:
        """Cluster of the example page (§4.4.2): its sample label, else its kNN class."""
        example = self.target_example
        if example is None:
            return None
        cluster = dict(zip(model.urls_, model.labels_.tolist(), strict=True)).get(example, -1)
        if cluster < 0 and example in self._bags:
            cluster = model.classify(self._bags[example])
        if cluster < 0:
            logger.warning("SOUrCe: the target example %s fell in no cluster; crawling for UCC",
                           example)
            return None
        return int(cluster)

    def _target_family(self, model: SourceModel, target: int) -> list[int]:
        """The clusters of the target's page type (``target_family``, module docstring)."""
        return self._page_type(model, target) if self.target_family else [target]

    def _page_type(self, model: SourceModel, cluster: int) -> list[int]:
        """The clusters of `cluster`'s page type: by URL form (`page_family`), and with
        ``link_family`` those one kind of sampled link led to with it (module docstring)."""
        family = set(page_family(model.urls_, model.labels_.tolist(), cluster,
                                 model.n_clusters_))
        if self.link_family:
            family.update(model.navigation_.co_destinations(cluster))
        return sorted(family)

    def _target_shape(self, model: SourceModel, target: int) -> UrlShape | None:
        """The example's URL shape, when it splits the target's clusters (module
        docstring)."""
        assert self.target_example is not None
        family = self._target_family(model, target)
        members = [u for u, c in zip(model.urls_, model.labels_.tolist(), strict=True)
                   if c in family]
        shape = learn_shape(self.target_example, model.urls_, members)
        matched = sum(shape.matches(u) for u in members)
        # Pages the shape rejects are another page type: another path, or a view the
        # example is not (?tab=activity). Until 2026-11 only another path counted, since
        # a sort order (?answertab=oldest) is the same page; but a Q&A site's user tabs
        # are one template with the profile, and once the clusters kept them apart from
        # the revision lists (the "silhouette" eps rule) nothing else turned the shape on:
        # zoo qa profile HR 0.455, with the shape 0.760. Question pages keep HR 0.998.
        other = sum(not shape.matches(u) for u in members)
        useful = matched >= MIN_SHAPE_PAGES and other >= MIN_SHAPE_PAGES
        logger.info("SOUrCe: target URL shape %s matches %d of the %d sampled pages of "
                    "clusters %s (%d of another path or view)%s", shape, matched, len(members),
                    family, other, "" if useful else "; not used")
        return shape if useful else None

    def _use(self, model: SourceModel) -> None:
        import numpy as np

        self.model = model
        model.navigation_.outlines = self.pattern_outlines
        model.navigation_.pooled_patterns = self.pooled_patterns
        target = model.info.get("target")
        self.target = None if target is None else int(target)
        shape = model.info.get("target_shape")
        self.target_shape = None if not shape or self.target is None else \
            UrlShape.from_json(shape)
        mode = "target" if self.target is not None else "ucc"
        self.targets = [] if self.target is None else self._target_family(model, self.target)
        self.scorer = model.scorer(mode, target=self.targets or None, alpha=self.alpha,
                                   self_links=self.self_links,
                                   content=self.use_content and mode == "ucc",
                                   balance=self.use_balance,
                                   per_page=(mode == "target") if self.hub_per_page is None
                                   else self.hub_per_page, reset=self.hits_reset,
                                   distinct=self.distinct_links,
                                   by_type=self.type_scores and mode == "ucc",
                                   apart=model.info.get("noindex_clusters") or ())
        sc = self.scorer
        # The verdict leaves Content(C) out, as it does Balance: listings must stay worth
        # following, they only wait behind known content links (module docstring).
        static = sc.info_ if mode == "target" else sc.info_ * sc.dsim_
        # The content pages themselves are never "exhausted": the target, or the cluster
        # the frontier ranks first (module docstring, "Knowing when to stop")
        # ... and never a cluster the site marks noindex (`_noindex_clusters`): a DokuWiki's
        # index views, many in a sample and rich in links, can outrank its pages
        order = sc.cluster_scores()[:-1].copy()
        if self.content_guard:
            marked = [c for c in model.info.get("noindex_clusters") or [] if c < order.size]
            if len(marked) < order.size:
                order[marked] = -np.inf
        # of the clusters of the page type ranked first (``type_scores``), the largest
        best = order.max() if order.size else 0.0
        self._protected = self.target if self.target is not None else \
            int(np.argmax(np.where(order == best, model.cluster_sizes(), -1))) \
            if order.size else -2
        top = float(static.max()) if static.size else 0.0
        static = static / top if top > 0 else static
        if self.hub_share > 0 and self.exhaustion > 0 and 0 <= self._protected < static.size:
            # A listing of the content (`hub_share`): worth the share of its links that lead
            # there, not the listing's own value, for the verdict; exhaustion stops it. In
            # the order, a low-value one is worth L/(L+1) of the content (module docstring).
            adjacency = sc.table.adjacency_
            # links into every cluster of the content's page type (``page_family``), from a
            # cluster the site does not mark noindex (module docstring)
            family = self._page_type(model, self._protected) if self.use_page_family \
                else [self._protected]
            closed = np.isin(np.arange(static.size), model.info.get("noindex_clusters") or [])
            to_content = np.where(closed, adjacency[:, self._protected],
                                  adjacency[:, family].sum(axis=1))
            links = adjacency.sum(axis=1)
            pages = model.cluster_sizes()
            share, per_page = (np.divide(to_content, n, out=np.zeros_like(to_content),
                                         where=n > 0) for n in (links, pages))
            hub = share >= self.hub_share
            listing = hub & (static < self.low_value)
            sc.set_listings(np.where(listing, per_page / (per_page + 1.0), 0.0),
                            self._protected)
            static = np.where(hub, np.maximum(static, share * static[self._protected]), static)
        # Outliers are worth 0 (§4.2) only when the sample is large enough to trust that a
        # page type with under minPts sampled pages is rare: §5.5 finds clusters stable from
        # 200 pages. A smaller sample leaves real page types as outliers, so their links are
        # ranked last by eq. 12 but not skipped (the threshold itself, i.e. "unknown").
        if self.verdict_reset > 0 and mode == "ucc":
            # a page type is low-value only if randomized HITS agrees (module docstring)
            static = np.maximum(static, sc.walk_values(self.verdict_reset,
                                                       self.outlier_hubs))
        trusted = len(model.urls_) >= TRUSTED_SAMPLE
        self._static = np.append(static, 0.0 if trusted else self.low_value)
        self.live.on = trusted and mode == "ucc" and self.use_live_outliers
        # the clusters under the line whose pages count toward a URL pattern's proof as
        # outliers do (``live_clusters``, module docstring)
        self._low = (static < self.low_value - VALUE_TOLERANCE).astype(np.float64) \
            if self.live.on and self.live_clusters else None
        self.live.read(model.info)
        self._cluster_of = dict(zip(model.urls_, model.labels_.tolist(), strict=True))
        self.dups = DuplicateRates.from_rows(model.info.get("duplicate_views") or [])
        self.dups.ending = self._ending(sc.table.patterns_)
        self.dups.modes = {str(k): frozenset(str(w) for w in v)
                           for k, v in (model.info.get("query_modes") or {}).items()}
        # a loaded model brings its sample's counts (a resumed crawl replays its sample
        # fetches before loading the model: those are dropped here, as `_sample_dup` is)
        self.hops.load(model.info.get("redirects") or [], model.info.get("file_kinds") or [])
        self._sample_hops.clear()
        # models saved before session 13 did not count them apart: all duplicate views
        self.dups.canonical = int(model.info.get("canonical_views", self.dups.total[1]))
        self._nav.clear()          # the caches and the evidence belong to one model
        self._patterns.clear()
        self.evidence.clear()
        self._families.clear()
        from archiver.learning.discovery import Worth

        self.worth = Worth(sc.table.n_clusters_) \
            if self.use_worth and self.exhaustion > 0 else None
        self._fitted = True
        self.views.flush()        # what the sample observed, now that its clusters are known

    # --- harvest --------------------------------------------------------------------------
    def _judge_page(self, cluster: int, links: Sequence[Link], page: str = ""
                    ) -> list[Decision]:
        """`_judge` for every link of the page `page` of `cluster`. Links alike in all that the
        verdict and score read (anchor path, URL pattern, URL kind, target shape, listing)
        share one computation: nothing `_judge` reads changes within a page, and a blog page
        has ~190 links of a few dozen kinds."""
        from archiver.learning.features import canonical_apath

        memo: dict[tuple[str, str, str, bool, str], Decision] = {}
        shape = self.target_shape
        out = []
        for link in links:
            url = link.url
            apath = canonical_apath(link.anchor_path)
            if (view := self._known_view(url, (cluster, apath), page)) is not None:
                out.append(view)
                continue
            alike = (apath, self._pattern(url), self.dups.kind(url),
                     shape is not None and shape.matches(url),
                     self._kind(cluster, "", page, url, apath)[1])
            same = memo.get(alike)
            if same is None:
                same = memo[alike] = self._judge(url, cluster, link.anchor_path, apath, page)
            out.append(Decision(url, same.follow, self._spread(url, same.priority),
                                same.reason, same.cluster))
        return out

    def _spread(self, url: str, priority: float) -> float:
        """`priority` raised by a fraction under `ORDER_SPREAD` that a hash of `url` gives
        (parameter ``spread_ties``): links of one kind, equal by eq. 12, are popped in an
        order unrelated to the site's, not in discovery order. Exhaustion (a run of misses)
        assumes the links tried are a fair draw of their kind, and a real WordPress's
        archive widget lists the months newest first: at 2,000 posts the first twenty it
        tried were the months the home page's pagination had listed whole, the widget was
        exhausted, and the older months' posts were left (recall 0.994; with it 1.000, for
        2,214 requests instead of 2,203). Off by default: where discovery order did no harm,
        a fair draw also finds the kinds' last productive pages later, and costs requests
        for no recall (real Askbot 702 -> 747, zoo Q&A VR 0.657 -> 0.611, recall 1.000
        both); like ``listing_exhaustion``, it puts completeness before cost."""
        if not self.spread_ties or priority <= 0:
            return priority
        return priority * (1.0 + ORDER_SPREAD * (zlib.crc32(url.encode()) / 2**32))

    def _judge(self, url: str, cluster: int, anchor_path: str,
               apath: str | None = None, holder: str = "") -> Decision:
        """Score one link by eq. 12, or skip it as low-value (module docstring). `apath`:
        `canonical_apath(anchor_path)`, when known; `holder`: the page it is on."""
        if self.scorer is None or self._static is None:
            return Decision(url, True, 0.0, "no-model")
        if apath is None:
            from archiver.learning.features import canonical_apath

            apath = canonical_apath(anchor_path)
        key = (cluster, apath)
        if self.hops.files(key, url):
            # after every page: a file has no links, and the pages come first
            return Decision(url, True, FILE_PRIORITY, FILE_REASON, None)
        table = self.scorer.table
        full = self._pattern(url)
        pattern = full if table.any_split else ""
        p, level = self._distribution((*key, pattern))
        # The verdict is the pair's (eq. 5), the order the pattern's (module docstring)
        pair = self._distribution((*key, ""))[0] if pattern else p
        # Harvest evidence (`archiver.learning.evidence`): of links of this URL pattern when
        # the sample saw the pattern at the pair (it then weighs as those links), else of
        # all links at the pair (the sample weighing as all its links there).
        sampled = table.sampled(*key, full) if self.use_url_patterns else 0
        seen = self.evidence.seen(key, full, bool(sampled) or not self.use_url_patterns)
        if seen is not None:
            p, pair = self.evidence.corrected(
                (*key, pattern, full), p, pair, seen,
                max(EVIDENCE_PRIOR, sampled or table.sampled(*key)))
            level += "+seen"
        n = len(p) - 1
        dest = int(p.argmax())
        if p[dest] <= 0:                 # no destination at all (faster than p.any())
            dest = n
        predicted = dest if dest < n else -1
        keep = self._keep(key, url)
        score = float(p @ self.scorer.cluster_scores())
        t = self.targets
        if self.target_shape is not None and t and p[t].any() \
                and not self.target_shape.matches(url):
            # a non-target page of the target's clusters: its hub part, (1 − α)·h, is left
            score -= float(p[t] @ self.scorer.authority_[t]) * self.scorer.alpha
        score *= keep / self.hops.cost(key)
        value = float(pair @ self._static)
        if (self.live.rows or self.live.patterns) and (live := self.live.share(key, full)):
            value += float(pair[-1]) * live                 # module docstring, live outliers
        if self._low is not None and self.live.patterns and (proven := self.live.proven(full)):
            # a low-value cluster whose harvested pages of this URL pattern proved content
            value += float(pair[:-1] @ (self._low * (proven - self._static[:-1]).clip(min=0)))
        if value < self.low_value - VALUE_TOLERANCE:
            return Decision(url, False, score, f"low-value:{predicted}", predicted)
        if value * keep < self.low_value - VALUE_TOLERANCE:
            return Decision(url, False, score, f"duplicate-views:{predicted}", predicted)
        kind = self._kind(cluster, anchor_path, holder, url, apath)
        if self.discovery.exhausted(kind) and (not self._shielded(predicted, url)
                                               or self._barren_view(kind, holder, url)):
            return Decision(url, False, score, f"exhausted:{predicted}", predicted)
        return Decision(url, True, score, f"source:{level}:{predicted}", predicted)

    def _brings(self, cluster: int) -> bool:
        """Whether pages of `cluster` (-1: outliers) are worth reaching for themselves: the
        target's, or, while `Worth` is in use, a cluster whose harvested pages still bring
        text of their own (`Worth.content`)."""
        return cluster in self.targets or self.worth is None or self.worth.content(cluster)

    def _shielded(self, cluster: int, url: str = "") -> bool:
        """Whether links predicted to lead to `cluster` are never judged exhausted: the
        protected cluster's (the target, or the cluster ranked first), crawling for UCC
        while its pages still bring text of their own. A cluster of listings can rank
        first by eq. 11 (a Q&A site's question lists: hub 1, dates and counts outside
        links); protected for good, its pages were fetched to the last sort and tag
        combination (tests/test_source_listing_space.py). Crawling for UCC, only links
        to `url`s of the content's own URL patterns (``content_patterns``, those of its
        sampled pages) are shielded: on the zoo's vBulletin-like forum (seed 1) the
        threads' print views, never sampled, one page holding every post of a thread,
        were predicted to lead to the threads' cluster and about 700 were fetched."""
        if cluster != self._protected or not self._brings(cluster):
            return False
        patterns = self.live.content_patterns
        return not url or not patterns or self._pattern(url) in patterns

    def _barren_view(self, kind: tuple[int, str], holder: str, link: str) -> bool:
        """Whether a link to another view of the page it is on (its own path, its query
        arguments and more: a tab, a sort) is of a kind that never led to anything in its
        last `exhaustion` settled pages (`Discovery.barren`): exhausted even when shielded.
        A real Askbot's profiles rank first, and their "favorites" tabs, classified as
        profiles but an empty list of followed questions, were fetched for every user.
        Links to other pages stay shielded: a blog's home page may show its posts whole,
        and the posts then look like old news. Where the query names the page
        (``doku.php?id=``), a link that changes an argument is to another page."""
        queries = same_path_queries(holder, link)
        return queries is not None and queries[0] <= queries[1] \
            and self.discovery.barren(kind)

    def _known_view(self, url: str, key: tuple[int, str] | None = None,
                    holder: str = "") -> Decision | None:
        """The skip of a link that is a known view of a fetched page (`SelfViews.view`; `key`:
        its (cluster, Apath) on the page `holder` being judged), None for any other link."""
        of = self.views.view(url, key, holder) if self.use_self_views else None
        if of is not None:
            return Decision(url, False, 0.0, f"self-view:{of}", of)
        of = self.dust.view(url) if self.use_dust else None
        return None if of is None else Decision(url, False, 0.0, f"dust:{of}", of)

    def _pattern(self, url: str) -> str:
        """The learned URL pattern of a link ("" without `url_patterns`), memoised: the
        same navigation links appear on every page."""
        if not self.use_url_patterns or self.scorer is None:
            return ""
        hit = self._patterns.get(url)
        if hit is None:
            if len(self._patterns) > 200_000:
                self._patterns.clear()
            hit = self._patterns[url] = self.scorer.table.pattern(url)
        return hit

    def _destination(self, nav_key: tuple[int, str, str]) -> int | None:
        """The cluster the links of a (cluster, Apath, URL pattern) lead to most (-1:
        outliers), None when the table has no destination for them at all."""
        p = self._distribution(nav_key)[0]
        if p.sum() <= 0:
            return None
        dest = int(p.argmax())
        return dest if dest < len(p) - 1 else -1

    def _distribution(self, nav_key: tuple[int, str, str]) -> tuple[np.ndarray, str]:
        """`NavigationTable.distribution`, cached (it never changes during a harvest)."""
        hit = self._nav.get(nav_key)
        if hit is None:
            assert self.scorer is not None
            if len(self._nav) > 200_000:
                self._nav.clear()
            hit = self._nav[nav_key] = self.scorer.table.distribution(*nav_key)
        return hit

    def _ending(self, patterns: UrlPatterns) -> Callable[[str], str] | None:
        """What the duplicate rates count a destination's path ending by
        (``duplicate_endings``, module docstring): None on a site without endings."""
        use = self.duplicate_endings and self.use_url_patterns and patterns.endings
        return patterns.ending if use else None

    def _keep(self, key: tuple[int, str], url: str = "") -> float:
        """The duplicate-view factor of a link to `url` at a (cluster, Apath) pair (1 when not
        in use; each signal's own reliability guard is in `DuplicateRates.keep`)."""
        return self.dups.keep(key, url, self._pattern(url)) if self.use_duplicates else 1.0

    def rescore(self, queued: Iterable[Queued]) -> Iterator[tuple[int, Decision]]:
        """Re-rank queued URLs with the current Score(C) (eq. 12); seeds stay first. While
        sampling, raise a widened sample's requests into the sample band (`_widen`)."""
        if self._widened:
            yield from self._raise_widened(queued)
            return
        for q in queued:
            if q.parent_url is None or not q.anchor_path:  # seeds, redirect targets, embeds
                yield q.id, Decision(q.url, True, SAMPLE_BAND + 2.0, "seed-or-redirect")
                continue
            decision = self._known_view(q.url) or \
                self._judge(q.url, self._cluster_of.get(q.parent_url, -1), q.anchor_path,
                            holder=q.parent_url)
            if not decision.follow:      # dropped: it brings nothing to the page that found it
                self.discovery.settle(q.url, None, productive=False)
            yield q.id, Decision(q.url, decision.follow, self._spread(q.url, decision.priority),
                                 decision.reason, decision.cluster)

    def _raise_widened(self, queued: Iterable[Queued]) -> Iterator[tuple[int, Decision]]:
        """The widened sample's requests among the queued URLs, in the sample band; one not
        in the queue is reported to the sampler as giving no page (not dead), so that the
        sample does not wait for it. (A resumed crawl's replay widens where the run did, and
        its widened requests may have been fetched by then: reporting them changes
        nothing.)"""
        widened, self._widened = self._widened, {}
        for q in queued:
            if (priority := widened.pop(q.url, None)) is not None:
                yield q.id, Decision(q.url, True, SAMPLE_BAND + priority, "sample")
        for url in widened:
            self.sampler.add_failure(url)

    @property
    def rescore_interval(self) -> int:
        return self.rescore_every

    @property
    def requeue_share(self) -> float:
        """Parameter ``requeue_share`` (module docstring, "Re-ranking one URL at a time")."""
        return self._requeue_share

    def rescore_due(self) -> bool:
        """Whether a cluster's worth factor (`Worth.factors`) has fallen below half, or risen
        above twice, what it was the last time this said so (parameter ``worth_rescore``;
        crawling for UCC, the only mode whose Score(C) reads it): the queue is then
        re-ranked at once, not at the next `rescore_every` requests (module docstring,
        "Worth"). The scorer's mode, not the class's: source-target whose example fell in
        no cluster crawls for UCC, and its Score(C) reads worth too. Also, in either mode,
        whether more than half of the last `WASTE_WINDOW` harvest requests were wasted
        (parameter ``waste_rescore``; `observe_fetch`), the window then starting again."""
        if self._widened:
            return True                     # a widened sample's requests (`_widen`)
        if self.waste_rescore and len(self._recent) == WASTE_WINDOW \
                and 2 * sum(self._recent) > WASTE_WINDOW:
            self._recent.clear()            # the window starts again with the new ranking
            return True                     # the ranking is stale (module docstring, "Worth")
        if self.worth is None or not self.worth_rescore or self.scorer is None \
                or self.scorer.mode != "ucc":
            return False                      # crawling for a target, Score(C) ignores it
        import numpy as np

        now, then = self.worth.factors()[:-1], self._ranked_worth   # outliers have no score
        if then is None or now.shape != then.shape:
            self._ranked_worth = now
            return False
        if bool(np.any((now < then / WORTH_MOVE) | (now > then * WORTH_MOVE))):
            self._ranked_worth = now
            return True
        return False

    # --- storage and the learned sitemap --------------------------------------------------
    def save(self, folder: Path) -> None:
        if self.model is not None:
            self.model.save(folder)

    def load(self, folder: Path) -> bool:
        from archiver.learning.model import MANIFEST, SourceModel

        if not (Path(folder) / MANIFEST).exists():
            return False
        model = SourceModel.load(folder)
        saved = (model.info.get("mode"), model.info.get("target_example"))
        if saved != (self.mode, self.target_example):
            # Relearning here cannot work: the job's seen-set holds every sampled URL, so
            # the sampler would get nothing and the harvest would run without a model.
            from archiver.errors import JobError

            raise JobError(
                f"{folder}: this job's model was learned for mode {saved[0]!r} with "
                f"target_example {saved[1]!r}, but the profile asks for mode {self.mode!r} "
                f"with target_example {self.target_example!r}; crawl into a new --out "
                "folder to learn for the new setting (or restore the profile's old value "
                "to resume this job)")
        self._use(model)
        logger.info("SOUrCe: model loaded from %s (%d clusters)", folder, model.n_clusters_)
        return True

    def clusters(self) -> list[ClusterInfo]:
        """The learned clusters with Score(C), HITS and examples, for the admin's sitemap."""
        if self.model is None or self.scorer is None:
            return []
        rows = _cluster_rows(self.model, self.scorer, self.targets)
        if self.target_shape is not None:
            for row in rows:
                if row.id == self.target:
                    row.info["target_url_shape"] = str(self.target_shape)
        return rows

    def edges(self) -> list[tuple[int, int, float]]:
        """A of eq. 6: (source cluster, destination cluster, weight) with weight > 0."""
        if self.scorer is None:
            return []
        A = self.scorer.table.adjacency_
        return [(int(i), int(j), float(A[i, j])) for i, j in zip(*A.nonzero(), strict=True)]


def is_machine_readable(content_type: str) -> bool:
    """RSS, Atom, RDF or any XML media type (a feed, a sitemap), any JSON type (API output,
    JSON Feed), JavaScript or CSS: not a page, nor a document a reader opens (an image, a
    PDF). Measured on a real MediaWiki: once its pages were archived, source-ucc spent its
    requests on the API documentation's example queries, JSON answers that never counted
    against the links leading to them."""
    return content_type in MACHINE_TYPES or content_type.endswith(("+xml", "/xml", "+json"))


def _cluster_rows(model: SourceModel, scorer: LinkScorer, targets: Sequence[int]
                  ) -> list[ClusterInfo]:
    """One row per cluster (and -1 for outliers): size, Score(C), and the admin's info;
    `targets`: the clusters of the target's page type (``target_family``)."""
    import numpy as np

    labels = model.labels_
    X = model.classifier_.X_
    names = model.vectorizer_.feature_names_
    scores = scorer.cluster_scores()
    rows = []
    for c in range(-1, model.n_clusters_):
        members = np.flatnonzero(labels == c)
        if c < 0 and members.size == 0:
            continue
        examples = [model.urls_[i] for i in members[:5]]
        weights = np.asarray(X[members].mean(axis=0)).ravel() if members.size else np.zeros(0)
        top = [names[i] for i in np.argsort(-weights)[:5] if weights[i] > 0]
        info: dict[str, Any] = {"example_urls": examples, "top_xpaths": top}
        if c >= 0:
            info.update(hub=float(scorer.hub_[c]), authority=float(scorer.authority_[c]),
                        dsim=float(scorer.dsim_[c]), target=c in targets,
                        # the cluster's content share, and the factor Score(C) used (1 when
                        # the extension is off or crawling for a target)
                        content=float(model.content_[c]),
                        content_factor=float(scorer.content_[c]))
            if scorer.types_ is not None:       # the clusters scored with it as one type
                info["page_type"] = [int(k) for k in
                                     np.flatnonzero(scorer.types_ == scorer.types_[c])]
        label = "outliers" if c < 0 else _url_pattern(examples[0]) if examples else f"c{c}"
        rows.append(ClusterInfo(c, int(members.size), float(scores[c]) if c >= 0 else 0.0,
                                label + (" (target)" if c in targets else ""), info))
    return rows


def _url_pattern(url: str) -> str:
    """A cluster label from one member URL: its path and query with digit runs as N."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    return re.sub(r"\d+", "N", parts.path + ("?" + parts.query if parts.query else ""))


class SourceUCCStrategy(SourceStrategy):
    """SOUrCe crawling-for-UCC: Score(C) = Info · DSim · Balance, α = 0.5 (§4.4.1, §5.3)."""

    name = "source-ucc"
    mode = "ucc"


class SourceTargetStrategy(SourceStrategy):
    """SOUrCe crawling-for-target: the example page's cluster has authority 1, Score(C) =
    Info(C) with α = 0.8 (§4.4.2, §5.4). The example URL is fetched as a seed while learning."""

    name = "source-target"
    mode = "target"

    def extra_seeds(self) -> list[str]:
        return [self.profile.strategy.target_example] if self.profile.strategy.target_example \
            else []


def _same_page_key(url: str) -> str:
    """What must match for a rel=canonical to name the page itself: the canonicalized URL
    without scheme, a leading ``www.`` and a trailing slash (sites behind a proxy often
    declare https while served on http, or the www host while served without it)."""
    from urllib.parse import urlsplit

    from archiver.urls import canonicalize

    parts = urlsplit(canonicalize(url))
    host = (parts.hostname or "").removeprefix("www.")
    port = f":{parts.port}" if parts.port and parts.port not in (80, 443) else ""
    return f"{host}{port}{parts.path.rstrip('/')}?{parts.query}"
