"""Text the helper scripts of the Python sites share (`benchmarks.realsite.flaskbb`,
`benchmarks.realsite.askbot`, `benchmarks.realsite.spirit`): each site's HELPER is its own
part (`setup`, `content`, `serve`, ...) joined with these, and runs in the site's own venv
(it cannot import the project).

SERVE: `serve_read_only(app, port, threads, ident)`, the WSGI app under waitress (wsgiref
without it) answering 405 to anything but GET and HEAD. DJANGO: `fast_sqlite()` (no fsync
while building), `checked(form)` (a form that validated, or the error) and `install()` (the
schema: Django's migrate after the site's `setup()`).
JPEG: `jpeg(spec)`, a photo drawn by Pillow from the numbers of
`benchmarks.realsite.photologue.image_spec` (the media sites': photologue's and MediaGoblin's,
whose helper runs on Python 2.7, so this text is Python 2 too).
MAIN: the command line `build_helper_site` and `serve_helper` use (install, content, serve
PORT THREADS).
"""

DJANGO = '''

def fast_sqlite():
    """No fsync while building: the build is redone from scratch if it fails."""
    from django.db import connection
    from django.db.backends.signals import connection_created

    def pragmas(sender, connection, **kwargs):
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA synchronous=OFF")
            cursor.execute("PRAGMA journal_mode=MEMORY")

    connection_created.connect(pragmas)
    connection.close()


def checked(form):
    """A Django form that validated (the content goes in through the site's own forms)."""
    if not form.is_valid():
        raise ValueError(f"{type(form).__name__}: {form.errors.as_json()}")
    return form


def install():
    setup()
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)

'''

SERVE = '''

def serve_read_only(app, port, threads, ident):
    def read_only(environ, start_response):
        if environ["REQUEST_METHOD"] in ("GET", "HEAD"):
            return app(environ, start_response)
        start_response("405 Method Not Allowed", [("Allow", "GET, HEAD"),
                                                  ("Content-Type", "text/plain")])
        return [b"read-only site\\n"]

    try:
        import waitress
    except ImportError:  # the standard library's server will do
        from wsgiref.simple_server import make_server

        make_server("127.0.0.1", port, read_only).serve_forever()
    else:
        waitress.serve(read_only, host="127.0.0.1", port=port, threads=threads,
                       ident=ident, _quiet=True)
'''

MAIN = '''

if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "install":
        install()
    elif mode == "content":
        content(json.load(sys.stdin))
    else:
        serve(int(sys.argv[2]), int(sys.argv[3]))
'''

JPEG = '''def jpeg(spec):
    """A photo: bands of colour and a few shapes, drawn from the spec's numbers."""
    from PIL import Image, ImageDraw

    rng = random.Random(spec["seed"])
    w, h = spec["size"]
    im = Image.new("RGB", (w, h), tuple(spec["sky"]))
    draw = ImageDraw.Draw(im)
    draw.rectangle([0, int(h * spec["horizon"]), w, h], fill=tuple(spec["ground"]))
    for _ in range(spec["shapes"]):
        x, y = rng.randrange(w), rng.randrange(h)
        r = rng.randint(8, 60)
        colour = tuple(rng.randrange(256) for _ in range(3))
        draw.ellipse([x - r, y - r, x + r, y + r], fill=colour)
    out = io.BytesIO()
    im.save(out, "JPEG", quality=80)
    return out.getvalue()


'''
