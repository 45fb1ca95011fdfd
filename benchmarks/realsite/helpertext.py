"""Text the helper scripts of the Python sites share (`benchmarks.realsite.flaskbb`,
`benchmarks.realsite.askbot`, `benchmarks.realsite.spirit`): each site's HELPER is its own
part (`setup`, `content`, `serve`, ...) joined with these, and runs in the site's own venv
(it cannot import the project).

SERVE: `serve_read_only(app, port, threads, ident)`, the WSGI app under waitress (wsgiref
without it) answering 405 to anything but GET and HEAD. DJANGO: `fast_sqlite()` (no fsync
while building), `checked(form)` (a form that validated, or the error) and `install()` (the
schema: Django's migrate after the site's `setup()`).
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
