"""A real WordPress (Debian's package, 6.1) on 127.0.0.1 with generated content.

The blog counterpart of `benchmarks.realsite.mediawiki`: WordPress as it ships, with its
default theme of the time (Twenty Twenty-One), its default sidebar widgets (search, recent
posts, recent comments, archives, categories), threaded comments with their
``?replytocom=`` reply links, date, category, tag and author archives, feeds for every
archive and post, the REST API's ``<link>``s, the login page, ... everything a crawler must
learn to skip to spend its requests on posts.

    build(folder)       fresh blog in folder: its own MariaDB data directory (a server of
                        its own, on a Unix socket, no TCP), a copy of WordPress with its own
                        wp-config.php, content from a generator (deterministic for n_posts, seed)
    serve(folder)       the database server and `php -S` on a free port; yields the home URL
    page_type(url)      ground truth from the URL alone
    entities(folder)    URLs of every published post and page (the UCC)

Needs the Debian packages `wordpress wordpress-theme-twentytwentyone mariadb-server php-mysql`
(installed with --no-install-recommends). The code is copied from /usr/share/wordpress, so
Debian's host-based configuration in /etc/wordpress is not used. The server answers GET and
HEAD only (a router refuses other methods with 405; no comment can be posted), WP-Cron is
off and outside HTTP is blocked, so crawling cannot change the blog.

    python -m benchmarks.realsite.wordpress /tmp/wpbench    # build, serve, smoke test
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import random
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import requests

from benchmarks.realsite.php import (
    php_server,
    print_link_types,
    reuse_or_clear,
    run_php,
    same_host_links,
    smoke_build,
    smoke_fetch,
)

PACKAGES = "wordpress wordpress-theme-twentytwentyone mariadb-server php-mysql php-cli"
CODE = Path("/usr/share/wordpress")
THEME = "twentytwentyone"
SITENAME = "Realblog"
VERSION = 2  # of the generator; part of the reuse marker
UCC_TYPES = {"post", "page"}
TARGET_TYPE = "post"  # source-target's example is a post
DESCRIPTION = ("Debian WordPress 6.1 (theme Twenty Twenty-One), {size} generated posts with "
               "comments (`benchmarks/realsite/wordpress.py`)")
# Requests by page type, in the order the bench reports them
TYPE_ORDER = ("post", "page", "home", "date", "category", "tag", "author", "reply", "feed",
              "search", "login", "admin", "api", "attachment", "static", "other")
# Page types the theme renders with one template, which no structure can tell apart (§3.1: a
# layout template defines a page type); clustering is also scored "by template" with them.
# Twenty Twenty-One: index.php (home) and archive.php (date, category, tag, author) run the
# same loop of posts, archive.php adding a title header; a ?replytocom= view is single.php.
SAME_TEMPLATE = {"home": "listing", "date": "listing", "category": "listing",
                 "tag": "listing", "author": "listing", "reply": "post"}
PERMALINKS = "/%year%/%monthnum%/%day%/%postname%/"
STATIC_EXT = (".css", ".js", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico",
              ".woff", ".woff2", ".ttf", ".xml", ".txt")

CONFIG = """<?php  // written by benchmarks/realsite/wordpress.py
define( 'DB_NAME', 'wordpress' );
define( 'DB_USER', 'root' );
define( 'DB_PASSWORD', '' );
define( 'DB_HOST', 'localhost:' . __DIR__ . '/../mysql.sock' );
define( 'DB_CHARSET', 'utf8mb4' );
define( 'DB_COLLATE', '' );
$table_prefix = 'wp_';
foreach ( [ 'AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY', 'NONCE_KEY', 'AUTH_SALT',
            'SECURE_AUTH_SALT', 'LOGGED_IN_SALT', 'NONCE_SALT' ] as $k ) {
  define( $k, 'realsite-bench-' . $k );  // a throwaway local blog
}
$server = getenv( 'WP_SERVER' ) ?: 'http://127.0.0.1';
define( 'WP_HOME', $server );
define( 'WP_SITEURL', $server );
define( 'DISABLE_WP_CRON', true );
define( 'AUTOMATIC_UPDATER_DISABLED', true );
define( 'WP_HTTP_BLOCK_EXTERNAL', true );
define( 'WP_DEBUG', false );
if ( ! defined( 'ABSPATH' ) ) { define( 'ABSPATH', __DIR__ . '/' ); }
require_once ABSPATH . 'wp-settings.php';
"""
ROUTER = """<?php  // read-only front with pretty permalinks: only GET and HEAD reach WordPress
if ( ! in_array( $_SERVER['REQUEST_METHOD'], [ 'GET', 'HEAD' ], true ) ) {
  http_response_code( 405 ); header( 'Allow: GET, HEAD' ); echo "read-only blog\\n"; return true;
}
$path = urldecode( parse_url( $_SERVER['REQUEST_URI'], PHP_URL_PATH ) ?? '/' );
$file = $_SERVER['DOCUMENT_ROOT'] . $path;
if ( $path !== '/' && ( is_file( $file ) || is_file( rtrim( $file, '/' ) . '/index.php' ) ) ) {
  return false;  // a file or a directory with an index: served as is
}
$_SERVER['SCRIPT_NAME'] = '/index.php';
$_SERVER['SCRIPT_FILENAME'] = $_SERVER['DOCUMENT_ROOT'] . '/index.php';
$_SERVER['PHP_SELF'] = '/index.php';
require $_SERVER['DOCUMENT_ROOT'] . '/index.php';
"""
HELPER = """<?php  // "install" then "content" (JSON on stdin), or "entities": a JSON line per page
$mode = $argv[1];
$_SERVER['HTTP_HOST'] = '127.0.0.1';
$_SERVER['REQUEST_URI'] = '/';
if ( $mode === 'install' ) { define( 'WP_INSTALLING', true ); }
require __DIR__ . '/wp/wp-load.php';
if ( $mode === 'install' ) {
  require_once ABSPATH . 'wp-admin/includes/upgrade.php';
  $r = wp_install( $argv[2], 'admin', 'admin@example.org', true, '', 'Realsite-admin-1' );
  if ( is_wp_error( $r ) ) { fwrite( STDERR, $r->get_error_message() ); exit( 1 ); }
  exit( 0 );
}
if ( $mode === 'content' ) {
  $spec = json_decode( stream_get_contents( STDIN ), true );
  foreach ( $spec['options'] as $k => $v ) { update_option( $k, $v ); }
  switch_theme( $spec['theme'] );
  $users = [];
  foreach ( $spec['users'] as $u ) {
    $id = wp_insert_user( [ 'user_login' => $u['login'], 'user_pass' => 'Realsite-user-1',
      'display_name' => $u['name'], 'nickname' => $u['name'], 'description' => $u['bio'],
      'user_url' => $u['url'], 'role' => $u['role'],
      'user_email' => $u['login'] . '@example.org' ] );
    if ( is_wp_error( $id ) ) { fwrite( STDERR, $id->get_error_message() ); exit( 1 ); }
    $users[ $u['login'] ] = $id;
  }
  $cats = [];
  foreach ( $spec['categories'] as $c ) {
    $t = wp_insert_term( $c['name'], 'category', [ 'description' => $c['description'] ] );
    $cats[ $c['name'] ] = $t['term_id'];
  }
  foreach ( get_pages( [ 'post_status' => 'publish,draft' ] ) as $page ) {  // "Sample Page"
    wp_delete_post( $page->ID, true );
  }
  $menu = wp_create_nav_menu( 'Primary' );  // the pages are reached through the main menu
  foreach ( $spec['pages'] as $p ) {
    $id = wp_insert_post( [ 'post_type' => 'page', 'post_status' => 'publish',
      'post_title' => $p['title'],
      'post_content' => $p['content'], 'post_author' => $users[ $p['author'] ] ?? 1,
      'post_date' => $p['date'], 'menu_order' => $p['order'] ] );
    wp_update_nav_menu_item( $menu, 0, [ 'menu-item-object-id' => $id, 'menu-item-object' => 'page',
      'menu-item-type' => 'post_type', 'menu-item-status' => 'publish' ] );
  }
  set_theme_mod( 'nav_menu_locations', [ 'primary' => $menu, 'footer' => $menu ] );
  foreach ( $spec['posts'] as $p ) {
    $id = wp_insert_post( [ 'post_status' => 'publish', 'post_title' => $p['title'],
      'post_content' => $p['content'], 'post_excerpt' => '',
      'post_author' => $users[ $p['author'] ], 'post_date' => $p['date'],
      'post_category' => array_map( fn( $c ) => $cats[ $c ], $p['categories'] ),
      'tags_input' => $p['tags'] ], true );
    if ( is_wp_error( $id ) ) { fwrite( STDERR, $id->get_error_message() ); exit( 1 ); }
    $ids = [];
    foreach ( $p['comments'] as $c ) {
      $member = $c['user'] !== '' ? get_user_by( 'id', $users[ $c['user'] ] ) : null;
      $ids[] = wp_insert_comment( [ 'comment_post_ID' => $id, 'comment_content' => $c['text'],
        'comment_author' => $member ? $member->display_name : $c['name'],
        'comment_author_email' => $member ? $member->user_email : '',
        'comment_author_url' => $member ? $member->user_url : $c['url'],
        'user_id' => $member ? $member->ID : 0, 'comment_date' => $c['date'],
        'comment_date_gmt' => $c['date'], 'comment_approved' => 1,
        'comment_parent' => $c['parent'] >= 0 ? $ids[ $c['parent'] ] : 0 ] );
    }
  }
  flush_rewrite_rules( false );
  exit( 0 );
}
$q = new WP_Query( [ 'post_type' => [ 'post', 'page' ], 'post_status' => 'publish',
  'posts_per_page' => -1, 'orderby' => 'ID', 'order' => 'ASC' ] );
foreach ( $q->posts as $p ) {
  echo json_encode( [ 'id' => $p->ID, 'type' => $p->post_type,
    'path' => wp_make_link_relative( get_permalink( $p ) ) ] ) . "\\n";
}
$authors = get_users( [ 'has_published_posts' => [ 'post' ] ] );
foreach ( $authors as $a ) {
  echo json_encode( [ 'id' => $a->ID, 'type' => 'author',
    'path' => wp_make_link_relative( get_author_posts_url( $a->ID ) ) ] ) . "\\n";
}
"""

_WORDS = """the of and a to in is was for on as with by that from at which it an were are this
be has had after first new other their also between during about into over two most we our
garden bread recipe trail camera lens bike repair season soil seeds oven dough film light
route weather hut ridge valley river coffee roast grinder notes week weekend morning evening
winter spring summer autumn tools workshop bench wood joint glue paint frame wheel chain
tyre brake map compass stove tent rain snow photos prints paper ink shelf kitchen table"""
WORDS = _WORDS.split()
TOPICS = {"Gardening": "Beds, seeds and soil.", "Baking": "Bread and the oven.",
          "Hiking": "Trails, huts and ridges.", "Photography": "Cameras, film and prints.",
          "Cycling": "Bikes, routes and repairs.", "Coffee": "Beans, roasts and grinders.",
          "Woodworking": "Joints, tools and the bench.", "Travel": "Maps and weekends away.",
          "Notes": "Short things.", "Reviews": "Books, tools and gear."}
FIRST = ["Anna", "Ben", "Carla", "Dev", "Elif", "Femi", "Greta", "Hugo", "Ines", "Jonas",
         "Kira", "Luca", "Maya", "Nils", "Omar", "Pia", "Rosa", "Sam", "Tara", "Ugo"]
LAST = ["Berg", "Costa", "Dahl", "Eriksen", "Fischer", "Garcia", "Holm", "Ivanova", "Jensen",
        "Kowalski", "Lund", "Moreau", "Novak", "Okafor", "Petrov", "Quist", "Rossi", "Silva"]


def _sentence(rng: random.Random, n: tuple[int, int] = (8, 18)) -> str:
    text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(*n)))
    return text[0].upper() + text[1:] + "."


def _paragraph(rng: random.Random) -> str:
    return " ".join(_sentence(rng) for _ in range(rng.randint(3, 6)))


def _stamp(when: dt.datetime) -> str:
    return when.strftime("%Y-%m-%d %H:%M:%S")


def generate(n_posts: int, seed: int, now: dt.datetime) -> dict[str, Any]:
    """The blog's users, categories, static pages and posts (with comments) for these
    parameters, as the helper's "content" mode reads them."""
    rng = random.Random(seed)
    names = rng.sample([f"{f} {last}" for f in FIRST for last in LAST], 30)
    authors = names[:8]     # write posts; the others only comment, as members
    users = [{"login": n.lower().replace(" ", ""), "name": n, "role": "author" if i < 8
              else "subscriber", "url": "" if rng.random() < 0.5 else
              f"https://{n.split()[0].lower()}.example.net/",
              "bio": "" if i >= 8 or rng.random() < 0.25 else _paragraph(rng)}
             for i, n in enumerate(names)]
    logins = {u["name"]: u["login"] for u in users}
    categories = [{"name": c, "description": d} for c, d in TOPICS.items()]
    tags = sorted({f"{rng.choice(WORDS[40:])} {rng.choice(WORDS[40:])}" for _ in range(60)})
    opened = _stamp(now - dt.timedelta(days=800))
    pages = [{"title": t, "author": logins[authors[0]], "order": i, "date": opened,
              "content": "\n\n".join(_paragraph(rng) for _ in range(rng.randint(2, 4)))}
             for i, t in enumerate(["About", "Contact", "Archive policy", "Guest posts",
                                    "Gear list"])]
    posts, titles = [], set()
    for i in range(n_posts):
        when = now - dt.timedelta(days=730 * (n_posts - i) / n_posts,
                                  seconds=rng.randint(0, 80_000))
        title = " ".join(rng.choice(WORDS[40:]) for _ in range(rng.randint(2, 5))).capitalize()
        while title in titles:
            title += f" {rng.choice(WORDS[40:])}"
        titles.add(title)
        body = [f"<!-- wp:paragraph -->\n<p>{_paragraph(rng)}</p>\n<!-- /wp:paragraph -->"
                for _ in range(rng.randint(2, 7))]
        comments: list[dict[str, Any]] = []
        for j in range(rng.choice([0, 0, 1, 2, 3, 4, 6, 9, 14])):
            member = rng.random() < 0.4
            guest = f"{rng.choice(FIRST)} {rng.choice(LAST)[0]}."
            comments.append({
                "text": " ".join(_sentence(rng) for _ in range(rng.randint(1, 3))),
                "user": logins[rng.choice(names)] if member else "", "name": guest,
                "url": "" if rng.random() < 0.7 else f"https://{guest.split()[0].lower()}.example.com/",
                "date": _stamp(when + dt.timedelta(hours=3 + 5 * j)),
                "parent": rng.randrange(j) if j and rng.random() < 0.35 else -1})
        posts.append({"title": title, "content": "\n\n".join(body),
                      "author": logins[rng.choice(authors)], "date": _stamp(when),
                      "categories": rng.sample(list(TOPICS), rng.choice([1, 1, 1, 2])),
                      "tags": rng.sample(tags, rng.randint(0, 4)), "comments": comments})
    # WordPress 6.1's defaults, except pretty permalinks (what nearly every blog turns on)
    options = {"permalink_structure": PERMALINKS, "blogdescription": "Notes from the bench",
               "comment_registration": 0, "default_comment_status": "open"}
    return {"theme": THEME, "options": options, "users": users, "categories": categories,
            "pages": pages, "posts": posts}


def _php(folder: Path, *args: str, stdin: str | None = None) -> str:
    return run_php(folder / "helper.php", *args, cwd=folder, stdin=stdin)


def _db_user() -> str:
    """The system user MariaDB runs as: this one (root must be named, mariadbd refuses
    to run as root otherwise)."""
    return "root" if os.geteuid() == 0 else os.environ.get("USER", "nobody")


@contextlib.contextmanager
def database(folder: Path) -> Iterator[None]:
    """Run the blog's own MariaDB server (Unix socket in folder, no TCP) while inside."""
    sock = folder / "mysql.sock"
    sock.unlink(missing_ok=True)   # left by a killed run, it would pass for the new server's
    log = open(folder / "mysql.log", "ab")  # noqa: SIM115 - closed below
    proc = subprocess.Popen(
        ["mariadbd", "--no-defaults", f"--datadir={folder / 'db'}", f"--socket={sock}",
         "--skip-networking", f"--user={_db_user()}", f"--pid-file={folder / 'mysql.pid'}",
         f"--log-error={folder / 'mysql.err'}", "--innodb-buffer-pool-size=64M"],
        stdout=log, stderr=log, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while not sock.exists():
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"mariadbd did not come up; see {folder / 'mysql.err'}")
            time.sleep(0.1)
        yield
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def available() -> str | None:
    """None if Debian's packages for the blog are installed, else how to install them."""
    if CODE.is_dir() and shutil.which("php") is not None:
        return None
    return f"needs Debian's packages: apt-get install --no-install-recommends {PACKAGES}"


def build(folder: Path, n_posts: int = 300, seed: int = 0) -> Path:
    """Build a fresh blog in folder, or reuse the one there if built with these parameters.
    Returns folder."""
    folder = folder.resolve()
    marker = folder / "build.json"
    params = {"n_posts": n_posts, "seed": seed, "version": VERSION}
    if reuse_or_clear(folder, params, "helper.php", "blog"):
        return folder
    started = time.time()
    shutil.copytree(CODE, folder / "wp", symlinks=False)   # Debian symlinks some libraries
    (folder / "wp" / "wp-config.php").write_text(CONFIG)
    (folder / "router.php").write_text(ROUTER)
    (folder / "helper.php").write_text(HELPER)
    done = subprocess.run(["mariadb-install-db", "--no-defaults", f"--datadir={folder / 'db'}",
                           f"--user={_db_user()}", "--auth-root-authentication-method=normal",
                           "--skip-test-db"], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"mariadb-install-db failed:\n{done.stdout}{done.stderr}")
    now = dt.datetime.now(dt.UTC).replace(microsecond=0, tzinfo=None)
    with database(folder):
        subprocess.run(["mariadb", "--no-defaults", "-S", str(folder / "mysql.sock"), "-uroot",
                        "-e", "CREATE DATABASE wordpress CHARACTER SET utf8mb4"], check=True)
        _php(folder, "install", SITENAME)
        _php(folder, "content", stdin=json.dumps(generate(n_posts, seed, now)))
        (folder / "entities.jsonl").write_text(_php(folder, "entities"))
    marker.write_text(json.dumps({"params": params, "built_at": time.time(),
                                  "build_seconds": round(time.time() - started, 1)}))
    return folder


@contextlib.contextmanager
def serve(folder: Path, workers: int = 2) -> Iterator[str]:
    """Serve the blog built in folder (its database server, then `php -S` on a free port);
    yields the home URL."""
    folder = folder.resolve()
    with database(folder), php_server(folder / "wp", folder / "router.php",
                                      folder / "server.log", "/",
                                      lambda server: {**os.environ, "WP_SERVER": server},
                                      workers) as seed:
        yield seed


def page_type(url: str) -> str:
    """Ground truth from the URL alone (permalinks /%year%/%monthnum%/%day%/%postname%/),
    decided in this order:
    - another host than 127.0.0.1 or localhost: "other"
    - /wp-login.php: "login"; /wp-admin/...: "admin"; /wp-json/... or ?rest_route=: "api";
      /wp-content/, /wp-includes/ or a static file: "static"; any other .php: "other"
    - a path ending in /feed/, /feed/rss2/, /feed/atom/, ... or ?feed=: "feed"
    - ?s= (search results): "search"; ?replytocom=: "reply" (a post with a reply form)
    - / and /page/N/: "home"; /YYYY/MM/DD/slug/: "post" (/YYYY/MM/DD/slug/N/ for a paged post,
      /YYYY/MM/DD/slug/attachment/...: "attachment"); /YYYY/, /YYYY/MM/, /YYYY/MM/DD/ and their
      /page/N/: "date"; /category/..., /tag/..., /author/...: their own types
    - ?p=, ?page_id=, ?cat=, ?author=, ?m= (plain links): the type they stand for
    - any other single-segment path: "page" (a static page; a missing one is a 404, which no
      metric counts); deeper paths: "other"."""
    parts = urlsplit(url)
    if parts.hostname not in (None, "127.0.0.1", "localhost"):
        return "other"
    path = parts.path or "/"
    query = {k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
    if path.startswith("/wp-login.php"):
        return "login"
    if path.startswith("/wp-admin"):
        return "admin"
    if path.startswith("/wp-json") or "rest_route" in query:
        return "api"
    if path.startswith(("/wp-content/", "/wp-includes/")) or path.lower().endswith(STATIC_EXT):
        return "static"
    if path.endswith(".php") and path != "/index.php":
        return "other"
    segs = [s for s in path.split("/") if s and s != "index.php"]
    if "feed" in segs or "feed" in query:
        return "feed"
    if "s" in query:
        return "search"
    if "replytocom" in query:
        return "reply"
    if len(segs) >= 2 and segs[-2] == "page" and segs[-1].isdigit():
        segs = segs[:-2]
    if not segs:
        for key, kind in (("p", "post"), ("page_id", "page"), ("cat", "category"),
                          ("author", "author"), ("m", "date"), ("tag", "tag")):
            if key in query:
                return kind
        return "home"
    if segs[0] in ("category", "tag", "author"):
        return segs[0]
    digits = [s.isdigit() for s in segs[:3]]
    if digits[0] and len(segs[0]) == 4:
        if len(segs) <= 3 and all(digits):
            return "date"
        if len(segs) >= 4 and all(digits):
            if len(segs) == 4 or (len(segs) == 5 and segs[4].isdigit()):
                return "post"
            return "attachment" if "attachment" in segs else "other"
        return "other"
    return "page" if len(segs) == 1 else "other"


def entity_of(url: str) -> str | None:
    """The post or page a view URL shows (its path), None for anything else; a paged post
    (/slug/2/) is a view of the post."""
    kind = page_type(url)
    if kind not in UCC_TYPES or not urlsplit(url).path.strip("/"):
        return None
    segs = [s for s in urlsplit(url).path.split("/") if s]
    return "/" + "/".join(segs[:4] if kind == "post" else segs) + "/"


def entities(folder: Path, server: str = "") -> set[str]:
    """URLs of every published post and page (give the server, e.g. "http://127.0.0.1:8123",
    to get absolute URLs)."""
    rows = [json.loads(line) for line in (folder / "entities.jsonl").read_text().splitlines()]
    return {server.rstrip("/") + r["path"] for r in rows if r["type"] in UCC_TYPES}


def main(argv: list[str] | None = None) -> int:
    folder = smoke_build(__doc__, "posts", 300, build, argv)
    assert folder is not None
    with serve(folder) as seed:
        server = seed.rstrip("/")
        ucc = sorted(entities(folder, server))
        print(f"seed: {seed}\nentities: {len(ucc)} {Counter(page_type(u) for u in ucc)}")
        home_links = same_host_links(requests.get(seed, timeout=30).content, seed)
        post = min(u for u in home_links if page_type(u) == "post")
        post_links = same_host_links(requests.get(post, timeout=30).content, post)
        first = {page_type(u): u for u in sorted(home_links | post_links, reverse=True)}
        smoke_fetch([seed, post, *first.values(), f"{server}/wp-login.php"], page_type,
                    follow_redirects=False)
        print_link_types([("home", home_links), (post, post_links)], page_type)
    return 0


if __name__ == "__main__":
    sys.exit(main())
